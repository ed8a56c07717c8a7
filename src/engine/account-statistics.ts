import type { StatisticsRecord, Subscription } from '../model/account.ts'
import type { SettingsService } from './settings-service.ts'
import type { CallClass, StatisticsQuery } from './types.ts'
import type { CountEvent } from './documents-api.ts'
import { checkDocsBalance, type AccountGuard, type Statistics } from './statistics.ts'

/** Statistics and license checks of one account, over the engine's shared statistics and guard. */
export interface AccountStatistics {
  /** Count queue events (documents queued, batches, retrieved). */
  count(e: CountEvent): Promise<void>
  /** Count a processing outcome. */
  countOutcome(configId: string, language: string, ok: boolean): Promise<void>
  /** Enforce expiry and the class's call rate (402), then count the call. */
  recordCall(callClass: CallClass, app?: string, configId?: string): Promise<void>
  /** ERR_BALANCE (402) when `adding` more documents would exceed the documents balance. */
  checkBalance(adding: number): Promise<void>
  /** Answer `GET /statistics`. */
  query(q: StatisticsQuery): Promise<StatisticsRecord[]>
}

/** Options of {@link createAccountStatistics}. */
export interface AccountStatisticsOptions {
  readonly account: string
  readonly consumerName: string
  readonly subscription: Subscription
  readonly settings: SettingsService
  readonly statistics: Statistics
  readonly guard: AccountGuard
  readonly now: () => number
}

/** Bind the engine's statistics and guard to one account. */
export function createAccountStatistics(o: AccountStatisticsOptions): AccountStatistics {
  const { account, statistics } = o
  const languageOf = async (configId: string): Promise<string> =>
    configId === '' ? '' : ((await o.settings.find(configId))?.configuration.language ?? '')
  return {
    async count(e) {
      const { configId, app, ...counters } = e
      await statistics.count(account, { configId, app: app ?? '', language: await languageOf(configId) }, counters)
    },
    async countOutcome(configId, language, ok) {
      await statistics.count(account, { configId, app: '', language }, ok ? { docs_successful: 1 } : { docs_failed: 1 })
    },
    async recordCall(callClass, app, configId) {
      o.guard.checkCall(account, callClass, o.subscription.billing_settings)
      const id = configId ?? ''
      await statistics.countCall(account, callClass, { configId: id, app: app ?? '', language: await languageOf(id) })
    },
    async checkBalance(adding) {
      const billing = o.subscription.billing_settings
      if (billing.docs_balance < 0) return
      const used = (await statistics.totals(account, 0, o.now() + 1)).docs_queued
      checkDocsBalance(billing, adding, used)
    },
    async query(q) {
      const record = await o.settings.load()
      const primary = record.configurations.find((c) => c.configuration.is_primary)
      return statistics.query(account, q, {
        consumerName: o.consumerName,
        configurations: record.configurations.map((c) => ({ id: c.configuration.config_id, name: c.configuration.name })),
        defaultConfigId: primary?.configuration.config_id,
      })
    },
  }
}
