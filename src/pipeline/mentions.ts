import type { AnnotatedDocument } from '../nlp/types.ts'
import type { Location, Mention } from '../model/output.ts'

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
