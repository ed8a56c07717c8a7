/**
 * model_sentiment: a multinomial logistic regression over unigrams and bigrams (negation-marked)
 * plus the lexicon engine's dense evidence, and a linear calibrator that turns the lexicon score and
 * the model's likelihoods into the document `sentiment_score`.
 *
 * Weights are trained by `bench/train-sentiment.ts` and committed as `lexicons/en/sentiment-model.json`
 * (format in `lexicons/README.md`). Prediction is pure arithmetic over those weights: deterministic.
 */
import { readFileSync } from 'node:fs'
import { dataPath, missingDataHint } from '../resources.ts'
import { createSemanticModel, spanVector, type SemanticModel, type WordVectors } from '../semantic/index.ts'
import { packTable, unpackTable } from '../packed-table.ts'
import type { AnnotatedDocument, Token } from '../nlp/types.ts'
import type { LexiconFeatures } from './scorer.ts'

/** Contract output of the statistical model. */
export interface ModelSentiment {
  readonly model_name: string
  readonly positive_score: number
  readonly negative_score: number
  readonly neutral_score: number
  readonly mixed_score: number
  readonly sentiment_polarity: 'positive' | 'negative' | 'neutral'
}

/** Class order of the logistic regression. */
export const MODEL_CLASSES = ['negative', 'neutral', 'positive'] as const

/** The committed weight file's shape. */
export interface SentimentModelData {
  readonly format: 'textengine-sentiment-model/1'
  readonly model_name: string
  /** Free-form provenance: data, folds, hyper-parameters. */
  readonly trained: Readonly<Record<string, string | number>>
  /**
   * Names of the dense features, in order: {@link DENSE_FEATURES}, then, with {@link SentimentModelData.embedding},
   * the text vector's components (`vector_0` ...; see {@link vectorFeatures}).
   */
  readonly dense: readonly string[]
  /**
   * The word vectors whose text vector the regression reads besides the lexicon evidence: the SHA-1 (hex) of the
   * `vectors.bin` it was trained with and its dimensions. Absent: no text vector (models before 2026-12-06).
   */
  readonly embedding?: { readonly vectors: string; readonly dims: number }
  /** Per class (MODEL_CLASSES order): bias then dense weights. */
  readonly denseWeights: readonly (readonly number[])[]
  /** n-gram -> per-class weights. */
  readonly ngrams: Readonly<Record<string, readonly number[]>>
  /**
   * Calibrator: `score = bias + sum(weights[i] * calibrationInputs[i])`, clamped to -1..1, then, when `thresholds`
   * `[lo, hi]` are given, mapped by {@link decisionMap} so that the 3-class rule at +-0.05 cuts where `lo` and `hi` cut.
   */
  readonly calibrator: {
    readonly inputs: readonly string[]
    readonly bias: number
    readonly weights: readonly number[]
    readonly thresholds?: readonly [number, number]
    /**
     * The neutral gate of the document score: when the regression's neutral likelihood is at least this number, or with
     * `'likeliest'` when neutral is the regression's likeliest class (as model_sentiment's polarity reads it), the text is
     * neutral (its score, after the map, is shrunk into the neutral band by {@link NEUTRAL_SHRINK}). See `chooseDecision`
     * in train.ts.
     */
    readonly neutral?: number | 'likeliest'
  }
}

/** A loaded model. */
export interface SentimentModel {
  readonly name: string
  /** Likelihoods and calibrated document score for a document and its lexicon features. */
  predict(doc: AnnotatedDocument, features: LexiconFeatures): { model_sentiment: ModelSentiment; calibrated: number; probabilities: readonly number[] }
}

/** Names of the dense features, in the order {@link denseFeatures} returns them. */
export const DENSE_FEATURES = [
  'compound',
  'positive',
  'negative',
  'log_positive_count',
  'log_negative_count',
  'last_sentence',
  'min_sentence',
  'max_sentence',
  'exclamations',
  'has_negation',
  'compound_x_exclamations',
  'compound_x_icons',
  'compound_x_caps',
  'compound_x_density',
  'compound_x_shortness',
  'no_evidence',
] as const

/** Dense feature vector of a document's lexicon evidence. */
export function denseFeatures(f: LexiconFeatures): number[] {
  return [
    f.compound,
    Math.tanh(f.positive),
    Math.tanh(f.negative),
    Math.log1p(f.positiveCount),
    Math.log1p(f.negativeCount),
    f.lastSentence,
    f.minSentence,
    f.maxSentence,
    f.exclamations / 4,
    f.negatedCount > 0 ? 1 : 0,
    // Interactions: how far to trust the lexicon score depends on how the text expresses sentiment.
    f.compound * (f.exclamations / 4),
    f.compound * (Math.min(f.icons, 2) / 2),
    f.compound * (Math.min(f.capsWords, 3) / 3),
    f.compound * Math.min(1, (f.positiveCount + f.negativeCount) / Math.max(1, f.words)),
    f.compound / (1 + Math.log1p(f.words)),
    // No sentiment word, phrase, emoji or emoticon: how often such texts are neutral is learned (TweetEval has a
    // real neutral class), instead of leaning the way the n-grams of unrelated words lean.
    hasNoEvidence(f) ? 1 : 0,
  ]
}

/** Names of a model's dense features: {@link DENSE_FEATURES}, then one per component of the text vector when it has one. */
export function denseNames(embedding?: { readonly dims: number }): string[] {
  const names: string[] = [...DENSE_FEATURES]
  for (let i = 0; i < (embedding?.dims ?? 0); i++) names.push(`vector_${i}`)
  return names
}

/**
 * The text vector the regression reads (model data `embedding`): the SIF-weighted mean of the vectors of the text's
 * content words, scaled to unit length, as concept topics and auto-categories read it (`spanVector`, computed once per
 * document for all three); all zeros when no word has a vector. The lexicon words the scorer read as words of a name
 * (`nameWords`, sorted token indices: "Fantastic Four", "Super Bowl") are left out, as the n-grams fold them to
 * `<name>`: their vectors lie among praise. So are the words a praising phrase negates (`praiseNegated`: "bad" of "not
 * bad", "complaints" of "no complaints"), which the n-grams read as `<not_neg>` and `not_bad`: their vectors lie among
 * blame. Words outside the n-gram vocabulary (newer topics, rarer spellings) still
 * say something through their neighbours: on the newest SemEval tweets, left out of training, macro recall 65.0 / 64.9
 * -> 65.8 / 65.8 (document score / model_sentiment, `npm run eval:sentiment-temporal`).
 */
export function vectorFeatures(vectors: WordVectors, doc: AnnotatedDocument, nameWords: readonly number[] = [], praiseNegated: readonly number[] = []): number[] {
  const exclude = praiseNegated.length === 0 ? nameWords : nameWords.length === 0 ? praiseNegated : [...new Set([...nameWords, ...praiseNegated])].sort((a, b) => a - b)
  return Array.from(spanVector(vectors, doc, 0, doc.tokens.length, exclude.length === 0 ? {} : { exclude }).vector)
}

/** Word vectors and the SHA-1 (hex) of their file, as an engine's semantic layer holds them (read when first asked for). */
export type SentimentVectors = Pick<SemanticModel, 'vectors' | 'vectorsSha1'>

/** Inputs of the calibrator, in order. */
export const CALIBRATION_INPUTS = [
  'compound',
  'model_margin',
  'model_neutral',
  'positive',
  'negative',
  'last_sentence',
  'compound_x_exclamations',
  'compound_x_icons',
  'compound_x_caps',
  'compound_x_density',
  'compound_x_length',
  'margin_x_exclamations',
  'margin_x_icons',
  'margin_x_caps',
  'margin_x_density',
  'margin_x_length',
  'abs_compound_x_margin',
  'compound_x_abs_margin',
  'compound_x_neutral',
  'margin_x_neutral',
] as const

/**
 * The evidence gate: a document with no lexicon evidence (no sentiment word, phrase, emoji or
 * emoticon) whose model neutral likelihood exceeds this gets the document score 0 (neutral) instead of
 * the calibrated value. Without words to go on, the calibrator otherwise leans the way the training
 * texts without sentiment words lean; the gate reads only the text's own evidence, never its source.
 */
export const NEUTRAL_GATE = 0.4

/**
 * Least margin between the positive and negative likelihoods for a text without lexicon evidence to keep a polar
 * document score and a polar model_sentiment ("An utterly tedious, lifeless film.": 0.60 / 0.32 keeps it, "The
 * meeting is on Tuesday." 0.37 / 0.24 does not); the scorer applies it to the document score too.
 */
export const NO_EVIDENCE_MARGIN = 0.25

/**
 * Least likelihood of the likelier polar class for a text without lexicon evidence to keep a polar score: its
 * words alone must make that class more likely than not by a clear step ("Please help, I want a refund." 0.55
 * positive from words like "please" and "help" is not enough).
 */
export const NO_EVIDENCE_CONFIDENCE = 0.6

/**
 * Whether a text without lexicon evidence is neutral for want of it: the model's neutral likelihood exceeds
 * {@link NEUTRAL_GATE}, its polar likelihoods lie within {@link NO_EVIDENCE_MARGIN} of each other, or neither
 * reaches {@link NO_EVIDENCE_CONFIDENCE}.
 */
export function neutralForWantOfEvidence(f: LexiconFeatures, p: readonly number[]): boolean {
  if (!hasNoEvidence(f)) return false
  const neg = p[0] ?? 0
  const pos = p[2] ?? 0
  return (p[1] ?? 0) > NEUTRAL_GATE || Math.abs(pos - neg) < NO_EVIDENCE_MARGIN || Math.max(pos, neg) < NO_EVIDENCE_CONFIDENCE
}

/** Whether lexicon features hold no sentiment evidence at all (see {@link NEUTRAL_GATE}). */
export function hasNoEvidence(f: LexiconFeatures): boolean {
  return f.positiveCount + f.negativeCount + f.icons === 0
}

/**
 * Calibrator input vector from lexicon features and the model's class probabilities: the lexicon
 * score, the model's margin (positive - negative) and neutral likelihood, and their interactions with
 * how the text expresses sentiment (exclamations, emoji/emoticons, capitals, density of sentiment
 * words, length), so that the calibrator learns when to trust which. No input names a source or genre.
 */
export function calibrationInputs(f: LexiconFeatures, p: readonly number[]): number[] {
  const neg = p[0] ?? 0
  const neu = p[1] ?? 0
  const pos = p[2] ?? 0
  const m = pos - neg
  const c = f.compound
  const gates = [
    f.exclamations / 4,
    Math.min(f.icons, 2) / 2,
    Math.min(f.capsWords, 3) / 3,
    Math.min(1, (f.positiveCount + f.negativeCount) / Math.max(1, f.words)),
    Math.log1p(f.words) / 4,
  ]
  return [
    c,
    m,
    neu,
    Math.tanh(f.positive),
    Math.tanh(f.negative),
    f.lastSentence,
    ...gates.map((g) => c * g),
    ...gates.map((g) => m * g),
    Math.abs(c) * m,
    c * Math.abs(m),
    c * neu,
    m * neu,
  ]
}

/** The n-gram of a lexicon word read as a word of a name (see {@link ngramsOf}). */
const NAME = '<name>'

const NEGATORS = new Set(['not', 'no', 'never', 'nothing', 'nobody', 'none', 'nor', 'neither', 'without', 'cannot'])

/** The n-gram of a negator inside a phrase that praises through it ("not bad"; see {@link ngramsOf}). */
const NOT_NEGATIVE = '<not_neg>'

/** The n-gram of a negator that a modal comparative holds (see {@link ngramsOf}). */
const BEST = '<best>'

/** The scorer's reading of negators (LexiconFeatures' `modalNegators`, `modalNegated` and `negativeNegators`). */
export interface NegatorReading {
  readonly modalNegators?: readonly number[]
  readonly modalNegated?: readonly number[]
  readonly negativeNegators?: readonly number[]
  readonly praiseNegated?: readonly number[]
}

/**
 * The n-grams of a document: lower-cased word forms (numbers, URLs, mentions folded to placeholders, and the
 * lexicon words that the scorer read as words of a name, `nameWords`, folded to `<name>`: "Fantastic Four" is no
 * praise), "not_"-prefixed within three words after a negator in the same clause; unigrams and bigrams (none with
 * `<name>`), sorted and de-duplicated (presence features). Negators read as the scorer reads them (`modal`): the
 * negator of "couldn't have been friendlier" or "can't recommend it enough" is `<best>` and negates nothing, the
 * comparative of "could have been cleaner" is negated (`not_cleaner`), and the negator of a phrase that praises through
 * it ("not bad", "no complaints") is `<not_neg>`, negating the phrase's words alone: the negator whose texts lean
 * negative is another.
 */
export function ngramsOf(doc: AnnotatedDocument, nameWords: readonly number[] = [], modal: NegatorReading = {}): string[] {
  const grams = new Set<string>()
  const modalNegators = modal.modalNegators ?? []
  const modalNegated = modal.modalNegated ?? []
  let prev = '<s>'
  /** `prev` is a name's folded word (`<name>`, `not_<name>`). */
  let prevFolded = false
  let negLeft = 0
  let sentence = -1
  let nextName = 0
  const tokens = doc.tokens as readonly Token[]
  /** Whether the token before (spaces aside) was a word of a praising phrase's negation scope ("bad" of "not bad"). */
  let afterPraise = false
  /** Index of an "all" read with the "at" before it after a praising phrase (below). */
  let skipAll = -1
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i] as Token
    if (t.kind === 'space' || t.kind === 'tabCRLF') continue
    if (t.index === skipAll) continue
    // "at all", "whatsoever" right after a praising phrase say how far it holds ("not bad at all", "no complaints
    // whatsoever"): its words, not n-grams of their own, whose tweets ("not at all") lean negative.
    if (afterPraise && t.sentence === sentence) {
      afterPraise = false
      if (t.normal === 'whatsoever') continue
      if (t.normal === 'at') {
        let j = i + 1
        while (j < tokens.length && (tokens[j]?.kind === 'space' || tokens[j]?.kind === 'tabCRLF')) j++
        if (tokens[j]?.normal === 'all') {
          skipAll = tokens[j]?.index ?? -1
          continue
        }
      }
    }
    afterPraise = false
    if (t.sentence !== sentence) {
      if (sentence >= 0 && !prevFolded) grams.add(`${prev} </s>`)
      sentence = t.sentence
      prev = '<s>'
      prevFolded = false
      negLeft = 0
    }
    let w: string
    switch (t.kind) {
      case 'punctuation':
        if (/^[.,;:?!]+$/.test(t.text)) {
          negLeft = 0
          // Keep '!' and '?' as evidence; other punctuation only ends scopes.
          if (!/[!?]/.test(t.text)) continue
          w = t.text.includes('!') ? '!' : '?'
          break
        }
        continue
      case 'tabCRLF':
      case 'space':
        continue
      case 'number':
      case 'ordinal':
        w = '<num>'
        break
      case 'url':
      case 'email':
        w = '<url>'
        break
      case 'mention':
        w = '<user>'
        break
      case 'hashtag':
        w = t.normal.replace(/^#/, '')
        break
      default:
        while (nextName < nameWords.length && (nameWords[nextName] ?? 0) < t.index) nextName++
        w = nameWords[nextName] === t.index ? NAME : t.normal
    }
    if (w === '') continue
    if (modalNegators.includes(t.index)) {
      w = BEST
    } else if (NEGATORS.has(w) && modal.negativeNegators?.includes(t.index) === true) {
      // Its scope is its phrase's ("not bad", not the "at all" after it).
      w = NOT_NEGATIVE
      negLeft = 0
    } else if (modal.praiseNegated?.includes(t.index) === true) {
      w = `not_${w}`
      afterPraise = true
    } else if (modalNegated.includes(t.index) && negLeft === 0) {
      w = `not_${w}`
    } else if (NEGATORS.has(w)) {
      negLeft = 3
    } else if (negLeft > 0) {
      w = `not_${w}`
      negLeft--
    }
    grams.add(w)
    // No bigram with a name's folded word: "<name> bowl" is "Super Bowl" by another spelling, and learnt the cheer of
    // the tweets about the game (+0.17 towards positive).
    const folded = w.endsWith(NAME)
    if (!folded && !prevFolded) grams.add(`${prev} ${w}`)
    prev = w
    prevFolded = folded
  }
  if (sentence >= 0 && !prevFolded) grams.add(`${prev} </s>`)
  return [...grams].sort()
}

/** Softmax of a score vector (numerically stable). */
export function softmax(z: readonly number[]): number[] {
  const m = Math.max(...z)
  const e = z.map((v) => Math.exp(v - m))
  const s = e.reduce((a, b) => a + b, 0)
  return e.map((v) => v / s)
}

/**
 * Round likelihoods to `decimals` so that they still sum to exactly 1 (largest remainder on integers).
 */
export function roundToUnitSum(p: readonly number[], decimals: number): number[] {
  const scale = 10 ** decimals
  const raw = p.map((v) => Math.max(0, v) * scale)
  const total = raw.reduce((a, b) => a + b, 0)
  const scaled = total > 0 ? raw.map((v) => (v / total) * scale) : raw.map(() => scale / raw.length)
  const floors = scaled.map(Math.floor)
  let missing = scale - floors.reduce((a, b) => a + b, 0)
  // Ties go to the lower index, so the result is deterministic.
  const order = scaled.map((v, i) => [v - Math.floor(v), i] as const).sort((a, b) => b[0] - a[0] || a[1] - b[1])
  for (const [, i] of order) {
    if (missing <= 0) break
    floors[i] = (floors[i] ?? 0) + 1
    missing--
  }
  return floors.map((v) => v / scale)
}

/**
 * The n-gram weights of a model in one typed array: `ids` maps an n-gram to its row, and row r's class weights
 * (MODEL_CLASSES order) are `weights[r * classes]` onwards. A map is needed for lookups (no lookups through an
 * object's prototype: "constructor" is a word too); a map of rows to small arrays held 30,000 arrays besides the
 * parsed object, and the engine kept both.
 */
export interface NgramTable {
  readonly ids: ReadonlyMap<string, number>
  readonly weights: Float64Array
  readonly classes: number
}

/** The n-gram table of model data (see {@link NgramTable}). Build it once per weights and hand it to every {@link classProbabilities} call. */
export function ngramTable(data: Pick<SentimentModelData, 'ngrams'>): NgramTable {
  const ngrams = data.ngrams
  const ids = new Map<string, number>()
  const rows: (readonly number[])[] = []
  // for-in visits the keys in Object.entries' order without an array of [key, value] pairs (a cold-start cost).
  for (const g in ngrams) {
    if (!Object.hasOwn(ngrams, g)) continue
    ids.set(g, rows.length)
    rows.push(ngrams[g]!)
  }
  const classes = MODEL_CLASSES.length
  const weights = new Float64Array(rows.length * classes)
  rows.forEach((w, r) => {
    for (let c = 0; c < classes; c++) weights[r * classes + c] = w[c] ?? 0
  })
  return { ids, weights, classes }
}

/**
 * Words of the longest texts the regression is trained on (tweets, review and editorial snippets: at most about 50
 * words). A longer text's n-gram evidence is scaled down to what a text of this many words carries
 * ({@link ngramScale}).
 */
export const LONG_TEXT_WORDS = 60

/**
 * The factor on a text's summed n-gram weights: 1 up to {@link LONG_TEXT_WORDS} words, then that many over its words.
 * The weights were fitted on sentences and tweets; summed over a review of 300 words they made it five times as sure
 * of itself as any text they were fitted on, and most sure of the class that the unrelated words of its many sentences
 * lean to (on reviews and editorials rebuilt from the VADER-paper snippets, 162 of 297 reviews were read as negative
 * where the raters' sentences average negative in 102). Scaled, a long text weighs like its evidence per word.
 */
export function ngramScale(words: number): number {
  return words > LONG_TEXT_WORDS ? LONG_TEXT_WORDS / words : 1
}

/**
 * Class probabilities of the regression for a document; `table` is {@link ngramTable} of `data`; the summed n-gram
 * weights are multiplied by `scale` (see {@link ngramScale}).
 */
export function classProbabilities(
  data: Pick<SentimentModelData, 'denseWeights'>,
  grams: readonly string[],
  dense: readonly number[],
  table: NgramTable,
  scale = 1,
): number[] {
  const z = data.denseWeights.map((w) => {
    let s = w[0] ?? 0
    for (let i = 0; i < dense.length; i++) s += (w[i + 1] ?? 0) * (dense[i] ?? 0)
    return s
  })
  const { ids, weights, classes } = table
  // Unscaled, each weight is added onto the dense part in turn, as it always was: the sum's order of additions, and so
  // every last bit of the likelihoods of texts of up to LONG_TEXT_WORDS words, stay as they were. Scaled (a long
  // text), the n-gram weights are summed apart and the sums, scaled, go on top of the dense part.
  const acc = scale === 1 ? z : new Array<number>(z.length).fill(0)
  for (const g of grams) {
    const r = ids.get(g)
    if (r === undefined) continue
    for (let c = 0; c < acc.length && c < classes; c++) acc[c] = (acc[c] ?? 0) + (weights[r * classes + c] ?? 0)
  }
  if (acc !== z) for (let c = 0; c < z.length; c++) z[c] = (z[c] ?? 0) + (acc[c] ?? 0) * scale
  return softmax(z)
}

/**
 * The calibrated document score (-1..1) from lexicon features and the regression's class probabilities:
 * the calibrator's linear function of its inputs (by default {@link calibrationInputs}), the evidence gate
 * ({@link neutralForWantOfEvidence}: 0), then clamped.
 */
export function calibratedScore(
  calibrator: Pick<SentimentModelData['calibrator'], 'bias' | 'weights' | 'thresholds' | 'neutral'>,
  features: LexiconFeatures,
  p: readonly number[],
  x: readonly number[] = calibrationInputs(features, p),
): number {
  if (neutralForWantOfEvidence(features, p)) return 0
  let s = calibrator.bias
  for (let i = 0; i < x.length; i++) s += (calibrator.weights[i] ?? 0) * (x[i] ?? 0)
  const clamped = Math.max(-1, Math.min(1, s))
  const mapped = calibrator.thresholds === undefined ? clamped : decisionMap(clamped, calibrator.thresholds)
  return neutralGated(calibrator.neutral, p) ? mapped * NEUTRAL_SHRINK : mapped
}

/**
 * Whether the neutral gate `gate` (the calibrator's `neutral`) holds for the class likelihoods `p` (negative, neutral,
 * positive): a number is the least neutral likelihood; `'likeliest'` holds when neutral is at least as likely as
 * either polar class (ties neutral, as model_sentiment's polarity).
 */
export function neutralGated(gate: number | 'likeliest' | undefined, p: readonly number[]): boolean {
  if (gate === undefined) return false
  const neu = p[1] ?? 0
  return gate === 'likeliest' ? neu >= (p[0] ?? 0) && neu >= (p[2] ?? 0) : neu >= gate
}

/**
 * Factor by which the neutral gate ({@link SentimentModelData}'s `calibrator.neutral`) shrinks a mapped score: -1..1
 * becomes -0.05..0.05, neutral under the +-0.05 rule (strictly above +0.05 is positive), with the order of the gated
 * texts' scores kept.
 */
export const NEUTRAL_SHRINK = 0.05

/** The polarity cut of the document score (the contract's and the VADER paper's rule: above +0.05 positive). */
export const POLARITY_CUT = 0.05

/**
 * The monotone, continuous, piecewise-linear map of -1..1 onto itself that sends `lo` to -{@link POLARITY_CUT}, `hi` to
 * +POLARITY_CUT, and -1, 0 (when lo < 0 < hi) and 1 to themselves: the learned 3-class decision of the calibrated
 * score (thresholds chosen by `chooseThresholds` in train.ts on out-of-fold scores) read with the fixed +-0.05 rule,
 * with the order of scores, hence their ranking, kept.
 */
export function decisionMap(s: number, thresholds: readonly [number, number]): number {
  const [lo, hi] = thresholds
  const c = POLARITY_CUT
  if (s >= hi) return hi >= 1 ? 1 : c + ((1 - c) * (s - hi)) / (1 - hi)
  if (s <= lo) return lo <= -1 ? -1 : -c + ((1 - c) * (s - lo)) / (1 + lo)
  // Inside the neutral band: 0 stays 0 (a text without evidence keeps the score 0).
  return s >= 0 ? (c * s) / hi : (c * s) / -lo
}

/** Path of the committed English model (`en/sentiment-model.json` of the data folder, see `resolveDataDir`). */
export function defaultModelPath(dataDir?: string): string {
  return dataPath(dataDir, 'en', 'sentiment-model.json')
}

/** Validate parsed JSON as model data; the error names the file and the field. */
export function checkModelData(json: unknown, where: string): SentimentModelData {
  const bad = (what: string): never => {
    throw new Error(`${where}: ${what}`)
  }
  if (typeof json !== 'object' || json === null) return bad('should be a JSON object')
  const d = json as Partial<SentimentModelData>
  if (d.format !== 'textengine-sentiment-model/1') bad(`format should be "textengine-sentiment-model/1", instead found ${JSON.stringify(d.format)}`)
  if (typeof d.model_name !== 'string') bad('model_name should be a string')
  const emb = d.embedding
  if (emb !== undefined) {
    if (typeof emb !== 'object' || emb === null || typeof emb.vectors !== 'string' || !/^[0-9a-f]{40}$/.test(emb.vectors)) {
      bad(`embedding.vectors should be the SHA-1 (40 hex digits) of the word vectors, instead found ${JSON.stringify((emb as { vectors?: unknown } | null)?.vectors)}`)
    }
    if (!Number.isInteger(emb.dims) || emb.dims < 1 || emb.dims > 4096) bad(`embedding.dims should be an integer within 1..4096, instead found ${JSON.stringify(emb.dims)}`)
  }
  const names = denseNames(emb)
  if (!Array.isArray(d.dense) || d.dense.join() !== names.join()) {
    bad(`dense should be ${DENSE_FEATURES.join(',')}${emb === undefined ? '' : `, then vector_0..vector_${emb.dims - 1}`}`)
  }
  // Every weight is checked here, so that a damaged file fails at load instead of scoring NaN.
  const numbers = (v: unknown, length: number, field: string | (() => string)): void => {
    const name = (): string => (typeof field === 'string' ? field : field())
    if (!Array.isArray(v) || v.length !== length) bad(`${name()} should be an array of ${length} numbers, instead found ${JSON.stringify(v)?.slice(0, 60)}`)
    for (let i = 0; i < length; i++) {
      const x: unknown = (v as unknown[])[i]
      if (typeof x !== 'number' || !Number.isFinite(x)) bad(`${name()}[${i}] should be a finite number, instead found ${JSON.stringify(x)}`)
    }
  }
  if (!Array.isArray(d.denseWeights) || d.denseWeights.length !== MODEL_CLASSES.length) bad('denseWeights should hold one row per class')
  d.denseWeights?.forEach((row, c) => numbers(row, names.length + 1, `denseWeights[${c}]`))
  if (typeof d.ngrams !== 'object' || d.ngrams === null || Array.isArray(d.ngrams)) bad('ngrams should be an object of n-gram -> per-class weights')
  // Plain loop, the field name built only for an error: this check runs on every cold start (11k n-grams).
  const ngrams = (d.ngrams ?? {}) as Record<string, unknown>
  for (const g in ngrams) if (Object.hasOwn(ngrams, g)) numbers(ngrams[g], MODEL_CLASSES.length, () => `ngrams[${JSON.stringify(g)}]`)
  const cal = d.calibrator
  if (typeof cal !== 'object' || cal === null || !Array.isArray(cal.inputs) || cal.inputs.join() !== CALIBRATION_INPUTS.join()) {
    bad(`calibrator should have inputs ${CALIBRATION_INPUTS.join(',')}`)
  }
  numbers(cal?.weights, CALIBRATION_INPUTS.length, 'calibrator.weights')
  if (typeof cal?.bias !== 'number' || !Number.isFinite(cal.bias)) bad(`calibrator.bias should be a finite number, instead found ${JSON.stringify(cal?.bias)}`)
  if (cal?.thresholds !== undefined) {
    numbers(cal.thresholds, 2, 'calibrator.thresholds')
    const [lo = 0, hi = 0] = cal.thresholds
    if (!(lo > -1 && lo < 0 && hi > 0 && hi < 1)) bad(`calibrator.thresholds should be [lo, hi] with -1 < lo < 0 < hi < 1, instead found ${JSON.stringify(cal.thresholds)}`)
  }
  if (cal?.neutral !== undefined && cal.neutral !== 'likeliest' && !(typeof cal.neutral === 'number' && cal.neutral > 0 && cal.neutral <= 1)) {
    bad(`calibrator.neutral should be a number in (0, 1] or "likeliest", instead found ${JSON.stringify(cal.neutral)}`)
  }
  return d as SentimentModelData
}

/** Options of {@link createSentimentModel}. */
export interface SentimentModelOptions {
  /** Decimals of the likelihoods. @defaultValue 4 */
  readonly decimals?: number
  /** Data folder holding `en/sentiment-model.json` when no path is given. @defaultValue see `resolveDataDir` */
  readonly dataDir?: string
  /**
   * The word vectors of a model with a text vector (model data `embedding`), read when the model is built (an engine
   * hands over its semantic layer, so that they are read once). They must be the vectors the model was trained with
   * (the same SHA-1). @defaultValue the semantic layer of the data folder (`en/vectors.bin`)
   */
  readonly vectors?: SentimentVectors
}

/** Build a model from weight data (already parsed and checked). */
export function createSentimentModel(data: SentimentModelData, options: SentimentModelOptions = {}): SentimentModel {
  return modelOfTable(data, ngramTable(data), options)
}

/** A model from the header of its data and its n-gram table (what prediction reads: the parsed n-gram object is not kept). */
function modelOfTable(data: Omit<SentimentModelData, 'ngrams'>, table: NgramTable, options: SentimentModelOptions, where = `sentiment model ${data.model_name}`): SentimentModel {
  const decimals = options.decimals ?? 4
  const kept = { model_name: data.model_name, denseWeights: data.denseWeights, calibrator: data.calibrator }
  const vectors = data.embedding === undefined ? undefined : modelVectors(data.embedding, options, where)
  return {
    name: kept.model_name,
    predict(doc, features) {
      const dense = denseFeatures(features)
      if (vectors !== undefined) for (const x of vectorFeatures(vectors, doc, features.nameWords, features.praiseNegated)) dense.push(x)
      const p = classProbabilities(kept, ngramsOf(doc, features.nameWords, features), dense, table, ngramScale(features.words))
      const [neg = 0, neu = 0, pos = 0] = p
      // Mixed: the share of the polar mass explained by a balance of positive and negative lexicon
      // evidence (2*min/(P+N)); it is taken from the positive and negative likelihoods in proportion.
      const P = features.positive
      const N = -features.negative
      const balance = P > 0 && N > 0 ? (2 * Math.min(P, N)) / (P + N) : 0
      const mixedShare = 0.5 * balance
      const mixed = mixedShare * (pos + neg)
      const rounded = roundToUnitSum([pos * (1 - mixedShare), neg * (1 - mixedShare), neu, mixed], decimals)
      const [positive_score = 0, negative_score = 0, neutral_score = 0, mixed_score = 0] = rounded
      // The most likely class; neutral too for a text without evaluative evidence whose words do not clearly make
      // one polar class likelier than the other (the same gate as the document score's).
      const polarity = (neu >= pos && neu >= neg) || neutralForWantOfEvidence(features, p) ? 'neutral' : pos >= neg ? 'positive' : 'negative'
      const calibrated = calibratedScore(kept.calibrator, features, p)
      return {
        model_sentiment: {
          model_name: kept.model_name,
          positive_score,
          negative_score,
          neutral_score,
          mixed_score,
          sentiment_polarity: polarity,
        },
        calibrated,
        probabilities: p,
      }
    },
  }
}

/** The word vectors of a model with a text vector, checked against the ones it was trained with. */
function modelVectors(embedding: NonNullable<SentimentModelData['embedding']>, options: SentimentModelOptions, where: string): WordVectors {
  const got = options.vectors ?? createSemanticModel(options.dataDir)
  const { vectors, vectorsSha1 } = got
  if (vectorsSha1 !== embedding.vectors || vectors.dims !== embedding.dims) {
    throw new Error(
      `${where}: trained with the word vectors of SHA-1 ${embedding.vectors} (${embedding.dims} dimensions), but the vectors at hand are ${vectorsSha1} (${vectors.dims} dimensions): retrain it with bench/train-sentiment.ts`,
    )
  }
  return vectors
}

/** Load the committed model (or the file at `path`). Throws naming the file when it is missing or malformed. */
export function loadSentimentModel(path?: string, options: SentimentModelOptions = {}): SentimentModel {
  const file = path ?? defaultModelPath(options.dataDir)
  let text: string
  try {
    text = readFileSync(file, 'utf8')
  } catch (e) {
    const hint = path === undefined ? missingDataHint(options.dataDir) : 'train it with bench/train-sentiment.ts'
    throw new Error(`cannot read sentiment model ${file}: ${(e as Error).message} (${hint})`)
  }
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch (e) {
    throw new Error(`${file}: not valid JSON (${(e as Error).message})`)
  }
  const format = (json as { format?: unknown } | null)?.format
  if (format === PACKED_MODEL_FORMAT) {
    const { header, table } = unpackedTable(json, file)
    return modelOfTable(header, table, options, file)
  }
  if (format !== 'textengine-sentiment-model/1') {
    throw new Error(`${file}: format should be "${PACKED_MODEL_FORMAT}" (or the unpacked "textengine-sentiment-model/1"), instead found ${JSON.stringify(format)}`)
  }
  const data = checkModelData(json, file)
  return modelOfTable(data, ngramTable(data), options, file)
}

/** Format name of the packed weight file ({@link packSentimentModel}). */
export const PACKED_MODEL_FORMAT = 'textengine-sentiment-model/2'

/**
 * The weight file of model data (`lexicons/en/sentiment-model.json`, written by `bench/train-sentiment.ts`): JSON whose
 * n-gram table is packed, `ngrams` one string of the n-grams each ended by a line feed and `ngramWeights` their
 * per-class weights end to end, in the table's order (as scaled integers, `encodeWeights` in src/packed-table.ts, when
 * they have at most 6 decimals). Read back ({@link loadSentimentModel}) it predicts exactly as the data. The n-grams as an object of 25k arrays took 60-70 ms of the engine's cold start to parse, packed about 20
 * (2026-12-06), and the object was only ever read into the n-gram table.
 */
export function packSentimentModel(data: SentimentModelData): string {
  const { names, weights } = packTable(data.ngrams, MODEL_CLASSES.length, 'sentiment model: n-gram')
  const { ngrams: _table, format: _format, calibrator, ...rest } = data
  return JSON.stringify({ format: PACKED_MODEL_FORMAT, ...rest, ngrams: names, ngramWeights: weights, calibrator })
}

/**
 * Model data from a parsed weight file of either form, checked, with its n-gram table as an object (for tools and
 * tests: the engine reads a packed file straight into its n-gram table).
 */
export function readModelData(json: unknown, where: string): SentimentModelData {
  if ((json as { format?: unknown } | null)?.format !== PACKED_MODEL_FORMAT) return checkModelData(json, where)
  const { header, names, weights } = checkedPacked(json, where)
  const ngrams: Record<string, number[]> = {}
  const k = MODEL_CLASSES.length
  names.forEach((g, r) => (ngrams[g] = Array.from(weights.subarray(r * k, r * k + k))))
  // In the order of the trainer's data (and so of the unpacked file).
  const { calibrator, ...before } = header
  return { ...before, ngrams, calibrator }
}

/** A packed file's header (checked as {@link checkModelData} checks it), n-grams and weights, each field checked. */
function checkedPacked(json: unknown, where: string): { header: Omit<SentimentModelData, 'ngrams'>; names: string[]; weights: Float64Array } {
  const d = json as Record<string, unknown>
  const bad = (msg: string): never => {
    throw new Error(`${where}: ${msg}`)
  }
  const { ngrams: _packed, ngramWeights: _weights, ...rest } = d
  const { ngrams: _none, ...header } = checkModelData({ ...rest, format: 'textengine-sentiment-model/1', ngrams: {} }, where)
  const table = unpackTable(d['ngrams'], d['ngramWeights'], MODEL_CLASSES.length, { names: 'ngrams', weights: 'ngramWeights', item: 'n-gram' }, bad)
  const names = table.count === 0 ? [] : table.names.slice(0, -1).split('\n')
  return { header, names, weights: table.weights }
}

/** The header and n-gram table of a packed weight file (an n-gram written twice: the later weights count, as JSON reads a key). */
function unpackedTable(json: unknown, where: string): { header: Omit<SentimentModelData, 'ngrams'>; table: NgramTable } {
  const { header, names, weights } = checkedPacked(json, where)
  const ids = new Map<string, number>()
  names.forEach((g, r) => ids.set(g, r))
  return { header, table: { ids, weights, classes: MODEL_CLASSES.length } }
}
