import type { BasicSettings, BillingSettings, FeatureSettings, Subscription } from '../model/account.ts'

/** The contract's starter-edition limits (spec, Limits table; client-compat §4). */
export const DEFAULT_BASIC_SETTINGS: Readonly<BasicSettings> = Object.freeze({
  collection_limit: 1000,
  auto_response_batch_limit: 100,
  configurations_limit: 10,
  concept_topics_limit: 100,
  query_topics_limit: 100,
  user_entities_limit: 1000,
  callback_batch_limit: 100,
  concept_topic_samples_limit: 20,
  return_source_text: false,
  characters_limit: 2048,
  blacklist_limit: 100,
  sentiment_phrases_limit: 1000,
  incoming_batch_limit: 100,
  document_length: 2048,
  polling_batch_limit: 100,
  summary_size_limit: 10,
  near_operator_limit: 5,
  near_operator_distance: 10,
  query_length_limit: 1500,
  queries_depth_limit: 5,
  queries_depth_level: 5,
})

/** Call limits of 10 per second per class, unlimited documents, no expiry. */
export const DEFAULT_BILLING_SETTINGS: Readonly<BillingSettings> = Object.freeze({
  data_calls_limit: 10,
  data_calls_interval: 1,
  data_calls_balance: -1,
  settings_calls_limit: 10,
  settings_calls_interval: 1,
  settings_calls_balance: -1,
  polling_calls_limit: 10,
  polling_calls_interval: 1,
  polling_calls_balance: -1,
  docs_balance: -1,
  expiration_date: 0,
  limit_type: 'unlimited',
  docs_suggested: 0,
  job_ids_allocated: 0,
  job_ids_permitted: 100,
  app_seats_permitted: 0,
  app_seats_allocated: 0,
})

/**
 * The default license: every feature allowed, English. What an account finally sees is this
 * narrowed to what the engine really produces (`engineFeatureSettings` in features.ts).
 */
export function defaultLicenseFeatures(): FeatureSettings {
  const doc = ['concept_topics', 'query_topics', 'sentiment_phrases', 'user_entities', 'intentions', 'model_sentiment',
    'language_detection', 'named_entities', 'pos_tagging', 'summary', 'themes', 'relations', 'mentions', 'opinions', 'auto_categories'] as const
  const col = ['concept_topics', 'query_topics', 'user_entities', 'named_entities', 'themes', 'mentions', 'facets'] as const
  return {
    document: Object.fromEntries(doc.map((k) => [k, true])) as FeatureSettings['document'],
    collection: Object.fromEntries(col.map((k) => [k, true])) as FeatureSettings['collection'],
    html_processing: true,
    supported_languages: 'English',
  }
}

/** Per-account overrides of the subscription (every field optional). */
export interface SubscriptionOverrides {
  readonly name?: string
  readonly billing_settings?: Partial<BillingSettings>
  readonly basic_settings?: Partial<BasicSettings>
  readonly feature_settings?: {
    readonly document?: Partial<FeatureSettings['document']>
    readonly collection?: Partial<FeatureSettings['collection']>
    readonly html_processing?: boolean
    readonly supported_languages?: string
  }
}

/** A subscription: defaults, then the account's overrides. Templates are listed by the caller. */
export function buildSubscription(overrides: SubscriptionOverrides | undefined, name: string): Subscription {
  const f = defaultLicenseFeatures()
  const o = overrides ?? {}
  return {
    name: o.name ?? name,
    status: 'active',
    billing_settings: { ...DEFAULT_BILLING_SETTINGS, ...o.billing_settings },
    basic_settings: { ...DEFAULT_BASIC_SETTINGS, ...o.basic_settings },
    feature_settings: {
      document: { ...f.document, ...o.feature_settings?.document },
      collection: { ...f.collection, ...o.feature_settings?.collection },
      html_processing: o.feature_settings?.html_processing ?? f.html_processing,
      supported_languages: o.feature_settings?.supported_languages ?? f.supported_languages,
    },
    templates: [],
  }
}
