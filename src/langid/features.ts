/**
 * Text -> features for language identification: script counts for the prefilter, and character n-grams
 * (orders 1..maxOrder over each word padded with `_`) plus whole-word features (`#word`). Training and
 * identification share these functions, so a model always sees the features it was trained on.
 */
import type { ScriptGroup } from './languages.ts'

/** Marks a word boundary inside n-grams (never a letter, so it cannot collide with text). */
export const BOUNDARY = '_'
/** Prefix of whole-word features. */
export const WORD_PREFIX = '#'
/** Words longer than this (in code points) give no whole-word feature (unsegmented CJK or Thai runs). */
export const MAX_WORD_FEATURE_LENGTH = 24
/** Only the first this many words of a text are read: enough evidence, bounded time on long documents. */
export const MAX_WORDS = 2000

const WORD = /[\p{L}\p{M}]+/gu
const LETTER = /\p{L}/u

const SCRIPT_TESTS: ReadonlyArray<readonly [ScriptGroup | 'kana', RegExp]> = [
  ['latin', /\p{Script=Latin}/u],
  ['cyrillic', /\p{Script=Cyrillic}/u],
  ['greek', /\p{Script=Greek}/u],
  ['arabic', /\p{Script=Arabic}/u],
  ['hebrew', /\p{Script=Hebrew}/u],
  ['devanagari', /\p{Script=Devanagari}/u],
  ['thai', /\p{Script=Thai}/u],
  ['hangul', /\p{Script=Hangul}/u],
  ['kana', /[\p{Script=Hiragana}\p{Script=Katakana}]/u],
  ['cjk', /\p{Script=Han}/u],
]

/** Letters per script group of a text; `kana` counts hiragana and katakana apart from Han (`cjk`). */
export type ScriptCounts = Record<ScriptGroup | 'kana' | 'other', number>

/** Count the letters of `text` per script group. */
export function countScripts(text: string): ScriptCounts {
  const counts: ScriptCounts = {
    latin: 0, cyrillic: 0, greek: 0, arabic: 0, hebrew: 0, devanagari: 0, thai: 0, hangul: 0, kana: 0, cjk: 0, other: 0,
  }
  for (const ch of text) {
    const cp = ch.codePointAt(0)!
    if (cp < 0x80) {
      if ((cp >= 0x41 && cp <= 0x5a) || (cp >= 0x61 && cp <= 0x7a)) counts.latin++
      continue
    }
    if (!LETTER.test(ch)) continue
    let group: ScriptGroup | 'kana' | 'other' = 'other'
    for (const [g, re] of SCRIPT_TESTS) {
      if (re.test(ch)) {
        group = g
        break
      }
    }
    counts[group]++
  }
  return counts
}

/** The lower-cased NFC words (runs of letters and combining marks) of a text, at most {@link MAX_WORDS}. */
export function wordsOf(text: string): string[] {
  const words: string[] = []
  for (const m of text.normalize('NFC').toLowerCase().matchAll(WORD)) {
    words.push(m[0])
    if (words.length >= MAX_WORDS) break
  }
  return words
}

/**
 * Add the features of one word to `into` (feature -> count): n-grams of orders 1..maxOrder over
 * `_word_` (the lone boundary excluded) and `#word` when the word is short enough.
 */
export function addWordFeatures(word: string, maxOrder: number, into: Map<string, number>): void {
  const chars = [BOUNDARY, ...word, BOUNDARY]
  for (let i = 0; i < chars.length; i++) {
    let g = ''
    for (let n = 1; n <= maxOrder && i + n <= chars.length; n++) {
      g += chars[i + n - 1]!
      if (n === 1 && g === BOUNDARY) continue
      into.set(g, (into.get(g) ?? 0) + 1)
    }
  }
  if (chars.length - 2 <= MAX_WORD_FEATURE_LENGTH) {
    const w = WORD_PREFIX + word
    into.set(w, (into.get(w) ?? 0) + 1)
  }
}

/** All features of a text (feature -> count). */
export function featuresOf(text: string, maxOrder: number): Map<string, number> {
  const into = new Map<string, number>()
  for (const w of wordsOf(text)) addWordFeatures(w, maxOrder, into)
  return into
}

/** The order of a feature: its length in code points for n-grams, 0 for whole-word features. */
export function orderOf(feature: string): number {
  if (feature.startsWith(WORD_PREFIX)) return 0
  let n = 0
  for (const _ of feature) n++
  return n
}
