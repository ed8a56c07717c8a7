import type { AnnotatedDocument } from '../nlp/types.ts'
import type { Location, Mention, Polarity } from '../model/output.ts'
import type { SentimentSection } from './types.ts'

/** A token span of a document, as themes, entities, topics and facets find them. */
export interface TokenRange {
  readonly tokenStart: number
  /** Exclusive. */
  readonly tokenEnd: number
}

/**
 * Idioms that open with a negator but negate nothing after them ("Without a doubt the best pizza in New York City",
 * "No matter what you order, the pasta is good"), as lower-case words: the words after them are not negated.
 */
const NOT_NEGATING: readonly (readonly string[])[] = [
  ['without', 'a', 'doubt'],
  ['without', 'doubt'],
  ['no', 'doubt'],
  ['no', 'matter'],
  ['no', 'wonder'],
  ['never', 'mind'],
]

/**
 * Whether token `i` is negated: the annotator's negation (words after a negator, up to punctuation), unless the
 * negator opens one of the {@link NOT_NEGATING} idioms.
 */
function isNegated(doc: AnnotatedDocument, i: number): boolean {
  const toks = doc.tokens
  if (!toks[i]!.negated) return false
  // The negator: the first word before the run of negated words that holds token i.
  let c = i - 1
  while (c >= 0 && (toks[c]!.negated || toks[c]!.kind === 'space' || toks[c]!.kind === 'tabCRLF')) c--
  if (c < 0) return true
  const words: string[] = []
  for (let k = c; k < toks.length && words.length < 3; k++) if (toks[k]!.kind !== 'space' && toks[k]!.kind !== 'tabCRLF') words.push(toks[k]!.text.toLowerCase())
  return !NOT_NEGATING.some((idiom) => idiom.every((w, j) => words[j] === w))
}

/**
 * Wire mentions of token spans: grouped by the text found (one mention per distinct label, in order of
 * first appearance) with each span's UTF-8 byte location, negated when a negation covers the span's
 * first or last word (not after an idiom such as "without a doubt"); at most `limit` mentions. `index` is the
 * text's position in a collection.
 */
export function spanMentions(doc: AnnotatedDocument, spans: readonly TokenRange[], limit: number, index?: number): Mention[] {
  const byLabel = new Map<string, { negated: boolean; locations: Location[] }>()
  for (const s of spans) {
    const a = doc.tokens[s.tokenStart]!
    const b = doc.tokens[s.tokenEnd - 1]!
    const label = doc.text.slice(a.start, b.end)
    const entry = byLabel.get(label) ?? { negated: false, locations: [] }
    entry.negated ||= isNegated(doc, s.tokenStart) || isNegated(doc, s.tokenEnd - 1)
    const loc: Location = { offset: a.byteOffset, length: b.byteOffset + b.byteLength - a.byteOffset }
    if (index !== undefined) loc.index = index
    entry.locations.push(loc)
    byLabel.set(label, entry)
  }
  return [...byLabel].slice(0, limit).map(([label, v]) => ({ label, is_negated: v.negated, locations: v.locations }))
}

/** Round to 4 decimals (the wire's fixed precision), without a negative zero. */
export function round4(x: number): number {
  const r = Math.round(x * 10_000) / 10_000
  return r === 0 ? 0 : r
}

/** The sentiment of what a set of spans talks about: the sentences holding them, and the aspect score. */
export interface ContextSentiment {
  /** Distinct sentence indices, in order of first appearance. */
  readonly sentences: readonly number[]
  readonly score: number
  readonly polarity: Polarity
}

/**
 * Sentiment of a theme, entity, topic or facet: the aspect sentiment of its spans (the words attached
 * to each occurrence, not its sentence's score; see `src/sentiment/aspect.ts`), 0 without spans, with
 * the scorer's own polarity thresholds; and the distinct sentences the spans stand in. `names`: the spans are an
 * entity's names, which take a polarity only from the lexicon's evaluative words in their sentences.
 */
export function contextSentiment(doc: AnnotatedDocument, spans: readonly TokenRange[], sentiment: SentimentSection, options?: { readonly names?: boolean }): ContextSentiment {
  const sentences = [...new Set(spans.map((s) => doc.tokens[s.tokenStart]!.sentence))]
  const { score, polarity } = sentiment.aspect(spans, options)
  return { sentences, score, polarity }
}
