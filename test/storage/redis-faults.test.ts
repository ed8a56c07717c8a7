import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { isStorageUnavailable, StorageUnavailableError } from '../../src/storage/errors.ts'
import { createRedisStorage } from '../../src/storage/redis.ts'
import type { QueueItem, Storage } from '../../src/storage/types.ts'
import { describeWithRedisServer, spawnRedis, type SpawnedRedis } from '../helpers/redis.ts'

/*
 * Redis faults: an unreachable server, and a server this test starts on its own port, stops and restarts while a
 * storage keeps using it. The second part needs `redis-server` on the PATH (CI installs it); without it that part
 * is skipped with the reason printed.
 */

const item = (id: string, seq: number): QueueItem => ({
  account: 'a', kind: 'document', configId: 'c1', id, status: 'QUEUED', seq, submittedAt: 1_000, input: { text: id },
})

/** The rejection of `p`, or a failure when it resolves. */
async function rejection(p: Promise<unknown>): Promise<unknown> {
  return p.then(
    (v) => { throw new Error(`expected a rejection, got ${JSON.stringify(v)}`) },
    (e: unknown) => e,
  )
}

describe('Redis storage: unreachable server', () => {
  it('should fail within a second with StorageUnavailableError, then at once, logging the outage once', async () => {
    const lines: string[] = []
    const s = createRedisStorage({ url: 'redis://127.0.0.1:1', prefix: 'faults:', log: (l) => lines.push(l) })
    try {
      const t0 = performance.now()
      const first = await rejection(s.getItem(item('d', 1)))
      const firstMs = performance.now() - t0
      expect(first).toBeInstanceOf(StorageUnavailableError)
      expect(isStorageUnavailable(first)).toBe(true)
      expect((first as StorageUnavailableError).status).toBe(503)
      expect((first as StorageUnavailableError).retryAfterSeconds).toBeGreaterThanOrEqual(1)
      expect((first as Error).message).toMatch(/^storage unavailable: Redis at 127\.0\.0\.1:1 cannot be reached/)
      expect(firstMs).toBeLessThan(1_000)
      // Every method fails the same way while the outage lasts; none hangs.
      const calls: Array<Promise<unknown>> = [
        s.putItems([item('d', 1)]), s.claimQueued(5), s.countQueued('a'), s.takeProcessed('a', 'document', { configId: 'c1' }, 5),
        s.loadSettings('a'), s.saveSettings('a', { version: 1, configurations: [] }, 0), s.useJobId('a', 'j', 1, 1, 1),
        s.addCounters('a', { configId: 'c1', app: '', language: '' }, 0, { calls_data: 1 }), s.purgeBefore(5),
      ]
      for (const c of calls) expect(await rejection(c)).toBeInstanceOf(StorageUnavailableError)
      expect(lines).toHaveLength(1)
      expect(lines[0]).toMatch(/Redis at 127\.0\.0\.1:1 is unavailable/)
    } finally {
      await s.close()
    }
  })
})

async function until<T>(what: string, f: () => Promise<T>, timeoutMs = 15_000): Promise<T> {
  const end = Date.now() + timeoutMs
  for (;;) {
    try {
      return await f()
    } catch (e) {
      if (Date.now() > end) throw new Error(`${what}: still failing after ${timeoutMs} ms: ${e instanceof Error ? e.message : String(e)}`)
      await new Promise((r) => setTimeout(r, 100))
    }
  }
}

describeWithRedisServer('Redis storage: a server stopped and restarted', () => {
  let redis!: SpawnedRedis
  let port = 0
  const start = (): Promise<void> => redis.start()
  const stop = (): Promise<void> => redis.stop()
  beforeAll(async () => {
    redis = await spawnRedis('textengine-redis-')
    port = redis.port
  })
  afterAll(async () => {
    await redis.dispose()
  })

  it('should fail fast while Redis is down, log the outage and the recovery once each, and resume the work after a restart', async () => {
    await start()
    const lines: string[] = []
    const s: Storage = createRedisStorage({ url: `redis://127.0.0.1:${port}`, prefix: 'restart:', log: (l) => lines.push(l) })
    try {
      await until('first connection', () => s.putItems([item('d1', 1), item('d2', 2), item('d3', 3)]))
      const [claimed] = await s.claimQueued(1)
      expect(claimed?.id).toBe('d1')
      expect(lines).toEqual([])

      await stop()
      const errors = await Promise.all([s.claimQueued(1), s.countQueued('a'), s.getItem(item('d2', 2))].map(rejection))
      for (const e of errors) expect(e).toBeInstanceOf(StorageUnavailableError)
      const t0 = performance.now()
      expect(await rejection(s.claimQueued(1))).toBeInstanceOf(StorageUnavailableError)
      expect(performance.now() - t0).toBeLessThan(1_000)
      expect(lines).toHaveLength(1)
      expect(lines[0]).toMatch(new RegExp(`Redis at 127\\.0\\.0\\.1:${port} is unavailable`))

      await start()
      // The client reconnects on its own; the queue is where it was (lease and all), and work goes on.
      const count = await until('recovery', () => s.countQueued('a'))
      expect(count).toBe(3)
      expect(lines).toHaveLength(2)
      expect(lines[1]).toMatch(new RegExp(`Redis at 127\\.0\\.0\\.1:${port} is reachable again after \\d+\\.\\d s`))
      expect(await s.completeItem({ ...claimed!, status: 'PROCESSED', output: { id: 'd1', config_id: 'c1', status: 'PROCESSED' } })).toBe(true)
      expect((await s.claimQueued(5)).map((i) => i.id)).toEqual(['d2', 'd3'])
      expect((await s.takeProcessed('a', 'document', { configId: 'c1' }, 5)).map((i) => i.id)).toEqual(['d1'])
    } finally {
      await s.close()
      await stop()
    }
  })

  it('should time out commands to a server that stopped answering, and recover when it answers again', async () => {
    await start()
    const lines: string[] = []
    const s = createRedisStorage({ url: `redis://127.0.0.1:${port}`, prefix: 'stall:', log: (l) => lines.push(l), redisOptions: { commandTimeout: 300 } })
    try {
      await until('first connection', () => s.putItems([item('d1', 1)]))
      redis.process()!.kill('SIGSTOP')
      try {
        const e = await rejection(s.claimQueued(1))
        expect(e).toBeInstanceOf(StorageUnavailableError)
        expect((e as Error).message).toMatch(/Command timed out/)
        expect(lines).toHaveLength(1)
      } finally {
        redis.process()!.kill('SIGCONT')
      }
      const got = await until('answers again', async () => {
        const n = await s.countQueued('a')
        if (n === 0) throw new Error('nothing queued')
        return n
      })
      expect(got).toBe(1)
      expect((await s.claimQueued(1)).map((i) => i.id)).toEqual(['d1'])
      expect(lines).toHaveLength(2)
      expect(lines[1]).toMatch(/is reachable again/)
    } finally {
      await s.close()
      await stop()
    }
  })
})
