/**
 * Train model_sentiment and write `lexicons/en/sentiment-model.json`.
 *
 *   npx tsx bench/train-sentiment.ts [dataDir] [out.json] [--semeval DIR]   (default ../shared/data, or its sentiment/ folder)
 *
 * Training data, pooled (no feature says which corpus a text came from), each source weighing in the loss by its
 * `SOURCE_WEIGHT` (bench/sentiment-data.ts says why): the SemEval tweets 2, the VADER tweets and movie snippets 0.25
 * each:
 * - the VADER ground truth (tweets, movie review snippets; Hutto and Gilbert 2014, MIT);
 * - TweetEval's training data (Barbieri et al. 2020): the SemEval 2013-2016 Task 4A tweets, 3 classes, class-balanced,
 *   from `--semeval DIR` (or `sentiment/semeval-2013-2016/` of the data folder): the files `twitter-201*-A.tsv` of
 *   github.com/cbaziotis/datastories-semeval2017-task4 (commit 5671b64, `dataset/Subtask_A/downloaded/`), tweets
 *   under Twitter's terms, released by the SemEval organisers for research. TweetEval's sentiment train split
 *   (45,615 tweets) is these tweets with mentions as @user and links removed; they are read in that form, and the
 *   TweetEval validation tweets are left out of them, so the validation split stays held out (it is not trained on);
 * - without the SemEval tweets, the TweetEval validation tweets themselves (`sentiment/tweeteval/`, class-balanced), as
 *   before.
 * TweetEval's test split (the SemEval-2017 test set) is never read.
 *
 * Deterministic: the same data give byte-identical weights.
 */
import { writeFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { trainSentimentModel } from '../src/sentiment/train.ts'
import { packSentimentModel } from '../src/sentiment/model.ts'
import { readRatedDocs, sentimentArgs, SOURCE_WEIGHT, trainingEmbedding } from './sentiment-data.ts'

const { dir, semEval, positional } = sentimentArgs(process.argv.slice(2))
const out = positional[1] ?? fileURLToPath(new URL('../lexicons/en/sentiment-model.json', import.meta.url))
const docs = readRatedDocs(dir, undefined, undefined, { semEval }).filter((d) => !d.heldOut)
const examples = docs.map((d) => d.ex)
const sources = [...new Set(docs.map((d) => d.corpus))]
const t0 = performance.now()
const model = trainSentimentModel(examples, {
  embedding: trainingEmbedding(),
  trained: {
    data: `${sources.join(' + ')}: VADER ground truth (MIT)${
      semEval === undefined
        ? ' and TweetEval sentiment validation (SemEval-2017 4A, research use)'
        : " and TweetEval's training data, the SemEval 2013-2016 Task 4A tweets (Twitter's terms, research use; TweetEval validation tweets left out)"
    }; sources weighted ${Object.entries(SOURCE_WEIGHT)
      .filter(([name]) => sources.includes(name))
      .map(([name, w]) => `${name} x${w}`)
      .join(', ')}, the others x1, tweet classes balanced`,
  },
})
// Packed: the n-gram table as one string and its weights as scaled integers (see packSentimentModel: the engine loads it faster).
const json = packSentimentModel(model)
writeFileSync(out, json + '\n')
console.log(`trained on ${examples.length} texts in ${((performance.now() - t0) / 1000).toFixed(1)} s; ${Object.keys(model.ngrams).length} n-grams; ${(json.length / 1024).toFixed(0)} KiB -> ${out}`)
