import { describe, expect, it } from 'vitest'
import { isEngineError, type ErrorCode } from '../../src/errors.ts'
import {
  checkDocsBalance,
  checkExpiry,
  createAccountGuard,
  createStatistics,
  intervalRange,
  parseTime,
  type StatisticsContext,
} from '../../src/engine/statistics.ts'
import { createMemoryStorage } from '../../src/storage/memory.ts'
import type { BillingSettings } from '../../src/model/account.ts'

const MIN = 60_000
const HOUR = 60 * MIN
/** Wednesday 2026-11-18 10:30:00 UTC. */
const T0 = Date.UTC(2026, 10, 18, 10, 30)
const CTX: StatisticsContext = {
  consumerName: 'acme',
  configurations: [
    { id: 'c1', name: 'Primary' },
    { id: 'c2', name: 'Reviews' },
  ],
  defaultConfigId: 'c1',
}

function setup() {
  const clock = { t: T0 }
  const stats = createStatistics({ storage: createMemoryStorage(), now: () => clock.t })
  return { clock, stats }
}

function thrown(f: () => unknown): unknown {
  try {
    f()
  } catch (e) {
    return e
  }
  return undefined
}

function expectCode(e: unknown, code: ErrorCode, status: number, includes?: string): void {
  expect(isEngineError(e), `expected ${code}, got ${String(e)}`).toBe(true)
  if (!isEngineError(e)) return
  expect(e.code).toBe(code)
  expect(e.status).toBe(status)
  if (includes !== undefined) expect(e.message).toContain(includes)
}

async function rejection(p: Promise<unknown>): Promise<unknown> {
  return p.then(
    () => undefined,
    (e: unknown) => e,
  )
}

/** Calls and documents in two configurations, two apps, two languages, over two hours. */
async function populate(s: ReturnType<typeof setup>): Promise<void> {
  const { clock, stats } = s
  const a = { configId: 'c1', app: 'web', language: 'en' }
  const b = { configId: 'c2', app: 'cli', language: 'fr' }
  await stats.countCall('acc', 'data', a)
  await stats.count('acc', a, { docs_queued: 3, batches_queued: 1 })
  clock.t += 5 * MIN
  await stats.countCall('acc', 'polling', a)
  await stats.count('acc', a, { docs_retrieved: 2, docs_successful: 2, docs_failed: 1 })
  clock.t += HOUR
  await stats.countCall('acc', 'data', b)
  await stats.count('acc', b, { docs_queued: 1, batches_queued: 1 })
  await stats.countCall('acc', 'settings', b)
  await stats.countCall('other', 'data', a)
}

describe('statistics: totals', () => {
  it('should answer one totals record with consumer, latest app, configuration and every counter', async () => {
    const s = setup()
    await populate(s)
    const r = await s.stats.query('acc', { interval: 'day' }, CTX)
    expect(r).toEqual([
      {
        consumer_name: 'acme',
        latest_used_app: 'cli',
        batches_queued: 2,
        calls_data: 2,
        calls_polling: 1,
        calls_settings: 1,
        docs_failed: 1,
        docs_queued: 4,
        docs_retrieved: 2,
        docs_successful: 2,
        total_api_calls: 4,
        config_id: 'c1',
        config_name: 'Primary',
      },
    ])
  })

  it('should answer zeros (still one record) for an account with nothing counted', async () => {
    const s = setup()
    const [r] = await s.stats.query('acc', { interval: 'Month' }, CTX)
    expect(r?.total_api_calls).toBe(0)
    expect(r?.consumer_name).toBe('acme')
  })

  it('should filter by configuration id, configuration name and app', async () => {
    const s = setup()
    await populate(s)
    expect((await s.stats.query('acc', { interval: 'day', config_id: 'c2' }, CTX))[0]).toMatchObject({ total_api_calls: 2, config_id: 'c2', config_name: 'Reviews' })
    expect((await s.stats.query('acc', { interval: 'day', config_name: 'Primary' }, CTX))[0]?.total_api_calls).toBe(2)
    expect((await s.stats.query('acc', { interval: 'day', config_name: 'c2' }, CTX))[0]?.total_api_calls).toBe(2)
    expect((await s.stats.query('acc', { interval: 'day', config_name: 'nope' }, CTX))[0]?.total_api_calls).toBe(0)
    expect((await s.stats.query('acc', { interval: 'day', app: 'web' }, CTX))[0]).toMatchObject({ total_api_calls: 2, latest_used_app: 'web' })
  })

  it('should count only the current interval by the injected clock', async () => {
    const s = setup()
    await populate(s) // ends at 11:35
    expect((await s.stats.query('acc', { interval: 'HOUR' }, CTX))[0]?.total_api_calls).toBe(2)
    s.clock.t = Date.UTC(2026, 10, 19, 0, 1)
    expect((await s.stats.query('acc', { interval: 'day' }, CTX))[0]?.total_api_calls).toBe(0)
    expect((await s.stats.query('acc', { interval: 'week' }, CTX))[0]?.total_api_calls).toBe(4)
    s.clock.t = Date.UTC(2026, 10, 23, 12) // the next Monday
    expect((await s.stats.query('acc', { interval: 'week' }, CTX))[0]?.total_api_calls).toBe(0)
    expect((await s.stats.query('acc', { interval: 'year' }, CTX))[0]?.total_api_calls).toBe(4)
  })

  it('should read from/to as epoch seconds, epoch ms or ISO date-times, [from, to)', async () => {
    const s = setup()
    await populate(s)
    const from = T0 / 1000
    expect((await s.stats.query('acc', { from: String(from), to: String(from + 3600) }, CTX))[0]?.total_api_calls).toBe(2)
    expect((await s.stats.query('acc', { from: String(T0), to: String(T0 + 2 * HOUR) }, CTX))[0]?.total_api_calls).toBe(4)
    expect((await s.stats.query('acc', { from: '2026-11-18T11:00:00Z', to: '2026-11-19' }, CTX))[0]?.total_api_calls).toBe(2)
    expect((await s.stats.query('acc', { from: '2026-11-18' }, CTX))[0]?.total_api_calls).toBe(4)
  })

  it('should refuse a query with neither or both of interval and from/to, and bad values, naming the parameter', async () => {
    const { stats } = setup()
    expectCode(await rejection(stats.query('acc', {}, CTX)), 'ERR_INVALID_FIELD', 400, 'interval')
    expectCode(await rejection(stats.query('acc', { interval: 'day', from: '1' }, CTX)), 'ERR_INVALID_FIELD', 400, 'mutually exclusive')
    expectCode(await rejection(stats.query('acc', { interval: 'fortnight' }, CTX)), 'ERR_INVALID_FIELD', 400, '"fortnight"')
    expectCode(await rejection(stats.query('acc', { from: 'yesterday' }, CTX)), 'ERR_INVALID_FIELD', 400, 'from "yesterday"')
    expectCode(await rejection(stats.query('acc', { to: '5' }, CTX)), 'ERR_INVALID_FIELD', 400, 'from')
    expectCode(await rejection(stats.query('acc', { from: '200', to: '100' }, CTX)), 'ERR_INVALID_FIELD', 400, 'before')
    expectCode(await rejection(stats.query('acc', { interval: 'day', group: 'config,colour' }, CTX)), 'ERR_INVALID_FIELD', 400, '"colour"')
    expectCode(await rejection(stats.query('acc', { interval: 'day', group: '1h,6h' }, CTX)), 'ERR_INVALID_FIELD', 400, 'at most one')
    expectCode(await rejection(stats.query('acc', { interval: 'day', group: '0h' }, CTX)), 'ERR_INVALID_FIELD', 400)
    expectCode(await rejection(stats.query('acc', { interval: 'day', group: '100m' }, CTX)), 'ERR_INVALID_FIELD', 400)
  })
})

describe('statistics: groups', () => {
  it('should give one record per configuration with its name and one value for the whole range', async () => {
    const s = setup()
    await populate(s)
    const r = await s.stats.query('acc', { interval: 'day', group: 'config' }, CTX)
    const dayStart = Date.UTC(2026, 10, 18)
    expect(r.map((x) => [x.config_id, x.config_name, x.total_api_calls, x.values?.map((v) => [v.time, v.total_api_calls])])).toEqual([
      ['c1', 'Primary', 2, [[dayStart, 2]]],
      ['c2', 'Reviews', 2, [[dayStart, 2]]],
    ])
    expect(r[0]?.app_group).toBeUndefined()
  })

  it('should group by app and language together, and by time buckets', async () => {
    const s = setup()
    await populate(s)
    const r = await s.stats.query('acc', { interval: 'day', group: 'App, language, 1h' }, CTX)
    expect(r.map((x) => [x.app_group, x.language, x.config_id, x.values?.map((v) => [v.time, v.total_api_calls])])).toEqual([
      ['cli', 'fr', undefined, [[Date.UTC(2026, 10, 18, 11), 2]]],
      ['web', 'en', undefined, [[Date.UTC(2026, 10, 18, 10), 2]]],
    ])
  })

  it('should bucket by minutes and days, with bucket starts in epoch ms', async () => {
    const s = setup()
    await populate(s)
    const m = await s.stats.query('acc', { interval: 'day', group: '5m' }, CTX)
    expect(m).toHaveLength(1)
    expect(m[0]?.values?.map((v) => [v.time, v.calls_data, v.calls_polling, v.calls_settings])).toEqual([
      [T0, 1, 0, 0],
      [T0 + 5 * MIN, 0, 1, 0],
      [T0 + 65 * MIN, 1, 0, 1],
    ])
    const d = await s.stats.query('acc', { interval: 'year', group: '1d,config' }, CTX)
    expect(d.map((x) => x.values?.map((v) => v.time))).toEqual([[Date.UTC(2026, 10, 18)], [Date.UTC(2026, 10, 18)]])
  })

  it('should keep values non-empty when nothing was counted', async () => {
    const s = setup()
    const r = await s.stats.query('acc', { interval: 'hour', group: 'config,1h', config_id: 'c2' }, CTX)
    expect(r).toEqual([
      expect.objectContaining({ config_id: 'c2', config_name: 'Reviews', total_api_calls: 0, values: [expect.objectContaining({ time: Date.UTC(2026, 10, 18, 10), total_api_calls: 0 })] }),
    ])
  })

  it('should sum groups to the totals record', async () => {
    const s = setup()
    await populate(s)
    const [total] = await s.stats.query('acc', { interval: 'day' }, CTX)
    const groups = await s.stats.query('acc', { interval: 'day', group: 'config,app,language,15m' }, CTX)
    const sum = groups.flatMap((g) => g.values ?? []).reduce((n, v) => n + v.total_api_calls + v.docs_queued, 0)
    expect(sum).toBe(total!.total_api_calls + total!.docs_queued)
  })

  it('should keep accounts apart', async () => {
    const s = setup()
    await populate(s)
    expect((await s.stats.query('other', { interval: 'day' }, CTX))[0]?.total_api_calls).toBe(1)
    expect((await s.stats.totals('acc', 0, T0 + 1e9)).docs_queued).toBe(4)
  })
})

describe('statistics: time helpers', () => {
  it('should start weeks on Monday and months and years in UTC', () => {
    expect(intervalRange('week', T0)).toEqual([Date.UTC(2026, 10, 16), Date.UTC(2026, 10, 23)])
    expect(intervalRange('Month', T0)).toEqual([Date.UTC(2026, 10, 1), Date.UTC(2026, 11, 1)])
    expect(intervalRange('YEAR', T0)).toEqual([Date.UTC(2026, 0, 1), Date.UTC(2027, 0, 1)])
    expect(intervalRange('week', Date.UTC(2026, 10, 22, 23))).toEqual([Date.UTC(2026, 10, 16), Date.UTC(2026, 10, 23)])
  })
  it('should read a zone-less date-time as UTC and honour an offset', () => {
    expect(parseTime('2026-11-18T10:30', 'from')).toBe(T0)
    expect(parseTime('2026-11-18 12:30:00+02:00', 'from')).toBe(T0)
    expect(parseTime('1763461800', 'from')).toBe(1763461800000)
  })
})

function billing(over: Partial<BillingSettings> = {}): BillingSettings {
  return {
    data_calls_limit: 2,
    data_calls_interval: 1,
    data_calls_balance: -1,
    settings_calls_limit: 1,
    settings_calls_interval: 10,
    settings_calls_balance: -1,
    polling_calls_limit: 0,
    polling_calls_interval: 1,
    polling_calls_balance: -1,
    docs_balance: -1,
    expiration_date: 0,
    limit_type: 'metered',
    docs_suggested: 0,
    job_ids_allocated: 0,
    job_ids_permitted: 100,
    app_seats_permitted: 1,
    app_seats_allocated: 0,
    ...over,
  } as BillingSettings
}

describe('account guard', () => {
  it('should allow data_calls_limit calls per data_calls_interval seconds, per account and class', () => {
    const clock = { t: T0 }
    const guard = createAccountGuard({ now: () => clock.t })
    const b = billing()
    guard.checkCall('a', 'data', b)
    guard.checkCall('a', 'data', b)
    expectCode(thrown(() => guard.checkCall('a', 'data', b)), 'ERR_CALL_LIMIT', 402, 'raise billing_settings.data_calls_limit of the account in the server configuration (0 for none)')
    guard.checkCall('b', 'data', b)
    guard.checkCall('a', 'settings', b)
    expectCode(thrown(() => guard.checkCall('a', 'settings', b)), 'ERR_CALL_LIMIT', 402, 'at most 1 calls per 10 s')
    clock.t += 999
    expectCode(thrown(() => guard.checkCall('a', 'data', b)), 'ERR_CALL_LIMIT', 402)
    clock.t += 1
    guard.checkCall('a', 'data', b)
    for (let i = 0; i < 50; i++) guard.checkCall('a', 'polling', b) // limit 0: unlimited
  })

  it('should refuse every call once the license expired (0 means never)', () => {
    const clock = { t: T0 }
    const guard = createAccountGuard({ now: () => clock.t })
    guard.checkCall('a', 'polling', billing({ expiration_date: T0 + 1 }))
    clock.t += 1
    expectCode(thrown(() => guard.checkCall('a', 'polling', billing({ expiration_date: T0 + 1 }))), 'ERR_LICENSE_EXPIRED', 402)
    expect(() => checkExpiry(billing({ expiration_date: 0 }), T0)).not.toThrow()
  })

  it('should check the documents balance (-1 unlimited)', () => {
    expect(() => checkDocsBalance(billing({ docs_balance: -1 }), 1e9)).not.toThrow()
    expect(() => checkDocsBalance(billing({ docs_balance: 10 }), 4, 6)).not.toThrow()
    expectCode(thrown(() => checkDocsBalance(billing({ docs_balance: 10 }), 5, 6)), 'ERR_BALANCE', 402, '4 of 10 left; raise billing_settings.docs_balance')
  })
})
