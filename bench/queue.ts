/**
 * `npx tsx bench/queue.ts [data dir] [--compiled]`: the queued path against `analyze`, in one process and run (issue
 * 17 target: the queued path at >= 0.9 of `analyze`). `--compiled` times the compiled package, as users run it (both
 * paths about 10% faster than under tsx; the ratio about the same: tweets 0.81 compiled, 0.82 under tsx, in two
 * consecutive runs).
 *
 * Per sample set (capped at `BENCH_DOCS` texts, default 1,000), in chunks of `CHUNK` texts (default 200): the chunk
 * through `engine.analyze(text)` one text after another, and the same chunk through the queue (`submitDocuments` in
 * batches of 100, `drain()`, `takeProcessedDocuments` until every document came back; memory storage, in-process
 * analysis, one thread). Which path goes first alternates from chunk to chunk and round to round, and each path's
 * CPU time is summed over every chunk of `ROUNDS` rounds (default 3): on a loaded machine the two paths then see the
 * same mix of load, instead of one path owning a quiet or a busy minute. Rates are documents per CPU-second of this
 * process (user + system, every thread: GC helpers included); the GC column is the main-thread pause time of each
 * path (PerformanceObserver 'gc' entries) as a share of its CPU time. Before timing, every text of the set goes
 * `WARM_PASSES` times (default 4) through each path (JIT, wink's caches and the analyzers' caches as warm for both;
 * with one pass, tweets read 0.75 in a run where four read 0.80, the analyze rate 1,632 against 2,125 docs/s).
 */
import { PerformanceObserver } from 'node:perf_hooks'
import { join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import type { Engine } from '../src/engine/types.ts'
import { buildPackageInto } from './build-dist.ts'
import { benchSets, dataDir, queueRoundTrip } from './samples.ts'

// --compiled: the engine of the compiled package (tsc's JavaScript, as an installed package runs it), built into a
// private folder, instead of the sources under tsx (whose transform adds a name-keeping call per inner function).
const compiled = process.argv.includes('--compiled')
const dir = dataDir(process.argv.slice(2).find((a) => !a.startsWith('--')))
const ROOT = fileURLToPath(new URL('..', import.meta.url))
const BUILD = join(ROOT, '.tmp', 'queue-dist')
if (compiled) buildPackageInto(ROOT, BUILD)
const { createEngine } = (await import(
  compiled ? pathToFileURL(join(BUILD, 'src', 'engine', 'create-engine.js')).href : '../src/engine/create-engine.ts'
)) as typeof import('../src/engine/create-engine.ts')
const cap = Number(process.env['BENCH_DOCS'] ?? 1000)
const rounds = Math.max(1, Number(process.env['ROUNDS'] ?? 3))
const chunk = Math.max(1, Number(process.env['CHUNK'] ?? 200))
const sets = benchSets(dir).map((s) => ({ name: s.name, texts: s.texts.slice(0, cap) }))
const unlimited = { billing_settings: { data_calls_limit: 0, settings_calls_limit: 0, polling_calls_limit: 0 } }

const cpu = (): number => {
  const u = process.cpuUsage()
  return (u.user + u.system) / 1e6
}
/** GC pauses (start, duration in ms), delivered late: each is charged to the path whose window holds its start. */
const pauses: Array<[number, number]> = []
new PerformanceObserver((list) => {
  for (const e of list.getEntries()) pauses.push([e.startTime, e.duration])
}).observe({ entryTypes: ['gc'] })
const windows: Array<{ from: number; to: number; cost: Cost }> = []
/** Charge every GC pause to its path (call once every path has run and the last entries were delivered). */
function chargeGc(): void {
  for (const [at, ms] of pauses) {
    const w = windows.find((x) => at >= x.from && at < x.to)
    if (w !== undefined) w.cost.gc += ms / 1000
  }
}

interface Cost {
  cpu: number
  gc: number
  docs: number
}
const zero = (): Cost => ({ cpu: 0, gc: 0, docs: 0 })

async function timed(cost: Cost, docs: number, f: () => Promise<void>): Promise<void> {
  const from = performance.now()
  const c0 = cpu()
  await f()
  cost.cpu += cpu() - c0
  windows.push({ from, to: performance.now(), cost })
  cost.docs += docs
}

/** `YIELD=1`: a turn of the event loop before each text, as the queue's in-process executor takes one. */
const yieldEach = process.env['YIELD'] === '1'

async function viaAnalyze(engine: Engine, texts: readonly string[], tag: string): Promise<void> {
  for (const [i, t] of texts.entries()) {
    if (yieldEach) await new Promise((r) => setImmediate(r))
    await engine.analyze(t, { id: `${tag}-${i}` })
  }
}

const viaQueue = (engine: Engine, texts: readonly string[], tag: string): Promise<void> => queueRoundTrip(engine, engine.defaultAccount, texts, tag)

const engine = createEngine({
  accounts: [{ key: 'bench', secret: 'bench', subscription: { ...unlimited, basic_settings: { polling_batch_limit: 1000 } } }],
  background: false,
  maxQueuedPerAccount: 0,
  logger: { warn: (m) => process.stderr.write(`${m}\n`), info: () => {} },
})
// Warm-up (models, JIT, caches), not timed: every text of every set through both paths, WARM_PASSES times (default 4):
// V8 re-optimises our largest functions for thousands of texts (see bench/engine.ts), and with one pass the timed
// chunks still paid for those recompilations, on whichever path happened to run.
const warmPasses = Math.max(1, Number(process.env['WARM_PASSES'] ?? 4))
for (let w = 0; w < warmPasses; w++) {
  for (const s of sets) {
    await viaAnalyze(engine, s.texts, `wa${w}`)
    await viaQueue(engine, s.texts, `wq${w}`)
  }
}

const pct = (c: Cost): string => `${((100 * c.gc) / c.cpu).toFixed(1)}%`
process.stdout.write(
  `queued path vs analyze (${compiled ? 'compiled package, plain JavaScript' : 'sources under tsx'}): docs per CPU-second, one thread, memory storage, ${rounds} rounds of chunks of ${chunk}, alternating, up to ${cap} texts per set\n`,
)
process.stdout.write(`${'set'.padEnd(16)} ${'analyze'.padStart(9)} ${'gc'.padStart(6)} ${'queued'.padStart(9)} ${'gc'.padStart(6)} ${'ratio'.padStart(6)}\n`)
const all = { a: zero(), q: zero() }
for (const s of sets) {
  const a = zero()
  const q = zero()
  windows.length = 0
  pauses.length = 0
  let n = 0
  for (let r = 0; r < rounds; r++) {
    for (let i = 0; i < s.texts.length; i += chunk, n++) {
      const part = s.texts.slice(i, i + chunk)
      const runA = (): Promise<void> => timed(a, part.length, () => viaAnalyze(engine, part, `a${r}-${i}`))
      const runQ = (): Promise<void> => timed(q, part.length, () => viaQueue(engine, part, `q${r}-${i}`))
      if (n % 2 === 0) {
        await runA()
        await runQ()
      } else {
        await runQ()
        await runA()
      }
    }
  }
  await new Promise((r) => setTimeout(r, 50))
  chargeGc()
  for (const [k, c] of [['a', a], ['q', q]] as const) {
    all[k].cpu += c.cpu
    all[k].gc += c.gc
    all[k].docs += c.docs
  }
  const ra = a.docs / a.cpu
  const rq = q.docs / q.cpu
  process.stdout.write(`${s.name.padEnd(16)} ${ra.toFixed(0).padStart(9)} ${pct(a).padStart(6)} ${rq.toFixed(0).padStart(9)} ${pct(q).padStart(6)} ${(rq / ra).toFixed(2).padStart(6)}\n`)
}
// Overall: total documents over total CPU (the sets weighted by their cost).
const ra = all.a.docs / all.a.cpu
const rq = all.q.docs / all.q.cpu
process.stdout.write(`${'all'.padEnd(16)} ${ra.toFixed(0).padStart(9)} ${pct(all.a).padStart(6)} ${rq.toFixed(0).padStart(9)} ${pct(all.q).padStart(6)} ${(rq / ra).toFixed(2).padStart(6)}\n`)
await engine.close()
