/** Wire shapes of configurations and templates, field names exactly as the contract spells them. */

/** The `document` block of a configuration: switches, output limits, summary size, POS filter. */
export interface DocumentSettings {
  intentions: boolean
  concept_topics: boolean
  query_topics: boolean
  detect_language: boolean
  themes: boolean
  named_entities: boolean
  sentiment_phrases: boolean
  user_entities: boolean
  relations: boolean
  mentions: boolean
  opinions: boolean
  auto_categories: boolean
  model_sentiment: boolean
  /** Comma-separated POS type names (`"All"`, `"Noun,Verb,Adjective"`); absent = all. */
  pos_types?: string
  summary_size: number
  phrases_limit: number
  possible_phrases_limit: number
  auto_categories_limit: number
  concept_topics_limit: number
  query_topics_limit: number
  named_entities_limit: number
  user_entities_limit: number
  entity_themes_limit: number
  named_mentions_limit: number
  user_mentions_limit: number
  named_relations_limit: number
  user_relations_limit: number
  named_opinions_limit: number
  user_opinions_limit: number
  themes_limit: number
  theme_mentions_limit: number
  summary_limit: number
}

/** The `collection` block of a configuration (Discovery mode). */
export interface CollectionSettings {
  facets: boolean
  attributes: boolean
  themes: boolean
  mentions: boolean
  named_entities: boolean
  user_entities: boolean
  query_topics: boolean
  concept_topics: boolean
  facets_limit: number
  facet_atts_limit: number
  facet_mentions_limit: number
  attribute_mentions_limit: number
  concept_topics_limit: number
  named_entities_limit: number
  named_mentions_limit: number
  query_topics_limit: number
  themes_limit: number
  theme_mentions_limit: number
  user_entities_limit: number
  user_mentions_limit: number
}

/** The settings of a configuration (everything but identity). */
export interface ConfigurationSettings {
  name: string
  is_primary: boolean
  language: string
  auto_response: boolean
  callback?: string
  alphanumeric_threshold: number
  concept_topics_threshold: number
  entities_threshold: number
  one_sentence_mode: boolean
  process_html: boolean
  document: DocumentSettings
  collection: CollectionSettings
}

/** A configuration as stored and returned: both `id` and `config_id` carry the same value. */
export interface Configuration extends ConfigurationSettings {
  id: string
  config_id: string
  /** Epoch seconds of the last change. */
  modified: number
}

/** A read-only, built-in template: a configuration with its own tuning. */
export interface Template extends Configuration {
  rights: string[]
  version: string
  type: 'language-default' | 'vertical-pack'
  is_free: boolean
}
