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
 * Whether a ranked theme is a name: one of its own occurrences (not a phrase folded into it) was read as one, and
 * none is written in lower case ("the president said" makes "President Obama"'s "President" a common word).
 */
export function isNamedTheme(doc: AnnotatedDocument, theme: RankedCandidate): boolean {
  let named = false
  for (const s of theme.spans) {
    if (s.stemmed !== theme.key) continue
    if (!/\p{Lu}/u.test(doc.text.slice(doc.tokens[s.tokenStart]!.start, doc.tokens[s.tokenEnd - 1]!.end))) return false
    if (s.proper.some((p) => p)) named = true
  }
  return named
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
