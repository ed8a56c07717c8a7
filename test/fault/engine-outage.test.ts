import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createEngine } from '../../src/engine/create-engine.ts'
import type { AccountApi, Engine } from '../../src/engine/types.ts'
import type { DocumentOutput } from '../../src/model/output.ts'
import { createMemoryStorage } from '../../src/storage/memory.ts'
import { createRedisStorage } from '../../src/storage/redis.ts'
import { isStorageUnavailable, StorageUnavailableError, type Storage } from '../../src/storage/types.ts'
import { describeWithRedisServer, spawnRedis, type SpawnedRedis } from '../helpers/redis.ts'
import { TEXTS } from '../fixtures/golden/golden.ts'

/*
 * Issue 18: the storage goes away while the engine works. Before, the background loop's promise rejected unhandled
 * (`void loop()`) and the process died about 40 s later. Now: no unhandled rejection, one warn line per outage and
 * one info line when it ends, submissions fail fast with StorageUnavailableError (503), and the work resumes on
 * its own when the storage is back. Memory storage (an outage simulated by a wrapper) and Redis (a server this test
 * starts on its own port, stops and restarts).
 */

const ACCOUNTS = [{ key: 'acc', secret: 'sec' }]
const docs = (n: number, prefix: string): Array<{ id: string; text: string }> =>
  Array.from({ length: n }, (_, i) => ({ id: `${prefix}${i}`, text: TEXTS[i % 8]! }))

/** Unhandled rejections seen while a test runs. */
const unhandled: unknown[] = []
const onUnhandled = (e: unknown): void => {
  unhandled.push(e)
}
beforeEach(() => {
  unhandled.length = 0
  process.on('unhandledRejection', onUnhandled)
})
afterEach(() => {
  process.off('unhandledRejection', onUnhandled)
})

async function until<T>(what: string, f: () => Promise<T | undefined>, ms = 60_000): Promise<T> {
  const end = Date.now() + ms
  for (;;) {
    let last: unknown
    try {
      const v = await f()
      if (v !== undefined) return v
    } catch (e) {
      last = e
    }
    if (Date.now() > end) throw new Error(`${what}: not after ${ms} ms${last === undefined ? '' : `: ${String(last)}`}`)
    await new Promise((r) => setTimeout(r, 50))
  }
}

/** Take processed documents until `n` came back (retrying through errors). */
async function collect(acct: AccountApi, n: number): Promise<DocumentOutput[]> {
  const out: DocumentOutput[] = []
  await until(`${n} documents back`, async () => {
    out.push(...(await acct.takeProcessedDocuments({})))
    return out.length >= n ? true : undefined
  })
  return out
}

async function rejection(p: Promise<unknown>): Promise<unknown> {
  return p.then(
    () => {
      throw new Error('expected a rejection')
    },
    (e: unknown) => e,
  )
}

/** A memory storage that answers StorageUnavailableError on every call while `down`. */
function flaky(): { storage: Storage; setDown(down: boolean): void } {
  const inner = createMemoryStorage()
  let down = false
  const storage = new Proxy(inner, {
    get(target, key) {
      const v = Reflect.get(target, key) as unknown
      if (typeof v !== 'function' || key === 'close') return v
      return (...args: unknown[]) => {
        if (down) return Promise.reject(new StorageUnavailableError('storage unavailable: simulated outage', 1))
        return (v as (...a: unknown[]) => unknown).apply(target, args)
      }
    },
  })
  return { storage, setDown: (d) => (down = d) }
}

describe('fault: the storage goes away while the engine works (memory storage, simulated outage)', () => {
  it('should stay up, log the outage once, refuse submissions fast with 503, and finish the work when the storage is back', async () => {
    const { storage, setDown } = flaky()
    const warn: string[] = []
    const info: string[] = []
    const engine: Engine = createEngine({
      accounts: ACCOUNTS,
      storage,
      leaseMs: 1000,
      pollMs: { min: 5, max: 50 },
      logger: { warn: (m) => warn.push(m), info: (m) => info.push(m) },
    })
    try {
      const acct = engine.account('acc')
      await acct.listConfigurations()
      await acct.submitDocuments(docs(12, 'm'), { batch: true })
      // Down while the worker is busy: claims, completions and lease extensions all fail for a while.
      await until('work started', async () => ((await storage.countQueued('acc')) < 12 ? true : undefined))
      setDown(true)
      await new Promise((r) => setTimeout(r, 600))
      const refused = await rejection(acct.submitDocuments(docs(1, 'late'), { batch: true }))
      expect(isStorageUnavailable(refused)).toBe(true)
      expect((refused as StorageUnavailableError).status).toBe(503)
      expect(warn).toHaveLength(1)
      expect(warn[0]).toMatch(/storage unavailable/)
      setDown(false)
      const outs = await collect(acct, 12)
      expect(outs.map((o) => o.id).sort()).toEqual(docs(12, 'm').map((d) => d.id).sort())
      expect(info).toHaveLength(1)
      expect(info[0]).toMatch(/storage answers again after \d+\.\d s/)
      expect(warn).toHaveLength(1)
      expect(unhandled).toEqual([])
    } finally {
      await engine.close()
    }
  })

  it('should retry drain() through an outage rather than reject, and end it on close()', async () => {
    const { storage, setDown } = flaky()
    const engine = createEngine({ accounts: ACCOUNTS, storage, background: false, pollMs: { min: 5, max: 20 }, logger: { warn: () => {}, info: () => {} } })
    const acct = engine.account('acc')
    await acct.submitDocuments(docs(3, 'd'), { batch: true })
    setDown(true)
    let settled = false
    const draining = engine.drain().then(() => (settled = true))
    await new Promise((r) => setTimeout(r, 200))
    expect(settled).toBe(false)
    setDown(false)
    await draining
    expect((await acct.takeProcessedDocuments({})).length).toBe(3)
    setDown(true)
    await acct.submitDocuments(docs(1, 'x'), { batch: true }).catch(() => {})
    const pending = engine.drain()
    await engine.close()
    await pending
    expect(unhandled).toEqual([])
  })
})

describeWithRedisServer('fault: Redis stopped and restarted under a working engine', () => {
  let redis: SpawnedRedis | undefined
  afterAll(async () => {
    await redis?.dispose()
  })

  it('should survive Redis going down mid-work without an unhandled rejection, and finish every document once it is back', async () => {
    redis = await spawnRedis('textengine-engine-redis-')
    const { start, stop, url } = redis
    await start()
    const warn: string[] = []
    const info: string[] = []
    const engine = createEngine({
      accounts: ACCOUNTS,
      storage: createRedisStorage({ url, prefix: 'outage:', log: () => {} }),
      leaseMs: 2000,
      pollMs: { min: 5, max: 100 },
      logger: { warn: (m) => warn.push(m), info: (m) => info.push(m) },
    })
    try {
      const acct = engine.account('acc')
      await acct.listConfigurations()
      await acct.submitDocuments(docs(20, 'r'), { batch: true })
      await until('work started', async () => ((await countQueued()) < 20 ? true : undefined))
      await stop()
      await new Promise((r) => setTimeout(r, 1500))
      const t0 = performance.now()
      const refused = await rejection(acct.submitDocuments(docs(1, 'late'), { batch: true }))
      expect(performance.now() - t0).toBeLessThan(1000)
      expect(isStorageUnavailable(refused)).toBe(true)
      expect(warn).toHaveLength(1)
      await start()
      const outs = await collect(acct, 20)
      expect(outs.map((o) => o.id).sort()).toEqual(docs(20, 'r').map((d) => d.id).sort())
      // The recovery line comes from the background worker's next poll, which may follow the retrieval (when every
      // document was finished before the outage); wait for it, then check there is exactly one.
      await until('recovery logged', async () => (info.length > 0 ? true : undefined), 10_000)
      await new Promise((r) => setTimeout(r, 300))
      expect(info).toHaveLength(1)
      expect(warn).toHaveLength(1)
      expect(unhandled).toEqual([])
    } finally {
      await engine.close()
      await stop()
    }
  })

  /** The account's unfinished items, through a second storage client (the engine's own count is not public). */
  async function countQueued(): Promise<number> {
    const s = createRedisStorage({ url: redis!.url, prefix: 'outage:', log: () => {} })
    try {
      return await s.countQueued('acc')
    } finally {
      await s.close()
    }
  }
})
