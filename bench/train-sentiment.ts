/**
 * Train model_sentiment on the VADER ground truth (MIT) and write `lexicons/en/sentiment-model.json`.
 *
 *   npx tsx bench/train-sentiment.ts [dataDir]      (default ../shared/data, or its sentiment/ folder)
 *
 * Deterministic: the same data give byte-identical weights. Both corpora are pooled into one training
 * set (no feature says which corpus a text came from).
 */
import { writeFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { resolve } from 'node:path'
import { createAnnotator } from '../src/nlp/annotate.ts'
import { createSentimentScorer } from '../src/sentiment/scorer.ts'
import { denseFeatures, ngramsOf } from '../src/sentiment/model.ts'
import { findSentimentDir, readVaderCorpora } from '../src/sentiment/corpus.ts'
import { trainSentimentModel, type TrainingExample } from '../src/sentiment/train.ts'

const repo = fileURLToPath(new URL('..', import.meta.url))
const dataArg = process.argv[2] ?? resolve(repo, '../shared/data')
const dir = findSentimentDir(dataArg)
if (dir === undefined) {
  console.error(`no VADER ground-truth files in ${dataArg} or ${dataArg}/sentiment`)
  process.exit(1)
}
const out = process.argv[3] ?? resolve(repo, 'lexicons/en/sentiment-model.json')

const annotator = createAnnotator()
const scorer = createSentimentScorer({ model: false })
const examples: TrainingExample[] = []
const corpora = readVaderCorpora(dir)
const total = corpora.reduce((a, c) => a + c.items.length, 0)
for (const corpus of corpora) {
  // Each source weighs the same in the loss, whatever its size (the model never sees which source a text is from).
  const weight = total / (corpora.length * corpus.items.length)
  for (const item of corpus.items) {
    const doc = annotator.annotate(item.text)
    const r = scorer.score(doc)
    examples.push({ grams: ngramsOf(doc), dense: denseFeatures(r.features), lexicon: r.features, target: item.mean / 4, weight })
  }
}
const t0 = performance.now()
const model = trainSentimentModel(examples, {
  trained: { data: 'VADER ground truth (tweets + movie review snippets), MIT; each source weighted equally' },
})
const json = JSON.stringify(model)
writeFileSync(out, json + '\n')
console.log(`trained on ${examples.length} texts in ${((performance.now() - t0) / 1000).toFixed(1)} s; ${Object.keys(model.ngrams).length} n-grams; ${(json.length / 1024).toFixed(0)} KiB -> ${out}`)
