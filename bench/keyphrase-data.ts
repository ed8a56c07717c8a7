/**
 * The keyphrase development sets of `<data>/keyphrase` (LIAAD collection: Inspec, SemEval2017, the
 * development half of 500N-KPCrowd) and the standard scoring: exact match after Porter stemming, F1 at k
 * macro-averaged over documents (precision over the phrases returned, at most k; recall over the gold keys).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { stemmer } from 'stemmer'

/** One document of a keyphrase set. */
export interface KeyphraseDoc {
  readonly name: string
  readonly text: string
  /** Gold keys, normalised with {@link matchForm}, distinct. */
  readonly keys: readonly string[]
}

/** The sets the evaluation reads, in print order. */
export const KEYPHRASE_SETS = ['Inspec', 'SemEval2017', '500N-KPCrowd-dev'] as const

/** Load one set (sorted by file name, so every run sees the same order). */
export function loadKeyphraseSet(dataDir: string, name: string, limit = Infinity): KeyphraseDoc[] {
  const base = join(dataDir, 'keyphrase', name)
  if (!existsSync(join(base, 'docsutf8'))) return []
  const files = readdirSync(join(base, 'docsutf8')).filter((f) => f.endsWith('.txt')).sort()
  const out: KeyphraseDoc[] = []
  for (const f of files.slice(0, limit)) {
    const id = f.replace(/\.txt$/, '')
    const keyFile = join(base, 'keys', `${id}.key`)
    if (!existsSync(keyFile)) continue
    const keys = [...new Set(readFileSync(keyFile, 'utf8').split(/\r?\n/).map(matchForm).filter((k) => k !== ''))]
    out.push({ name: id, text: readFileSync(join(base, 'docsutf8', f), 'utf8'), keys })
  }
  return out
}

/** The form phrases are compared in: lower case, split on anything but letters and digits, each word Porter-stemmed. */
export function matchForm(phrase: string): string {
  return phrase
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((w) => w !== '')
    .map((w) => stemmer(w))
    .join(' ')
}

/** F1 at k of one document's ranked phrases against its gold keys (duplicates after normalisation count once). */
export function f1At(ranked: readonly string[], gold: readonly string[], k: number): number {
  const top: string[] = []
  for (const p of ranked) {
    const m = matchForm(p)
    if (m !== '' && !top.includes(m)) top.push(m)
    if (top.length === k) break
  }
  if (top.length === 0 || gold.length === 0) return 0
  const goldSet = new Set(gold)
  const hits = top.filter((t) => goldSet.has(t)).length
  if (hits === 0) return 0
  const p = hits / top.length
  const r = hits / gold.length
  return (2 * p * r) / (p + r)
}

/** Mean over documents. */
export function meanF1(rankings: readonly (readonly string[])[], docs: readonly KeyphraseDoc[], k: number): number {
  let sum = 0
  for (let i = 0; i < docs.length; i++) sum += f1At(rankings[i] ?? [], docs[i]!.keys, k)
  return docs.length === 0 ? 0 : sum / docs.length
}
