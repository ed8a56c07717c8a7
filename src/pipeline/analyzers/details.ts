import type { AnnotatedDocument, Token } from '../../nlp/types.ts'
import type { SentenceDetail, Word } from '../../model/output.ts'
import { need } from '../pipeline.ts'
import { negationScope, posFilter, posType } from '../pos.ts'
import type { Analyzer } from '../types.ts'

/**
 * `details`: per sentence, whether it is an action item (`is_imperative`), whether it conveys sentiment
 * (`is_polar`), and its words with tag, type, stem, negation and sentiment, filtered by `pos_types`. Tags are
 * wink's as corrected by `refineTags` (`pos.ts`); a word is negated when it lies in the negated phrase after a
 * negation cue (`negationScope`), not anywhere after it in the clause.
 */
export const detailsAnalyzer: Analyzer<'details'> = {
  name: 'details',
  needs: ['sentiment'],
  enabled: (ctx) => ctx.mode !== 'discovery' && ctx.subscription.feature_settings.document.pos_tagging,
  run(doc, sections, ctx) {
    const sentiment = need(sections, 'sentiment')
    const keep = posFilter(ctx.configuration.document.pos_types)
    const out: SentenceDetail[] = []
    for (const s of doc.sentences) {
      const words: Word[] = []
      const negated = negationScope(doc, s.tokenStart, s.tokenEnd)
      let polarWord = false
      for (let i = s.tokenStart; i < s.tokenEnd; i++) {
        if ((sentiment.tokenScores[i] ?? 0) !== 0 && !POLITENESS.has(doc.tokens[i]!.normal)) polarWord = true
      }
      for (let i = s.tokenStart; i < s.tokenEnd; i++) {
        const t = doc.tokens[i]!
        if (t.kind === 'tabCRLF') continue
        const type = posType(t.pos)
        if (keep !== undefined && !keep.has(type.toLowerCase())) continue
        words.push({
          tag: t.pos,
          type,
          title: t.text,
          stemmed: t.stem,
          is_negated: negated[i - s.tokenStart]!,
          sentiment_score: sentiment.tokenScores[i] ?? 0,
        })
      }
      out.push({
        is_imperative: isImperative(doc, s.tokenStart, s.tokenEnd),
        // A politeness marker alone ("Please call me back") conveys no sentiment.
        is_polar: (sentiment.sentencePolar[s.index] ?? false) && polarWord,
        words,
      })
    }
    return out
  },
  toWire(value, out) {
    if (value !== undefined && value.length > 0) out.details = value
  },
}

/** Politeness markers: scored by some lexicons, but no sentiment of the sentence. */
const POLITENESS: ReadonlySet<string> = new Set(['please', 'pls', 'plz', 'kindly'])

const SUBJECTLESS_STARTERS = new Set(['please', 'kindly', 'just', 'always', 'never'])

/**
 * An action item: the sentence opens with a verb in its base form and no subject before it ("Call me
 * tomorrow", "Please send the file", "Don't forget the keys"), and it is not a question.
 */
export function isImperative(doc: AnnotatedDocument, from: number, to: number): boolean {
  const words: Token[] = []
  for (let i = from; i < to; i++) {
    const t = doc.tokens[i]!
    if (t.kind === 'word') words.push(t)
  }
  const last = doc.tokens[to - 1]
  if (last !== undefined && last.text === '?') return false
  let k = 0
  while (k < words.length && SUBJECTLESS_STARTERS.has(words[k]!.normal)) k++
  const w = words[k]
  if (w === undefined) return k > 0 && words[0]?.normal === 'please'
  // "Do not / Don't + verb"
  if (w.normal === 'do' && words[k + 1]?.normal === 'not') {
    const v = words[k + 2]
    return v !== undefined && (v.pos === 'VERB' || v.pos === 'AUX') && isBaseForm(v)
  }
  if (w.pos !== 'VERB') return false
  if (w.normal === 'thank') return false // "Thank you" is a courtesy, not an action item
  return w.normal === 'let' || isBaseForm(w)
}

function isBaseForm(t: Token): boolean {
  // wink lemmatises inflected forms; a base-form verb is its own lemma ("call" -> "call").
  return t.lemma === t.normal && !t.normal.endsWith('ing') && !t.normal.endsWith('ed')
}
