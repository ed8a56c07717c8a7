import { fail } from '../errors.ts'
import type { Subscription } from '../model/account.ts'
import type { SettingsRecord, Storage, StoredConfiguration } from '../storage/types.ts'
import { DEFAULT_CONFIGURATION_NAME, defaultConfigurationSettings } from './settings.ts'
import { findConfiguration, type SettingsOperationContext } from './configurations.ts'
import type { QueryChecker } from './tuning.ts'
import { emptyTuning, type TemplateSource } from './templates.ts'

/** What every pure settings operation receives besides the record. */
export interface SettingsContext extends SettingsOperationContext {
  readonly subscription: Subscription
}

/** A pure change of the settings record and what to answer the caller. */
export type SettingsOperation<R> = (record: SettingsRecord, ctx: SettingsContext) => { record: SettingsRecord; result: R }

/** Compare-and-set attempts of one settings change before it gives up, and the time they may take. */
const MUTATE_ATTEMPTS = 60
const MUTATE_BUDGET_MS = 10_000
/** Back-off between attempts: a random wait up to base·2^attempt ms, at most the cap. */
const MUTATE_BACKOFF_BASE_MS = 4
const MUTATE_BACKOFF_CAP_MS = 250

/** The settings of one account behind a compare-and-set loop over {@link Storage}. */
export interface SettingsService {
  /** The current record (created with one primary configuration on first use). */
  load(): Promise<SettingsRecord>
  /** Apply a pure operation and store its record; retried on a concurrent change. */
  mutate<R>(op: SettingsOperation<R>): Promise<R>
  /** The configuration with this id, or the primary when `configId` is absent; ERR_UNKNOWN_CONFIGURATION otherwise. */
  resolve(configId?: string): Promise<StoredConfiguration>
  /** The configuration with this id, or undefined. */
  find(configId: string): Promise<StoredConfiguration | undefined>
}

/** Options of {@link createSettingsService}. */
export interface SettingsServiceOptions {
  readonly storage: Storage
  readonly account: string
  readonly subscription: Subscription
  /** The license's own feature settings (before narrowing to what the engine produces), for the 403 checks. */
  readonly licenseFeatures: Subscription['feature_settings']
  readonly templates: readonly TemplateSource[]
  readonly now: () => number
  readonly newId: () => string
  /** Syntax check of boolean queries in tuning. @defaultValue accept everything */
  readonly checkQuery?: QueryChecker
}

/**
 * Create the settings service of one account. Reads are served from a copy cached by record version,
 * so analysis does not deep-copy the settings for every document.
 */
export function createSettingsService(o: SettingsServiceOptions): SettingsService {
  let cached: SettingsRecord | undefined
  const ctx = (): SettingsContext => ({
    subscription: o.subscription,
    limits: o.subscription.basic_settings,
    supportedLanguages: o.subscription.feature_settings.supported_languages,
    licenseFeatures: o.licenseFeatures,
    templates: o.templates,
    nowSeconds: Math.floor(o.now() / 1000),
    newId: o.newId,
    ...(o.checkQuery === undefined ? {} : { checkQuery: o.checkQuery }),
  })

  const initial = (): SettingsRecord => {
    const id = o.newId()
    const language = o.subscription.feature_settings.supported_languages.split(',')[0]?.trim() || 'English'
    const settings = defaultConfigurationSettings(language)
    return {
      version: 1,
      configurations: [
        {
          configuration: { ...settings, name: DEFAULT_CONFIGURATION_NAME, is_primary: true, id, config_id: id, modified: Math.floor(o.now() / 1000) },
          tuning: emptyTuning(),
          revision: 1,
        },
      ],
    }
  }

  async function load(): Promise<SettingsRecord> {
    // Analysis reads the settings for every document: probe the version, read the record only when it moved.
    if (cached !== undefined && (await o.storage.settingsVersion(o.account)) === cached.version) return cached
    const stored = await o.storage.loadSettings(o.account)
    if (stored !== undefined) {
      cached = stored
      return cached
    }
    const fresh = initial()
    if (await o.storage.saveSettings(o.account, fresh, 0)) {
      cached = fresh
      return fresh
    }
    const again = await o.storage.loadSettings(o.account)
    if (again === undefined) fail('ERR_INTERNAL', `settings of account ${o.account} could not be stored`)
    cached = again
    return again
  }

  return {
    load,
    async mutate(op) {
      const started = Date.now()
      for (let attempt = 0; ; attempt++) {
        const record = await load()
        // Operations are pure, but work on a private copy so a cached record can never be touched.
        const draft = structuredClone(record)
        const { record: next, result } = op(draft, ctx())
        if (next === draft) return result
        const toStore: SettingsRecord = { ...next, version: record.version + 1 }
        if (await o.storage.saveSettings(o.account, toStore, record.version)) {
          cached = toStore
          return result
        }
        // Another writer won: back off a random time (full jitter, growing) so that many concurrent writers
        // spread out instead of colliding again at once, within a bounded number of attempts and time.
        if (attempt + 1 >= MUTATE_ATTEMPTS || Date.now() - started >= MUTATE_BUDGET_MS) break
        await new Promise((r) => setTimeout(r, Math.random() * Math.min(MUTATE_BACKOFF_CAP_MS, MUTATE_BACKOFF_BASE_MS * 2 ** attempt)))
      }
      return fail('ERR_INTERNAL', 'settings changed concurrently too many times; try again')
    },
    async resolve(configId) {
      return findConfiguration(await load(), configId)
    },
    async find(configId) {
      const record = await load()
      return record.configurations.find((c) => c.configuration.config_id === configId)
    },
  }
}
