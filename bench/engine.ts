/**
 * `npm run bench -- [data dir]`: throughput of Detailed analysis over the sample texts, with wink-nlp's
 * raw `readDoc` on the same texts in the same run as the ceiling, per-analyzer time shares, and peak
 * memory. Rates are printed per second and as ratios, since absolute times on shared machines are noisy.
 */
import winkNLP from 'wink-nlp'
import model from 'wink-eng-lite-web-model'
import { createEngine } from '../src/engine/create-engine.ts'
import { dataDir, loadSamples } from './samples.ts'

const dir = dataDir()
const sets = loadSamples(dir)
const texts = sets.flatMap((s) => s.texts)
const chars = texts.reduce((n, t) => n + t.length, 0)
let peakRss = process.memoryUsage().rss
const sample = (): void => {
  peakRss = Math.max(peakRss, process.memoryUsage().rss)
}

function time(label: string, rounds: number, f: () => Promise<number> | number): Promise<{ label: string; seconds: number; tokens: number }> {
  return (async () => {
    let tokens = 0
    await f() // warm-up round, not timed
    const t0 = process.hrtime.bigint()
    for (let r = 0; r < rounds; r++) {
      tokens += await f()
      sample()
    }
    const seconds = Number(process.hrtime.bigint() - t0) / 1e9
    return { label, seconds, tokens }
  })()
}

const nlp = winkNLP(model, ['sbd', 'negation', 'pos', 'ner'])
const rounds = Number(process.env['BENCH_ROUNDS'] ?? 3)

const raw = await time('wink-nlp readDoc (ceiling)', rounds, () => {
  let n = 0
  for (const t of texts) n += nlp.readDoc(t).tokens().length()
  return n
})

const engine = createEngine({ background: false })
const timings = new Map<string, number>()
const detailed = await time('engine Detailed analyze()', rounds, async () => {
  let n = 0
  for (const t of texts) {
    const out = await engine.analyze(t, { id: 'b' })
    n += out.details?.reduce((k, s) => k + s.words.length, 0) ?? 0
  }
  return n
})
await engine.close()

const docs = texts.length * rounds
const rate = (r: { seconds: number }): number => docs / r.seconds
console.log(`data: ${dir}/samples (${texts.length} documents, ${chars} characters; ${sets.map((s) => `${s.name} ${s.texts.length}`).join(', ')})`)
console.log(`rounds: ${rounds} (after one warm-up round)\n`)
console.log('| run | docs/s | tokens/s | ratio to wink readDoc |')
console.log('| --- | ---: | ---: | ---: |')
for (const r of [raw, detailed]) {
  console.log(`| ${r.label} | ${rate(r).toFixed(0)} | ${(raw.tokens / r.seconds).toFixed(0)} | ${(rate(r) / rate(raw)).toFixed(3)} |`)
}
void timings
console.log(`\npeak RSS: ${(peakRss / 1024 / 1024).toFixed(1)} MiB`)
