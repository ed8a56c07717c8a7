import { describe, expect, it } from 'vitest'
import { createEngine } from '../../src/engine/create-engine.ts'
import type { Engine, AccountApi } from '../../src/engine/types.ts'
import { MAX_ATTEMPTS } from '../../src/engine/workers-loop.ts'
import { createMemoryStorage } from '../../src/storage/memory.ts'
import type { Storage } from '../../src/storage/types.ts'
import type { DocumentOutput } from '../../src/model/output.ts'
import { TEXTS } from '../fixtures/golden/golden.ts'

const ACCOUNTS = [{ key: 'acc', secret: 'sec' }]
const quiet = { warn: () => {}, info: () => {} }

/** A storage whose close() does nothing, so several engines can use it in turn (as processes share Redis). */
function shared(storage: Storage): Storage {
  return new Proxy(storage, { get: (t, k) => (k === 'close' ? async () => {} : Reflect.get(t, k)) })
}

const docs = (n: number, prefix = 'd'): Array<{ id: string; text: string }> =>
  Array.from({ length: n }, (_, i) => ({ id: `${prefix}${i}`, text: TEXTS[i % 8]! }))

/** Take processed documents until `n` came back or `ms` passed; never calls drain() or submits. */
async function collect(acct: AccountApi, n: number, ms = 30_000): Promise<DocumentOutput[]> {
  const out: DocumentOutput[] = []
  const end = Date.now() + ms
  while (out.length < n && Date.now() < end) {
    const got = await acct.takeProcessedDocuments({})
    out.push(...got)
    if (got.length === 0) await new Promise((r) => setTimeout(r, 20))
  }
  return out
}

const ids = (outs: readonly DocumentOutput[]): string[] => outs.map((o) => o.id).sort()

describe('background worker: polling and leases', () => {
  it('should drain a backlog it finds in the storage without any new submission (a restarted server)', async () => {
    const storage = createMemoryStorage()
    const first = createEngine({ accounts: ACCOUNTS, storage: shared(storage), background: false, logger: quiet })
    await first.account('acc').submitDocuments(docs(20), { batch: true })
    await first.close()
    const second = createEngine({ accounts: ACCOUNTS, storage, pollMs: { min: 5, max: 50 }, logger: quiet })
    try {
      const outs = await collect(second.account('acc'), 20)
      expect(ids(outs)).toEqual(ids(docs(20).map((d) => ({ ...d, config_id: '', status: 'QUEUED' as const }))))
      expect(outs.every((o) => o.status === 'PROCESSED')).toBe(true)
    } finally {
      await second.close()
    }
  })

  it('should take over items whose lease expired (their process died) and deliver each once', async () => {
    const storage = createMemoryStorage()
    const submitter = createEngine({ accounts: ACCOUNTS, storage: shared(storage), background: false, logger: quiet })
    await submitter.account('acc').submitDocuments(docs(6), { batch: true })
    await submitter.close()
    // A worker of another process claims three items and dies holding them.
    const t0 = Date.now()
    const dead = await storage.claimQueued(3, { leaseMs: 300 })
    expect(dead).toHaveLength(3)
    const survivor = createEngine({ accounts: ACCOUNTS, storage, pollMs: { min: 5, max: 50 }, logger: quiet })
    try {
      const outs = await collect(survivor.account('acc'), 6)
      expect(ids(outs)).toEqual(['d0', 'd1', 'd2', 'd3', 'd4', 'd5'])
      // The dead claims came back only once their lease had run out.
      expect(Date.now() - t0).toBeGreaterThanOrEqual(300)
      // Nothing comes back twice.
      await new Promise((r) => setTimeout(r, 100))
      expect(await survivor.account('acc').takeProcessedDocuments({})).toEqual([])
    } finally {
      await survivor.close()
    }
  })

  it(`should fail an item claimed more than ${MAX_ATTEMPTS} times instead of analysing it again`, async () => {
    const storage = createMemoryStorage()
    const submitter = createEngine({ accounts: ACCOUNTS, storage: shared(storage), background: false, logger: quiet })
    await submitter.account('acc').submitDocuments({ id: 'poison', text: 'A text whose analysis kills its process.' }, { batch: false })
    await submitter.close()
    for (let i = 0; i < MAX_ATTEMPTS; i++) {
      expect(await storage.claimQueued(1, { leaseMs: 1 })).toHaveLength(1)
      await new Promise((r) => setTimeout(r, 5))
    }
    const engine = createEngine({ accounts: ACCOUNTS, storage, pollMs: { min: 5, max: 20 }, logger: quiet })
    try {
      const [out] = await collect(engine.account('acc'), 1)
      expect(out?.status).toBe('FAILED')
      expect(out?.failure_reason).toMatch(/interrupted 3 times/)
    } finally {
      await engine.close()
    }
  })

  it('should give claimed items back to the queue on close, for another process to take at once', async () => {
    const storage = createMemoryStorage()
    const engine = createEngine({ accounts: ACCOUNTS, storage: shared(storage), workerBatch: 16, logger: quiet })
    await engine.account('acc').submitDocuments(docs(60), { batch: true })
    // Let it start, then close it mid-batch.
    while ((await storage.countQueued('acc')) === 60) await new Promise((r) => setTimeout(r, 2))
    await engine.close()
    const left = await storage.countQueued('acc')
    expect(left).toBeGreaterThan(0)
    // Every unfinished item is claimable now (none waits for a lease to expire).
    expect(await storage.claimQueued(1000)).toHaveLength(left)
  })
})

/**
 * Run `work` while a 2 ms interval ticks: the longest gap between ticks, how many ticks there were, and the whole
 * run (ms). Analysis that never yields shows one gap as long as the whole run; analysis in slices shows gaps of
 * about one text.
 */
async function gapsDuring(work: () => Promise<unknown>): Promise<{ maxGap: number; ticks: number; total: number }> {
  const t0 = performance.now()
  let last = t0
  let maxGap = 0
  let ticks = 0
  const timer = setInterval(() => {
    const now = performance.now()
    maxGap = Math.max(maxGap, now - last)
    last = now
    ticks++
  }, 2)
  try {
    await work()
  } finally {
    clearInterval(timer)
  }
  const end = performance.now()
  return { maxGap: Math.max(maxGap, end - last), ticks, total: end - t0 }
}

/**
 * Other work interleaves: no gap longer than a fifth of the run (150 texts; a run that does not yield has one gap
 * as long as itself), and timers fire throughout (at least once per 40 ms on average). Relative, not absolute, bounds: a loaded CI machine slows every
 * text alike. The absolute figures (tens of ms per gap on an idle machine) are printed for the record. A tenth was
 * too tight once analysis got faster: analyzeMany over the 150 texts takes 260-280 ms on an idle machine, and a slice
 * (10 ms), the text that overruns it and a garbage collection made gaps of 22-27 ms, failing 1 run in 4 against a
 * bound of 26 ms with the code unchanged.
 */
function expectInterleaved(name: string, g: { maxGap: number; ticks: number; total: number }): void {
  console.log(`${name}: longest gap ${g.maxGap.toFixed(0)} ms of ${g.total.toFixed(0)} ms, ${g.ticks} timer ticks`)
  expect(g.maxGap).toBeLessThan(g.total / 5)
  // At least one tick per 40 ms of the run on average (slices are 10 ms; a run that never yields has one or two
  // ticks in all). Relative too: a warm, fast run of 300 ms had 29 ticks, under the absolute 30 once asked here.
  expect(g.ticks).toBeGreaterThan(Math.max(5, g.total / 40))
}

describe('analysis off the event loop (workers: 0): other work interleaves with a big collection', () => {
  // 150 texts of about 1,000 characters: several seconds of analysis on this machine.
  const long = Array.from({ length: 150 }, (_, i) => {
    let t = ''
    for (let j = i; t.length < 1000; j++) t += TEXTS[j % 8]! + ' '
    return t.slice(0, 1000)
  })
  let engine: Engine

  it('should let timers run every few milliseconds during analyzeCollection and the queued collection path', async () => {
    engine = createEngine({ accounts: ACCOUNTS, logger: quiet, pollMs: { min: 5, max: 50 } })
    try {
      // Models loaded first (those of Discovery mode too): this measures analysis, not the one-off model load.
      await engine.analyzeCollection(long.slice(0, 3), { id: 'warm-up' })
      await engine.analyze(long[0]!, { id: 'warm-up' })
      expectInterleaved('analyzeCollection', await gapsDuring(() => engine.analyzeCollection(long, { id: 'c' })))

      const acct = engine.account('acc')
      const queued = await gapsDuring(async () => {
        await acct.submitCollection({ id: 'q', documents: long }, {})
        for (;;) {
          const got = await acct.takeProcessedCollections({})
          if (got.length > 0) return got
          await new Promise((r) => setTimeout(r, 10))
        }
      })
      expectInterleaved('queued collection', queued)

      expectInterleaved('analyzeMany', await gapsDuring(() => engine.analyzeMany(long)))
    } finally {
      await engine.close()
    }
  })
})
