import { randomBytes } from 'node:crypto'
import { Redis } from 'ioredis'
import type { RedisOptions } from 'ioredis'
import fc from 'fast-check'
import { afterAll, describe, expect, it } from 'vitest'
import { createMemoryStorage } from '../../src/storage/memory.ts'
import { createRedisStorage } from '../../src/storage/redis.ts'
import type { ItemKind, QueueItem, Storage } from '../../src/storage/types.ts'
import { runStorageContract } from '../helpers/storage-contract.ts'
import { churnOps, normalizeClaims, opArb as bulkOpArb, play as playBulk } from '../helpers/storage-ops.ts'
import type { Op as BulkOp } from '../helpers/storage-ops.ts'
import { REDIS_URL, redisReachable } from '../helpers/redis.ts'


/** Fail fast instead of hanging: short connect timeout, two reconnect attempts, no offline queue retries. */
const FAST_FAIL: RedisOptions = {
  lazyConnect: true,
  connectTimeout: 1_000,
  maxRetriesPerRequest: 1,
  retryStrategy: (times) => (times > 2 ? null : 100),
}


const unreachable = await redisReachable()
// Locally a missing Redis skips the suite; in CI it must run (and fail loudly).
const skip = unreachable !== undefined && process.env.CI === undefined
if (skip) console.warn(`Redis storage tests skipped: Redis at ${REDIS_URL} is not reachable (${unreachable}); set CI=1 to make them run and fail`)
const suite = skip ? describe.skip : describe

suite(`Redis storage at ${REDIS_URL}${unreachable === undefined ? '' : ` (skipped: Redis not reachable: ${unreachable}; set CI to force)`}`, () => {
  const client = new Redis(REDIS_URL, FAST_FAIL)
  client.on('error', () => {})
  afterAll(async () => {
    await client.quit()
  })

  const uniquePrefix = (): string => `textengine-test:${randomBytes(6).toString('hex')}:`

  async function deleteKeys(prefix: string): Promise<void> {
    let cursor = '0'
    do {
      const [next, keys] = await client.scan(cursor, 'MATCH', `${prefix.replace(/[*?[\]\\]/g, '\\$&')}*`, 'COUNT', 500)
      cursor = next
      if (keys.length > 0) await client.del(...keys)
    } while (cursor !== '0')
  }

  /** Keys under a prefix, besides the layout marker (which stays once written). */
  async function countKeys(prefix: string): Promise<number> {
    return (await client.keys(`${prefix}*`)).filter((k) => k !== `${prefix}layout`).length
  }

  runStorageContract('redis', async (options) => {
    const prefix = uniquePrefix()
    const storage = createRedisStorage({ client, prefix, ...options })
    return {
      ...storage,
      async close() {
        await storage.close()
        await deleteKeys(prefix)
      },
    }
  })

  const item = (id: string, seq: number, over: Partial<QueueItem> = {}): QueueItem => ({
    account: 'a',
    kind: 'document',
    configId: 'c1',
    id,
    status: 'QUEUED',
    seq,
    submittedAt: 1_000,
    input: { text: 'x' },
    ...over,
  })

  describe('adapter specifics', () => {
    it('should keep two prefixes on one server apart', async () => {
      const p1 = uniquePrefix()
      const p2 = uniquePrefix()
      const s1 = createRedisStorage({ client, prefix: p1 })
      const s2 = createRedisStorage({ client, prefix: p2 })
      try {
        await s1.putItems([item('d1', 1)])
        expect(await s2.getItem(item('d1', 1))).toBeUndefined()
        expect(await s2.claimQueued(10)).toEqual([])
        expect((await s1.claimQueued(10)).map((i) => i.id)).toEqual(['d1'])
      } finally {
        await deleteKeys(p1)
        await deleteKeys(p2)
      }
    })

    it('should leave no keys of an item behind once it is taken, cancelled or purged', async () => {
      const prefix = uniquePrefix()
      const s = createRedisStorage({ client, prefix })
      try {
        await s.putItems([item('d1', 1), item('d2', 2, { jobId: 'j' }), item('d3', 3), item('d4', 4, { submittedAt: 5 })])
        const claimed = await s.claimQueued(2)
        for (const c of claimed) expect(await s.completeItem({ ...c, status: 'PROCESSED', output: { id: c.id } as never })).toBe(true)
        expect(await s.takeProcessed('a', 'document', { configId: 'c1' }, 10)).toHaveLength(1)
        expect(await s.takeItem(item('d2', 2))).toBeDefined()
        expect(await s.cancelQueued(item('d3', 3))).toBe('cancelled')
        expect(await s.purgeBefore(10)).toBe(1)
        expect(await countKeys(prefix)).toBe(0)
      } finally {
        await deleteKeys(prefix)
      }
    })

    it('should let another process (client) reclaim a batch whose holder stopped, and refuse the late holder', async () => {
      const prefix = uniquePrefix()
      const other = new Redis(REDIS_URL, FAST_FAIL)
      other.on('error', () => {})
      let now = 5_000_000
      try {
        const dead = createRedisStorage({ client, prefix, now: () => now, leaseMs: 1_000 })
        const alive = createRedisStorage({ client: other, prefix, now: () => now, leaseMs: 1_000 })
        await dead.putItems(Array.from({ length: 16 }, (_, i) => item(`d${i}`, i + 1)))
        const batch = await dead.claimQueued(16)
        expect(await alive.claimQueued(16)).toEqual([])
        expect(await alive.countQueued('a')).toBe(16)
        now += 1_000
        const reclaimed = await alive.claimQueued(100)
        expect(reclaimed.map((i) => i.id).sort()).toEqual(batch.map((i) => i.id).sort())
        expect(reclaimed.every((i) => i.attempts === 2)).toBe(true)
        for (const b of batch) expect(await dead.completeItem({ ...b, status: 'PROCESSED', output: { id: b.id } as never })).toBe(false)
        for (const r of reclaimed) expect(await alive.completeItem({ ...r, status: 'PROCESSED', output: { id: r.id } as never })).toBe(true)
        expect(await alive.countQueued('a')).toBe(0)
        expect(await alive.takeProcessed('a', 'document', { configId: 'c1' }, 100)).toHaveLength(16)
        expect(await countKeys(prefix)).toBe(0)
      } finally {
        await other.quit()
        await deleteKeys(prefix)
      }
    })

    it('should deliver an item whose stored output cannot be read as FAILED, with the rest of its batch', async () => {
      const prefix = uniquePrefix()
      const s = createRedisStorage({ client, prefix })
      try {
        await s.putItems([item('d1', 1), item('d2', 2), item('d3', 3)])
        for (const c of await s.claimQueued(3)) await s.completeItem({ ...c, status: 'PROCESSED', output: { id: c.id, config_id: 'c1', status: 'PROCESSED' } })
        // As an older version (or a hand edit) could have left them: a lone surrogate escaped in JSON, and broken JSON.
        await client.hset(`${prefix}out`, JSON.stringify(['a', 'document', 'c1', 'd2']), '{"output":{"id":"d2","title":"\\ud800"}}')
        await client.hset(`${prefix}item`, JSON.stringify(['a', 'document', 'c1', 'd3']), '{not json')
        const taken = await s.takeProcessed('a', 'document', { configId: 'c1' }, 10)
        expect(taken.map((t) => [t.id, t.status])).toEqual([['d1', 'PROCESSED'], ['d2', 'FAILED'], ['d3', 'FAILED']])
        expect(taken[1]?.output?.failure_reason).toMatch(/^the stored output could not be read: stored output\.title should be well-formed text, instead found a lone surrogate U\+D800/)
        expect(taken[2]?.output?.failure_reason).toMatch(/^the stored item could not be read: /)
        expect(await countKeys(prefix)).toBe(0)
      } finally {
        await deleteKeys(prefix)
      }
    })

    it('should bring items stored by the layout without leases up to date: stuck PROCESSING items claimable, counts rebuilt', async () => {
      const prefix = uniquePrefix()
      try {
        // As the previous version left them: the whole item (output included) in the item hash, no leases, no counts.
        const k = (id: string): string => JSON.stringify(['a', 'document', 'c1', id])
        const stuck = item('d1', 1)
        const waiting = item('d2', 2)
        const done = { ...item('d3', 3), status: 'PROCESSED' as const, output: { id: 'd3', config_id: 'c1', status: 'PROCESSED' as const } }
        const doneKey = `${prefix}done:${JSON.stringify(['a', 'document', 'config', 'c1'])}`
        await client.hset(`${prefix}item`, k('d1'), JSON.stringify({ ...stuck, status: 'PROCESSING' }), k('d2'), JSON.stringify(waiting), k('d3'), JSON.stringify(done))
        await client.hset(`${prefix}status`, k('d1'), 'PROCESSING', k('d2'), 'QUEUED', k('d3'), 'PROCESSED')
        await client.hset(`${prefix}seq`, k('d1'), '1', k('d2'), '2', k('d3'), '3')
        await client.zadd(`${prefix}queued`, 2, k('d2'))
        await client.zadd(`${prefix}submitted`, 1000, k('d1'), 1000, k('d2'), 1000, k('d3'))
        await client.zadd(doneKey, 3, k('d3'))
        await client.hset(`${prefix}doneidx`, k('d3'), doneKey)
        const s = createRedisStorage({ client, prefix })
        expect(await s.countQueued('a')).toBe(2)
        expect((await s.claimQueued(5)).map((i) => [i.id, i.attempts])).toEqual([['d1', 1], ['d2', 1]])
        expect(await s.takeProcessed('a', 'document', { configId: 'c1' }, 5)).toEqual([{ ...done }])
        // Once only: a later storage on the prefix finds it up to date and changes nothing.
        const again = createRedisStorage({ client, prefix })
        expect(await again.claimQueued(5)).toEqual([])
        expect(await again.countQueued('a')).toBe(2)
      } finally {
        await deleteKeys(prefix)
      }
    })

    it('should claim everything for an infinite limit and nothing for a limit below one', async () => {
      const prefix = uniquePrefix()
      const s = createRedisStorage({ client, prefix })
      try {
        await s.putItems([item('d1', 1), item('d2', 2), item('d3', 3)])
        expect(await s.claimQueued(0.5)).toEqual([])
        expect((await s.claimQueued(1.9)).map((i) => i.id)).toEqual(['d1'])
        expect((await s.claimQueued(Infinity)).map((i) => i.id)).toEqual(['d2', 'd3'])
      } finally {
        await deleteKeys(prefix)
      }
    })

    it('should create its own client from a URL and quit it on close, but never quit a client it was given', async () => {
      const prefix = uniquePrefix()
      const own = createRedisStorage({ url: REDIS_URL, prefix, redisOptions: FAST_FAIL })
      await own.saveSettings('a', { version: 1, configurations: [] }, 0)
      expect(await own.loadSettings('a')).toEqual({ version: 1, configurations: [] })
      await own.close()
      await createRedisStorage({ client, prefix }).close()
      expect(await client.ping()).toBe('PONG')
      await deleteKeys(prefix)
    })

    it('should refuse both a URL and a client, and items it cannot key', async () => {
      expect(() => createRedisStorage({ url: REDIS_URL, client })).toThrow(/either options.url or options.client/)
      const prefix = uniquePrefix()
      const s = createRedisStorage({ client, prefix })
      await expect(s.putItems([item('d1', Number.NaN)])).rejects.toThrow(/items\[0\]\.seq should be a finite number/)
      expect(await countKeys(prefix)).toBe(0)
    })
  })

  describe('against the memory storage', () => {
    type Op =
      | { op: 'put'; id: number; kind: ItemKind; configId: string; jobId: string | undefined; submittedAt: number }
      | { op: 'claim'; limit: number }
      | { op: 'complete'; pick: number; failed: boolean; staleSeq: boolean }
      | { op: 'take'; kind: ItemKind; by: 'config' | 'job'; value: string; limit: number }
      | { op: 'takeItem' | 'cancel' | 'get'; id: number; kind: ItemKind; configId: string }
      | { op: 'purge'; before: number }
      | { op: 'tick'; ms: number }
      | { op: 'release' | 'extend'; pick: number }
      | { op: 'count' }
    // Few keys and weighted operations, so that sequences often revisit one item through all its states.
    const kind = fc.constantFrom<ItemKind>('document', 'document', 'document', 'collection')
    const configId = fc.constantFrom('c1', 'c1', 'c2')
    const id = fc.integer({ min: 1, max: 2 })
    const opArb: fc.Arbitrary<Op> = fc.oneof(
      { weight: 3, arbitrary: fc.record({
        op: fc.constant('put' as const),
        id,
        kind,
        configId,
        jobId: fc.constantFrom(undefined, 'j1', 'j2'),
        submittedAt: fc.integer({ min: 0, max: 9 }),
      }) },
      { weight: 2, arbitrary: fc.record({ op: fc.constant('claim' as const), limit: fc.integer({ min: 0, max: 3 }) }) },
      {
        weight: 3,
        arbitrary: fc.record({ op: fc.constant('complete' as const), pick: fc.nat(), failed: fc.boolean(), staleSeq: fc.constantFrom(false, false, false, true) }),
      },
      { weight: 2, arbitrary: fc.record({
        op: fc.constant('take' as const),
        kind,
        by: fc.constantFrom('config' as const, 'job' as const),
        value: fc.constantFrom('c1', 'c2', 'j1', 'j2'),
        limit: fc.integer({ min: 0, max: 3 }),
      }) },
      { weight: 3, arbitrary: fc.record({ op: fc.constantFrom('takeItem' as const, 'cancel' as const, 'get' as const), id, kind, configId }) },
      { weight: 1, arbitrary: fc.record({ op: fc.constant('purge' as const), before: fc.integer({ min: 0, max: 10 }) }) },
      { weight: 2, arbitrary: fc.record({ op: fc.constant('tick' as const), ms: fc.constantFrom(100, 600, 1_000) }) },
      { weight: 2, arbitrary: fc.record({ op: fc.constantFrom('release' as const, 'extend' as const), pick: fc.nat() }) },
      { weight: 1, arbitrary: fc.record({ op: fc.constant('count' as const) }) },
    )

    /** Runs the operations on one storage and records every answer. */
    async function play(make: (o: { now: () => number; leaseMs: number }) => Storage, ops: readonly Op[]): Promise<unknown[]> {
      let now = 1_000_000
      const s = make({ now: () => now, leaseMs: 1_000 })
      const answers: unknown[] = []
      const claimed: QueueItem[] = []
      let seq = 0
      for (const o of ops) {
        switch (o.op) {
          case 'put': {
            const i = item(`d${o.id}`, ++seq, { kind: o.kind, configId: o.configId, submittedAt: o.submittedAt })
            await s.putItems([o.jobId === undefined ? i : { ...i, jobId: o.jobId }])
            break
          }
          case 'claim': {
            const got = await s.claimQueued(o.limit)
            claimed.push(...got)
            answers.push(got)
            break
          }
          case 'complete': {
            const c = claimed[o.pick % Math.max(1, claimed.length)]
            if (c === undefined) break
            const status = o.failed ? 'FAILED' : 'PROCESSED'
            const done: QueueItem = { ...c, status, seq: o.staleSeq ? c.seq + 0.5 : c.seq, finishedAt: 20, output: { id: c.id, status } as never }
            answers.push(await s.completeItem(done))
            break
          }
          case 'take':
            answers.push(await s.takeProcessed('a', o.kind, o.by === 'config' ? { configId: o.value } : { jobId: o.value }, o.limit))
            break
          case 'takeItem':
          case 'cancel':
          case 'get': {
            const key = { account: 'a', kind: o.kind, configId: o.configId, id: `d${o.id}` }
            answers.push(o.op === 'takeItem' ? await s.takeItem(key) : o.op === 'cancel' ? await s.cancelQueued(key) : await s.getItem(key))
            break
          }
          case 'purge':
            answers.push(await s.purgeBefore(o.before))
            break
          case 'tick':
            now += o.ms
            break
          case 'release':
          case 'extend': {
            const c = claimed[o.pick % Math.max(1, claimed.length)]
            if (c === undefined) break
            answers.push(o.op === 'release' ? await s.releaseItem(c) : await s.extendLease(c))
            break
          }
          case 'count':
            answers.push(await s.countQueued('a'))
            break
        }
      }
      await s.close()
      return normalizeClaims(answers)
    }

    it('should agree on a hand-written sequence through every state', async () => {
      const key = { id: 1, kind: 'document' as const, configId: 'c1' }
      const ops: Op[] = [
        { op: 'put', ...key, jobId: undefined, submittedAt: 5 },
        { op: 'claim', limit: 2 },
        { op: 'complete', pick: 0, failed: false, staleSeq: false },
        { op: 'cancel', ...key },
        { op: 'get', ...key },
        { op: 'take', kind: 'document', by: 'config', value: 'c1', limit: 1 },
        { op: 'takeItem', ...key },
        { op: 'purge', before: 6 },
      ]
      const prefix = uniquePrefix()
      try {
        const expected = await play((o) => createMemoryStorage(o), ops)
        expect(expected.slice(1, 4)).toEqual([true, 'not-queued', expect.objectContaining({ status: 'PROCESSED' })])
        expect(await play((o) => createRedisStorage({ client, prefix, ...o }), ops)).toEqual(expected)
      } finally {
        await deleteKeys(prefix)
      }
    })

    it('should answer every sequence of queue operations exactly as the memory storage does', async () => {
      await fc.assert(
        fc.asyncProperty(fc.array(opArb, { minLength: 10, maxLength: 60 }), async (ops) => {
          const prefix = uniquePrefix()
          try {
            const expected = await play((o) => createMemoryStorage(o), ops)
            const actual = await play((o) => createRedisStorage({ client, prefix, ...o }), ops)
            expect(actual).toEqual(expected)
          } finally {
            await deleteKeys(prefix)
          }
        }),
        { seed: 20261122, numRuns: 100 },
      )
    })

    /** Plays bulk operations (up to 150 keys, two accounts, leases expiring) on memory and Redis and compares. */
    async function compareBulk(ops: readonly BulkOp[]): Promise<void> {
      const prefix = uniquePrefix()
      try {
        const c1 = { now: 1_000_000 }
        const c2 = { now: 1_000_000 }
        const expected = await playBulk(createMemoryStorage({ now: () => c1.now, leaseMs: 1_000 }), ops, c1)
        const actual = await playBulk(createRedisStorage({ client, prefix, now: () => c2.now, leaseMs: 1_000 }), ops, c2)
        expect(actual).toEqual(expected)
      } finally {
        await deleteKeys(prefix)
      }
    }

    it('should agree through heavy churn: bulk puts, cancels, releases, extensions and expired leases', async () => {
      await compareBulk(churnOps())
    })

    it('should agree on random bulk sequences', async () => {
      await fc.assert(fc.asyncProperty(fc.array(bulkOpArb, { minLength: 20, maxLength: 80 }), compareBulk), { seed: 20261123, numRuns: 25 })
    })

    it('should never give one item to two clients claiming at the same time', async () => {
      const prefix = uniquePrefix()
      const other = new Redis(REDIS_URL, FAST_FAIL)
      other.on('error', () => {})
      try {
        const s1 = createRedisStorage({ client, prefix })
        const s2 = createRedisStorage({ client: other, prefix })
        await s1.putItems(Array.from({ length: 200 }, (_, i) => item(`d${i}`, i + 1)))
        const results = await Promise.all(Array.from({ length: 20 }, (_, i) => (i % 2 === 0 ? s1 : s2).claimQueued(15)))
        const ids = results.flat().map((i) => i.id)
        expect(ids).toHaveLength(200)
        expect(new Set(ids).size).toBe(200)
      } finally {
        await other.quit()
        await deleteKeys(prefix)
      }
    })
  })
})
