/**
 * Train the named-entity tagger on CoNLL-2003 `eng.train` and write `lexicons/en/ner/tagger.bin.gz`.
 *
 *   npx tsx bench/train-ner.ts [dataDir] [--epochs N]     (default ../shared/data; npm run train:ner)
 *
 * dataDir may be the data folder or its `ner/` folder. Only `eng.train` is read (never `eng.testa`).
 * Deterministic: the same data and gazetteer give a byte-identical model file.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { join, resolve } from 'node:path'
import { readConll } from '../src/entities/conll.ts'
import { readGazetteer } from '../src/entities/gazetteer.ts'
import { encodeModel } from '../src/entities/model.ts'
import { trainTagger } from '../src/entities/train.ts'

const repo = fileURLToPath(new URL('..', import.meta.url))
const args = process.argv.slice(2)
const epochsAt = args.indexOf('--epochs')
const epochs = epochsAt >= 0 ? Number(args[epochsAt + 1]) : 20
const positional = args.filter((a, i) => !a.startsWith('--') && args[i - 1] !== '--epochs')
const dataArg = resolve(positional[0] ?? resolve(repo, '../shared/data'))
const file = [join(dataArg, 'ner', 'eng.train'), join(dataArg, 'eng.train')].find((p) => existsSync(p))
if (file === undefined) {
  console.error(`no eng.train in ${dataArg} or ${dataArg}/ner`)
  process.exit(1)
}
const outPath = resolve(repo, 'lexicons/en/ner/tagger.bin.gz')
const gazPath = resolve(repo, 'lexicons/en/ner/gazetteer.tsv')

const docs = readConll(readFileSync(file, 'utf8'), file)
const gazetteer = readGazetteer(readFileSync(gazPath, 'utf8'), gazPath)
const sentences = docs.reduce((a, d) => a + d.sentences.length, 0)
const tokens = docs.reduce((a, d) => a + d.sentences.reduce((b, s) => b + s.tokens.length, 0), 0)
console.log(`${file}: ${docs.length} documents, ${sentences} sentences, ${tokens} tokens; gazetteer ${gazetteer.phrases.size} phrases`)
const t0 = performance.now()
const model = trainTagger(docs, {
  epochs,
  gazetteer,
  trained: { data: 'CoNLL-2003 English eng.train (words and NER tags only)' },
  onEpoch: (e, acc) => console.log(`epoch ${e}: training token accuracy ${(acc * 100).toFixed(2)}% (${((performance.now() - t0) / 1000).toFixed(1)} s)`),
})
const bytes = encodeModel(model)
writeFileSync(outPath, bytes)
console.log(`${model.index.size} features trained; ${(bytes.length / 1024 / 1024).toFixed(2)} MiB -> ${outPath}`)
