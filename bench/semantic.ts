/**
 * The semantic layer's cost: load time and memory of the word vectors and the taxonomy (in a fresh process, so
 * nothing else is counted), and the pipeline's rate on the sample texts with concept topics and auto_categories
 * on beside off, in the same run (alternating rounds, best round of each).
 *
 *   npx tsx bench/semantic.ts [dataDir]      (default ../shared/data)
 */
import { execFileSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { createEngine } from '../src/index.ts'
import { createSemanticModel } from '../src/semantic/index.ts'
import { dataDir, loadSamples } from './samples.ts'

if (process.argv[2] === '--load') {
  // Child process: measure the load alone.
  global.gc?.()
  const before = process.memoryUsage()
  const t0 = performance.now()
  const m = createSemanticModel()
  const size = m.vectors.size
  const t1 = performance.now()
  const nodes = m.taxonomy.nodes.length
  const t2 = performance.now()
  global.gc?.()
  const after = process.memoryUsage()
  const mb = (x: number): string => (x / 1e6).toFixed(1)
  console.log(
    `vectors: ${size} words loaded in ${(t1 - t0).toFixed(0)} ms; taxonomy: ${nodes} nodes in ${(t2 - t1).toFixed(0)} ms; ` +
      `memory +${mb(after.heapUsed + after.arrayBuffers - before.heapUsed - before.arrayBuffers)} MB heap and buffers, +${mb(after.rss - before.rss)} MB RSS`,
  )
  process.exit(0)
}

const here = fileURLToPath(import.meta.url)
console.log(execFileSync(process.execPath, ['--expose-gc', '--import', 'tsx', here, '--load'], { encoding: 'utf8' }).trim())

const texts = loadSamples(dataDir()).flatMap((s) => s.texts.slice(0, 100))
const CATEGORIES = [
  { name: 'Staff', weight: 1, samples: ['staff', 'reception', 'service'] },
  { name: 'Food', weight: 1, samples: ['breakfast', 'restaurant', 'food'] },
  { name: 'Room', weight: 1, samples: ['room', 'bed', 'bathroom'] },
  { name: 'Price', weight: 1, samples: ['price', 'value', 'expensive'] },
  { name: 'Location', weight: 1, samples: ['location', 'beach', 'city centre'] },
]
const engine = createEngine({ background: false })
const acct = engine.account(engine.defaultAccount)
const cfgOn = (await acct.createConfigurations([{ name: 'on', is_primary: false, language: 'English', document: { concept_topics: true, auto_categories: true } }]))
const cfgOff = (await acct.createConfigurations([{ name: 'off', is_primary: false, language: 'English', document: { concept_topics: false, auto_categories: false } }]))
const on = cfgOn[0]!.config_id
const off = cfgOff[0]!.config_id
await acct.createTuning('categories', CATEGORIES, on)
await acct.createTuning('categories', CATEGORIES, off)
const round = async (configId: string): Promise<number> => {
  const t0 = performance.now()
  for (const t of texts) await engine.analyze(t, { configId })
  return texts.length / ((performance.now() - t0) / 1000)
}
await round(on)
await round(off)
let bestOn = 0
let bestOff = 0
for (let i = 0; i < 3; i++) {
  bestOff = Math.max(bestOff, await round(off))
  bestOn = Math.max(bestOn, await round(on))
}
await engine.close()
console.log(`pipeline on ${texts.length} sample texts: ${bestOff.toFixed(0)} docs/s off, ${bestOn.toFixed(0)} docs/s with concept topics (5 categories) and auto_categories on: cost ${((1 - bestOn / bestOff) * 100).toFixed(1)}% (target <= 20%)`)
