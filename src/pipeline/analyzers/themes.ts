import type { AnnotatedDocument } from '../../nlp/types.ts'
import type { Theme } from '../../model/output.ts'
import { contextSentiment, round4, spanMentions, type TokenRange } from '../spans.ts'
import { need } from '../pipeline.ts'
import type { Analyzer, SentimentSection } from '../types.ts'
import { resolveDataDir } from '../../resources.ts'
import { extractCandidates, isNamedTheme, keyThemes, loadBackground, loadThemePrior, ownSpan, themeTitle, type Background, type ThemePrior, type ThemeSpan } from '../../themes/index.ts'

export type { ThemeSpan } from '../../themes/index.ts'
export { extractCandidates } from '../../themes/index.ts'

/** A theme of a document before limits and wire mapping. */
export interface FoundTheme {
  readonly normalized: string
  readonly title: string
  readonly stemmed: string
  readonly spans: readonly ThemeSpan[]
  readonly evidence: number
  readonly strength: number
  readonly sentiment: { readonly score: number; readonly polarity: 'positive' | 'negative' | 'neutral' }
}

/** The themes section: the top themes (ranked, redundancy removed) and every noun phrase (for Discovery facets). */
export interface ThemesSection {
  /** At most the configuration's `themes_limit` (20 for each text of a collection). */
  readonly themes: readonly FoundTheme[]
  /** Noun phrases as written (not their parts), names included (`isProper`), in text order. */
  readonly phrases: readonly ThemeSpan[]
  /** The background frequency list the themes were ranked against (Discovery reads facet specificity from it). */
  readonly background?: Background
}

/**
 * Noun phrases of a document, as written: maximal runs of adjectives, nouns, names and hyphenated compounds that
 * end in a noun (see `extractCandidates`), without the parts that compete with them as theme candidates.
 */
export function nounPhrases(doc: AnnotatedDocument): ThemeSpan[] {
  return extractCandidates(doc).filter((p) => !p.isPart)
}

/** The background frequency list of a data folder (see `resolveDataDir`), read on first use and kept by the caller. */
export function lazyBackground(dataDir?: string): () => Background {
  let b: Background | undefined
  return () => (b ??= loadBackground(dataDir))
}

/**
 * The `themes` analyzer reading its background list from `dataDir` (default: the package's, see
 * `resolveDataDir`), or from `background` when the engine shares one list between analyzers.
 */
export function createThemesAnalyzer(dataDir?: string, background: () => Background = lazyBackground(dataDir)): Analyzer<'themes'> {
  const prior = (): ThemePrior => loadThemePrior(dataDir)
  return {
    name: 'themes',
    needs: ['sentiment'],
    enabled: (ctx) => ctx.subscription.feature_settings.document.themes && ctx.configuration.document.themes_limit > 0,
    run(doc, sections, ctx) {
      const sentiment = need(sections, 'sentiment')
      const candidates = extractCandidates(doc)
      return {
        background: background(),
        // Only the themes the output can hold get their (aspect) sentiment computed: the rest are never shown.
        themes: rankThemes(doc, candidates, sentiment, background(), ctx.configuration.document.themes_limit, prior()),
        phrases: candidates.filter((p) => !p.isPart),
      }
    },
    toWire(value, out, ctx, doc) {
      const d = ctx.configuration.document
      const withMentions = d.mentions && ctx.subscription.feature_settings.document.mentions && d.theme_mentions_limit > 0
      const list = (value as ThemesSection).themes.slice(0, d.themes_limit)
      if (list.length === 0) return
      out.themes = list.map((t, k) => themeWire(doc, t, k === 0, withMentions ? d.theme_mentions_limit : 0))
    },
  }
}


/**
 * Rank a document's theme candidates (from `extractCandidates`; phrases without their parts also work) into
 * themes (at most `limit`), with the sentiment and evidence of their context.
 */
export function rankThemes(
  doc: AnnotatedDocument,
  candidates: readonly ThemeSpan[],
  sentiment: SentimentSection,
  background: Background,
  limit = Infinity,
  prior?: ThemePrior,
): FoundTheme[] {
  return keyThemes(doc, background, limit, undefined, candidates, prior).map((c) => {
    const first = ownSpan(c)
    return new RankedTheme(first.normalized, themeTitle(doc, first, isNamedTheme(doc, c, background)), first.stemmed, c.spans, round4(c.score), () => {
      const x = contextSentiment(doc, c.spans, sentiment)
      const evidence = x.sentences.filter((i) => sentiment.sentencePolar[i] === true).length
      return { evidence: Math.min(7, evidence), sentiment: { score: x.score, polarity: x.polarity } }
    })
  })
}

/**
 * A theme of {@link rankThemes}: sentiment and evidence are read on first use (entity themes rank every theme of the
 * text, no limit, but show only the few that stand near an entity, and the aspect sentiment of a theme costs more than
 * its ranking). A class, so that the two getters live once on the prototype: an object literal with getters gets new
 * accessor pairs per object, which V8 allocates in the old generation, where they kept each document alive past two
 * scavenges (promoted, then garbage for the next full collection).
 */
class RankedTheme implements FoundTheme {
  private context: { readonly evidence: number; readonly sentiment: FoundTheme['sentiment'] } | undefined
  private read: (() => { readonly evidence: number; readonly sentiment: FoundTheme['sentiment'] }) | undefined

  constructor(
    readonly normalized: string,
    readonly title: string,
    readonly stemmed: string,
    readonly spans: readonly ThemeSpan[],
    readonly strength: number,
    read: () => { readonly evidence: number; readonly sentiment: FoundTheme['sentiment'] },
  ) {
    this.read = read
  }

  private contextOf(): { readonly evidence: number; readonly sentiment: FoundTheme['sentiment'] } {
    if (this.context === undefined) {
      this.context = this.read!()
      this.read = undefined
    }
    return this.context
  }

  get evidence(): number {
    return this.contextOf().evidence
  }

  get sentiment(): FoundTheme['sentiment'] {
    return this.contextOf().sentiment
  }
}

/**
 * Themes about an entity: the document's themes with an occurrence in a sentence that mentions it (outside the
 * mention itself), ordered by how many such occurrences they have, then by their rank in the document.
 */
export function entityThemes(doc: AnnotatedDocument, themes: readonly FoundTheme[], mentions: readonly TokenRange[], limit: number): FoundTheme[] {
  const sentences = new Set(mentions.map((m) => doc.tokens[m.tokenStart]!.sentence))
  const inside = (s: TokenRange): boolean => mentions.some((m) => s.tokenStart < m.tokenEnd && m.tokenStart < s.tokenEnd)
  const near = themes
    .map((t, rank) => ({ t, rank, n: t.spans.filter((s) => sentences.has(doc.tokens[s.tokenStart]!.sentence) && !inside(s)).length }))
    .filter((x) => x.n > 0)
  near.sort((a, b) => b.n - a.n || a.rank - b.rank)
  return near.slice(0, limit).map((x) => x.t)
}

/** The wire form of a theme; `mentionsLimit` 0 leaves mentions out. */
export function themeWire(doc: AnnotatedDocument, t: FoundTheme, isAbout: boolean, mentionsLimit: number): Theme {
  const item: Theme = {
    title: t.title,
    normalized: t.normalized,
    stemmed: t.stemmed,
    evidence: t.evidence,
    is_about: isAbout,
    strength_score: t.strength,
    sentiment_score: t.sentiment.score,
    sentiment_polarity: t.sentiment.polarity,
  }
  if (mentionsLimit > 0) item.mentions = spanMentions(doc, t.spans, mentionsLimit)
  return item
}

