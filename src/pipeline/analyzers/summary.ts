import type { AnnotatedDocument } from '../../nlp/types.ts'
import { isBlankToken } from '../../nlp/sentences.ts'
import type { Analyzer } from '../types.ts'

/**
 * `summary`: an extractive summary of `summary_size` sentences (capped by the license's
 * `summary_size_limit`), in text order. See {@link summarize}.
 */
export const summaryAnalyzer: Analyzer<'summary'> = {
  name: 'summary',
  needs: [],
  enabled: (ctx) =>
    ctx.mode !== 'discovery' &&
    ctx.subscription.feature_settings.document.summary &&
    ctx.configuration.document.summary_limit > 0 &&
    ctx.configuration.document.summary_size > 0,
  run(doc, _sections, ctx) {
    const size = Math.min(ctx.configuration.document.summary_size, ctx.subscription.basic_settings.summary_size_limit)
    return summarize(doc, size, { html: ctx.configuration.process_html })
  },
  toWire(value, out) {
    if (value !== '') out.summary = value
  },
}

/** A sentence of the summary: a token range and its text as read (tags left out, spacing normalised). */
export interface SummarySentence {
  readonly tokenStart: number
  readonly tokenEnd: number
  readonly text: string
}



/**
 * The sentences a summary is made of: the annotator's sentences (whole web addresses, decimals, abbreviations:
 * `joinBrokenSentences` in src/nlp/sentences.ts) split at a line break that stands for a block of HTML (`html`:
 * "<title>Cafe review</title> ... <p>The coffee") and at a blank line, without pieces of blanks only. Each
 * sentence's text is rebuilt from its tokens, so markup between them never shows.
 */
export function summarySentences(doc: AnnotatedDocument, options: { readonly html?: boolean } = {}): SummarySentence[] {
  const toks = doc.tokens
  // The annotator's sentences cut at block breaks.
  const pieces: [number, number][] = []
  for (const s of doc.sentences) {
    let a = s.tokenStart
    for (let k = s.tokenStart; k < s.tokenEnd; k++) {
      const t = toks[k]!
      if (t.kind !== 'tabCRLF') continue
      const breaks = (t.text.match(/\n/g) ?? []).length
      const gap = doc.text.slice(toks[k - 1]?.end ?? t.start, toks[k + 1]?.start ?? t.end)
      const block = options.html === true ? breaks > 0 || /<\/?(p|div|br|li|h[1-6]|title|tr|td|th|table|section|article|blockquote|header|footer)\b/i.test(gap) : breaks >= 2
      if (block && k > a) {
        pieces.push([a, k])
        a = k + 1
      }
    }
    if (a < s.tokenEnd) pieces.push([a, s.tokenEnd])
  }
  const kept = pieces.filter(([a, b]) => {
    for (let k = a; k < b; k++) if (!isBlankToken(toks[k]!)) return true
    return false
  })
  return kept.map(([a, b]) => ({ tokenStart: a, tokenEnd: b, text: tokensText(doc, a, b) }))
}

/** The text of tokens [a, b) as read: the tokens with one space where the text has any, no markup. */
function tokensText(doc: AnnotatedDocument, a: number, b: number): string {
  let out = ''
  for (let k = a; k < b; k++) {
    const t = doc.tokens[k]!
    if (isBlankToken(t)) {
      if (out !== '' && !out.endsWith(' ')) out += ' '
      continue
    }
    if (out !== '' && t.spaceBefore && !out.endsWith(' ')) out += ' '
    out += t.text
  }
  return out.trim()
}

const CONTENT = /^(NOUN|PROPN|VERB|ADJ|ADV|NUM)$/

/**
 * The `size` sentences that best stand for `doc`, joined by a space in text order. Sentences (see
 * {@link summarySentences}: whole web addresses, abbreviations and decimals; no markup) are ranked by the three
 * signals extractive summarizers of news rely on: position (the lead sentence of a story states it, and earlier
 * sentences matter more), centrality (cosine of the sentence's content lemmas with the whole text's), and length
 * (fragments and run-ons are poor summaries). They are then taken best first, skipping one that repeats a sentence
 * already taken (cosine above 0.6). Ties go to the earlier sentence.
 */
export function summarize(doc: AnnotatedDocument, size: number, options: { readonly html?: boolean } = {}): string {
  const sentences = summarySentences(doc, options).filter((s) => s.text !== '')
  if (size <= 0 || sentences.length === 0) return ''
  if (sentences.length <= size) return sentences.map((s) => s.text).join(' ')
  const vectors = sentences.map((s) => {
    const v = new Map<string, number>()
    for (let i = s.tokenStart; i < s.tokenEnd; i++) {
      const t = doc.tokens[i]!
      if (t.kind !== 'word' || t.isStopWord || !CONTENT.test(t.pos)) continue
      v.set(t.lemma, (v.get(t.lemma) ?? 0) + 1)
    }
    return v
  })
  const whole = new Map<string, number>()
  for (const v of vectors) for (const [w, n] of v) whole.set(w, (whole.get(w) ?? 0) + n)
  const norm = (v: ReadonlyMap<string, number>): number => Math.sqrt([...v.values()].reduce((s, n) => s + n * n, 0))
  const cosine = (x: ReadonlyMap<string, number>, y: ReadonlyMap<string, number>): number => {
    const nx = norm(x)
    const ny = norm(y)
    if (nx === 0 || ny === 0) return 0
    let dot = 0
    for (const [w, n] of x) dot += n * (y.get(w) ?? 0)
    return dot / (nx * ny)
  }
  const centrality = vectors.map((v) => {
    // The rest of the text, so that a long sentence is not central merely by holding many of the words itself.
    const rest = new Map(whole)
    for (const [w, n] of v) rest.set(w, (rest.get(w) ?? 0) - n)
    return cosine(v, rest)
  })
  const maxCentrality = Math.max(1e-9, ...centrality)
  const scored = sentences.map((s, rank) => {
    let words = 0
    for (let i = s.tokenStart; i < s.tokenEnd; i++) if (doc.tokens[i]!.kind === 'word') words++
    const length = words < 6 ? words / 6 : words > 45 ? 45 / words : 1
    const position = 1 / Math.sqrt(1 + rank)
    const score = 0.45 * position + 0.4 * (centrality[rank]! / maxCentrality) + 0.15 * length
    return { s, rank, score: score * (words < 4 ? 0.5 : 1) }
  })
  const order = [...scored].sort((a, b) => b.score - a.score || a.rank - b.rank)
  const chosen: typeof scored = []
  for (const c of order) {
    if (chosen.length >= size) break
    if (chosen.some((x) => cosine(vectors[x.rank]!, vectors[c.rank]!) > 0.6)) continue
    chosen.push(c)
  }
  // Texts that repeat themselves still give `size` sentences.
  for (const c of order) {
    if (chosen.length >= size) break
    if (!chosen.includes(c)) chosen.push(c)
  }
  chosen.sort((a, b) => a.rank - b.rank)
  return chosen.map((c) => c.s.text).join(' ')
}
