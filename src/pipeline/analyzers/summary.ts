import type { AnnotatedDocument } from '../../nlp/types.ts'
import type { Analyzer } from '../types.ts'

/**
 * `summary`: an extractive summary of `summary_size` sentences (capped by the license's
 * `summary_size_limit`), in text order. Sentences are ranked by the mean document frequency of their
 * content lemmas (a sentence that shares the text's recurring words is central), with a small bonus
 * for the first sentence; ties go to the earlier sentence.
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
    return summarize(doc, size)
  },
  toWire(value, out) {
    if (value !== '') out.summary = value
  },
}

/** The `size` most central sentences of `doc`, joined by a space in text order. */
export function summarize(doc: AnnotatedDocument, size: number): string {
  const sentences = doc.sentences.filter((s) => s.text.trim() !== '')
  if (size <= 0 || sentences.length === 0) return ''
  if (sentences.length <= size) return sentences.map((s) => s.text.trim()).join(' ')
  const freq = new Map<string, number>()
  const content = (i: number): boolean => {
    const t = doc.tokens[i]!
    return t.kind === 'word' && !t.isStopWord && /^(NOUN|PROPN|VERB|ADJ|ADV|NUM)$/.test(t.pos)
  }
  for (const s of sentences) {
    const seen = new Set<string>()
    for (let i = s.tokenStart; i < s.tokenEnd; i++) if (content(i)) seen.add(doc.tokens[i]!.lemma)
    for (const l of seen) freq.set(l, (freq.get(l) ?? 0) + 1)
  }
  const scored = sentences.map((s, rank) => {
    let sum = 0
    let n = 0
    for (let i = s.tokenStart; i < s.tokenEnd; i++) {
      if (!content(i)) continue
      sum += (freq.get(doc.tokens[i]!.lemma) ?? 1) - 1
      n++
    }
    // Mean recurrence, damped for very short sentences so a two-word line does not win on one shared word.
    const score = n === 0 ? 0 : (sum / n) * Math.min(1, n / 5) + (rank === 0 ? 0.5 : 0)
    return { s, rank, score }
  })
  const chosen = [...scored].sort((a, b) => b.score - a.score || a.rank - b.rank).slice(0, size)
  chosen.sort((a, b) => a.rank - b.rank)
  return chosen.map((c) => c.s.text.trim()).join(' ')
}
