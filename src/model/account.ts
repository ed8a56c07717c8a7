/** Wire shapes of the account endpoints: subscription, features, statistics, status. */

/** Billing part of a subscription. */
export interface BillingSettings {
  data_calls_limit: number
  data_calls_interval: number
  data_calls_balance: number
  settings_calls_limit: number
  settings_calls_interval: number
  settings_calls_balance: number
  polling_calls_limit: number
  polling_calls_interval: number
  polling_calls_balance: number
  /** Documents left; -1 means unlimited. */
  docs_balance: number
  /** Epoch milliseconds; 0 means never. */
  expiration_date: number
  limit_type: string
  docs_suggested: number
  job_ids_allocated: number
  job_ids_permitted: number
  app_seats_permitted: number
  app_seats_allocated: number
}

/** Limits of a license. */
export interface BasicSettings {
  collection_limit: number
  auto_response_batch_limit: number
  configurations_limit: number
  concept_topics_limit: number
  query_topics_limit: number
  user_entities_limit: number
  callback_batch_limit: number
  concept_topic_samples_limit: number
  return_source_text: boolean
  characters_limit: number
  blacklist_limit: number
  sentiment_phrases_limit: number
  incoming_batch_limit: number
  document_length: number
  polling_batch_limit: number
  summary_size_limit: number
  near_operator_limit: number
  near_operator_distance: number
  query_length_limit: number
  queries_depth_limit: number
  queries_depth_level: number
}

/** Switches of what a license may use. */
export interface FeatureSettings {
  document: {
    concept_topics: boolean
    query_topics: boolean
    sentiment_phrases: boolean
    user_entities: boolean
    intentions: boolean
    model_sentiment: boolean
    language_detection: boolean
    named_entities: boolean
    pos_tagging: boolean
    summary: boolean
    themes: boolean
    relations: boolean
    mentions: boolean
    opinions: boolean
    auto_categories: boolean
  }
  collection: {
    concept_topics: boolean
    query_topics: boolean
    user_entities: boolean
    named_entities: boolean
    themes: boolean
    mentions: boolean
    facets: boolean
  }
  html_processing: boolean
  /** Comma-separated language names, e.g. "English". */
  supported_languages: string
}

/** A template entry as listed inside the subscription. */
export interface SubscriptionTemplate {
  id: string
  config_id: string
  name: string
  language: string
  type: string
  version: string
  is_free: boolean
}

/** The subscription object of `GET /subscription`. */
export interface Subscription {
  name: string
  status: string
  billing_settings: BillingSettings
  basic_settings: BasicSettings
  feature_settings: FeatureSettings
  templates: SubscriptionTemplate[]
}

/** A status record of `GET /status`. */
export interface ServiceStatus {
  service_status: string
  api_version: string
  service_version: string
  supported_encoding: string
  supported_compression: string
  supported_languages: string[]
}

/** Counters of a statistics record. */
export interface StatisticsCounters {
  batches_queued: number
  calls_data: number
  calls_polling: number
  calls_settings: number
  docs_failed: number
  docs_queued: number
  docs_retrieved: number
  docs_successful: number
  total_api_calls: number
}

/** One statistics record (a totals record, or one group with `values` per time bucket). */
export interface StatisticsRecord extends StatisticsCounters {
  consumer_name: string
  latest_used_app?: string
  config_id?: string
  config_name?: string
  app_group?: string
  language?: string
  values?: Array<StatisticsCounters & { time: number }>
}

/** One record of `GET /features`. */
export interface FeatureRecord {
  id: string
  language: string
  html_processing: boolean
  settings: Record<string, boolean>
  detailed_mode: Record<string, boolean>
  discovery_mode: Record<string, boolean>
}
