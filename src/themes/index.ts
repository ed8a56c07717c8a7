/**
 * Theme candidates and their ranking: `extractCandidates` (POS-pattern noun phrases), `rankCandidates`
 * (statistical features against a background frequency list), `removeRedundant`, and {@link keyThemes} tying them
 * together the way the `themes` analyzer and the keyphrase evaluation (`bench/eval-themes.ts`) both use them.
 */
import type { AnnotatedDocument } from '../nlp/types.ts'
import type { Background } from './background.ts'
import { extractCandidates, type ThemeSpan } from './candidates.ts'
import type { ThemePrior } from './prior.ts'
import { DEFAULT_THEME_WEIGHTS, rankCandidates, removeRedundant, type RankedCandidate, type ThemeWeights } from './rank.ts'

export { extractCandidates, type ThemeSpan } from './candidates.ts'
export {
  DEFAULT_THEME_WEIGHTS,
  THEME_FEATURES,
  candidateFeatures,
  modelScore,
  GENRE_FEATURES,
  genreFeatures,
  newsShare,
  rankCandidates,
  removeRedundant,
  type CandidateFeatures,
  type RankedCandidate,
  type ThemeModel,
  type ThemeWeights,
} from './rank.ts'
export { THEME_MODEL } from './model.ts'
export { loadThemePrior, parseThemePrior, type ThemePrior } from './prior.ts'
export { loadBackground, parseBackground, type Background } from './background.ts'

/**
 * The title of a theme: its first occurrence as written, lower-cased unless it holds a name ("battery life",
 * "Watkins Glen International"). `named`: the theme is a name wherever it stands, though this occurrence was read
 * as a common word (a headline's first word: "Obama mingles with power brokers"). @defaultValue whether the span
 * holds a name
 */
export function themeTitle(doc: AnnotatedDocument, span: ThemeSpan, named = span.proper.some((p) => p)): string {
  const text = doc.text.slice(doc.tokens[span.tokenStart]!.start, doc.tokens[span.tokenEnd - 1]!.end).replace(/\s+/g, ' ')
  return named ? text : text.toLowerCase()
}

/**
 * Whether a ranked theme is a name: none of its own occurrences (not a phrase folded into it) is written in lower
 * case ("the president said" makes "President Obama"'s "President" a common word), and one was read as a name, or
 * its words and their lemmas are missing from the `background` list of common words ("Bellagio" alone in a review's
 * title, where an opening capital tells nothing).
 */
export function isNamedTheme(doc: AnnotatedDocument, theme: RankedCandidate, background?: Background): boolean {
  let named = false
  let own: ThemeSpan | undefined
  for (const s of theme.spans) {
    if (s.stemmed !== theme.key) continue
    own ??= s
    if (!/\p{Lu}/u.test(doc.text.slice(doc.tokens[s.tokenStart]!.start, doc.tokens[s.tokenEnd - 1]!.end))) return false
    if (s.proper.some((p) => p)) named = true
  }
  if (named || own === undefined || background === undefined) return named
  // Neither the words as written, nor their lemmas, nor their singulars are common words ("economists" is missing,
  // "economist" is not; a name is not lemmatised, so a plural read as one keeps its "s").
  const lemmas = own.normalized.split(' ')
  const common = (w: string): boolean => background.has(w) || (w.endsWith('s') && background.has(w.slice(0, -1)))
  return own.words.every((w, i) => !common(w) && !common(lemmas[i] ?? w))
}

/**
 * The first occurrence of a ranked theme's own phrase: after redundancy removal its occurrences also hold those of
 * the phrases folded into it ("battery" said before "battery life"), which must not give it their title.
 */
export function ownSpan(theme: RankedCandidate): ThemeSpan {
  return theme.spans.find((s) => s.stemmed === theme.key) ?? theme.spans[0]!
}

/** Ranked, non-redundant themes of a document (at most `limit`), with the candidates they came from. */
export function keyThemes(
  doc: AnnotatedDocument,
  background: Background,
  limit = Infinity,
  weights: ThemeWeights = DEFAULT_THEME_WEIGHTS,
  candidates: readonly ThemeSpan[] = extractCandidates(doc),
  prior?: ThemePrior,
): RankedCandidate[] {
  return removeRedundant(rankCandidates(doc, candidates, background, weights, undefined, prior), limit)
}
