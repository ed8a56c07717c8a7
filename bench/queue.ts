/**
 * `npx tsx bench/queue.ts [data dir]`: the queued path against `analyze`, in one process and run (issue 17 target:
 * the queued path at >= 0.9 of `analyze`).
 *
 * Per sample set (capped at `BENCH_DOCS` texts, default 1,000): `engine.analyze(text)` on each text in turn, then
 * the same texts through the queue: `submitDocuments` in batches of 100, `drain()`, `takeProcessedDocuments` until
 * every document came back (memory storage, in-process analysis, one thread). Rates are documents per CPU-second of
 * this process (user + system), so that other processes on a shared machine do not move them. Before timing, every text
 * of the set goes once through each path (JIT, wink's caches and the analyzers' caches as warm for both: one pass is
 * far from enough, rates still climb 1.5-2x from the first to the third pass); then `ROUNDS` (default 3) rounds,
 * which path goes first alternating, best of each.
 */
import { createEngine } from '../src/engine/create-engine.ts'
import type { Engine } from '../src/engine/types.ts'
import { benchSets, dataDir } from './samples.ts'

const dir = dataDir()
const cap = Number(process.env['BENCH_DOCS'] ?? 1000)
const rounds = Math.max(1, Number(process.env['ROUNDS'] ?? 3))
const sets = benchSets(dir).map((s) => ({ name: s.name, texts: s.texts.slice(0, cap) }))
const unlimited = { billing_settings: { data_calls_limit: 0, settings_calls_limit: 0, polling_calls_limit: 0 } }

const cpu = (): number => {
  const u = process.cpuUsage()
  return (u.user + u.system) / 1e6
}

async function viaAnalyze(engine: Engine, texts: readonly string[]): Promise<number> {
  const c0 = cpu()
  for (const [i, t] of texts.entries()) await engine.analyze(t, { id: `a${i}` })
  return texts.length / (cpu() - c0)
}

async function viaQueue(engine: Engine, texts: readonly string[], round: number): Promise<number> {
  const acct = engine.account(engine.defaultAccount)
  const c0 = cpu()
  for (let i = 0; i < texts.length; i += 100) {
    await acct.submitDocuments(texts.slice(i, i + 100).map((text, j) => ({ id: `q${round}-${i + j}`, text })), { batch: true })
  }
  await engine.drain()
  let back = 0
  for (let got = await acct.takeProcessedDocuments({}); got.length > 0; got = await acct.takeProcessedDocuments({})) back += got.length
  const rate = texts.length / (cpu() - c0)
  if (back !== texts.length) throw new Error(`queued ${texts.length}, retrieved ${back}`)
  return rate
}

const engine = createEngine({
  accounts: [{ key: 'bench', secret: 'bench', subscription: { ...unlimited, basic_settings: { polling_batch_limit: 1000 } } }],
  background: false,
  maxQueuedPerAccount: 0,
  logger: { warn: (m) => process.stderr.write(`${m}\n`), info: () => {} },
})
// Warm-up (models, JIT, caches), not timed: every text of every set through both paths.
for (const s of sets) {
  await viaAnalyze(engine, s.texts)
  await viaQueue(engine, s.texts, -1)
}

process.stdout.write(`queued path vs analyze: docs per CPU-second, one thread, memory storage, best of ${rounds} rounds, up to ${cap} texts per set\n`)
process.stdout.write(`${'set'.padEnd(16)} ${'analyze'.padStart(9)} ${'queued'.padStart(9)} ${'ratio'.padStart(6)}\n`)
for (const s of sets) {
  let a = 0
  let q = 0
  for (let r = 0; r < rounds; r++) {
    if (r % 2 === 1) q = Math.max(q, await viaQueue(engine, s.texts, r))
    a = Math.max(a, await viaAnalyze(engine, s.texts))
    if (r % 2 === 0) q = Math.max(q, await viaQueue(engine, s.texts, r))
  }
  process.stdout.write(`${s.name.padEnd(16)} ${a.toFixed(0).padStart(9)} ${q.toFixed(0).padStart(9)} ${(q / a).toFixed(2).padStart(6)}\n`)
}
await engine.close()
