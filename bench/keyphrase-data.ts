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
  /** The same keys in {@link joinedForm}, line for line. */
  readonly joined: readonly string[]
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
    // Distinct by the split form; a raw key gives both forms.
    const seen = new Map<string, string>()
    for (const raw of readFileSync(keyFile, 'utf8').split(/\r?\n/)) {
      const m = matchForm(raw)
      if (m !== '' && !seen.has(m)) seen.set(m, joinedForm(raw))
    }
    out.push({ name: id, text: readFileSync(join(base, 'docsutf8', f), 'utf8'), keys: [...seen.keys()], joined: [...seen.values()] })
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

/**
 * The same form with the words of a hyphenated compound joined first ("37-year-old" -> "37yearold", "writer-director"
 * -> "writerdirector"): 500N-KPCrowd's gold keys were written that way (its text keeps the hyphens), Inspec's and
 * SemEval2017's keep them. A phrase matches a key when either form is equal, for every system alike.
 */
export function joinedForm(phrase: string): string {
  return matchForm(phrase.replace(/(?<=[\p{L}\p{N}])[-\u2010\u2011](?=[\p{L}\p{N}])/gu, ''))
}

/**
 * F1 at k of one document's ranked phrases against its gold keys (duplicates after normalisation count once; a
 * key is matched at most once, by the form of {@link matchForm} or of {@link joinedForm}).
 */
export function f1At(ranked: readonly string[], gold: readonly string[], k: number, goldJoined: readonly string[] = gold): number {
  const top: string[] = []
  const topJoined: string[] = []
  for (const p of ranked) {
    const m = matchForm(p)
    if (m !== '' && !top.includes(m)) {
      top.push(m)
      topJoined.push(joinedForm(p))
    }
    if (top.length === k) break
  }
  if (top.length === 0 || gold.length === 0) return 0
  const used = new Set<number>()
  let hits = 0
  for (let i = 0; i < top.length; i++) {
    let g = gold.indexOf(top[i]!)
    if (g < 0 || used.has(g)) g = goldJoined.findIndex((x, j) => x === topJoined[i] && !used.has(j))
    if (g < 0 || used.has(g)) continue
    used.add(g)
    hits++
  }
  if (hits === 0) return 0
  const p = hits / top.length
  const r = hits / gold.length
  return (2 * p * r) / (p + r)
}

/** Mean over documents. */
export function meanF1(rankings: readonly (readonly string[])[], docs: readonly KeyphraseDoc[], k: number): number {
  let sum = 0
  for (let i = 0; i < docs.length; i++) sum += f1At(rankings[i] ?? [], docs[i]!.keys, k, docs[i]!.joined)
  return docs.length === 0 ? 0 : sum / docs.length
}
