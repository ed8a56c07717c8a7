import { spawnSync } from 'node:child_process'
import { availableParallelism } from 'node:os'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { createEngine } from '../../src/engine/create-engine.ts'
import type { Engine } from '../../src/engine/types.ts'
import { isEngineError } from '../../src/errors.ts'
import { loadServerConfig, ServerConfigError } from '../../src/server/config.ts'
import { createAnalysisPool } from '../../src/engine/workers.ts'
import { defaultConfigurationSettings } from '../../src/engine/settings.ts'
import { emptyTuning } from '../../src/engine/templates.ts'
import { buildSubscription } from '../../src/engine/account.ts'
import type { StoredConfiguration } from '../../src/storage/types.ts'
import type { CollectionOutput, DocumentOutput } from '../../src/model/output.ts'
import { EVERY_OUTPUT_ON, TEXTS } from '../fixtures/golden/golden.ts'

const NOW = 1_700_000_000_000

/** An engine with every output on and every kind of tuning (the golden fixture's configuration). */
async function goldenEngine(workers: number): Promise<Engine> {
  let n = 0
  const engine = createEngine({ workers, background: true, newId: () => `id${++n}`, now: () => NOW })
  const acct = engine.account(engine.defaultAccount)
  await acct.updateConfigurations(EVERY_OUTPUT_ON)
  await acct.createTuning('queries', [
    { name: 'Hotel rooms', query: 'room* OR bed OR shower OR "air conditioning"' },
    { name: 'Staff', query: '(staff OR reception OR waiter) AND NOT rude' },
  ])
  await acct.createTuning('entities', [{ name: 'Spotify', type: 'Company' }])
  await acct.createTuning('phrases', [{ name: 'spotless', weight: 2 }])
  await acct.createTuning('categories', [{ name: 'Hotel staff', weight: 1, samples: ['staff', 'reception', 'service'] }])
  return engine
}

const texts = TEXTS.slice(0, 12)

/** A stored configuration with the default settings, for calling a pool directly. */
const defaultStored = (): StoredConfiguration =>
  ({ configuration: { ...defaultConfigurationSettings('en'), id: 'c', config_id: 'c' }, tuning: emptyTuning(), revision: 1 }) as StoredConfiguration

/**
 * Run `body` with a one-thread pool whose thread has loaded its models, then close the pool; `analyze` and `collect`
 * call it with the default configuration.
 */
async function withOneThread(
  body: (analyze: (text: string, id: string) => Promise<DocumentOutput>, collect: (texts: readonly string[], id: string) => Promise<CollectionOutput>) => Promise<void>,
): Promise<void> {
  const pool = createAnalysisPool({ size: 1, dataDir: undefined })
  const stored = defaultStored()
  const subscription = buildSubscription(undefined, 'test')
  try {
    await pool.analyzeDocument('Warm the thread up.', { id: 'w' }, stored, subscription, 'k')
    await body(
      (text, id) => pool.analyzeDocument(text, { id }, stored, subscription, 'k'),
      (many, id) => pool.analyzeCollection(many, { id }, stored, subscription, 'k'),
    )
  } finally {
    await pool.close()
  }
}

/** Whether `other` had settled one turn of the event loop after `first` settled. */
async function settledBy(first: Promise<unknown>, other: () => boolean): Promise<boolean> {
  await first
  return new Promise<boolean>((r) => setImmediate(() => r(other())))
}

describe('worker threads', () => {
  it('should give byte-identical outputs with workers: 2 and in-process, through analyzeMany, analyze, the queue and collections', async () => {
    const single = await goldenEngine(0)
    const pooled = await goldenEngine(2)
    try {
      const items = texts.map((text, i) => ({ text, id: `g${i}`, tag: `t${i}`, metadata: { i } }))
      const a = await single.analyzeMany(items)
      const b = await pooled.analyzeMany(items)
      expect(b.map((o) => JSON.stringify(o))).toEqual(a.map((o) => JSON.stringify(o)))
      expect(a.map((o) => o.id)).toEqual(items.map((i) => i.id))
      // English texts are analysed; the French, German and Spanish ones fail the language check alike.
      expect(a.filter((o) => o.status === 'PROCESSED').length).toBeGreaterThanOrEqual(8)

      expect(JSON.stringify(await pooled.analyze(texts[0]!, { id: 'one' }))).toBe(JSON.stringify(await single.analyze(texts[0]!, { id: 'one' })))

      // The queue: submit, drain, take (analysed on the threads).
      const queued = async (engine: Engine): Promise<string[]> => {
        const acct = engine.account(engine.defaultAccount)
        await acct.submitDocuments(items, { batch: true })
        await engine.drain()
        const out = []
        for (let got = await acct.takeProcessedDocuments({}); got.length > 0; got = await acct.takeProcessedDocuments({})) out.push(...got)
        return out.map((o) => JSON.stringify(o)).sort()
      }
      const qa = await queued(single)
      expect(qa).toHaveLength(items.length)
      expect(await queued(pooled)).toEqual(qa)
      expect(qa).toEqual(a.map((o) => JSON.stringify(o)).sort())

      // Discovery collections.
      const ca = await single.analyzeCollection(texts, { id: 'c1' })
      const cb = await pooled.analyzeCollection(texts, { id: 'c1' })
      expect(ca.status).toBe('PROCESSED')
      expect(JSON.stringify(cb)).toBe(JSON.stringify(ca))
    } finally {
      await Promise.all([single.close(), pooled.close()])
    }
  })

  it('should check every text of analyzeMany before analysing any', async () => {
    const engine = createEngine({ workers: 0 })
    try {
      const e = await engine.analyzeMany(['fine', 'x'.repeat(100_000)]).catch((err: unknown) => err)
      expect(isEngineError(e) && e.code === 'ERR_DOCUMENT_TOO_LONG' && e.field === 'texts[1]').toBe(true)
      const f = await engine.analyzeMany(['fine', { text: 3 } as never]).catch((err: unknown) => err)
      expect(isEngineError(f) && f.code === 'ERR_INVALID_FIELD' && f.field === 'texts[1]').toBe(true)
      expect(await engine.analyzeMany([])).toEqual([])
    } finally {
      await engine.close()
    }
  })

  it('should default the standalone server to one worker per core, settable by file or TEXTENGINE_WORKERS', () => {
    expect(loadServerConfig({ env: {} }).workers).toBe(availableParallelism())
    expect(loadServerConfig({ env: { TEXTENGINE_WORKERS: '0' } }).workers).toBe(0)
    expect(loadServerConfig({ file: 'c.json', readFile: () => '{"workers": 3}', env: {} }).workers).toBe(3)
    expect(() => loadServerConfig({ env: { TEXTENGINE_WORKERS: 'many' } })).toThrow(ServerConfigError)
    expect(() => loadServerConfig({ env: { TEXTENGINE_WORKERS: '-1' } })).toThrow(/TEXTENGINE_WORKERS \(environment\): "-1" is not allowed; expected an integer 0-256/)
  })

  it('should fail tasks with a clear error, not hang or respawn for ever, when its threads keep dying', async () => {
    // A heap far too small to load the analysis modules: every thread dies before answering.
    const pool = createAnalysisPool({ size: 1, dataDir: undefined, maxHeapMb: 4 })
    try {
      const meta = { id: 'x' }
      const t0 = Date.now()
      const e = await pool.analyzeDocument('text', meta, { configuration: {}, tuning: {}, revision: 1 } as never, {} as never, 'k').catch((err: unknown) => err)
      expect(String(e)).toMatch(/analysis worker thread(s keep stopping| stopped twice)/)
      expect(Date.now() - t0).toBeLessThan(30_000)
      expect(pool.pending()).toBe(0)
    } finally {
      await pool.close()
    }
  })

  it('should answer each task of a batch on its own: one that fails leaves the others in the same message whole', async () => {
    // Ten tasks at once on one thread go out as two batches of five (MAX_BATCH 8, two batches in flight per thread).
    const pool = createAnalysisPool({ size: 1, dataDir: undefined })
    try {
      const good = defaultStored()
      const broken = { configuration: {}, tuning: {}, revision: 1 } as unknown as StoredConfiguration
      const subscription = buildSubscription(undefined, 'test')
      const settled = await Promise.allSettled(
        Array.from({ length: 10 }, (_, i) =>
          pool.analyzeDocument(`Review ${i}: the staff were great.`, { id: `d${i}` }, i % 3 === 1 ? broken : good, subscription, i % 3 === 1 ? 'broken' : 'good'),
        ),
      )
      expect(settled.map((r) => r.status)).toEqual(Array.from({ length: 10 }, (_, i) => (i % 3 === 1 ? 'rejected' : 'fulfilled')))
      settled.forEach((r, i) => {
        if (r.status === 'fulfilled') {
          expect(r.value.id).toBe(`d${i}`)
          expect(r.value.sentiment_polarity).toBe('positive')
        } else expect(String(r.reason)).toMatch(/^Error: \S/)
      })
      expect(pool.pending()).toBe(0)
    } finally {
      await pool.close()
    }
  })

  it('should not hold a document back behind a collection sent in the same batch', async () => {
    // One thread: a document, a long collection and a document handed over together. Batched with the collection, the
    // first document would be answered only when the collection is done (a batch answers at its end).
    await withOneThread(async (analyze, collect) => {
      let collectionDone = false
      const first = analyze('The staff were great.', 'a')
      const collection = collect(TEXTS.slice(0, 40).flatMap((t) => [t, t, t]), 'c').then((o) => ((collectionDone = true), o))
      const last = analyze('The room was dirty.', 'b')
      expect(await settledBy(first, () => collectionDone)).toBe(false)
      expect((await collection).docs_count).toBe(120)
      expect((await last).id).toBe('b')
    })
  })

  it('should batch short texts only: a long document does not wait for the next one', async () => {
    await withOneThread(async (analyze) => {
      const long = (n: number): string => TEXTS.join(' ').repeat(20).slice(0, n)
      let secondDone = false
      // Four waiting tasks for two places: batches of two by count, but the first two do not fit MAX_BATCH_CHARS
      // (4,000) together.
      const first = analyze(long(3000), 'a')
      const second = analyze(long(20_000), 'b').then((o) => ((secondDone = true), o))
      const rest = [analyze('Short.', 'c'), analyze('Also short.', 'd')]
      expect(await settledBy(first, () => secondDone)).toBe(false)
      expect((await second).id).toBe('b')
      expect((await Promise.all(rest)).map((o) => o.id)).toEqual(['c', 'd'])
    })
  })

  it("should give back the caller's metadata as in-process, values JSON cannot carry included", async () => {
    const single = createEngine({ workers: 0 })
    const pooled = createEngine({ workers: 1 })
    try {
      const when = new Date(0)
      const metadata = { when, big: 10n, none: undefined, list: [1, 'two'] }
      const items = [{ text: 'Great stay.', id: 'a', metadata }, { text: 'Dirty room.', id: 'b' }]
      const a = await single.analyzeMany(items)
      const b = await pooled.analyzeMany(items)
      expect(b[0]!.metadata).toBe(metadata)
      expect(a[0]!.metadata).toBe(metadata)
      expect(Object.keys(b[0]!)).toEqual(Object.keys(a[0]!))
      expect('metadata' in b[1]!).toBe(false)
      const strip = (o: object): string => JSON.stringify(o, (k, v: unknown) => (k === 'metadata' || k === 'config_id' ? undefined : v))
      expect(b.map(strip)).toEqual(a.map(strip))
      const one = await pooled.analyze('Fine.', { id: 'c', metadata: when })
      expect(one.metadata).toBe(when)
    } finally {
      await single.close()
      await pooled.close()
    }
  })

  it('should refuse bad worker options and extra analyzers with workers', () => {
    for (const workers of [-1, 1.5, Number.NaN, 1000]) {
      expect(() => createEngine({ workers })).toThrow(/options\.workers must be an integer/)
    }
    expect(() => createEngine({ workers: 1, analyzers: [{ name: 'x', needs: [], run: () => ({}) } as never] })).toThrow(/cannot run in worker threads/)
  })

  it('should not keep the process alive with idle threads, and close them on close()', () => {
    // Two fresh processes, each loading tsx and the models on its thread: about 27 s each at load 20 on 2 cores.
    // A child process that analyses on one thread and then neither closes the engine nor keeps anything else
    // alive must exit on its own; a second one closes the engine and must exit too.
    const engineUrl = new URL('../../src/engine/create-engine.ts', import.meta.url).href
    const script = (close: boolean): string => `
      const { createEngine } = await import(${JSON.stringify(engineUrl)})
      const engine = createEngine({ workers: 1 })
      const [out] = await engine.analyzeMany(['The room was clean and the staff were friendly.'])
      console.log(out.status, out.sentiment_polarity)
      ${close ? 'await engine.close(); console.log("closed")' : ''}
    `
    for (const close of [false, true]) {
      const r = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script(close)], {
        cwd: fileURLToPath(new URL('../..', import.meta.url)),
        encoding: 'utf8',
        timeout: 110_000,
      })
      expect(r.error, String(r.error)).toBeUndefined()
      expect(r.stderr).not.toMatch(/Error/)
      expect(r.status).toBe(0)
      expect(r.stdout).toContain('PROCESSED positive')
      if (close) expect(r.stdout).toContain('closed')
    }
  }, 240_000)
  it.runIf(process.platform === 'linux')('should run analysis threads at a lower priority than the thread that answers requests (Linux)', async () => {
    // A child process reports the nice value of each of its threads while its pool is alive.
    const engineUrl = new URL('../../src/engine/create-engine.ts', import.meta.url).href
    const script = `
      const { readdirSync, readFileSync } = await import('node:fs')
      const { createEngine } = await import(${JSON.stringify(engineUrl)})
      const engine = createEngine({ workers: 1 })
      await engine.analyzeMany(['The room was clean.'])
      const nice = (t) => { const st = readFileSync('/proc/self/task/' + t + '/stat', 'utf8'); return Number(st.slice(st.lastIndexOf(')') + 2).split(' ')[16]) }
      console.log(JSON.stringify({ main: nice(process.pid), threads: readdirSync('/proc/self/task').map(nice) }))
      await engine.close()
    `
    const r = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      cwd: fileURLToPath(new URL('../..', import.meta.url)),
      encoding: 'utf8',
      timeout: 60_000,
    })
    expect(r.status, r.stderr).toBe(0)
    const { main, threads } = JSON.parse(r.stdout.trim().split('\n').pop()!) as { main: number; threads: number[] }
    // The pool's threads are at nice 10 (or at the process's own value when that is already lower priority).
    expect(Math.max(...threads)).toBe(Math.max(main, 10))
    if (main < 10) expect(threads.filter((n) => n > main).length).toBeGreaterThanOrEqual(1)
  })
})
