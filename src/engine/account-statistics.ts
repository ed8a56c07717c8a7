import { fail, show } from '../errors.ts'
import type { StatisticsCounters, StatisticsRecord, Subscription } from '../model/account.ts'
import type { StatRow, Storage } from '../storage/types.ts'
import type { SettingsService } from './settings-service.ts'
import type { CallClass, StatisticsQuery } from './types.ts'
import type { CountEvent } from './documents-api.ts'

/** Statistics and call accounting of one account. */
export interface AccountStatistics {
  /** Count queue events (documents queued, batches, retrieved). */
  count(e: CountEvent): Promise<void>
  /** Count processing outcomes. */
  countOutcome(configId: string, language: string, ok: boolean): Promise<void>
  /** Count one call; enforce expiry and the class's call rate (402). */
  recordCall(callClass: CallClass, app?: string, configId?: string): Promise<void>
  /** Answer `GET /statistics`. */
  query(q: StatisticsQuery): Promise<StatisticsRecord[]>
}

/** Options of {@link createAccountStatistics}. */
export interface AccountStatisticsOptions {
  readonly storage: Storage
  readonly account: string
  readonly consumerName: string
  readonly subscription: Subscription
  readonly now: () => number
  readonly settings: SettingsService
}

const BUCKET_MS = 60_000
const COUNTER_NAMES: readonly (keyof StatisticsCounters)[] = [
  'batches_queued', 'calls_data', 'calls_polling', 'calls_settings', 'docs_failed', 'docs_queued', 'docs_retrieved',
  'docs_successful', 'total_api_calls',
]
const INTERVALS = ['hour', 'day', 'week', 'month', 'year'] as const

/** Zero counters. */
export function zeroCounters(): StatisticsCounters {
  return Object.fromEntries(COUNTER_NAMES.map((k) => [k, 0])) as unknown as StatisticsCounters
}

/**
 * Create the statistics of one account. Counters are kept in one-minute buckets per configuration, app
 * and language in the storage; call rates are limited in memory with a sliding window per class.
 */
export function createAccountStatistics(o: AccountStatisticsOptions): AccountStatistics {
  const billing = o.subscription.billing_settings
  const calls: Record<CallClass, number[]> = { data: [], settings: [], polling: [] }
  let latestApp = ''
  const bucket = (): number => Math.floor(o.now() / BUCKET_MS) * BUCKET_MS
  const languageOf = async (configId: string): Promise<string> =>
    (await o.settings.find(configId).catch(() => undefined))?.configuration.language ?? ''

  return {
    async count(e) {
      const { configId, app, ...counters } = e
      if (app !== undefined && app !== '') latestApp = app
      await o.storage.addCounters(o.account, { configId, app: app ?? '', language: await languageOf(configId) }, bucket(), counters)
    },
    async countOutcome(configId, language, ok) {
      await o.storage.addCounters(o.account, { configId, app: '', language }, bucket(), ok ? { docs_successful: 1 } : { docs_failed: 1 })
    },
    async recordCall(callClass, app, configId) {
      const now = o.now()
      if (billing.expiration_date > 0 && now > billing.expiration_date) {
        fail('ERR_LICENSE_EXPIRED', `the license expired on ${new Date(billing.expiration_date).toISOString()}`)
      }
      const limit = billing[`${callClass}_calls_limit`]
      const windowMs = Math.max(1, billing[`${callClass}_calls_interval`]) * 1000
      const list = calls[callClass]
      while (list.length > 0 && list[0]! <= now - windowMs) list.shift()
      if (limit > 0 && list.length >= limit) {
        fail('ERR_CALL_LIMIT', `${callClass} API calls limit exceeded: ${limit} calls per ${windowMs / 1000} s; contact support to raise it`)
      }
      list.push(now)
      if (app !== undefined && app !== '') latestApp = app
      const id = configId ?? ''
      await o.storage.addCounters(o.account, { configId: id, app: app ?? '', language: id === '' ? '' : await languageOf(id) }, bucket(), {
        [`calls_${callClass}`]: 1,
        total_api_calls: 1,
      })
    },
    async query(q) {
      const { from, to } = range(q, o.now())
      let rows = await o.storage.readCounters(o.account, from, to)
      const record = await o.settings.load()
      const names = new Map(record.configurations.map((c) => [c.configuration.config_id, c.configuration.name]))
      if (q.config_id !== undefined && q.config_id !== '') rows = rows.filter((r) => r.configId === q.config_id)
      if (q.config_name !== undefined && q.config_name !== '') {
        rows = rows.filter((r) => names.get(r.configId) === q.config_name || r.configId === q.config_name)
      }
      if (q.app !== undefined && q.app !== '') rows = rows.filter((r) => r.app === q.app)
      const groups = parseGroup(q.group)
      const latest = latestApp !== '' ? latestApp : [...rows].reverse().find((r) => r.app !== '')?.app
      const base = (counters: StatisticsCounters): StatisticsRecord => ({
        consumer_name: o.consumerName,
        ...(latest !== undefined && latest !== '' ? { latest_used_app: latest } : {}),
        ...counters,
      })
      if (groups.dims.length === 0 && groups.timeMs === undefined) return [base(sum(rows))]
      const byGroup = new Map<string, StatRow[]>()
      for (const r of rows) {
        const key = groups.dims.map((d) => (d === 'config' ? r.configId : d === 'app' ? r.app : r.language)).join('\u0000')
        const list = byGroup.get(key) ?? []
        list.push(r)
        byGroup.set(key, list)
      }
      if (byGroup.size === 0) byGroup.set(groups.dims.map(() => '').join('\u0000'), [])
      const out: StatisticsRecord[] = []
      for (const [key, list] of [...byGroup].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))) {
        const parts = key.split('\u0000')
        const rec = base(sum(list))
        groups.dims.forEach((d, i) => {
          const v = parts[i] ?? ''
          if (d === 'config') {
            rec.config_id = v
            const n = names.get(v)
            if (n !== undefined) rec.config_name = n
          } else if (d === 'app') rec.app_group = v
          else rec.language = v
        })
        rec.values = timeValues(list, from, to, groups.timeMs)
        out.push(rec)
      }
      return out
    },
  }
}

function sum(rows: readonly StatRow[]): StatisticsCounters {
  const c = zeroCounters()
  for (const r of rows) for (const k of COUNTER_NAMES) c[k] += r.counters[k]
  return c
}

/** One value per time bucket of the range (or one for the whole range without a time group). */
function timeValues(rows: readonly StatRow[], from: number, to: number, stepMs: number | undefined): Array<StatisticsCounters & { time: number }> {
  if (stepMs === undefined) return [{ time: from, ...sum(rows) }]
  const out: Array<StatisticsCounters & { time: number }> = []
  // At most 1,000 buckets: a longer range is answered in coarser steps rather than refused.
  const step = Math.max(stepMs, Math.ceil((to - from) / 1000 / stepMs) * stepMs)
  for (let t = from; t < to; t += step) out.push({ time: t, ...sum(rows.filter((r) => r.bucketStart >= t && r.bucketStart < t + step)) })
  return out.length > 0 ? out : [{ time: from, ...zeroCounters() }]
}

/** The `group` parameter: dimensions and an optional time step. */
export function parseGroup(group: string | undefined): { dims: ('config' | 'app' | 'language')[]; timeMs: number | undefined } {
  const dims: ('config' | 'app' | 'language')[] = []
  let timeMs: number | undefined
  if (group === undefined || group.trim() === '') return { dims, timeMs }
  for (const raw of group.split(',')) {
    const g = raw.trim().toLowerCase()
    if (g === '') continue
    if (g === 'config' || g === 'app' || g === 'language') {
      if (!dims.includes(g)) dims.push(g)
      continue
    }
    if (g === 'user') continue // one consumer per account: grouping by user is grouping by nothing
    const m = /^(\d{1,2})([mhd])$/.exec(g)
    if (m === null) fail('ERR_INVALID_FIELD', `group: expected config, language, app, user or a time interval like 1h or 6h, found ${show(raw)}`, 'group')
    const n = Number(m[1])
    if (n === 0) fail('ERR_INVALID_FIELD', `group: a time interval must be at least 1, found ${show(raw)}`, 'group')
    timeMs = n * (m[2] === 'm' ? 60_000 : m[2] === 'h' ? 3_600_000 : 86_400_000)
  }
  return { dims, timeMs }
}

/** The [from, to) range in epoch ms of a statistics query. */
export function range(q: StatisticsQuery, nowMs: number): { from: number; to: number } {
  const hasInterval = q.interval !== undefined && q.interval !== ''
  const hasFrom = q.from !== undefined && q.from !== ''
  if (hasInterval && (hasFrom || (q.to !== undefined && q.to !== ''))) {
    fail('ERR_INVALID_FIELD', 'interval and from/to cannot be used together', 'interval')
  }
  if (hasInterval) {
    const i = q.interval!.toLowerCase()
    if (!(INTERVALS as readonly string[]).includes(i)) {
      fail('ERR_INVALID_FIELD', `interval: expected hour, day, week, month or year, found ${show(q.interval)}`, 'interval')
    }
    const d = new Date(nowMs)
    const y = d.getUTCFullYear()
    const mo = d.getUTCMonth()
    const day = d.getUTCDate()
    let from: number
    if (i === 'hour') from = Date.UTC(y, mo, day, d.getUTCHours())
    else if (i === 'day') from = Date.UTC(y, mo, day)
    else if (i === 'week') from = Date.UTC(y, mo, day) - ((d.getUTCDay() + 6) % 7) * 86_400_000 // weeks start on Monday
    else if (i === 'month') from = Date.UTC(y, mo, 1)
    else from = Date.UTC(y, 0, 1)
    return { from, to: nowMs + 1 }
  }
  if (!hasFrom) fail('ERR_MISSING_FIELD', 'statistics need either interval or from (with an optional to)', 'interval')
  const from = parseTime(q.from!, 'from')
  const to = q.to !== undefined && q.to !== '' ? parseTime(q.to, 'to') : nowMs + 1
  if (to <= from) fail('ERR_INVALID_FIELD', `to (${show(q.to)}) must be after from (${show(q.from)})`, 'to')
  return { from, to }
}

/** Epoch seconds, epoch milliseconds (13 digits) or an ISO date-time, to epoch ms. */
export function parseTime(v: string, field: string): number {
  if (/^\d{1,12}$/.test(v)) return Number(v) * 1000
  if (/^\d{13}$/.test(v)) return Number(v)
  const t = Date.parse(v)
  if (Number.isNaN(t)) fail('ERR_INVALID_FIELD', `${field}: expected epoch seconds, epoch milliseconds or an ISO date-time, found ${show(v)}`, field)
  return t
}
