import type { AnnotatedDocument } from '../nlp/types.ts'
import type { Configuration } from '../model/configuration.ts'
import type { Subscription } from '../model/account.ts'
import type { DocumentOutput, Polarity } from '../model/output.ts'
import type { ThemesSection } from './analyzers/themes.ts'

/** The sentiment of a document as the other analyzers consume it. */
export interface SentimentSection {
  readonly score: number
  readonly polarity: Polarity
  /** Per token index: the token's own contribution (0 for neutral tokens). */
  readonly tokenScores: readonly number[]
  /** Per sentence index. */
  readonly sentenceScores: readonly number[]
  /** Per sentence index: whether the writer meant to convey sentiment. */
  readonly sentencePolar: readonly boolean[]
  /**
   * Sentiment about what the spans mention (a theme's, entity's or topic's occurrences, a facet): the
   * aspect sentiment of `src/sentiment/aspect.ts`, one function for every consumer.
   */
  aspect(spans: readonly { readonly tokenStart: number; readonly tokenEnd: number }[], options?: { readonly names?: boolean }): { score: number; polarity: Polarity }
  /** Sentiment of a token span [tokenStart, tokenEnd), e.g. a theme's or entity's context. */
  span(tokenStart: number, tokenEnd: number): { score: number; polarity: Polarity }
  /** Polarity of a score under the scorer's thresholds. */
  polarityOf(score: number): Polarity
}

/** The detected language of a document. */
export interface LanguageSection {
  /** Language name as on the wire ("English"). */
  readonly name: string
  readonly code: string
  readonly score: number
}

/**
 * Every section an analyzer may write. Each analyzer owns exactly one key; others read it once the
 * pipeline has run its writer (declared through `needs`).
 */
export interface Sections {
  language: LanguageSection
  sentiment: SentimentSection
  details: DocumentOutput['details']
  summary: string
  themes: ThemesSection
  [extra: string]: unknown
}

/** Name of a section. */
export type SectionName = keyof Sections & string

/**
 * What an analyzer sees besides the document: the configuration it runs under, the subscription of
 * the account, the compiled tuning and the engine's shared services (sentiment scorer, tagger, ...).
 */
export interface AnalyzeContext {
  readonly configuration: Configuration
  readonly subscription: Subscription
  /** Compiled tuning resources of the configuration, keyed by the analyzer that owns them. */
  readonly resources: Readonly<Record<string, unknown>>
  /** Detailed (one output per text) or Discovery (texts feeding one collection output). @defaultValue 'detailed' */
  readonly mode?: 'detailed' | 'discovery'
}

/**
 * One step of the pipeline. It reads the annotated document and the sections it `needs`, and returns
 * its own section; `toWire` is the only bridge from that section to the Detailed output.
 */
export interface Analyzer<K extends SectionName = SectionName> {
  readonly name: K
  readonly needs: readonly SectionName[]
  /** Whether the section is produced under this configuration (off = absent, and not computed). */
  enabled(ctx: AnalyzeContext): boolean
  run(doc: AnnotatedDocument, sections: Partial<Sections>, ctx: AnalyzeContext): Sections[K]
  /** Write the section onto the wire output (omit it when empty or off). */
  toWire?(value: Sections[K], out: DocumentOutput, ctx: AnalyzeContext, doc: AnnotatedDocument): void
}
