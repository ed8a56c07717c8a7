/**
 * Train the language-identification model on all of lingua's test data and write `lexicons/langid/model.tsv`.
 *
 *   npx tsx bench/train-langid.ts [dataDir] [outFile]     (default ../shared/data, or its langid/ folder)
 *
 * Deterministic: the same data give a byte-identical file. Held-out figures come from bench/eval-langid.ts,
 * which trains the same way on 4 lines in 5.
 */
import { writeFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { resolve } from 'node:path'
import { findLangidDir, readLangidData, splitSamples } from '../src/langid/corpus.ts'
import { serializeLanguageModel, trainLanguageModel } from '../src/langid/model.ts'

const repo = fileURLToPath(new URL('..', import.meta.url))
const dataArg = process.argv[2] ?? resolve(repo, '../shared/data')
const dir = findLangidDir(dataArg)
if (dir === undefined) {
  console.error(`no langid data (<code>/sentences.txt) in ${dataArg} or ${dataArg}/langid`)
  process.exit(1)
}
const out = process.argv[3] ?? resolve(repo, 'lexicons/langid/model.tsv')
const samples = splitSamples(readLangidData(dir), 'all')
const model = trainLanguageModel(samples)
const text = serializeLanguageModel(model, [
  'Language-identification model written by bench/train-langid.ts; format in lexicons/langid/README.md.',
  'Trained on the test data of the lingua language detector (Apache-2.0), development half.',
])
writeFileSync(out, text)
console.log(`wrote ${out}: ${model.languages.length} languages, ${model.features.size} features, ${(Buffer.byteLength(text) / 1024).toFixed(0)} KiB`)
