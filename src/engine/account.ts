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

/**
 * No call limits (a limit of 0 means unlimited), unlimited documents, no expiry: a self-hosted server belongs to
 * its operator, and the clients' test programs make dozens of calls a second. An account's
 * `billing_settings.<class>_calls_limit` and `_calls_interval` turn limits on (server configuration or
 * `createEngine({accounts: [{subscription}]})`). Every field stays an integer on the wire.
 */
export const DEFAULT_BILLING_SETTINGS: Readonly<BillingSettings> = Object.freeze({
  data_calls_limit: 0,
  data_calls_interval: 1,
  data_calls_balance: -1,
  settings_calls_limit: 0,
  settings_calls_interval: 1,
  settings_calls_balance: -1,
  polling_calls_limit: 0,
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

/** What a field of the overrides may hold: an integer of at least `min`, a boolean or a string. */
type FieldRule = { readonly kind: 'int'; readonly min: number; readonly note?: string } | { readonly kind: 'bool' } | { readonly kind: 'string' }

const INT0: FieldRule = { kind: 'int', min: 0 }
const INT1: FieldRule = { kind: 'int', min: 1 }
const BALANCE: FieldRule = { kind: 'int', min: -1, note: '-1 for unlimited' }

function billingRule(name: keyof BillingSettings): FieldRule {
  if (name === 'limit_type') return { kind: 'string' }
  if (name.endsWith('_calls_limit')) return { kind: 'int', min: 0, note: '0 for unlimited' }
  if (name.endsWith('_balance')) return BALANCE
  if (name === 'expiration_date') return { kind: 'int', min: 0, note: 'epoch milliseconds or an ISO date, 0 for never' }
  return INT0
}

function basicRule(name: keyof BasicSettings): FieldRule {
  if (name === 'return_source_text') return { kind: 'bool' }
  if (name === 'document_length' || name === 'characters_limit' || name === 'incoming_batch_limit' || name === 'collection_limit') return INT1
  return INT0
}

/**
 * Check untrusted subscription overrides (a configuration file, a command-line flag) field by field against the
 * subscription's shape, and return them typed. `expiration_date` may also be an ISO date, turned into epoch
 * milliseconds. Throws a `TypeError` whose message names the first bad field under `where`, the value found and
 * what is allowed.
 */
export function parseSubscriptionOverrides(value: unknown, where: string): SubscriptionOverrides {
  const bad = (path: string, found: unknown, allowed: string): never => {
    throw new TypeError(`${path} must be ${allowed}, found ${JSON.stringify(found) ?? String(found)}`)
  }
  const unknown = (path: string, known: readonly string[]): never => {
    throw new TypeError(`${path} is not a setting; allowed: ${known.join(', ')}`)
  }
  const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v)
  const section = <T extends object>(v: unknown, path: string, defaults: T, rule: (k: keyof T) => FieldRule): Partial<T> => {
    if (!isObject(v)) return bad(path, v, 'an object')
    const out: Record<string, unknown> = {}
    for (const [k, raw] of Object.entries(v)) {
      const p = `${path}.${k}`
      if (!(k in defaults)) unknown(p, Object.keys(defaults))
      const r = rule(k as keyof T)
      let x = raw
      if (k === 'expiration_date' && typeof x === 'string') {
        const t = Date.parse(x)
        x = Number.isNaN(t) ? bad(p, raw, 'epoch milliseconds or an ISO date such as "2030-01-01T00:00:00Z"') : t
      }
      if (r.kind === 'int' && !(typeof x === 'number' && Number.isInteger(x) && x >= r.min)) {
        bad(p, raw, `an integer >= ${r.min}${r.note === undefined ? '' : ` (${r.note})`}`)
      }
      if (r.kind === 'bool' && typeof x !== 'boolean') bad(p, raw, 'true or false')
      if (r.kind === 'string' && typeof x !== 'string') bad(p, raw, 'a string')
      out[k] = x
    }
    return out as Partial<T>
  }
  if (!isObject(value)) return bad(where, value, 'an object with billing_settings, basic_settings, feature_settings or name')
  const out: { -readonly [K in keyof SubscriptionOverrides]: SubscriptionOverrides[K] } = {}
  const features = defaultLicenseFeatures()
  for (const [k, v] of Object.entries(value)) {
    const p = `${where}.${k}`
    if (k === 'name') out.name = typeof v === 'string' ? v : bad(p, v, 'a string')
    else if (k === 'billing_settings') out.billing_settings = section(v, p, DEFAULT_BILLING_SETTINGS, billingRule)
    else if (k === 'basic_settings') out.basic_settings = section(v, p, DEFAULT_BASIC_SETTINGS, basicRule)
    else if (k === 'feature_settings') {
      if (!isObject(v)) return bad(p, v, 'an object')
      const f: { -readonly [K in keyof NonNullable<SubscriptionOverrides['feature_settings']>]: NonNullable<SubscriptionOverrides['feature_settings']>[K] } = {}
      for (const [fk, fv] of Object.entries(v)) {
        const fp = `${p}.${fk}`
        if (fk === 'document') f.document = section(fv, fp, features.document, () => ({ kind: 'bool' }))
        else if (fk === 'collection') f.collection = section(fv, fp, features.collection, () => ({ kind: 'bool' }))
        else if (fk === 'html_processing') f.html_processing = typeof fv === 'boolean' ? fv : bad(fp, fv, 'true or false')
        else if (fk === 'supported_languages') {
          f.supported_languages = typeof fv === 'string' && fv.trim() !== '' ? fv : bad(fp, fv, 'a comma-separated string of language names, e.g. "English,French"')
        } else unknown(fp, ['document', 'collection', 'html_processing', 'supported_languages'])
      }
      out.feature_settings = f
    } else unknown(p, ['name', 'billing_settings', 'basic_settings', 'feature_settings'])
  }
  return out
}
