import { randomBytes } from 'node:crypto'
import { Redis } from 'ioredis'
import type { RedisOptions } from 'ioredis'
import { afterAll, describe, expect, it } from 'vitest'
import { createRedisStorage } from '../../src/storage/redis.ts'
import type { QueueItem } from '../../src/storage/types.ts'
import { runStorageContract } from '../helpers/storage-contract.ts'

const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379'

/** Fail fast instead of hanging: short connect timeout, two reconnect attempts, no offline queue retries. */
const FAST_FAIL: RedisOptions = {
  lazyConnect: true,
  connectTimeout: 1_000,
  maxRetriesPerRequest: 1,
  retryStrategy: (times) => (times > 2 ? null : 100),
}

async function redisReachable(): Promise<string | undefined> {
  const probe = new Redis(REDIS_URL, FAST_FAIL)
  probe.on('error', () => {})
  try {
    await probe.connect()
    await probe.ping()
    return undefined
  } catch (e) {
    return e instanceof Error ? e.message : String(e)
  } finally {
    probe.disconnect()
  }
}

const unreachable = await redisReachable()
// Locally a missing Redis skips the suite; in CI it must run (and fail loudly).
const suite = unreachable !== undefined && process.env.CI === undefined ? describe.skip : describe

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

  async function countKeys(prefix: string): Promise<number> {
    return (await client.keys(`${prefix}*`)).length
  }

  runStorageContract('redis', async () => {
    const prefix = uniquePrefix()
    const storage = createRedisStorage({ client, prefix })
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
})
