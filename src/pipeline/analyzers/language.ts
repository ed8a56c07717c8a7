import { createLanguageIdentifier, type LanguageIdentifier } from '../../langid/index.ts'
import type { Analyzer, LanguageSection } from '../types.ts'

/** Fewest letters before a detected language may fail a document (short texts are too ambiguous). */
const MIN_LETTERS_TO_FAIL = 40
/** Lowest share of the best language before it may fail a document. */
const MIN_SCORE_TO_FAIL = 0.9

/**
 * `language`: the detected language and its share among the candidates (`language_score`). When
 * detection is on and a long enough text is confidently in another language than the configuration's,
 * the document fails with a reason naming both (the configuration's analyses would be meaningless).
 * With detection off, `language` is the configuration's language and no score is given.
 */
export function createLanguageAnalyzer(identifier: LanguageIdentifier = createLanguageIdentifier()): Analyzer<'language'> {
  return {
    name: 'language',
    needs: [],
    enabled: () => true,
    run(doc, _sections, ctx) {
      const configured = ctx.configuration.language
      const detect = ctx.configuration.document.detect_language && ctx.subscription.feature_settings.document.language_detection
      if (!detect) return { name: configured, code: '', score: -1 }
      const id = identifier.identify(doc.text)
      if (id === undefined) return { name: configured, code: '', score: -1 }
      return { name: id.name, code: id.code, score: id.score }
    },
    toWire(value, out, ctx, doc) {
      const v = value as LanguageSection
      out.language = v.name
      if (v.score >= 0) out.language_score = v.score
      const letters = (doc.text.match(/\p{L}/gu) ?? []).length
      if (v.score >= MIN_SCORE_TO_FAIL && letters >= MIN_LETTERS_TO_FAIL && v.name.toLowerCase() !== ctx.configuration.language.toLowerCase()) {
        out.status = 'FAILED'
        out.failure_reason = `the text is in ${v.name} (score ${v.score}), not in the configuration's language ${ctx.configuration.language}`
      }
    },
  }
}
