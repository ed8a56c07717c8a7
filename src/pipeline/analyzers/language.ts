import { createLanguageDecider, createLanguageIdentifier, SHORT_LETTERS, type LanguageIdentifier, type Vocabulary } from '../../langid/index.ts'
import type { Analyzer, LanguageSection } from '../types.ts'

/** Fewest letters before the identifier's answer alone may fail a document (short texts are too ambiguous). */
const MIN_LETTERS_TO_FAIL = SHORT_LETTERS
/** Lowest share of the best language before it may fail a document. */
const MIN_SCORE_TO_FAIL = 0.9

/** The language section with what the wrong-language rule reads. */
interface LanguageValue extends LanguageSection {
  /** The decision rests on enough evidence to fail a document in another language (see `decide.ts`). */
  readonly decisive: boolean
  /** Letters read (counted up to the decider's limit). */
  readonly letters: number
}

/**
 * `language`: the detected language and its share among the candidates (`language_score`), decided by
 * `src/langid/decide.ts` with a prior for the configuration's language: a short text answers the
 * configuration's language with a low score unless its words or script say otherwise.
 *
 * The wrong-language rule: when detection is on and a text is in another language than the configuration's,
 * the document fails with a reason naming both (the configuration's analyses would be meaningless) if the text
 * has at least 40 letters and the best language's share is at least 0.9 (unchanged for long texts), or if it is
 * shorter and its function words or script name that other language ("Das Hotel war super!").
 * With detection off, `language` is the configuration's language and no score is given.
 *
 * `vocabulary` (English word frequencies, read on first use) lets short English texts made of known words stay
 * English; without it only function words and script decide short texts.
 */
export function createLanguageAnalyzer(
  identifier: LanguageIdentifier = createLanguageIdentifier(),
  vocabulary?: () => Vocabulary,
): Analyzer<'language'> {
  const decider = createLanguageDecider(identifier, vocabulary === undefined ? {} : { vocabularies: { en: vocabulary } })
  return {
    name: 'language',
    needs: [],
    enabled: () => true,
    run(doc, _sections, ctx) {
      const configured = ctx.configuration.language
      const detect = ctx.configuration.document.detect_language && ctx.subscription.feature_settings.document.language_detection
      if (!detect) return { name: configured, code: '', score: -1 }
      const d = decider.decide(doc.text, configured)
      if (d === undefined) return { name: configured, code: '', score: -1 }
      const value: LanguageValue = { name: d.name, code: d.code, score: d.score, decisive: d.decisive, letters: d.letters }
      return value
    },
    toWire(value, out, ctx) {
      const v = value as LanguageValue
      out.language = v.name
      if (v.score >= 0) out.language_score = v.score
      if (v.decisive !== true || v.name.toLowerCase() === ctx.configuration.language.toLowerCase()) return
      // Long enough and confident, or short with word or script evidence (the decider marks it decisive).
      const fails = v.letters >= MIN_LETTERS_TO_FAIL ? v.score >= MIN_SCORE_TO_FAIL : true
      if (fails) {
        out.status = 'FAILED'
        out.failure_reason = `the text is in ${v.name} (score ${v.score}), not in the configuration's language ${ctx.configuration.language}`
      }
    },
  }
}
