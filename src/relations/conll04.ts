/**
 * Reader of CoNLL04 as split by Bekoulis et al. (2018): a `#doc N` line, then one token a line
 * `index<TAB>token<TAB>BIO tag<TAB>['labels']<TAB>[heads]`. A relation sits on the last token of its first
 * argument and points at the last token of the second; label `N` means none. Entity types Peop, Org, Loc and
 * Other; Other never takes part in a relation and is left out of the mentions.
 */
import type { ArgMention, ArgType } from './features.ts'
import type { RelationSentence } from './model.ts'

/** One CoNLL04 sentence: the original tokens and the gold mentions and relations. */
export interface Conll04Sentence extends RelationSentence {
  readonly doc: string
  readonly tokens: readonly string[]
}

const ARG_TYPES = new Set(['Peop', 'Org', 'Loc'])

/** Parse the file's text. Throws naming the line when a token line is malformed. */
export function readConll04(text: string, source = 'conll04'): Conll04Sentence[] {
  const out: Conll04Sentence[] = []
  let doc = ''
  let rows: { token: string; tag: string; labels: string[]; heads: number[] }[] = []
  const flush = (): void => {
    if (rows.length === 0) return
    const tokens = rows.map((r) => r.token)
    const mentions: ArgMention[] = []
    for (let i = 0; i < rows.length; i++) {
      const tag = rows[i]!.tag
      if (!tag.startsWith('B-')) continue
      const type = tag.slice(2)
      let end = i + 1
      while (end < rows.length && rows[end]!.tag === `I-${type}`) end++
      if (ARG_TYPES.has(type)) mentions.push({ start: i, end, type: type as ArgType })
    }
    const byLast = new Map(mentions.map((m, k) => [m.end - 1, k]))
    const relations: { a: number; b: number; label: string }[] = []
    rows.forEach((r, i) => {
      r.labels.forEach((label, k) => {
        if (label === 'N') return
        const a = byLast.get(i)
        const b = byLast.get(r.heads[k]!)
        if (a !== undefined && b !== undefined) relations.push({ a, b, label })
      })
    })
    out.push({ doc, tokens, words: tokens, mentions, relations })
    rows = []
  }
  text.split(/\r?\n/).forEach((line, n) => {
    if (line.startsWith('#doc')) {
      flush()
      doc = line.slice(4).trim()
      return
    }
    if (line.trim() === '') return
    const cols = line.split('\t')
    if (cols.length < 5) throw new Error(`${source}:${n + 1}: expected 5 tab-separated columns, found "${line}"`)
    const labels = [...cols[3]!.matchAll(/'([^']+)'/g)].map((m) => m[1]!)
    const heads = [...cols[4]!.matchAll(/\d+/g)].map((m) => Number(m[0]))
    rows.push({ token: cols[1]!, tag: cols[2]!, labels, heads })
  })
  flush()
  return out
}

/** Character offsets of the tokens of a sentence whose text is its tokens joined by single spaces. */
export function tokenOffsets(tokens: readonly string[]): number[] {
  const starts: number[] = []
  let o = 0
  for (const t of tokens) {
    starts.push(o)
    o += t.length + 1
  }
  return starts
}

/**
 * The sentence with the mentions our own recognition finds instead of the gold ones: `spans` are the recognised
 * mentions as character ranges of the joined text with their argument types; those that do not fall on CoNLL04
 * token boundaries are dropped. Gold relations are kept where both arguments were recognised exactly (span and
 * type), so the classifier learns from the mentions it will see.
 */
export function withRecognisedMentions(s: Conll04Sentence, spans: readonly { start: number; end: number; type: ArgType }[]): Conll04Sentence {
  const starts = tokenOffsets(s.tokens)
  const ofStart = new Map(starts.map((c, i) => [c, i]))
  const ofEnd = new Map(starts.map((c, i) => [c + s.tokens[i]!.length, i + 1]))
  const mentions: ArgMention[] = []
  for (const sp of spans) {
    const a = ofStart.get(sp.start)
    const b = ofEnd.get(sp.end)
    if (a !== undefined && b !== undefined && b > a && !mentions.some((m) => m.start === a && m.end === b)) mentions.push({ start: a, end: b, type: sp.type })
  }
  mentions.sort((x, y) => x.start - y.start || x.end - y.end)
  const key = (m: ArgMention): string => `${m.start}:${m.end}:${m.type}`
  const index = new Map(mentions.map((m, k) => [key(m), k]))
  const relations: { a: number; b: number; label: string }[] = []
  for (const r of s.relations) {
    const a = index.get(key(s.mentions[r.a]!))
    const b = index.get(key(s.mentions[r.b]!))
    if (a !== undefined && b !== undefined) relations.push({ a, b, label: r.label })
  }
  return { ...s, mentions, relations }
}
