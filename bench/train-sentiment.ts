/**
 * Train model_sentiment on the VADER ground truth (MIT) and the TweetEval sentiment validation tweets (the only
 * source with a real neutral class; class-balanced) and write `lexicons/en/sentiment-model.json`.
 *
 *   npx tsx bench/train-sentiment.ts [dataDir]      (default ../shared/data, or its sentiment/ folder)
 *
 * Deterministic: the same data give byte-identical weights. All corpora are pooled into one training
 * set (no feature says which corpus a text came from). TweetEval: Barbieri et al. 2020, github.com/cardiffnlp/tweeteval
 * (datasets/sentiment/val_text.txt, val_labels.txt; SemEval-2017 Task 4A tweets, research use); its test split is
 * never read.
 */
import { writeFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { trainSentimentModel } from '../src/sentiment/train.ts'
import { readRatedDocs, sentimentDirOrExit } from './sentiment-data.ts'

const dir = sentimentDirOrExit(process.argv[2])
const out = process.argv[3] ?? fileURLToPath(new URL('../lexicons/en/sentiment-model.json', import.meta.url))
// Each source weighs the same in the loss, whatever its size (the model never sees which source a text is from).
const docs = readRatedDocs(dir)
const examples = docs.map((d) => d.ex)
const sources = [...new Set(docs.map((d) => d.corpus))]
const t0 = performance.now()
const model = trainSentimentModel(examples, {
  trained: {
    data: `${sources.join(' + ')}: VADER ground truth (MIT) and TweetEval sentiment validation (SemEval-2017 4A, research use); each source weighted equally, TweetEval classes balanced`,
  },
})
const json = JSON.stringify(model)
writeFileSync(out, json + '\n')
console.log(`trained on ${examples.length} texts in ${((performance.now() - t0) / 1000).toFixed(1)} s; ${Object.keys(model.ngrams).length} n-grams; ${(json.length / 1024).toFixed(0)} KiB -> ${out}`)
