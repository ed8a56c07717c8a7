/**
 * A development figure that tracks the TweetEval test split without reading it: train model_sentiment exactly as
 * `bench/train-sentiment.ts` does (same sources, weights and options), but without the SemEval-2016 test tweets
 * (`twitter-2016test-A.tsv`, 20,632 tweets, the newest file of TweetEval's training data), then score those tweets.
 *
 *   npx tsx bench/eval-sentiment-temporal.ts [dataDir] --semeval DIR    (npm run eval:sentiment-temporal)
 *
 * Why: TweetEval's validation split is drawn from the same pool as its training data, while its test split (the
 * SemEval-2017 test set) was collected a year later. Validation reads about 70 macro recall and test 62.7 for the
 * same model, with neutral recall 55% against 41%. A model trained on the older files and scored on the newest file
 * shows the same drop (63.0 / 63.9 for the document score and model_sentiment at 504f6d2, neutral recall 41% / 48%),
 * so settings can be chosen on this split and the test split stays unread.
 *
 * Printed: macro recall, accuracy and per-class recall on the SemEval-2016 test tweets, and on the TweetEval validation
 * tweets (never trained on) with the same model, for our document score, lexicon score and model_sentiment beside
 * VADER and AFINN in this run. Classes as `bench/eval-sentiment.ts`: ours and VADER by the +-0.05 rule, model_sentiment
 * by its polarity, AFINN by the sign of its score. Deterministic.
 */
import { createSentimentModel } from '../src/sentiment/model.ts'
import { trainSentimentModel } from '../src/sentiment/train.ts'
import { createSentimentScorer } from '../src/sentiment/scorer.ts'
import { CLASS_SYSTEMS, classTable, cls, createSafeAnnotate, readRatedDocs, sentimentArgs, SEMEVAL, systemClasses, TWEETEVAL, trainingEmbedding, trainingVectors, type RatedDoc } from './sentiment-data.ts'

/** The file whose tweets are scored: the newest of TweetEval's training data. */
export const TEMPORAL_DEV_FILE = 'twitter-2016test'

const { dir, semEval } = sentimentArgs(process.argv.slice(2))
if (semEval === undefined) {
  console.error('no SemEval 2013-2016 Task 4A tweets: name their folder with --semeval DIR (see bench/train-sentiment.ts)')
  process.exit(2)
}

const t0 = performance.now()
const docs = readRatedDocs(dir, createSafeAnnotate(), createSentimentScorer({ model: false }), { semEval })
const isDev = (d: RatedDoc): boolean => d.corpus === SEMEVAL && d.id.startsWith(`semeval-${TEMPORAL_DEV_FILE}-`)
const train = docs.filter((d) => !d.heldOut && !isDev(d))
const dev = docs.filter(isDev)
const validation = docs.filter((d) => d.corpus === TWEETEVAL)
process.stderr.write(`training on ${train.length} texts (${dev.length} ${TEMPORAL_DEV_FILE} tweets and ${validation.length} TweetEval validation tweets left out)\n`)
const model = createSentimentModel(trainSentimentModel(train.map((d) => d.ex), { embedding: trainingEmbedding() }), { vectors: trainingVectors() })

const lines: string[] = []
for (const [title, set] of [
  [`SemEval ${TEMPORAL_DEV_FILE} (${dev.length} tweets; the newest file of TweetEval's training data, left out of this model's training)`, dev],
  [`TweetEval validation (${validation.length} tweets; never trained on), the same model`, validation],
] as const) {
  const confusion = CLASS_SYSTEMS.map(() => [0, 1, 2].map(() => [0, 0, 0]))
  for (const d of set) {
    const out = model.predict(d.doc, d.ex.lexicon)
    const pred = systemClasses(d.text, Math.round(out.calibrated * 1e4) / 1e4, d.lexicon, out.model_sentiment.sentiment_polarity)
    pred.forEach((k, s) => confusion[s]![cls(d.target)]![k]!++)
  }
  lines.push('', `${title}: macro recall and accuracy, %.`, ...classTable(CLASS_SYSTEMS, confusion, set.length))
}
lines.push('', `total ${((performance.now() - t0) / 1000).toFixed(1)} s`)
console.log(lines.join('\n'))
