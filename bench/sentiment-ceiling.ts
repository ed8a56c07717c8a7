/**
 * How far the document score's design can go on the VADER tweets, measured rather than argued: the shipped
 * design beside designs that are *told* which corpus a text is from (which the engine must not be), and our
 * lexicon beside VADER text by text.
 *
 *   npx tsx bench/sentiment-ceiling.ts [dataDir]    (default ../shared/data; npm run eval:sentiment-ceiling)
 *
 * Every row is out-of-fold (folds = position % 5; the calibrator's likelihoods are nested out-of-fold inside
 * each training part, as in training). A calibrator is a ridge regression of mean rating / 4 on its inputs,
 * with the evidence gate of the engine; it is fitted
 * - pooled: on both corpora, each weighing the same (the shipped design: `npm run eval:sentiment`'s score), or
 * - told the corpus: one per corpus, each applied to its own corpus's texts (an oracle);
 * on the engine's calibration inputs, or on those plus VADER's compound (an ensemble with VADER). The last
 * oracle trains the regression and the calibrator on the tweets alone and scores the tweets alone. The blend
 * row is what leaning on the lexicon without knowing the corpus gives (half lexicon, half shipped score).
 * Then the tweets on which our lexicon and VADER disagree in class, with an exact two-sided sign test
 * (McNemar) of who is right more often, and the lexicon alone on the tweets under other values of each of
 * the scorer's rule options (negation factor and scope, '!' and capitals emphasis).
 */
import { createRequire } from 'node:module'
import { createSentimentScorer, type SentimentScorerOptions } from '../src/sentiment/scorer.ts'
import { calibratedScore, calibrationInputs, classProbabilities, ngramTable } from '../src/sentiment/model.ts'
import { fitRidge, outOfFoldProbabilities, trainRegressionWeights } from '../src/sentiment/train.ts'
import { cls, f1Scores, pearson, readRatedDocs, sentimentDirOrExit, trainingEmbedding, type RatedDoc } from './sentiment-data.ts'

const require = createRequire(import.meta.url)
const vader = require('vader-sentiment') as { SentimentIntensityAnalyzer: { polarity_scores(t: string): { compound: number } } }

const dir = sentimentDirOrExit(process.argv[2])
const K = 5
const t0 = performance.now()
const all = readRatedDocs(dir)
const vaderOf = new Map(all.map((d) => [d, vader.SentimentIntensityAnalyzer.polarity_scores(d.text).compound] as const))
const corpusNames = [...new Set(all.map((d) => d.corpus))]
const home = corpusNames[0] as string

type Inputs = (d: RatedDoc, p: readonly number[]) => number[]
const engineInputs: Inputs = (d, p) => calibrationInputs(d.ex.lexicon, p)
const withVader: Inputs = (d, p) => {
  const v = vaderOf.get(d) ?? 0
  const m = (p[2] ?? 0) - (p[0] ?? 0)
  return [...engineInputs(d, p), v, v * Math.abs(m), Math.abs(v) * m]
}

interface Fold {
  readonly train: readonly RatedDoc[]
  /** Nested out-of-fold likelihoods of the training part. */
  readonly trainProbs: readonly number[][]
  readonly test: readonly number[]
  /** Likelihoods of the test part from the regression trained on the whole training part. */
  readonly testProbs: readonly number[][]
}

/** The regressions of a K-fold split of `set`, trained once and shared by every calibrator below. */
function folds(set: readonly RatedDoc[]): Fold[] {
  const out: Fold[] = []
  for (let f = 0; f < K; f++) {
    const train = set.filter((_, i) => i % K !== f)
    const examples = train.map((d) => d.ex)
    const full = trainRegressionWeights(examples, { embedding: trainingEmbedding() })
    const table = ngramTable(full)
    const test = set.flatMap((_, i) => (i % K === f ? [i] : []))
    const testProbs = test.map((i) => {
      const d = set[i] as RatedDoc
      return classProbabilities(full, d.ex.grams, d.ex.dense, table)
    })
    out.push({ train, trainProbs: outOfFoldProbabilities(examples, { embedding: trainingEmbedding() }), test, testProbs })
    process.stderr.write('.')
  }
  return out
}

/** Out-of-fold scores with calibrators fitted on `inputs`, pooled or one per corpus. */
function calibrated(set: readonly RatedDoc[], split: readonly Fold[], inputs: Inputs, perCorpus: boolean): Float64Array {
  const out = new Float64Array(set.length)
  for (const fold of split) {
    const groups = perCorpus ? corpusNames : ['all']
    const fits = new Map(
      groups.map((g) => {
        const idx = fold.train.flatMap((d, i) => (g === 'all' || d.corpus === g ? [i] : []))
        const xs = idx.map((i) => inputs(fold.train[i] as RatedDoc, fold.trainProbs[i] ?? [0, 1, 0]))
        const ys = idx.map((i) => (fold.train[i] as RatedDoc).target)
        // Pooled: the training weights (each corpus weighs the same); per corpus: every text alike.
        const ws = idx.map((i) => (perCorpus ? 1 : ((fold.train[i] as RatedDoc).ex.weight ?? 1)))
        return [g, fitRidge(xs, ys, 1, ws)] as const
      }),
    )
    fold.test.forEach((i, j) => {
      const d = set[i] as RatedDoc
      const p = fold.testProbs[j] ?? [0, 1, 0]
      const fit = fits.get(perCorpus ? d.corpus : 'all')
      if (fit === undefined) return
      out[i] = calibratedScore(fit, d.ex.lexicon, p, inputs(d, p))
    })
  }
  return out
}

const pooledSplit = folds(all)
const homeDocs = all
  .filter((d) => d.corpus === home)
  .map((d) => {
    const h: RatedDoc = { ...d, ex: { ...d.ex, weight: 1 } }
    vaderOf.set(h, vaderOf.get(d) ?? 0)
    return h
  })
const homeSplit = folds(homeDocs)
process.stderr.write('\n')
const shipped = calibrated(all, pooledSplit, engineInputs, false)
const rows: Array<[string, readonly RatedDoc[], ArrayLike<number>]> = [
  ['VADER (vader-sentiment)', all, all.map((d) => vaderOf.get(d) ?? 0)],
  ['ours, lexicon only', all, all.map((d) => d.lexicon)],
  ['ours, shipped design (pooled regression + pooled calibrator)', all, shipped],
  ['genre-blind blend: (lexicon + shipped) / 2', all, all.map((d, i) => (d.lexicon + (shipped[i] ?? 0)) / 2)],
  ['oracle: calibrator told the corpus', all, calibrated(all, pooledSplit, engineInputs, true)],
  ['ensemble: VADER as a calibrator input, pooled', all, calibrated(all, pooledSplit, withVader, false)],
  ['ensemble + oracle: VADER as an input, told the corpus', all, calibrated(all, pooledSplit, withVader, true)],
  [`oracle: regression and calibrator trained on ${home} only`, homeDocs, calibrated(homeDocs, homeSplit, engineInputs, false)],
]

const lines: string[] = []
lines.push(`Document-score designs, ${K}-fold out-of-fold; r = Pearson against mean rating / 4, F1 = support-weighted 3-class F1 (±0.05).`)
for (const c of corpusNames) {
  lines.push('')
  lines.push(`${`${c}`.padEnd(62)} ${'r'.padStart(7)} ${'F1'.padStart(7)}`)
  for (const [name, set, scores] of rows) {
    const idx = set.flatMap((d, i) => (d.corpus === c ? [i] : []))
    if (idx.length === 0) continue
    const s = idx.map((i) => scores[i] ?? 0)
    const gold = idx.map((i) => cls((set[i] as RatedDoc).target))
    const human = idx.map((i) => (set[i] as RatedDoc).target)
    lines.push(`${name.padEnd(62)} ${pearson(s, human).toFixed(4).padStart(7)} ${f1Scores(s.map(cls), gold).weighted.toFixed(4).padStart(7)}`)
  }
}

// Text by text on the home corpus: our lexicon against VADER where their classes differ.
let oursOnly = 0
let vaderOnly = 0
let neither = 0
for (const d of homeDocs) {
  const g = cls(d.target)
  const o = cls(d.lexicon)
  const v = cls(vaderOf.get(d) ?? 0)
  if (o === v) continue
  if (o === g) oursOnly++
  else if (v === g) vaderOnly++
  else neither++
}
// Exact two-sided binomial test of oursOnly against vaderOnly (p = 1/2).
const n = oursOnly + vaderOnly
let tail = 0
for (let k = 0; k <= Math.min(oursOnly, vaderOnly); k++) tail += Math.exp(logChoose(n, k) - n * Math.LN2)
lines.push('')
lines.push(
  `${home}: the classes of our lexicon and VADER differ on ${n + neither} texts: ours right ${oursOnly}, VADER right ${vaderOnly}, neither ${neither}; exact sign test p = ${Math.min(1, 2 * tail).toFixed(4)}`,
)
// The lexicon alone on the home corpus under other rule settings (one option changed at a time).
lines.push('')
lines.push(`${`${home}, lexicon only, one scorer option changed`.padEnd(62)} ${'r'.padStart(7)} ${'F1'.padStart(7)}`)
const variants: SentimentScorerOptions[] = [
  {},
  { negationFactor: -0.5 },
  { negationFactor: -1 },
  { window: 2 },
  { window: 4 },
  { exclamationBoost: 0 },
  { exclamationBoost: 0.6 },
  { capsBoost: 0 },
  { capsBoost: 1.5 },
]
for (const options of variants) {
  const scorer = createSentimentScorer({ ...options, model: false })
  const s = homeDocs.map((d) => scorer.score(d.doc).lexicon_score)
  const name = Object.keys(options).length === 0 ? 'defaults' : JSON.stringify(options)
  lines.push(`${name.padEnd(62)} ${pearson(s, homeDocs.map((d) => d.target)).toFixed(4).padStart(7)} ${f1Scores(s.map(cls), homeDocs.map((d) => cls(d.target))).weighted.toFixed(4).padStart(7)}`)
}
lines.push(`total ${((performance.now() - t0) / 1000).toFixed(1)} s`)
console.log(lines.join('\n'))

function logChoose(a: number, b: number): number {
  let s = 0
  for (let k = 1; k <= b; k++) s += Math.log(a - b + k) - Math.log(k)
  return s
}
