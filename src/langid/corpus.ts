/**
 * Reading lingua's test-data layout (`<dir>/<iso639-1>/{sentences,word-pairs,single-words}.txt`) and the
 * fixed train/held-out split used by `bench/train-langid.ts` and `bench/eval-langid.ts`.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { findLanguageEntry } from './languages.ts'

/** The three sample kinds of the data, in report order. */
export const SAMPLE_KINDS = ['sentences', 'word-pairs', 'single-words'] as const
/** One sample kind. */
export type SampleKind = (typeof SAMPLE_KINDS)[number]

/** Lines of each kind for one language. */
export type LanguageSamples = Record<SampleKind, string[]>

/** Every `HELD_OUT_EVERY`-th line (1-based: lines 5, 10, ...) is held out for evaluation. */
export const HELD_OUT_EVERY = 5

/** Is the line at 0-based index `i` held out? */
export const isHeldOut = (i: number): boolean => i % HELD_OUT_EVERY === HELD_OUT_EVERY - 1

/** Find the langid folder: `dir` itself or `dir/langid`. */
export function findLangidDir(dir: string): string | undefined {
  for (const d of [join(dir, 'langid'), dir]) if (existsSync(join(d, 'en', 'sentences.txt'))) return d
  return undefined
}

/** Read every known language folder of `dir` (sorted by code); blank lines dropped, lines trimmed. */
export function readLangidData(dir: string): Map<string, LanguageSamples> {
  const out = new Map<string, LanguageSamples>()
  for (const code of readdirSync(dir).sort()) {
    if (findLanguageEntry(code)?.code !== code) continue
    const read = (kind: SampleKind): string[] => {
      const p = join(dir, code, `${kind}.txt`)
      if (!existsSync(p)) return []
      return readFileSync(p, 'utf8').split('\n').map((s) => s.trim()).filter((s) => s !== '')
    }
    out.set(code, { sentences: read('sentences'), 'word-pairs': read('word-pairs'), 'single-words': read('single-words') })
  }
  return out
}

/** All lines of every kind per language, or only the training part (`'train'`: every line that {@link isHeldOut} rejects). */
export function splitSamples(data: ReadonlyMap<string, LanguageSamples>, part: 'all' | 'train'): Map<string, string[]> {
  const out = new Map<string, string[]>()
  for (const [code, s] of data) {
    out.set(code, SAMPLE_KINDS.flatMap((k) => s[k].filter((_, i) => part === 'all' || !isHeldOut(i))))
  }
  return out
}
