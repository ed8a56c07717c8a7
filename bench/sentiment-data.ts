/**
 * Shared by the sentiment evaluation scripts: the VADER ground truth featurised as the trainer sees it,
 * and the metrics the VADER paper reports (Pearson r, 3-class F1 with the ±0.05 rule).
 */
import { createRequire } from 'node:module'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { createAnnotator } from '../src/nlp/annotate.ts'
import { createSentimentScorer, type SentimentScorer } from '../src/sentiment/scorer.ts'
import { denseFeatures, ngramsOf, vectorFeatures } from '../src/sentiment/model.ts'
import { createSemanticModel, type SemanticModel } from '../src/semantic/index.ts'
import { findSemEvalDir, findSentimentDir, findTweetEvalDir, readSemEvalTweets, readTweetEval, readVaderCorpora, tweetKey, type RatedText } from '../src/sentiment/corpus.ts'
import type { TrainingExample } from '../src/sentiment/train.ts'
import type { AnnotatedDocument } from '../src/nlp/types.ts'

/** The folder of the ground-truth files under `dataArg` (default ../shared/data); exits naming it when absent. */
export function sentimentDirOrExit(dataArg: string = fileURLToPath(new URL('../../shared/data', import.meta.url))): string {
  const dir = findSentimentDir(dataArg)
  if (dir === undefined) {
    console.error(`no VADER ground-truth files in ${dataArg} or ${dataArg}/sentiment`)
    process.exit(1)
  }
  return dir
}

/** One rated text, annotated and featurised. */
export interface RatedDoc {
  readonly corpus: string
  /** The item's id in its corpus (a SemEval tweet's names its file: `semeval-twitter-2016test-<id>`). */
  readonly id: string
  readonly text: string
  /** Mean human rating / 4 (-1..1). */
  readonly target: number
  readonly ex: TrainingExample
  readonly doc: AnnotatedDocument
  /** Lexicon-only document score. */
  readonly lexicon: number
  /**
   * Never trained on: the TweetEval validation tweets when the SemEval 2013-2016 tweets (TweetEval's training data)
   * are there to train on instead, so that the validation figures are held out.
   */
  readonly heldOut: boolean
}

/** 3-class rule of the paper and of our polarity: > +0.05 positive (2), < -0.05 negative (0), else neutral (1). */
export const cls = (s: number): number => (s > 0.05 ? 2 : s < -0.05 ? 0 : 1)

/** An annotator that reads an empty text as an empty document (wink has no sentence to index in one). */
export function createSafeAnnotate(): (text: string) => AnnotatedDocument {
  const annotator = createAnnotator()
  return (text) => (text.trim() === '' ? { text, tokens: [], sentences: [], patterns: [] } : annotator.annotate(text))
}

/** Name of the TweetEval validation corpus among the rated corpora. */
export const TWEETEVAL = 'TweetEval validation'
/** Name of the SemEval 2013-2016 tweets (TweetEval's training data) among the rated corpora. */
export const SEMEVAL = 'SemEval 2013-16 tweets'

/**
 * The folder of the SemEval 2013-2016 Task 4A tweets named by `--semeval DIR` in `args`, else found under the data
 * folder (`sentiment/semeval-2013-2016/`), else undefined. Exits naming the folder when `--semeval` names one
 * without the files.
 */
export function semEvalDirFromArgs(args: readonly string[], dataDir: string): string | undefined {
  const at = args.indexOf('--semeval')
  if (at >= 0) {
    const d = args[at + 1] ?? ''
    const found = findSemEvalDir(d)
    if (found === undefined) {
      console.error(`--semeval ${d}: no SemEval 2013-2016 Task 4A files (twitter-2013train-A.tsv ...) there`)
      process.exit(1)
    }
    return found
  }
  return findSemEvalDir(dataDir, join(dataDir, '..'))
}

let semantic: SemanticModel | undefined

/**
 * The committed word vectors (`lexicons/en/vectors.bin`, through a semantic layer as an engine reads them), read once:
 * every training example's dense features end with their text vector (`vectorFeatures`), so every model trained here
 * is trained with {@link trainingEmbedding} and built with these vectors.
 */
export function trainingVectors(): SemanticModel {
  semantic ??= createSemanticModel()
  return semantic
}

/** The `embedding` option of every `trainSentimentModel` call on {@link readRatedDocs}' examples. */
export function trainingEmbedding(): { vectors: string; dims: number } {
  const v = trainingVectors()
  return { vectors: v.vectorsSha1, dims: v.vectors.dims }
}

/**
 * The arguments of the scripts that train on the rated corpora: `[dataDir] [...] [--semeval DIR]`. `dir`: the VADER
 * ground truth under the data folder (exits naming it when absent); `semEval`: see {@link semEvalDirFromArgs};
 * `positional`: the arguments besides `--semeval DIR`, the data folder first.
 */
export function sentimentArgs(args: readonly string[]): { dir: string; semEval: string | undefined; positional: string[] } {
  const semAt = args.indexOf('--semeval')
  const positional = args.filter((a, i) => !a.startsWith('--') && (semAt < 0 || i !== semAt + 1))
  const dir = sentimentDirOrExit(positional[0])
  return { dir, semEval: semEvalDirFromArgs(args, positional[0] ?? fileURLToPath(new URL('../../shared/data', import.meta.url))), positional }
}

/** Options of {@link readRatedDocs}. */
export interface RatedDocsOptions {
  /**
   * The TweetEval folder (see `findTweetEvalDir`) whose validation tweets join the corpora, or false to leave
   * them out. @defaultValue found next to the VADER files or under `dir/..`
   */
  readonly tweetEval?: string | false
  /**
   * The folder of the SemEval 2013-2016 Task 4A tweets (see `readSemEvalTweets`), TweetEval's training data: when
   * given they are a training corpus and the TweetEval validation tweets are held out (`heldOut`, and left out of
   * the SemEval tweets). @defaultValue none
   */
  readonly semEval?: string | undefined
}

/**
 * Factor on a source's share of the loss (1 for a source not named). The SemEval 2013-2016 tweets, the one large
 * source with a real neutral class (47,347 tweets, 45% neutral), weigh as much as the two VADER corpora together
 * (14,805 texts, 4% neutral): with every source weighing the same, those two pulled the regression twice as hard
 * towards polar answers, and its neutral recall on the held-out TweetEval validation tweets was 57%. Chosen on that
 * validation split (bench/train-sentiment.ts never reads it), with the regression's vocabulary and penalty
 * (`resolveOptions` in src/sentiment/train.ts): macro recall of model_sentiment 67.8 -> 70.1, with a fifth of the
 * VADER tweets and movie snippets held out r 0.874 -> 0.870 and 0.617 -> 0.653, the held-out Amazon and NYT
 * corpora 0.655 -> 0.655 and 0.554 -> 0.557. Three times gave 70.6 on validation and 0.640 on the movie snippets.
 *
 * The two VADER corpora then weigh a quarter each (0.25), chosen on the SemEval-2016 test tweets with the model trained
 * without them (`npm run eval:sentiment-temporal`): those tweets, the newest of TweetEval's training data, fall from the
 * validation split's figures the way TweetEval's test split does, while validation, drawn from the same pool as the
 * training tweets, does not. There, with `nbPenalty` 1 (was 2), macro recall of the document score / model_sentiment
 * went 63.0 / 63.9 -> 64.3 / 65.0 (neutral recall 41 / 48 -> 44 / 54). Beside it: VADER corpora at 0.5, 63.7 / 64.8; at
 * 0.1, 64.3 / 65.0; at 0.25 with nbPenalty 2, 63.5 / 64.8, and with nbPenalty 0.5, 64.1 / 64.9.
 */
export const SOURCE_WEIGHT: Readonly<Record<string, number>> = { [SEMEVAL]: 2, tweets: 0.25, 'movie reviews': 0.25 }

/**
 * Read and featurise every corpus in `dir` (the VADER ground truth, and the TweetEval validation tweets when
 * found), with the caller's annotator and lexicon scorer when it has them. Training weights: each source weighs
 * the same in the loss (as in bench/train-sentiment.ts) times its {@link SOURCE_WEIGHT}, and within TweetEval, the
 * only source with a real neutral class, each class weighs the same (class-balanced, so that model_sentiment's most
 * likely class is not bent towards the commonest class of one corpus); the model never sees which source a text is
 * from.
 */
export function readRatedDocs(
  dir: string,
  annotate: (text: string) => AnnotatedDocument = createSafeAnnotate(),
  lexScorer: SentimentScorer = createSentimentScorer({ model: false }),
  options: RatedDocsOptions = {},
): RatedDoc[] {
  const corpora: Array<{ name: string; items: RatedText[]; balance: boolean; heldOut: boolean }> = readVaderCorpora(dir).map((c) => ({ ...c, balance: false, heldOut: false }))
  const te = options.tweetEval === undefined ? findTweetEvalDir(dir, join(dir, '..')) : options.tweetEval === false ? undefined : options.tweetEval
  const teItems = te === undefined ? [] : readTweetEval(te)
  if (options.semEval !== undefined) {
    const sem = readSemEvalTweets(options.semEval, new Set(teItems.map((t) => tweetKey(t.text))))
    process.stderr.write(`${SEMEVAL}: ${sem.items.length} kept (${sem.duplicates} duplicates, ${sem.excluded} TweetEval validation tweets and ${sem.conflicting} with conflicting labels left out)\n`)
    corpora.push({ name: SEMEVAL, items: sem.items, balance: true, heldOut: false })
  }
  if (te !== undefined) corpora.push({ name: TWEETEVAL, items: teItems, balance: true, heldOut: options.semEval !== undefined })
  const trained = corpora.filter((c) => !c.heldOut)
  const total = trained.reduce((a, c) => a + c.items.length, 0)
  const docs: RatedDoc[] = []
  for (const c of corpora) {
    const weight = c.heldOut ? 0 : ((SOURCE_WEIGHT[c.name] ?? 1) * total) / (trained.length * c.items.length)
    const perClass = [0, 0, 0]
    for (const it of c.items) perClass[cls(it.mean / 4)]!++
    for (const it of c.items) {
      let doc: AnnotatedDocument
      try {
        doc = annotate(it.text)
      } catch (e) {
        // A text the annotator fails on is left out, and said so (before 3acee59, 2 TweetEval tweets with
        // "aint." and "cant." did), instead of stopping the whole run.
        process.stderr.write(`${c.name} ${it.id}: left out, the annotator failed (${(e as Error).message})\n`)
        continue
      }
      const r = lexScorer.score(doc)
      const target = it.mean / 4
      const w = c.balance ? (weight * c.items.length) / (3 * (perClass[cls(target)] ?? 1)) : weight
      const dense = [...denseFeatures(r.features), ...vectorFeatures(trainingVectors().vectors, doc, r.features.nameWords, r.features.praiseNegated)]
      const ex: TrainingExample = { grams: ngramsOf(doc, r.features.nameWords, r.features), dense, lexicon: r.features, target, weight: w }
      docs.push({ corpus: c.name, id: it.id, text: it.text, target, ex, doc, lexicon: r.lexicon_score, heldOut: c.heldOut })
    }
  }
  return docs
}

export function pearson(x: readonly number[], y: readonly number[]): number {
  const n = x.length
  let mx = 0
  let my = 0
  for (let i = 0; i < n; i++) {
    mx += x[i] ?? 0
    my += y[i] ?? 0
  }
  mx /= n
  my /= n
  let sxy = 0
  let sxx = 0
  let syy = 0
  for (let i = 0; i < n; i++) {
    const a = (x[i] ?? 0) - mx
    const b = (y[i] ?? 0) - my
    sxy += a * b
    sxx += a * a
    syy += b * b
  }
  return sxx === 0 || syy === 0 ? 0 : sxy / Math.sqrt(sxx * syy)
}

/** Support-weighted ("avg / total" of scikit-learn's report) and macro 3-class F1. */
export function f1Scores(pred: readonly number[], gold: readonly number[]): { weighted: number; macro: number } {
  let weighted = 0
  let macro = 0
  for (let c = 0; c < 3; c++) {
    let tp = 0
    let fp = 0
    let fn = 0
    for (let i = 0; i < gold.length; i++) {
      if (pred[i] === c && gold[i] === c) tp++
      else if (pred[i] === c) fp++
      else if (gold[i] === c) fn++
    }
    const f1 = tp === 0 ? 0 : (2 * tp) / (2 * tp + fp + fn)
    weighted += (f1 * (tp + fn)) / gold.length
    macro += f1 / 3
  }
  return { weighted, macro }
}

const require = createRequire(import.meta.url)
const vader = require('vader-sentiment') as { SentimentIntensityAnalyzer: { polarity_scores(t: string): { compound: number } } }
const afinn = new (require('sentiment') as new () => { analyze(t: string): { comparative: number } })()

/** VADER's compound score of a text (the peer of every sentiment evaluation). */
export const vaderScore = (t: string): number => vader.SentimentIntensityAnalyzer.polarity_scores(t).compound
/** AFINN's comparative score of a text (the `sentiment` package). */
export const afinnScore = (t: string): number => afinn.analyze(t).comparative

/**
 * The classes (0 negative, 1 neutral, 2 positive) of {@link CLASS_SYSTEMS} for one text: our document and lexicon
 * scores by the +-0.05 rule, model_sentiment by its polarity, VADER by the +-0.05 rule and AFINN by the sign of its score.
 */
export function systemClasses(text: string, documentScore: number, lexiconScore: number, polarity: string | undefined): number[] {
  const a = afinnScore(text)
  return [cls(documentScore), cls(lexiconScore), polarity === 'positive' ? 2 : polarity === 'negative' ? 0 : 1, cls(vaderScore(text)), a > 0 ? 2 : a < 0 ? 0 : 1]
}

/** The systems of the 3-class tables (TweetEval test and validation, SemEval), in the order their predictions come. */
export const CLASS_SYSTEMS = ['ours (document score)', 'ours lexicon only', 'model_sentiment', 'VADER (vader-sentiment)', 'sentiment (AFINN)'] as const

/** Rows of a 3-class table: per system, macro recall, accuracy, per-class recall and predicted counts (%). */
export function classTable(names: readonly string[], confusion: readonly (readonly (readonly number[])[])[], total: number): string[] {
  const rows = [`${'system'.padEnd(26)} ${'macro R'.padStart(8)} ${'acc'.padStart(6)}   recall neg / neu / pos   predicted neg / neu / pos`]
  names.forEach((n, k) => {
    const c = confusion[k]!
    const recall = [0, 1, 2].map((y) => c[y]![y]! / Math.max(1, c[y]!.reduce((x, v) => x + v, 0)))
    const acc = [0, 1, 2].reduce((x, y) => x + c[y]![y]!, 0) / total
    const predicted = [0, 1, 2].map((p) => c.reduce((x, row) => x + row[p]!, 0))
    rows.push(`${n.padEnd(26)} ${((100 * recall.reduce((x, v) => x + v, 0)) / 3).toFixed(2).padStart(8)} ${(100 * acc).toFixed(1).padStart(6)}   ${recall.map((v) => (100 * v).toFixed(1)).join(' / ')}   ${predicted.join(' / ')}`)
  })
  return rows
}
