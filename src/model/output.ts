/** Wire shapes of processed documents (Detailed mode) and collections (Discovery mode). */

/** Contract polarity strings. */
export type Polarity = 'positive' | 'negative' | 'neutral'

/** Queue states as they appear on the wire. */
export type ItemStatus = 'QUEUED' | 'PROCESSED' | 'FAILED'

/** A byte span in the UTF-8 text; `index` is the text's position in a collection (Discovery only). */
export interface Location {
  offset: number
  length: number
  index?: number
}

/** A mention of a theme, entity or topic. */
export interface Mention {
  label: string
  is_negated: boolean
  negating_phrase?: string
  locations: Location[]
}

/** One word of `details`. */
export interface Word {
  tag: string
  type: string
  title: string
  stemmed: string
  is_negated: boolean
  sentiment_score: number
}

/** One sentence of `details`. */
export interface SentenceDetail {
  is_imperative: boolean
  is_polar: boolean
  words: Word[]
}

/** A sentiment-bearing phrase (detected) or a suggestion (possible). */
export interface Phrase {
  title: string
  type: 'detected' | 'possible'
  sentiment_score?: number
  sentiment_polarity: Polarity
  is_negated?: boolean
  negating_phrase?: string
  is_intensified?: boolean
  intensifying_phrase?: string
  offset?: number
  length?: number
}

/** The statistical model's view of the document. */
export interface ModelSentiment {
  model_name: string
  sentiment_polarity: Polarity
  positive_score: number
  negative_score: number
  neutral_score: number
  mixed_score: number
}

/** A theme (key noun phrase). */
export interface Theme {
  title: string
  normalized: string
  stemmed: string
  evidence: number
  is_about: boolean
  strength_score: number
  sentiment_score: number
  sentiment_polarity: Polarity
  mentions?: Mention[]
}

/** An entity, named (discovered) or user (defined in the configuration). */
export interface Entity {
  type: 'named' | 'user'
  title: string
  label: string
  entity_type: string
  evidence: number
  confident: boolean
  is_about: boolean
  sentiment_score: number
  sentiment_polarity: Polarity
  mentions?: Mention[]
  themes?: Theme[]
}

/** A query or concept topic (nested `topics` for taxonomy nodes). */
export interface Topic {
  id?: string
  title: string
  type: 'query' | 'concept' | 'node'
  hitcount: number
  strength_score: number
  sentiment_score: number
  sentiment_polarity: Polarity
  mentions?: Mention[]
  topics?: Topic[]
}

/** An automatic category (node with leaf categories). */
export interface AutoCategory {
  title: string
  type: 'node' | 'leaf' | 'concept'
  strength_score: number
  sentiment_score: number
  sentiment_polarity: Polarity
  categories?: AutoCategory[]
}

/** A relation between entities. */
export interface Relation {
  type: 'named' | 'user'
  relation_type: string
  confidence_score: number
  extra: string
  entities: { title: string; entity_type: string }[]
}

/** A quotation attributed to a speaker. */
export interface Opinion {
  quotation: string
  type: 'named' | 'user'
  speaker: string
  topic: string
  sentiment_score: number
  sentiment_polarity: Polarity
}

/** An intention (buy, quit, ...). */
export interface Intention {
  evidence_phrase: string
  type: string
  what: string
  who: string
}

/** The processed document of Detailed mode. Sections are absent when off. */
export interface DocumentOutput {
  id: string
  config_id: string
  job_id?: string
  tag?: string
  metadata?: unknown
  status: ItemStatus
  /** Why a document FAILED (absent otherwise). */
  failure_reason?: string
  source_text?: string
  summary?: string
  language?: string
  language_score?: number
  sentiment_score?: number
  sentiment_polarity?: Polarity
  model_sentiment?: ModelSentiment
  intentions?: Intention[]
  entities?: Entity[]
  themes?: Theme[]
  phrases?: Phrase[]
  topics?: Topic[]
  taxonomy?: Topic[]
  auto_categories?: AutoCategory[]
  relations?: Relation[]
  opinions?: Opinion[]
  details?: SentenceDetail[]
}

/** A facet attribute of Discovery mode. */
export interface FacetAttribute {
  label: string
  count: number
  mentions?: Mention[]
}

/** A facet of Discovery mode. */
export interface Facet {
  label: string
  count: number
  negative_count: number
  positive_count: number
  neutral_count: number
  attributes?: FacetAttribute[]
  mentions?: Mention[]
}

/** A theme aggregated over a collection. */
export interface CollectionTheme {
  title: string
  phrases_count: number
  themes_count: number
  sentiment_score: number
  sentiment_polarity: Polarity
  mentions?: Mention[]
}

/** An entity aggregated over a collection. */
export interface CollectionEntity {
  title: string
  label: string
  type: 'named' | 'user'
  entity_type: string
  count: number
  negative_count: number
  positive_count: number
  neutral_count: number
  mentions?: Mention[]
}

/** A topic aggregated over a collection. */
export interface CollectionTopic {
  id?: string
  title: string
  type: 'query' | 'concept'
  hitcount: number
  sentiment_score: number
  sentiment_polarity: Polarity
}

/** The processed collection of Discovery mode. */
export interface CollectionOutput {
  id: string
  config_id: string
  job_id?: string
  tag?: string
  metadata?: unknown
  status: ItemStatus
  failure_reason?: string
  docs_count?: number
  facets?: Facet[]
  themes?: CollectionTheme[]
  entities?: CollectionEntity[]
  topics?: CollectionTopic[]
  taxonomy?: CollectionTopic[]
}
