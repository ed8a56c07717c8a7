/**
 * Memory of a backlog: 10,000 documents (the sample texts, repeated with distinct ids) submitted to the engine's
 * queue in batches of 100, processed in the background, held as processed outputs, then taken. Prints the peak
 * RSS of the process (the kernel's high-water mark) and RSS after loading, after processing and after taking.
 *
 *   npx tsx bench/memory.ts [data dir]       BENCH_BACKLOG=n documents (default 10,000)
 */
import { createEngine } from '../src/engine/create-engine.ts'
import { dataDir, loadSamples, peakRssMiB, record } from './samples.ts'

const N = Math.max(1, Number(process.env['BENCH_BACKLOG'] ?? 10_000))
const BATCH = 100
const texts = loadSamples(dataDir()).flatMap((s) => s.texts)
const mib = (): number => process.memoryUsage().rss / 1024 / 1024
const unlimited = { billing_settings: { data_calls_limit: 0, settings_calls_limit: 0, polling_calls_limit: 0 } }

const engine = createEngine({ accounts: [{ key: 'mem', secret: 'mem', subscription: unlimited }] })
const api = engine.account('mem')
await engine.analyze(texts[0]!) // models loaded
const loaded = mib()
const t0 = performance.now()
for (let i = 0; i < N; i += BATCH) {
  const batch = Array.from({ length: Math.min(BATCH, N - i) }, (_, j) => ({ id: `m${i + j}`, text: texts[(i + j) % texts.length]! }))
  await api.submitDocuments(batch, { batch: true })
}
await engine.drain()
const processedSeconds = (performance.now() - t0) / 1000
const held = mib()
let taken = 0
while (taken < N) {
  const got = await api.takeProcessedDocuments({})
  if (got.length === 0) break
  taken += got.length
}
const after = mib()
await engine.close()
const peak = peakRssMiB()
console.log(`backlog of ${N} documents (${texts.length} sample texts repeated), batches of ${BATCH}: processed in ${processedSeconds.toFixed(1)} s, ${taken} taken`)
console.log(`RSS after loading ${loaded.toFixed(0)} MiB, with ${N} processed outputs held ${held.toFixed(0)} MiB, after taking them ${after.toFixed(0)} MiB`)
console.log(`peak RSS ${peak.toFixed(0)} MiB (target <= 300 MiB over 10k documents: ${peak <= 300 ? 'met' : 'NOT met'})`)
record('memory.backlog_peak_rss_mib', peak, 'MiB', false)
record('memory.backlog_held_rss_mib', held, 'MiB', false)
