/**
 * Deterministic training of {@link SentimentModelData}: multinomial logistic regression by full-batch
 * Adam with L2, and a ridge-regression calibrator (weights kept at 0 or above, see {@link fitCalibrator})
 * fitted on out-of-fold likelihoods (so the calibrator never sees likelihoods of documents the regression
 * was trained on). Used by
 * `bench/train-sentiment.ts` (to write the committed weights) and `bench/eval-sentiment.ts`
 * (k-fold cross-validation). No randomness: folds are `index % k`, iteration counts fixed.
 */
import {
  CALIBRATION_INPUTS,
  DENSE_FEATURES,
  denseNames,
  calibratedScore,
  MODEL_CLASSES,
  neutralGated,
  calibrationInputs,
  classProbabilities,
  ngramTable,
  type SentimentModelData,
} from './model.ts'
import type { LexiconFeatures } from './scorer.ts'

/** One training document, already featurised. */
export interface TrainingExample {
  /** Sorted distinct n-grams (see `ngramsOf`). */
  readonly grams: readonly string[]
  /** Dense features (see `denseFeatures`). */
  readonly dense: readonly number[]
  readonly lexicon: LexiconFeatures
  /** Human score normalised to -1..1. */
  readonly target: number
  /** Sample weight in the loss. @defaultValue 1 */
  readonly weight?: number
}

/** Hyper-parameters; defaults are what the committed model used. */
export interface TrainOptions {
  /** Minimum number of training documents an n-gram must occur in. @defaultValue 3 */
  readonly minDf?: number
  /** Keep at most this many n-grams (highest document frequency first, ties by string). @defaultValue 30000 */
  readonly maxFeatures?: number
  /** L2 penalty on the mean loss (the mean over the n-grams, see {@link TrainOptions.nbPenalty}). @defaultValue 3e-4 */
  readonly l2?: number
  /**
   * Exponent of the naive-Bayes scaling of each n-gram's L2 penalty: an n-gram's penalty is `l2 * (mean s / s)^p`, where
   * s is its largest absolute log-count ratio between one class and the others (weighted counts, add-{@link
   * TrainOptions.nbAlpha} smoothing), so n-grams whose counts already tell the classes apart are held back less
   * than those that occur alike in all (the prior of NBSVM, Wang and Manning 2012, as a penalty). 0: one penalty
   * for all. 1 (was 2) read 0.2 to 0.8 higher macro recall on newer tweets than 2, with the sources weighted as
   * `SOURCE_WEIGHT` in bench/sentiment-data.ts says. @defaultValue 1
   */
  readonly nbPenalty?: number
  /** Add-alpha smoothing of the counts of {@link TrainOptions.nbPenalty}. @defaultValue 1 */
  readonly nbAlpha?: number
  /** Adam iterations. @defaultValue 250 */
  readonly iterations?: number
  /** Adam step. @defaultValue 0.05 */
  readonly learningRate?: number
  /** Folds for the calibrator's out-of-fold likelihoods. @defaultValue 3 */
  readonly calibrationFolds?: number
  /** Ridge penalty of the calibrator. @defaultValue 1 */
  readonly ridge?: number
  /** Decimals kept in the weight file. @defaultValue 3 */
  readonly decimals?: number
  /** Neutral band on the normalised human score. @defaultValue 0.05 */
  readonly neutralBand?: number
  /** Learn the 3-class thresholds of the calibrated score (see {@link chooseThresholds}). @defaultValue true */
  readonly thresholds?: boolean
  /**
   * The document score's neutral gate (see {@link chooseDecision}): `'likeliest'`, neutral when the regression's
   * likeliest class is neutral; `'learned'`, a least neutral likelihood chosen among {@link NEUTRAL_GATES} on the
   * training texts. @defaultValue 'likeliest'
   */
  readonly neutralGate?: 'likeliest' | 'learned'
  /**
   * The word vectors whose text vector (`vectorFeatures`) each example's `dense` ends with: their SHA-1 (hex) and
   * dimensions, written into the model so that it is used with those vectors only. @defaultValue none (the dense
   * features are the lexicon evidence alone)
   */
  readonly embedding?: { readonly vectors: string; readonly dims: number }
  /** Provenance written into the model. */
  readonly trained?: Readonly<Record<string, string | number>>
  readonly modelName?: string
}

/** Class index (MODEL_CLASSES order) of a normalised human score. */
export function classOfTarget(target: number, band = 0.05): number {
  return target > band ? 2 : target < -band ? 0 : 1
}

interface Regression {
  readonly dense: number[][]
  readonly ngrams: Map<string, number[]>
}

/**
 * The 3-class decision of the calibrated score: the thresholds `[lo, hi]` (score < lo negative, > hi positive) that
 * maximise the training examples' weighted accuracy (their loss weights: each source weighs the same, tweet classes
 * balanced, so on the tweets this is macro recall) over the scores given, which are out-of-fold (each from a regression
 * that never saw the example). Grid of 0.005 on [-0.6, -0.005] x [0.005, 0.6]; ties go to the pair nearest +-0.05.
 */
export function chooseThresholds(scores: readonly number[], examples: readonly TrainingExample[], band = 0.05): [number, number] {
  const step = 0.005
  const n = Math.round(0.6 / step)
  // Weighted counts per class of scores below each grid point (strictly) and above (strictly).
  const order = scores.map((s, i) => i).sort((a, b) => (scores[a] ?? 0) - (scores[b] ?? 0) || a - b)
  const grid = (k: number): number => Math.round(k * step * 1e6) / 1e6
  const below = (t: number, y: number): number => {
    let w = 0
    for (const i of order) {
      if ((scores[i] ?? 0) >= t) break
      const ex = examples[i] as TrainingExample
      if (classOfTarget(ex.target, band) === y) w += ex.weight ?? 1
    }
    return w
  }
  const above = (t: number, y: number): number => {
    let w = 0
    for (let k = order.length - 1; k >= 0; k--) {
      const i = order[k] as number
      if ((scores[i] ?? 0) <= t) break
      const ex = examples[i] as TrainingExample
      if (classOfTarget(ex.target, band) === y) w += ex.weight ?? 1
    }
    return w
  }
  let neutralTotal = 0
  for (const ex of examples) if (classOfTarget(ex.target, band) === 1) neutralTotal += ex.weight ?? 1
  const negBelow: number[] = []
  const neuBelow: number[] = []
  const posAbove: number[] = []
  const neuAbove: number[] = []
  for (let k = 1; k <= n; k++) {
    negBelow.push(below(-grid(k), 0))
    neuBelow.push(below(-grid(k), 1))
    posAbove.push(above(grid(k), 2))
    neuAbove.push(above(grid(k), 1))
  }
  let best: [number, number] = [-band, band]
  let bestScore = -Infinity
  let bestDist = Infinity
  for (let a = 0; a < n; a++) {
    for (let b = 0; b < n; b++) {
      const correct = (negBelow[a] ?? 0) + (posAbove[b] ?? 0) + neutralTotal - (neuBelow[a] ?? 0) - (neuAbove[b] ?? 0)
      const lo = -grid(a + 1)
      const hi = grid(b + 1)
      const dist = Math.abs(lo + band) + Math.abs(hi - band)
      if (correct > bestScore + 1e-9 || (Math.abs(correct - bestScore) <= 1e-9 && dist < bestDist)) {
        bestScore = correct
        bestDist = dist
        best = [lo, hi]
      }
    }
  }
  return best
}

/** Weighted accuracy of the 3-class decision `[lo, hi]` over `scores` (the objective of {@link chooseThresholds}). */
function decisionAccuracy(scores: readonly number[], examples: readonly TrainingExample[], thresholds: readonly [number, number], band: number): number {
  let a = 0
  scores.forEach((s, i) => {
    const ex = examples[i] as TrainingExample
    const p = s < thresholds[0] ? 0 : s > thresholds[1] ? 2 : 1
    if (p === classOfTarget(ex.target, band)) a += ex.weight ?? 1
  })
  return a
}

/** Candidate neutral gates of {@link chooseDecision}: 0.30, 0.32, ... 0.70. */
export const NEUTRAL_GATES: readonly number[] = Array.from({ length: 21 }, (_, k) => Math.round((0.3 + 0.02 * k) * 100) / 100)

/**
 * The 3-class decision of the calibrated score: the thresholds of {@link chooseThresholds} and a neutral gate on the
 * regression's likelihoods (a text the gate holds for is neutral, see `neutralGated` and `calibratedScore`), chosen to
 * maximise the same weighted accuracy over out-of-fold scores and likelihoods. The calibrated score alone has no
 * neutral zone worth the name (it regresses the human score, so weakly polar and neutral texts share small scores and
 * the thresholds fall to the grid's floor); the regression's neutral class, learnt from the tweets' real neutral
 * class, gives one.
 *
 * `gate` `'likeliest'`: neutral when neutral is the likeliest class, the thresholds chosen with that gate. On tweets
 * newer than the training tweets (`npm run eval:sentiment-temporal`) it read macro recall 64.2 -> 65.0 and on
 * TweetEval validation 68.2 -> 69.0, where the learned least likelihood (0.54-0.56, best on the training texts) left
 * the document score less often neutral than model_sentiment (neutral recall 45% against 54%). `'learned'`: the least
 * neutral likelihood among {@link NEUTRAL_GATES} that does best with its thresholds, none when none does better than no
 * gate; ties go to the higher gate.
 */
export function chooseDecision(
  scores: readonly number[],
  probabilities: readonly (readonly number[])[],
  examples: readonly TrainingExample[],
  band = 0.05,
  gate: 'likeliest' | 'learned' = 'learned',
): { thresholds: [number, number]; neutral?: number | 'likeliest' } {
  if (gate === 'likeliest') {
    const gated = scores.map((s, i) => (neutralGated('likeliest', probabilities[i] ?? [0, 1, 0]) ? 0 : s))
    return { thresholds: chooseThresholds(gated, examples, band), neutral: 'likeliest' }
  }
  const plain = chooseThresholds(scores, examples, band)
  let best: { thresholds: [number, number]; neutral?: number } = { thresholds: plain }
  let bestAcc = decisionAccuracy(scores, examples, plain, band)
  for (const gate of [...NEUTRAL_GATES].reverse()) {
    const gated = scores.map((s, i) => ((probabilities[i]?.[1] ?? 0) >= gate ? 0 : s))
    const th = chooseThresholds(gated, examples, band)
    const acc = decisionAccuracy(gated, examples, th, band)
    if (acc > bestAcc + 1e-9) {
      bestAcc = acc
      best = { thresholds: th, neutral: gate }
    }
  }
  return best
}

/** Train the logistic regression alone (deterministic). */
function trainRegression(examples: readonly TrainingExample[], o: ResolvedOptions): Regression {
  // Vocabulary by document frequency.
  const df = new Map<string, number>()
  for (const ex of examples) for (const g of ex.grams) df.set(g, (df.get(g) ?? 0) + 1)
  const vocab = [...df.entries()]
    .filter(([, c]) => c >= o.minDf)
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))
    .slice(0, o.maxFeatures)
    .map(([g]) => g)
  vocab.sort()
  const index = new Map(vocab.map((g, i) => [g, i] as const))
  const C = MODEL_CLASSES.length
  const D = checkedDenseNames(examples, o).length + 1 // bias first
  const V = vocab.length
  const P = D + V
  const rows = examples.map((ex) => {
    const idx: number[] = []
    for (const g of ex.grams) {
      const i = index.get(g)
      if (i !== undefined) idx.push(D + i)
    }
    return { idx: Int32Array.from(idx), dense: Float64Array.from([1, ...ex.dense]), y: classOfTarget(ex.target, o.neutralBand), w: ex.weight ?? 1 }
  })
  const penalty = ngramPenalties(rows, D, V, C, o)
  const W = new Float64Array(P * C)
  const G = new Float64Array(P * C)
  const M = new Float64Array(P * C)
  const S = new Float64Array(P * C)
  const b1 = 0.9
  const b2 = 0.999
  let nEx = 0
  for (const r of rows) nEx += r.w
  const z = new Float64Array(C)
  for (let it = 1; it <= o.iterations; it++) {
    G.fill(0)
    for (const r of rows) {
      for (let c = 0; c < C; c++) {
        let s = 0
        for (let d = 0; d < D; d++) s += (W[d * C + c] ?? 0) * (r.dense[d] ?? 0)
        for (const i of r.idx) s += W[i * C + c] ?? 0
        z[c] = s
      }
      let m = -Infinity
      for (let c = 0; c < C; c++) m = Math.max(m, z[c] ?? 0)
      let sum = 0
      for (let c = 0; c < C; c++) {
        const e = Math.exp((z[c] ?? 0) - m)
        z[c] = e
        sum += e
      }
      for (let c = 0; c < C; c++) {
        const g = r.w * ((z[c] ?? 0) / sum - (c === r.y ? 1 : 0))
        for (let d = 0; d < D; d++) G[d * C + c] = (G[d * C + c] ?? 0) + g * (r.dense[d] ?? 0)
        for (const i of r.idx) G[i * C + c] = (G[i * C + c] ?? 0) + g
      }
    }
    const bc1 = 1 - b1 ** it
    const bc2 = 1 - b2 ** it
    for (let k = 0; k < P * C; k++) {
      const isBias = k < C
      const f = (k - (k % C)) / C
      const g = (G[k] ?? 0) / nEx + (isBias ? 0 : (f < D ? o.l2 : (penalty[f - D] ?? o.l2)) * (W[k] ?? 0))
      M[k] = b1 * (M[k] ?? 0) + (1 - b1) * g
      S[k] = b2 * (S[k] ?? 0) + (1 - b2) * g * g
      W[k] = (W[k] ?? 0) - (o.learningRate * ((M[k] ?? 0) / bc1)) / (Math.sqrt((S[k] ?? 0) / bc2) + 1e-8)
    }
  }
  const dense: number[][] = []
  for (let c = 0; c < C; c++) {
    const row: number[] = []
    for (let d = 0; d < D; d++) row.push(W[d * C + c] ?? 0)
    dense.push(row)
  }
  const ngrams = new Map<string, number[]>()
  for (let v = 0; v < V; v++) {
    const w: number[] = []
    for (let c = 0; c < C; c++) w.push(W[(D + v) * C + c] ?? 0)
    ngrams.set(vocab[v] as string, w)
  }
  return { dense, ngrams }
}

/**
 * Each n-gram's L2 penalty ({@link TrainOptions.nbPenalty}): `rows` hold the n-gram columns (from `D` on) of each
 * example, its class and its loss weight.
 */
function ngramPenalties(
  rows: readonly { readonly idx: Int32Array; readonly y: number; readonly w: number }[],
  D: number,
  V: number,
  C: number,
  o: Pick<ResolvedOptions, 'l2' | 'nbPenalty' | 'nbAlpha'>,
): Float64Array {
  const penalty = new Float64Array(V).fill(o.l2)
  if (o.nbPenalty === 0 || V === 0) return penalty
  const counts = Array.from({ length: C }, () => new Float64Array(V))
  const totals = new Float64Array(C)
  for (const r of rows) {
    totals[r.y] = (totals[r.y] ?? 0) + r.w
    const row = counts[r.y] as Float64Array
    for (const i of r.idx) row[i - D] = (row[i - D] ?? 0) + r.w
  }
  let all = 0
  for (let c = 0; c < C; c++) all += totals[c] ?? 0
  const a = o.nbAlpha
  const strength = new Float64Array(V)
  let mean = 0
  for (let v = 0; v < V; v++) {
    let sum = 0
    for (let c = 0; c < C; c++) sum += (counts[c] as Float64Array)[v] ?? 0
    let m = 0
    for (let c = 0; c < C; c++) {
      const n = (counts[c] as Float64Array)[v] ?? 0
      const t = totals[c] ?? 0
      const inClass = (n + a) / (t + 2 * a)
      const elsewhere = (sum - n + a) / (all - t + 2 * a)
      m = Math.max(m, Math.abs(Math.log(inClass / elsewhere)))
    }
    strength[v] = m
    mean += m
  }
  mean /= V
  for (let v = 0; v < V; v++) penalty[v] = o.l2 * Math.pow(mean / Math.max(1e-3, strength[v] ?? 0), o.nbPenalty)
  return penalty
}

function roundTo(x: number, decimals: number): number {
  const s = 10 ** decimals
  const r = Math.round(x * s) / s
  return r === 0 ? 0 : r
}

function regressionData(r: Regression, decimals: number): Pick<SentimentModelData, 'denseWeights' | 'ngrams'> {
  const ngrams: Record<string, number[]> = {}
  for (const [g, w] of r.ngrams) {
    const rw = w.map((v) => roundTo(v, decimals))
    // Drop n-grams whose weights are all below 0.01: they barely move a prediction and bloat the file.
    if (rw.some((v) => Math.abs(v) >= 0.01)) ngrams[g] = rw
  }
  return { denseWeights: r.dense.map((row) => row.map((v) => roundTo(v, decimals))), ngrams }
}

/**
 * Solve the ridge normal equations (X'X + lambda I) w = X'y with an unpenalised intercept (weights `ws`, default 1).
 * With `nonNegative`, the weights it marks are kept at 0 or above (the least-squares fit under those bounds, found by
 * projected Gauss-Seidel sweeps over the same equations: deterministic, as each sweep visits the weights in order).
 */
export function fitRidge(
  xs: readonly (readonly number[])[],
  ys: readonly number[],
  lambda: number,
  ws?: readonly number[],
  nonNegative?: readonly boolean[],
): { bias: number; weights: number[] } {
  const k = (xs[0]?.length ?? 0) + 1
  const A = Array.from({ length: k }, () => new Array<number>(k).fill(0))
  const b = new Array<number>(k).fill(0)
  xs.forEach((x, n) => {
    const row = [1, ...x]
    const sw = ws?.[n] ?? 1
    for (let i = 0; i < k; i++) {
      b[i] = (b[i] ?? 0) + sw * (row[i] ?? 0) * (ys[n] ?? 0)
      for (let j = 0; j < k; j++) (A[i] as number[])[j] = ((A[i] as number[])[j] ?? 0) + sw * (row[i] ?? 0) * (row[j] ?? 0)
    }
  })
  for (let i = 1; i < k; i++) (A[i] as number[])[i] = ((A[i] as number[])[i] ?? 0) + lambda
  if (nonNegative !== undefined && nonNegative.some((x) => x)) return boundedSolve(A, b, nonNegative)
  // Gaussian elimination with partial pivoting.
  for (let c = 0; c < k; c++) {
    let p = c
    for (let r = c + 1; r < k; r++) if (Math.abs((A[r] as number[])[c] ?? 0) > Math.abs((A[p] as number[])[c] ?? 0)) p = r
    ;[A[c], A[p]] = [A[p] as number[], A[c] as number[]]
    ;[b[c], b[p]] = [b[p] ?? 0, b[c] ?? 0]
    const piv = (A[c] as number[])[c] ?? 1
    for (let r = c + 1; r < k; r++) {
      const f = ((A[r] as number[])[c] ?? 0) / piv
      for (let j = c; j < k; j++) (A[r] as number[])[j] = ((A[r] as number[])[j] ?? 0) - f * ((A[c] as number[])[j] ?? 0)
      b[r] = (b[r] ?? 0) - f * (b[c] ?? 0)
    }
  }
  const w = new Array<number>(k).fill(0)
  for (let r = k - 1; r >= 0; r--) {
    let s = b[r] ?? 0
    for (let j = r + 1; j < k; j++) s -= ((A[r] as number[])[j] ?? 0) * (w[j] ?? 0)
    w[r] = s / ((A[r] as number[])[r] ?? 1)
  }
  return { bias: w[0] ?? 0, weights: w.slice(1) }
}

/** Sweeps of {@link boundedSolve} at most (the calibrator's 21 unknowns settle in a few hundred). */
const BOUNDED_SWEEPS = 20_000

/**
 * Minimise w'Aw/2 - b'w (A symmetric positive definite: the ridge normal equations, intercept first) with the weights
 * `nonNegative` marks (`nonNegative[j]` for unknown j + 1) at 0 or above: projected Gauss-Seidel, until no unknown
 * moves by more than 1e-12 in a sweep.
 */
function boundedSolve(A: readonly (readonly number[])[], b: readonly number[], nonNegative: readonly boolean[]): { bias: number; weights: number[] } {
  const k = b.length
  const w = new Array<number>(k).fill(0)
  for (let sweep = 0; sweep < BOUNDED_SWEEPS; sweep++) {
    let moved = 0
    for (let j = 0; j < k; j++) {
      const row = A[j] as readonly number[]
      let s = b[j] ?? 0
      for (let q = 0; q < k; q++) if (q !== j) s -= (row[q] ?? 0) * (w[q] ?? 0)
      let v = s / (row[j] ?? 1)
      if (j > 0 && nonNegative[j - 1] === true && v < 0) v = 0
      moved = Math.max(moved, Math.abs(v - (w[j] ?? 0)))
      w[j] = v
    }
    if (moved < 1e-12) break
  }
  return { bias: w[0] ?? 0, weights: w.slice(1) }
}

/** The calibrator inputs whose weight may take either sign (see {@link fitCalibrator}). */
export const SIGNED_CALIBRATION_INPUTS: ReadonlySet<string> = new Set(['model_neutral'])

/** Resolved hyper-parameters of {@link trainSentimentModel}. */
type ResolvedOptions = Required<Omit<TrainOptions, 'trained' | 'modelName' | 'embedding'>> & { readonly embedding: TrainOptions['embedding'] | undefined }

function resolveOptions(options: TrainOptions): ResolvedOptions {
  return {
    minDf: options.minDf ?? 3,
    maxFeatures: options.maxFeatures ?? 30000,
    l2: options.l2 ?? 3e-4,
    nbPenalty: options.nbPenalty ?? 1,
    nbAlpha: options.nbAlpha ?? 1,
    iterations: options.iterations ?? 250,
    learningRate: options.learningRate ?? 0.05,
    calibrationFolds: options.calibrationFolds ?? 3,
    ridge: options.ridge ?? 1,
    decimals: options.decimals ?? 3,
    neutralBand: options.neutralBand ?? 0.05,
    thresholds: options.thresholds ?? true,
    neutralGate: options.neutralGate ?? 'likeliest',
    embedding: options.embedding,
  }
}

/** The dense feature names of a model trained with `o`, checked against each example's dense features. */
function checkedDenseNames(examples: readonly TrainingExample[], o: Pick<ResolvedOptions, 'embedding'>): string[] {
  const names = denseNames(o.embedding)
  examples.forEach((ex, i) => {
    if (ex.dense.length !== names.length) {
      throw new Error(`training example ${i}: ${ex.dense.length} dense features, expected ${names.length} (${DENSE_FEATURES.length} lexicon features${o.embedding === undefined ? '; a text vector needs the embedding option' : ` and a text vector of ${o.embedding.dims}`})`)
    }
  })
  return names
}

/**
 * Train the logistic regression alone (no calibrator) and return its rounded weights in the model
 * file's shape, with the calibrator left at zero (for experiments on the calibrator over cached
 * likelihoods). Deterministic.
 */
export function trainRegressionWeights(examples: readonly TrainingExample[], options: TrainOptions = {}): SentimentModelData {
  const o = resolveOptions(options)
  const part = regressionData(trainRegression(examples, o), o.decimals)
  return {
    format: 'textengine-sentiment-model/1',
    model_name: options.modelName ?? 'textengine-lr-ngram-lexicon-en',
    trained: {},
    dense: denseNames(o.embedding),
    ...(o.embedding === undefined ? {} : { embedding: o.embedding }),
    ...part,
    calibrator: { inputs: CALIBRATION_INPUTS, bias: 0, weights: CALIBRATION_INPUTS.map(() => 0) },
  }
}

/**
 * Out-of-fold class probabilities of `examples` (folds `index % calibrationFolds`): each example's
 * likelihoods come from a regression trained on the other folds only. The calibrator is fitted on these.
 */
export function outOfFoldProbabilities(examples: readonly TrainingExample[], options: TrainOptions = {}): number[][] {
  const o = resolveOptions(options)
  if (examples.length < Math.max(2, o.calibrationFolds * 2)) throw new Error(`training needs at least ${o.calibrationFolds * 2} examples, found ${examples.length}`)
  const oof: number[][] = new Array<number[]>(examples.length)
  for (let f = 0; f < o.calibrationFolds; f++) {
    const train = examples.filter((_, i) => i % o.calibrationFolds !== f)
    const part = regressionData(trainRegression(train, o), o.decimals)
    const data = { ...part, dense: denseNames(o.embedding), format: 'textengine-sentiment-model/1' } as unknown as SentimentModelData
    const table = ngramTable(data)
    examples.forEach((ex, i) => {
      if (i % o.calibrationFolds === f) oof[i] = classProbabilities(data, ex.grams, ex.dense, table)
    })
  }
  return oof
}

/**
 * Fit the calibrator (ridge regression of the normalised human score on {@link calibrationInputs}, sample
 * weights from the examples) given each example's class probabilities, rounded as the model file keeps it.
 * Every weight but that of the model's neutral likelihood is kept at 0 or above ({@link SIGNED_CALIBRATION_INPUTS}):
 * each other input grows with positive evidence (the lexicon score, the model's margin, their products with how
 * strongly the text says it), so more positive evidence never lowers the score. Unbounded, the fit gave the lexicon
 * score a negative weight and its products positive ones, which together turned "Wow, it looks like Google has
 * changed ..." (lexicon +0.68, margin +0.10) negative; bounded, the tweets' F1 rose from 0.865 to 0.875 and the
 * held-out Amazon and NYT corpora rose too (see the README's sentiment figures).
 */
export function fitCalibrator(
  examples: readonly TrainingExample[],
  probabilities: readonly (readonly number[])[],
  options: TrainOptions = {},
): SentimentModelData['calibrator'] {
  const o = resolveOptions(options)
  const xs = examples.map((ex, i) => calibrationInputs(ex.lexicon, probabilities[i] ?? [0, 1, 0]))
  const cal = fitRidge(xs, examples.map((ex) => ex.target), o.ridge, examples.map((ex) => ex.weight ?? 1), CALIBRATION_INPUTS.map((name) => !SIGNED_CALIBRATION_INPUTS.has(name)))
  return { inputs: CALIBRATION_INPUTS, bias: roundTo(cal.bias, 6), weights: cal.weights.map((w) => roundTo(w, 6)) }
}

/**
 * Train a complete model (regression + calibrator) on `examples`. Deterministic: the same examples in
 * the same order give byte-identical weights.
 */
export function trainSentimentModel(examples: readonly TrainingExample[], options: TrainOptions = {}): SentimentModelData {
  const o = resolveOptions(options)
  const oof = outOfFoldProbabilities(examples, options)
  const linear = fitCalibrator(examples, oof, options)
  const decision = o.thresholds
    ? chooseDecision(
        examples.map((ex, i) => calibratedScore(linear, ex.lexicon, oof[i] ?? [0, 1, 0])),
        oof,
        examples,
        o.neutralBand,
        o.neutralGate,
      )
    : undefined
  const calibrator = decision === undefined ? linear : { ...linear, ...decision }
  const full = regressionData(trainRegression(examples, o), o.decimals)
  return {
    format: 'textengine-sentiment-model/1',
    model_name: options.modelName ?? 'textengine-lr-ngram-lexicon-en',
    trained: {
      examples: examples.length,
      ...options.trained,
      minDf: o.minDf,
      maxFeatures: o.maxFeatures,
      l2: o.l2,
      nbPenalty: o.nbPenalty,
      nbAlpha: o.nbAlpha,
      iterations: o.iterations,
      learningRate: o.learningRate,
      calibrationFolds: o.calibrationFolds,
      ridge: o.ridge,
      neutralGate: o.neutralGate,
    },
    dense: denseNames(o.embedding),
    ...(o.embedding === undefined ? {} : { embedding: o.embedding }),
    denseWeights: full.denseWeights,
    ngrams: full.ngrams,
    calibrator,
  }
}

/** A training example from an annotated document, its lexicon features and its normalised human score. */
export function exampleOf(grams: readonly string[], dense: readonly number[], lexicon: LexiconFeatures, target: number): TrainingExample {
  return { grams, dense, lexicon, target }
}
