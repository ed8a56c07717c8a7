import { fail, show } from '../errors.ts'
import type { BillingSettings, StatisticsCounters, StatisticsRecord } from '../model/account.ts'
import { zeroCounters } from '../storage/memory.ts'
import type { StatDimensions, StatRow, Storage } from '../storage/types.ts'
import type { CallClass, StatisticsQuery } from './types.ts'

/** Options of {@link createStatistics}. */
export interface StatisticsOptions {
  readonly storage: Storage
  /** Clock in epoch milliseconds. */
  readonly now: () => number
  /** Width of a stored bucket; time groups are whole multiples of it. @defaultValue 60 000 (one minute) */
  readonly bucketMs?: number
}

/** What a query needs to know of the account. */
export interface StatisticsContext {
  /** `consumer_name` of every record. */
  readonly consumerName: string
  /** Configurations by id and name (names for `config_name` and grouped records). */
  readonly configurations: ReadonlyArray<{ readonly id: string; readonly name: string }>
  /** `config_id` of the totals record when the query names none (the primary configuration). */
  readonly defaultConfigId?: string | undefined
}

/** Counters of accounts, kept in storage buckets by configuration, app and language. */
export interface Statistics {
  /** Add counters to the current bucket of (account, dims). */
  count(account: string, dims: StatDimensions, counters: Partial<StatisticsCounters>): Promise<void>
  /** Count one API call of a class (its `calls_*` counter and `total_api_calls`). */
  countCall(account: string, callClass: CallClass, dims: StatDimensions): Promise<void>
  /** Answer `GET /statistics` (spec E38): always an array, see {@link StatisticsQuery}. */
  query(account: string, query: StatisticsQuery, context: StatisticsContext): Promise<StatisticsRecord[]>
  /** Sum of counters of an account over [fromMs, toMs). */
  totals(account: string, fromMs: number, toMs: number): Promise<StatisticsCounters>
}

const COUNTERS = Object.keys(zeroCounters()) as Array<keyof StatisticsCounters>
const CALL_COUNTER = { data: 'calls_data', settings: 'calls_settings', polling: 'calls_polling' } as const
const UNITS = { m: 60_000, h: 3_600_000, d: 86_400_000 } as const
const DIMENSIONS = ['config', 'app', 'language', 'user'] as const

/** A parsed `GET /statistics` query. */
export interface ParsedStatisticsQuery {
  readonly fromMs: number
  readonly toMs: number
  readonly configIds: readonly string[] | undefined
  readonly app: string | undefined
  readonly groupBy: ReadonlySet<'config' | 'app' | 'language'>
  /** Time bucket width in ms when grouped by time. */
  readonly timeMs: number | undefined
}

/** Create the statistics of an engine (every account, kept apart by key). */
export function createStatistics(options: StatisticsOptions): Statistics {
  const { storage, now } = options
  const bucketMs = options.bucketMs ?? 60_000
  if (!(Number.isInteger(bucketMs) && bucketMs > 0)) fail('ERR_INVALID_OPTIONS', `bucketMs must be a positive integer, found ${show(bucketMs)}`)

  const count = async (account: string, dims: StatDimensions, counters: Partial<StatisticsCounters>): Promise<void> => {
    const t = now()
    await storage.addCounters(account, dims, t - mod(t, bucketMs), counters)
  }

  return {
    count,
    countCall: (account, callClass, dims) => count(account, dims, { [CALL_COUNTER[callClass]]: 1, total_api_calls: 1 }),

    async totals(account, fromMs, toMs) {
      const sum = zeroCounters()
      for (const r of await storage.readCounters(account, fromMs, toMs)) addInto(sum, r.counters)
      return sum
    },

    async query(account, query, context) {
      const q = parseStatisticsQuery(query, now(), context, bucketMs)
      const rows = (await storage.readCounters(account, q.fromMs - mod(q.fromMs, bucketMs), q.toMs)).filter(
        (r) => (q.configIds === undefined || q.configIds.includes(r.configId)) && (q.app === undefined || r.app === q.app),
      )
      return buildRecords(rows, q, context)
    },
  }
}

/**
 * Check and resolve a statistics query: `interval` (hour, day, week, month, year in any case: the current
 * one, UTC) or `from`/`to` (epoch seconds, epoch milliseconds or ISO date-time; `to` defaults to now),
 * never both; `config_id`/`config_name` and `app` filters; `group` of config, app, language, user and at
 * most one time bucket `(0-9){1,2}(m|h|d)`. Throws ERR_INVALID_FIELD naming the parameter.
 */
export function parseStatisticsQuery(query: StatisticsQuery, nowMs: number, context: StatisticsContext, bucketMs = 60_000): ParsedStatisticsQuery {
  const given = (v: string | undefined): v is string => v !== undefined && v.trim() !== ''
  let fromMs: number
  let toMs: number
  if (given(query.interval)) {
    if (given(query.from) || given(query.to)) fail('ERR_INVALID_FIELD', 'interval and from/to are mutually exclusive: give one of them', 'interval')
    ;[fromMs, toMs] = intervalRange(query.interval, nowMs)
  } else if (given(query.from)) {
    fromMs = parseTime(query.from, 'from')
    // Without `to`, up to now, the current bucket included.
    toMs = given(query.to) ? parseTime(query.to, 'to') : nowMs + 1
    if (toMs < fromMs) fail('ERR_INVALID_FIELD', `to (${show(query.to)}) is before from (${show(query.from)})`, 'to')
  } else if (given(query.to)) {
    fail('ERR_INVALID_FIELD', 'to is used with from; from is missing', 'from')
  } else {
    fail('ERR_INVALID_FIELD', 'statistics need an interval (hour, day, week, month, year) or a from/to range', 'interval')
  }

  let configIds: string[] | undefined
  if (given(query.config_id)) configIds = [query.config_id.trim()]
  if (given(query.config_name)) {
    const name = query.config_name.trim()
    // One published example passes an id under this name: accept both.
    const byName = context.configurations.filter((c) => c.name === name || c.id === name).map((c) => c.id)
    configIds = configIds === undefined ? byName : configIds.filter((id) => byName.includes(id))
  }

  const groupBy = new Set<'config' | 'app' | 'language'>()
  let timeMs: number | undefined
  if (given(query.group)) {
    for (const raw of query.group.split(',')) {
      const g = raw.trim().toLowerCase()
      if (g === '') continue
      const time = /^(\d{1,2})([mhd])$/.exec(g)
      if (time !== null) {
        const width = Number(time[1]) * UNITS[time[2] as keyof typeof UNITS]
        if (width === 0) fail('ERR_INVALID_FIELD', `group ${show(raw)}: a time bucket must be at least 1`, 'group')
        if (timeMs !== undefined) fail('ERR_INVALID_FIELD', `group ${show(query.group)}: at most one time bucket`, 'group')
        if (width % bucketMs !== 0) fail('ERR_INVALID_FIELD', `group ${show(raw)}: a time bucket must be a multiple of ${bucketMs / 1000} s`, 'group')
        timeMs = width
      } else if ((DIMENSIONS as readonly string[]).includes(g)) {
        // Every call of an account is one user's: `user` groups nothing further.
        if (g !== 'user') groupBy.add(g as 'config' | 'app' | 'language')
      } else {
        fail('ERR_INVALID_FIELD', `group ${show(raw)}: expected config, app, language, user or a time bucket like 1h, 6h, 15m, 1d`, 'group')
      }
    }
  }
  const app = given(query.app) ? query.app.trim() : undefined
  return { fromMs, toMs, configIds, app, groupBy, timeMs }
}

/** The [start, end) of the current hour, day, week (Monday first), month or year, UTC. */
export function intervalRange(interval: string, nowMs: number): [number, number] {
  const d = new Date(nowMs)
  const y = d.getUTCFullYear()
  const mo = d.getUTCMonth()
  const day = d.getUTCDate()
  switch (interval.trim().toLowerCase()) {
    case 'hour': {
      const start = nowMs - mod(nowMs, 3_600_000)
      return [start, start + 3_600_000]
    }
    case 'day': {
      const start = Date.UTC(y, mo, day)
      return [start, Date.UTC(y, mo, day + 1)]
    }
    case 'week': {
      const sinceMonday = (d.getUTCDay() + 6) % 7
      return [Date.UTC(y, mo, day - sinceMonday), Date.UTC(y, mo, day - sinceMonday + 7)]
    }
    case 'month':
      return [Date.UTC(y, mo, 1), Date.UTC(y, mo + 1, 1)]
    case 'year':
      return [Date.UTC(y, 0, 1), Date.UTC(y + 1, 0, 1)]
    default:
      return fail('ERR_INVALID_FIELD', `interval ${show(interval)}: expected hour, day, week, month or year`, 'interval')
  }
}

/** Epoch seconds (up to 11 digits), epoch milliseconds, or an ISO date or date-time (UTC unless it says). */
export function parseTime(value: string, field: string): number {
  const v = value.trim()
  if (/^\d+$/.test(v)) {
    const n = Number(v)
    return v.length <= 11 ? n * 1000 : n
  }
  if (/^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$/i.test(v)) {
    const iso = v.replace(' ', 'T')
    // A date-time without a zone is read as UTC, like a bare date.
    const ms = Date.parse(/T/.test(iso) && !/(Z|[+-]\d{2}:?\d{2})$/i.test(iso) ? iso + 'Z' : iso)
    if (Number.isFinite(ms)) return ms
  }
  return fail('ERR_INVALID_FIELD', `${field} ${show(value)}: expected epoch seconds, epoch milliseconds or an ISO date-time`, field)
}

function buildRecords(rows: readonly StatRow[], q: ParsedStatisticsQuery, context: StatisticsContext): StatisticsRecord[] {
  const names = new Map(context.configurations.map((c) => [c.id, c.name]))
  if (q.groupBy.size === 0 && q.timeMs === undefined) {
    const sum = zeroCounters()
    for (const r of rows) addInto(sum, r.counters)
    const configId = q.configIds?.length === 1 ? q.configIds[0] : q.configIds === undefined ? context.defaultConfigId : undefined
    const record: StatisticsRecord = { consumer_name: context.consumerName, latest_used_app: latestApp(rows), ...sum }
    if (configId !== undefined) {
      record.config_id = configId
      const name = names.get(configId)
      if (name !== undefined) record.config_name = name
    }
    return [record]
  }

  const groups = new Map<string, { dims: Partial<StatDimensions>; rows: StatRow[] }>()
  for (const r of rows) {
    const dims: Partial<StatDimensions> = {}
    if (q.groupBy.has('config')) dims.configId = r.configId
    if (q.groupBy.has('app')) dims.app = r.app
    if (q.groupBy.has('language')) dims.language = r.language
    const k = JSON.stringify([dims.configId, dims.app, dims.language])
    let g = groups.get(k)
    if (g === undefined) {
      g = { dims, rows: [] }
      groups.set(k, g)
    }
    g.rows.push(r)
  }
  if (groups.size === 0) {
    // Nothing was counted: one record of zeros, so `values` is never empty.
    const dims: Partial<StatDimensions> = {}
    if (q.groupBy.has('config') && q.configIds?.length === 1) dims.configId = q.configIds[0]!
    if (q.groupBy.has('app') && q.app !== undefined) dims.app = q.app
    groups.set('', { dims, rows: [] })
  }

  const records: StatisticsRecord[] = []
  for (const k of [...groups.keys()].sort()) {
    const g = groups.get(k)!
    const sum = zeroCounters()
    const values = new Map<number, StatisticsCounters>()
    for (const r of g.rows) {
      addInto(sum, r.counters)
      const time = q.timeMs === undefined ? q.fromMs : r.bucketStart - mod(r.bucketStart, q.timeMs)
      let v = values.get(time)
      if (v === undefined) {
        v = zeroCounters()
        values.set(time, v)
      }
      addInto(v, r.counters)
    }
    if (values.size === 0) values.set(q.timeMs === undefined ? q.fromMs : q.fromMs - mod(q.fromMs, q.timeMs), zeroCounters())
    const record: StatisticsRecord = { consumer_name: context.consumerName, latest_used_app: latestApp(g.rows), ...zeroCounters() }
    if (g.dims.configId !== undefined) {
      record.config_id = g.dims.configId
      const name = names.get(g.dims.configId)
      if (name !== undefined) record.config_name = name
    }
    if (g.dims.app !== undefined) record.app_group = g.dims.app
    if (g.dims.language !== undefined) record.language = g.dims.language
    Object.assign(record, sum)
    record.values = [...values.entries()].sort((a, b) => a[0] - b[0]).map(([time, c]) => ({ time, ...c }))
    records.push(record)
  }
  return records
}

/** The app of the latest bucket that names one (ties: the busier app, then by name); "" when none. */
function latestApp(rows: readonly StatRow[]): string {
  let best: StatRow | undefined
  for (const r of rows) {
    if (r.app === '') continue
    if (
      best === undefined ||
      r.bucketStart > best.bucketStart ||
      (r.bucketStart === best.bucketStart && (r.counters.total_api_calls > best.counters.total_api_calls || (r.counters.total_api_calls === best.counters.total_api_calls && r.app < best.app)))
    ) {
      best = r
    }
  }
  return best?.app ?? ''
}

function addInto(sum: StatisticsCounters, add: StatisticsCounters): void {
  for (const c of COUNTERS) sum[c] += add[c]
}

function mod(a: number, b: number): number {
  return ((a % b) + b) % b
}

/** Options of {@link createAccountGuard}. */
export interface AccountGuardOptions {
  /** Clock in epoch milliseconds. */
  readonly now: () => number
}

/** Per-account license checks of each call: expiry, call rate per class, documents balance. */
export interface AccountGuard {
  /**
   * Throw ERR_LICENSE_EXPIRED (402) when `expiration_date` is non-zero and past, or ERR_CALL_LIMIT (402) when
   * the account already made `<class>_calls_limit` calls of this class in the last `<class>_calls_interval`
   * seconds (a limit or interval of 0 or less means unlimited). A refused call is not counted. Messages name the
   * account setting that raises the limit.
   */
  checkCall(account: string, callClass: CallClass, billing: BillingSettings): void
}

/** Create the call-rate limiter and expiry check (sliding window per account and class, by the injected clock). */
export function createAccountGuard(options: AccountGuardOptions): AccountGuard {
  const { now } = options
  const windows = new Map<string, number[]>()
  return {
    checkCall(account, callClass, billing) {
      const t = now()
      checkExpiry(billing, t)
      const limit = billing[`${callClass}_calls_limit`]
      const interval = billing[`${callClass}_calls_interval`]
      if (!(limit > 0 && interval > 0)) return
      const k = JSON.stringify([account, callClass])
      const since = t - interval * 1000
      const calls = (windows.get(k) ?? []).filter((at) => at > since)
      if (calls.length >= limit) {
        windows.set(k, calls)
        fail(
          'ERR_CALL_LIMIT',
          `${callClass} API calls limit exceeded: at most ${limit} calls per ${interval} s; ` +
            `raise billing_settings.${callClass}_calls_limit of the account in the server configuration (0 for none)`,
        )
      }
      calls.push(t)
      windows.set(k, calls)
    },
  }
}

/** ERR_LICENSE_EXPIRED (402) when `expiration_date` (epoch ms) is non-zero and not after `nowMs`. */
export function checkExpiry(billing: BillingSettings, nowMs: number): void {
  const exp = billing.expiration_date
  if (exp > 0 && nowMs >= exp) {
    fail('ERR_LICENSE_EXPIRED', `the license expired at ${new Date(exp).toISOString()}; set billing_settings.expiration_date of the account in the server configuration (0 for never)`)
  }
}

/** ERR_BALANCE (402) when `adding` documents (after `used`) exceed `docs_balance`; -1 means unlimited. */
export function checkDocsBalance(billing: BillingSettings, adding: number, used = 0): void {
  const balance = billing.docs_balance
  if (balance < 0) return
  if (used + adding > balance) {
    fail(
      'ERR_BALANCE',
      `documents balance exceeded: ${adding} documents sent, ${Math.max(0, balance - used)} of ${balance} left; ` +
        'raise billing_settings.docs_balance of the account in the server configuration (-1 for none)',
    )
  }
}
