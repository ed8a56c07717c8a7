/**
 * `npx tsx bench/batch.ts [data dir] [--every-output]`: batched analysis (`AnalysisCore.analyzeDocuments` over the
 * batches of `analysisBatches`, as `analyzeMany`, the queue and the worker threads run it) against one text at a time
 * (`analyzeDocument`), on one thread, per sample set, default configuration or every output on.
 *
 * First it checks that both give the same bytes for every text of the set. Then chunks of 200 texts go through both
 * ways, which goes first alternating from chunk to chunk and pass to pass, so both see the same mix of load on a
 * shared machine; CPU time of the process (user + system) per text, summed over every chunk, after one untimed pass
 * of each. Printed: microseconds per text each way and their ratio; the same per pipeline step (all sets together);
 * then why batches pay: wink's `readDoc` of the first set's texts timed in a tight loop, between two of our analyses,
 * and after reading 32 MB of memory.
 */
import { createAnalysisCore, analysisBatches, type AnalysisJob } from '../src/engine/analysis.ts'
import { builtinAnalyzers } from '../src/engine/features.ts'
import { EVERY_OUTPUT_ON } from '../test/fixtures/golden/golden.ts'
import winkNLP from 'wink-nlp'
import model from 'wink-eng-lite-web-model'
import { benchSets, dataDir } from './samples.ts'
import { benchConfiguration } from './configuration.ts'

const every = process.argv.includes('--every-output')
const sets = benchSets(dataDir(process.argv.slice(2).find((a) => !a.startsWith('--'))))
const core = createAnalysisCore(builtinAnalyzers())
const { stored, subscription } = benchConfiguration(every ? EVERY_OUTPUT_ON.document : {})
const CHUNK = 200
/** At least this many texts timed per set and way (a small set is passed over again). */
const MIN_TIMED = 3000

const oneAtATime = (jobs: readonly AnalysisJob[]): unknown[] => jobs.map((j) => core.analyzeDocument(j.text, j.meta, stored, subscription, 'bench'))
const batched = (jobs: readonly AnalysisJob[]): unknown[] =>
  analysisBatches(jobs).flatMap((b) =>
    core.analyzeDocuments(b, stored, subscription, 'bench').map((r) => {
      if (r.output === undefined) throw r.error
      return r.output
    }),
  )
const cpuMs = (): number => {
  const u = process.cpuUsage()
  return (u.user + u.system) / 1000
}

console.log(`batched analysis (batches of analysisBatches) against one text at a time, one thread, ${every ? 'every output on' : 'default configuration'}; CPU us per text`)
console.log(`${'set'.padEnd(10)} ${'texts'.padStart(6)} ${'identical'.padStart(10)} ${'one at a time'.padStart(14)} ${'batched'.padStart(9)} ${'ratio'.padStart(6)}`)
for (const s of sets) {
  const jobs = s.texts.map((text, i) => ({ text, meta: { id: `d${i}` } }))
  const a = oneAtATime(jobs)
  const b = batched(jobs)
  const same = jobs.filter((_, i) => JSON.stringify(a[i]) === JSON.stringify(b[i])).length
  const chunks: AnalysisJob[][] = []
  for (let i = 0; i < jobs.length; i += CHUNK) chunks.push(jobs.slice(i, i + CHUNK))
  let one = 0
  let many = 0
  const passes = Math.max(2, Math.ceil(MIN_TIMED / jobs.length))
  for (let p = 0; p < passes; p++) {
    for (const [k, c] of chunks.entries()) {
      const ways: Array<() => void> = [
        () => {
          const t = cpuMs()
          oneAtATime(c)
          one += cpuMs() - t
        },
        () => {
          const t = cpuMs()
          batched(c)
          many += cpuMs() - t
        },
      ]
      if ((p + k) % 2 === 1) ways.reverse()
      for (const w of ways) w()
    }
  }
  const n = passes * jobs.length
  console.log(
    `${s.name.padEnd(10)} ${String(jobs.length).padStart(6)} ${`${same}/${jobs.length}`.padStart(10)} ${((one / n) * 1000).toFixed(0).padStart(14)} ${((many / n) * 1000).toFixed(0).padStart(9)} ${(one / many).toFixed(2).padStart(6)}`,
  )
}

// Where it pays: per-step wall time per text (the pipeline's `timings`), one at a time against batched, every text of
// every set with the configuration above, alternating chunks as above (two cores of ours, one per way).
{
  const oneT = new Map<string, number>()
  const manyT = new Map<string, number>()
  const oneCore = createAnalysisCore(builtinAnalyzers(), { timings: oneT })
  const manyCore = createAnalysisCore(builtinAnalyzers(), { timings: manyT })
  const jobs = sets.flatMap((s) => s.texts).map((text, i) => ({ text, meta: { id: `d${i}` } }))
  const one = (js: readonly AnalysisJob[]): void => js.forEach((j) => oneCore.analyzeDocument(j.text, j.meta, stored, subscription, 'bench'))
  const many = (js: readonly AnalysisJob[]): void => analysisBatches(js).forEach((b) => manyCore.analyzeDocuments(b, stored, subscription, 'bench'))
  one(jobs)
  many(jobs)
  oneT.clear()
  manyT.clear()
  const passes = 2
  for (let p = 0; p < passes; p++) {
    for (let i = 0, k = 0; i < jobs.length; i += CHUNK, k++) {
      const c = jobs.slice(i, i + CHUNK)
      if ((p + k) % 2 === 0) {
        one(c)
        many(c)
      } else {
        many(c)
        one(c)
      }
    }
  }
  const n = passes * jobs.length
  const us = (m: Map<string, number>, k: string): number => ((m.get(k) ?? 0) / n) * 1000
  console.log(`\nper step, wall us per text over all ${jobs.length} texts (annotate and each analyzer: run and output mapping)`)
  console.log(`${'step'.padEnd(18)} ${'one at a time'.padStart(14)} ${'batched'.padStart(9)} ${'ratio'.padStart(6)}`)
  for (const k of [...oneT.keys()].sort((a, b) => oneT.get(b)! - oneT.get(a)!)) {
    console.log(`${k.padEnd(18)} ${us(oneT, k).toFixed(0).padStart(14)} ${us(manyT, k).toFixed(0).padStart(9)} ${(us(oneT, k) / us(manyT, k)).toFixed(2).padStart(6)}`)
  }
}

// Why: wink's readDoc of the same texts, timed alone, in a tight loop; each one between two of our analyses; and each
// one after reading 32 MB of memory (nothing of ours run). Wall time of the readDoc calls only.
const nlp = winkNLP(model, ['sbd', 'negation', 'pos', 'ner'])
const texts = sets[0]!.texts
const sweep = new Float64Array(4 << 20)
let sink = 0
const readDocUs = (before: (i: number) => void): number => {
  let ms = 0
  for (let i = 0; i < texts.length; i++) {
    before(i)
    const t = texts[(i * 7919) % texts.length]!
    const t0 = performance.now()
    nlp.readDoc(t)
    ms += performance.now() - t0
  }
  return (ms / texts.length) * 1000
}
for (const t of texts) nlp.readDoc(t)
const tight = readDocUs(() => {})
const between = readDocUs((i) => core.analyzeDocument(texts[i]!, { id: 'b' }, stored, subscription, 'bench'))
const swept = readDocUs((i) => {
  for (let k = i % 8; k < sweep.length; k += 8) sink += sweep[k]!
})
console.log(
  `\nwink readDoc on the ${sets[0]!.name} (${texts.length}), us per text: in a tight loop ${tight.toFixed(0)}; each between two of our analyses ${between.toFixed(0)}; each after reading 32 MB ${swept.toFixed(0)}${sink === 1 ? '' : ''}`,
)
