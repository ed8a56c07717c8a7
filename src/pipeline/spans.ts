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
 * Wire mentions of token spans: grouped by the text found (one mention per distinct label, in order of
 * first appearance) with each span's UTF-8 byte location, negated when a negation covers the span's
 * first or last word; at most `limit` mentions. `index` is the text's position in a collection.
 */
export function spanMentions(doc: AnnotatedDocument, spans: readonly TokenRange[], limit: number, index?: number): Mention[] {
  const byLabel = new Map<string, { negated: boolean; locations: Location[] }>()
  for (const s of spans) {
    const a = doc.tokens[s.tokenStart]!
    const b = doc.tokens[s.tokenEnd - 1]!
    const label = doc.text.slice(a.start, b.end)
    const entry = byLabel.get(label) ?? { negated: false, locations: [] }
    entry.negated ||= a.negated || b.negated
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
