import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { createStatistics } from '../../src/engine/statistics.ts'
import { createMemoryStorage } from '../../src/storage/memory.ts'

const MIN = 60_000
const DAY_START = Date.UTC(2026, 10, 18)

const event = fc.record({
  minute: fc.integer({ min: 0, max: 24 * 60 - 1 }),
  configId: fc.constantFrom('c1', 'c2', 'c3'),
  app: fc.constantFrom('', 'web', 'cli'),
  language: fc.constantFrom('en', 'fr'),
  docs: fc.integer({ min: 0, max: 5 }),
})
const grouping = fc
  .tuple(fc.subarray(['config', 'app', 'language']), fc.option(fc.constantFrom('1m', '15m', '1h', '6h', '1d'), { nil: undefined }))
  .map(([dims, time]) => [...dims, ...(time === undefined ? [] : [time])].join(','))

describe('statistics grouping', () => {
  it('should split the day totals into groups and time values that add back up to them', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(event, { maxLength: 40 }), grouping, async (events, group) => {
        const clock = { t: DAY_START }
        const stats = createStatistics({ storage: createMemoryStorage(), now: () => clock.t })
        for (const e of events) {
          clock.t = DAY_START + e.minute * MIN + 17
          await stats.countCall('acc', 'data', e)
          await stats.count('acc', e, { docs_queued: e.docs })
        }
        clock.t = DAY_START + 24 * 60 * MIN - 1
        const ctx = { consumerName: 'x', configurations: [{ id: 'c1', name: 'one' }] }
        const [total] = await stats.query('acc', { interval: 'day' }, ctx)
        expect(total?.total_api_calls).toBe(events.length)
        expect(total?.docs_queued).toBe(events.reduce((n, e) => n + e.docs, 0))
        const records = await stats.query('acc', { interval: 'day', group: group === '' ? 'user' : group }, ctx)
        if (group === '') {
          expect(records).toHaveLength(1)
          return
        }
        let calls = 0
        let docs = 0
        for (const r of records) {
          expect(r.values?.length).toBeGreaterThan(0)
          let groupCalls = 0
          for (const v of r.values ?? []) {
            expect(v.time).toBeGreaterThanOrEqual(DAY_START)
            expect(v.time).toBeLessThan(DAY_START + 24 * 60 * MIN)
            expect(v.time % MIN).toBe(0)
            groupCalls += v.total_api_calls
            calls += v.total_api_calls
            docs += v.docs_queued
          }
          expect(r.total_api_calls).toBe(groupCalls)
          if (events.length === 0) continue // one zero record with no group values to name
          expect(group.includes('config')).toBe(r.config_id !== undefined)
          expect(group.includes('app')).toBe(r.app_group !== undefined)
          expect(group.includes('language')).toBe(r.language !== undefined)
          const times = (r.values ?? []).map((v) => v.time)
          expect(times).toEqual([...times].sort((a, b) => a - b))
        }
        expect(calls).toBe(events.length)
        expect(docs).toBe(total?.docs_queued)
      }),
      { seed: 1122, numRuns: 80 },
    )
  })
})
