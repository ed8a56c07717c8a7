/**
 * Engine throughput over the sample texts: Detailed analysis (default configuration, and with every
 * output on) against wink-nlp's raw `readDoc` on the same texts in the same run as the ceiling; the
 * share of pipeline time each step takes; model sizes and load times; peak memory. Rates are printed
 * per second and as ratios, since absolute times on shared machines are noisy.
 */
import { statSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import winkNLP from 'wink-nlp'
import model from 'wink-eng-lite-web-model'
import { createEngine } from '../src/engine/create-engine.ts'
import { createAnalysisCore } from '../src/engine/analysis.ts'
import { builtinAnalyzers } from '../src/engine/features.ts'
import { buildSubscription } from '../src/engine/account.ts'
import { defaultConfigurationSettings } from '../src/engine/settings.ts'
import { emptyTuning } from '../src/engine/templates.ts'
import { createEntityTagger } from '../src/entities/tagger.ts'
import { createSentimentScorer } from '../src/sentiment/index.ts'
import { createLanguageIdentifier } from '../src/langid/index.ts'
import type { StoredConfiguration } from '../src/storage/types.ts'
import { dataDir, loadSamples } from './samples.ts'

const dir = dataDir()
const sets = loadSamples(dir)
const texts = sets.flatMap((s) => s.texts)
const chars = texts.reduce((n, t) => n + t.length, 0)
const rounds = Number(process.env['BENCH_ROUNDS'] ?? 2)
let peakRss = process.memoryUsage().rss
const sample = (): void => {
  peakRss = Math.max(peakRss, process.memoryUsage().rss)
}

async function time(label: string, f: () => Promise<void> | void): Promise<{ label: string; seconds: number }> {
  await f() // warm-up round, not timed
  const t0 = process.hrtime.bigint()
  for (let r = 0; r < rounds; r++) {
    await f()
    sample()
  }
  return { label, seconds: Number(process.hrtime.bigint() - t0) / 1e9 }
}

const nlp = winkNLP(model, ['sbd', 'negation', 'pos', 'ner'])
let tokensPerRound = 0
for (const t of texts) tokensPerRound += nlp.readDoc(t).tokens().length()

const runs = [
  await time('wink-nlp readDoc (ceiling)', () => {
    for (const t of texts) nlp.readDoc(t)
  }),
]
const engine = createEngine({ background: false })
runs.push(
  await time('engine analyze(), default configuration', async () => {
    for (const t of texts) await engine.analyze(t, { id: 'b' })
  }),
)
await engine.account(engine.defaultAccount).updateConfigurations({
  document: { themes_limit: 5, theme_mentions_limit: 5, phrases_limit: 5, possible_phrases_limit: 5, mentions: true, model_sentiment: true, named_mentions_limit: 5 },
})
runs.push(
  await time('engine analyze(), every output on', async () => {
    for (const t of texts) await engine.analyze(t, { id: 'b' })
  }),
)
await engine.close()

const docs = texts.length * rounds
console.log(`data: ${dir}/samples (${texts.length} documents, ${chars} characters, ${tokensPerRound} tokens; ${sets.map((s) => `${s.name} ${s.texts.length}`).join(', ')})`)
console.log(`rounds: ${rounds} (after one warm-up round); machine: ${process.arch}, node ${process.version}\n`)
console.log('| run | docs/s | tokens/s | ratio to wink readDoc |')
console.log('| --- | ---: | ---: | ---: |')
for (const r of runs) {
  const rate = docs / r.seconds
  console.log(`| ${r.label} | ${rate.toFixed(0)} | ${((tokensPerRound * rounds) / r.seconds).toFixed(0)} | ${(rate / (docs / runs[0]!.seconds)).toFixed(3)} |`)
}

// Where the time goes: the analysis core with per-step timings, every output on.
const timings = new Map<string, number>()
const core = createAnalysisCore(builtinAnalyzers(), { timings })
const settings = defaultConfigurationSettings('English')
const stored: StoredConfiguration = {
  configuration: {
    ...settings,
    id: 'bench',
    config_id: 'bench',
    is_primary: true,
    modified: 0,
    document: { ...settings.document, themes_limit: 5, phrases_limit: 5, possible_phrases_limit: 5, mentions: true, model_sentiment: true, named_mentions_limit: 5 },
  },
  tuning: emptyTuning(),
  revision: 1,
}
const subscription = buildSubscription(undefined, 'bench')
for (const t of texts) core.analyzeDocument(t, { id: 'b' }, stored, subscription, 'bench')
timings.clear()
for (const t of texts) core.analyzeDocument(t, { id: 'b' }, stored, subscription, 'bench')
const total = [...timings.values()].reduce((a, b) => a + b, 0)
console.log('\n| step (every output on) | ms per 1,000 docs | share of pipeline time |')
console.log('| --- | ---: | ---: |')
for (const [name, ms] of [...timings].sort((a, b) => b[1] - a[1])) {
  console.log(`| ${name} | ${((ms / texts.length) * 1000).toFixed(0)} | ${((100 * ms) / total).toFixed(1)}% |`)
}

// Models: size on disk and cold load time (a fresh instance each, in this warm process).
const size = (rel: string): string => `${(statSync(fileURLToPath(new URL(rel, import.meta.url))).size / 1024).toFixed(0)} KiB`
const load = (f: () => unknown): string => {
  const t0 = performance.now()
  f()
  return `${(performance.now() - t0).toFixed(0)} ms`
}
console.log('\n| model | size on disk | load time |')
console.log('| --- | ---: | ---: |')
console.log(`| NER tagger (lexicons/en/ner/tagger.bin.gz) | ${size('../lexicons/en/ner/tagger.bin.gz')} | ${load(() => createEntityTagger())} |`)
console.log(`| sentiment lexicons + model (lexicons/en/sentiment-model.json) | ${size('../lexicons/en/sentiment-model.json')} | ${load(() => createSentimentScorer())} |`)
console.log(`| language identifier (lexicons/langid/model.tsv) | ${size('../lexicons/langid/model.tsv')} | ${load(() => createLanguageIdentifier())} |`)
console.log(`\npeak RSS: ${(peakRss / 1024 / 1024).toFixed(1)} MiB`)
