/**
 * Reader of CoNLL04 as split by Bekoulis et al. (2018): a `#doc N` line, then one token a line
 * `index<TAB>token<TAB>BIO tag<TAB>['labels']<TAB>[heads]`. A relation sits on the last token of its first
 * argument and points at the last token of the second; label `N` means none. Entity types Peop, Org, Loc and
 * Other; Other never takes part in a relation and is left out of the mentions.
 */
import type { AnnotatedDocument } from '../nlp/types.ts'
import type { ArgMention, ArgType } from './features.ts'
import { sentenceViews, type RelationEntity } from './find.ts'
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

/** A CoNLL04 sentence as running text: the text and each token's character range in it. */
export interface Conll04Text {
  readonly text: string
  readonly starts: readonly number[]
  readonly ends: readonly number[]
}

const NO_SPACE_BEFORE = new Set([',', '.', ':', ';', '?', '!', ')', ']', '}', '%', "n't"])
const NO_SPACE_AFTER = new Set(['(', '[', '{', '$'])

/**
 * The sentence as the news text it came from, so that the engine reads what it reads at run time and not the
 * corpus's tokenisation: no space before `, . : ; ? ! ) %`, nor after `( $`; a token that starts with an
 * apostrophe and a letter joins the word before (`doesn 't` -> `doesn't`, `O 'Brien` -> `O'Brien`,
 * `Guard 's` -> `Guard's`); the quote pairs `` ` ` `` and `' '` become `` `` `` and `''`. Every token keeps its
 * own character range, so spans found in the text map back to tokens exactly ({@link alignSpan}).
 */
export function conll04Text(tokens: readonly string[]): Conll04Text {
  let text = ''
  const starts: number[] = []
  const ends: number[] = []
  let glueNext = true
  tokens.forEach((t, i) => {
    const prev = tokens[i - 1]
    let glue = glueNext
    if (NO_SPACE_BEFORE.has(t) || /^'[A-Za-z]/.test(t)) glue = true
    if (t === '`' && prev === '`') glue = true
    if (t === "'" && (prev === "'" || (prev !== undefined && tokens[i + 1] === "'"))) glue = true
    if (!glue) text += ' '
    starts.push(text.length)
    text += t
    ends.push(text.length)
    glueNext = NO_SPACE_AFTER.has(t) || (t === '`' && tokens[i + 1] === '`') || (t === '`' && prev === '`')
  })
  return { text, starts, ends }
}

/** The sentence as its tokens joined by single spaces (the corpus's tokenisation kept), as a {@link Conll04Text}. */
export function spacedText(tokens: readonly string[]): Conll04Text {
  const starts = tokenOffsets(tokens)
  return { text: tokens.join(' '), starts, ends: starts.map((c, i) => c + tokens[i]!.length) }
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

const PUNCT_ONLY = /^[\p{P}\p{S}]*$/u

/**
 * The CoNLL04 token range [start, end) of a character span of the sentence's text, or undefined when the span
 * does not fall on token boundaries. A span that stops short of a token's end (or starts after its start) by
 * punctuation only is taken to cover the token: CoNLL04 glues a sentence-final period to the word (`China.`,
 * `Desiree Ball.`) where the engine's tokenizer splits it off, so the engine's `China` is that token. Anything
 * else (`D-N` in `D-N.Y.`) does not align. The other way round, punctuation tokens at the span's edges are left
 * out: the engine keeps `Va.` whole where CoNLL04 has `Va` `.` and marks `Va` (154 times in train; 21 times the
 * period is inside).
 */
export function alignSpan(t: Conll04Text, start: number, end: number): [number, number] | undefined {
  let a = -1
  let b = -1
  for (let i = 0; i < t.starts.length; i++) {
    if (a < 0 && t.starts[i]! <= start && start < t.ends[i]!) a = i
    if (t.starts[i]! < end && end <= t.ends[i]!) b = i
  }
  if (a < 0 || b < a) return undefined
  if (!PUNCT_ONLY.test(t.text.slice(t.starts[a]!, start)) || !PUNCT_ONLY.test(t.text.slice(end, t.ends[b]!))) return undefined
  // Punctuation tokens at the edges stay outside (CoNLL04 splits `Va.` into `Va` `.` and the Loc is `Va`).
  const punct = (i: number): boolean => PUNCT_ONLY.test(t.text.slice(t.starts[i]!, t.ends[i]!))
  while (b > a && punct(b)) b--
  while (a < b && punct(a)) a++
  return [a, b + 1]
}

/** Document tokens [tokenStart, tokenEnd) that overlap CoNLL04 tokens [a, b) of the sentence's text, or undefined. */
export function docSpanOf(t: Conll04Text, doc: AnnotatedDocument, a: number, b: number): { tokenStart: number; tokenEnd: number } | undefined {
  const from = t.starts[a]!
  const to = t.ends[b - 1]!
  let first = -1
  let last = -1
  for (const tok of doc.tokens) {
    if (tok.end <= from || tok.start >= to || tok.text.trim() === '') continue
    if (first < 0) first = tok.index
    last = tok.index
  }
  return first < 0 ? undefined : { tokenStart: first, tokenEnd: last + 1 }
}

/** The CoNLL04 token range of a mention given as document tokens ({@link alignSpan}), or undefined. */
export function conllSpanOf(t: Conll04Text, doc: AnnotatedDocument, m: { tokenStart: number; tokenEnd: number }): [number, number] | undefined {
  return alignSpan(t, doc.tokens[m.tokenStart]!.start, doc.tokens[m.tokenEnd - 1]!.end)
}

/**
 * Training sentences for the classifier from one CoNLL04 sentence read by the engine: the sentence views of
 * `entities` (what {@link sentenceViews} gives at run time: the engine's words, lemmas and tags) with the gold
 * relations between the mentions that match gold mentions exactly (CoNLL04 span and type). With the gold
 * mentions as `entities` every gold relation inside one engine sentence is kept; with recognised entities, those
 * whose two arguments were recognised exactly, so the classifier also learns from the mentions it will see.
 */
export function trainingSentences(s: Conll04Sentence, t: Conll04Text, doc: AnnotatedDocument, entities: readonly RelationEntity[]): RelationSentence[] {
  const goldIndex = new Map(s.mentions.map((m, k) => [`${m.start}:${m.end}:${m.type}`, k]))
  const rel = new Map(s.relations.map((r) => [`${r.a},${r.b}`, r.label]))
  const out: RelationSentence[] = []
  for (const v of sentenceViews(doc, entities)) {
    const gi = v.mentions.map((m) => {
      const c = conllSpanOf(t, doc, m)
      return c === undefined ? undefined : goldIndex.get(`${c[0]}:${c[1]}:${m.type}`)
    })
    const relations: { a: number; b: number; label: string }[] = []
    gi.forEach((x, i) =>
      gi.forEach((y, j) => {
        if (i === j || x === undefined || y === undefined) return
        const label = rel.get(`${x},${y}`)
        if (label !== undefined) relations.push({ a: i, b: j, label })
      }),
    )
    out.push({ words: v.words, lemmas: v.lemmas, tags: v.tags, mentions: v.mentions, relations })
  }
  return out
}
