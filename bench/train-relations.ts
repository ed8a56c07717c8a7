/**
 * Train the relation classifier on CoNLL04 train and write `lexicons/en/relations/model.json`.
 *
 *   npx tsx bench/train-relations.ts [dataDir] [--epochs N] [--gold-only] [--cv-only] [--no-closure]   (default ../shared/data)
 *
 * dataDir may be the data folder or its `relations/` folder. Only `conll04-train.txt` is read (never dev).
 * Each training sentence is read by the engine as running text (`conll04Text`) and enters twice: with its gold
 * mentions, and with the mentions our own entity recognition finds in it (gold relations kept where both
 * arguments were recognised exactly), so the classifier learns from the words, boundaries and types it sees at
 * run time. `--gold-only` leaves the second copy out.
 *
 * The bias against N (no relation), which trades precision for recall, is chosen by 5-fold cross-validation on
 * train (folds by document; the best strict relation F1 over the held-out folds with their gold mentions, every
 * gold relation of the fold counting), then the model is trained on all of train with it. The F1 over the
 * held-out folds' recognised mentions is printed too but not used: the entity tagger learned from the CoNLL04
 * training split, so its mentions there are better than on unseen text. `--cv-only` prints the
 * cross-validation and writes nothing. The held-out folds are scored as the engine decodes: the classifier's
 * relations plus their place-within-place closure (`placeClosure`); `--no-closure` scores the classifier alone. Deterministic: the same data, trigger lexicon and entity recognition give
 * a byte-identical model file.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { join, resolve } from 'node:path'
import { conll04Text, docSpanOf, readConll04, trainingSentences } from '../src/relations/conll04.ts'
import { readTriggers } from '../src/relations/features.ts'
import { argTypeOf, type RelationEntity } from '../src/relations/find.ts'
import { createEntityExtractor } from '../src/entities/extract.ts'
import { createAnnotator } from '../src/nlp/annotate.ts'
import { encodeRelationModel, placeClosure, predictRelations, trainRelationModel, type RelationSentence } from '../src/relations/model.ts'

const repo = fileURLToPath(new URL('..', import.meta.url))
const args = process.argv.slice(2)
const epochsAt = args.indexOf('--epochs')
const epochs = epochsAt >= 0 ? Number(args[epochsAt + 1]) : 12
const positional = args.filter((a, i) => !a.startsWith('--') && args[i - 1] !== '--epochs')
const dataArg = resolve(positional[0] ?? resolve(repo, '../shared/data'))
const file = [join(dataArg, 'relations', 'conll04-train.txt'), join(dataArg, 'conll04-train.txt')].find((p) => existsSync(p))
if (file === undefined) {
  console.error(`no conll04-train.txt in ${dataArg} or ${dataArg}/relations`)
  process.exit(1)
}
const triggersPath = resolve(repo, 'lexicons/en/relations/triggers.tsv')
const outPath = resolve(repo, 'lexicons/en/relations/model.json')
const triggers = readTriggers(readFileSync(triggersPath, 'utf8'), triggersPath)
const corpus = readConll04(readFileSync(file, 'utf8'), file)
const ENTITY_TYPE = { Peop: 'Person', Org: 'Company', Loc: 'Place' } as const
const annotator = createAnnotator()
const extractor = createEntityExtractor()
const useRecognised = !args.includes('--gold-only')
const closure = !args.includes('--no-closure')

/** Per CoNLL04 sentence: its document, the gold-mention sentences, the recognised-mention sentences, its gold relation count. */
interface Item { doc: string; gold: RelationSentence[]; recognised: RelationSentence[]; relations: number }
const t0 = performance.now()
const items: Item[] = corpus.map((s) => {
  const t = conll04Text(s.tokens)
  const doc = annotator.annotate(t.text)
  const goldEnts: RelationEntity[] = []
  for (const m of s.mentions) {
    const span = docSpanOf(t, doc, m.start, m.end)
    if (span !== undefined) goldEnts.push({ title: '', entity_type: ENTITY_TYPE[m.type], mentions: [span] })
  }
  const recognised = extractor.extract(doc).filter((e) => argTypeOf(e.entity_type) !== undefined)
  return { doc: s.doc, gold: trainingSentences(s, t, doc, goldEnts), recognised: trainingSentences(s, t, doc, recognised), relations: s.relations.length }
})
const sentencesOf = (list: readonly Item[]): RelationSentence[] => list.flatMap((it) => (useRecognised ? [...it.gold, ...it.recognised] : it.gold))
const all = sentencesOf(items)
console.log(`${file}: ${corpus.length} sentences, ${all.length} training sentences, ${all.reduce((a, s) => a + s.relations.length, 0)} relations; ${triggers.size} triggers; read in ${((performance.now() - t0) / 1000).toFixed(1)} s`)

// 5-fold cross-validation by document for the bias against N.
const BIASES = [0, 2, 4, 6, 8, 10, 12, 15, 20]
const docs = [...new Set(items.map((it) => it.doc))]
const foldOf = new Map(docs.map((d, i) => [d, i % 5]))
type Tally = { tp: number; fp: number; fn: number }
const cv = new Map(BIASES.map((b) => [b, { gold: { tp: 0, fp: 0, fn: 0 } as Tally, rec: { tp: 0, fp: 0, fn: 0 } as Tally }]))
const score = (model: ReturnType<typeof trainRelationModel>, sents: readonly RelationSentence[], total: number, into: Tally): void => {
  let tp = 0
  let fp = 0
  for (const s of sents) {
    const gold = new Set(s.relations.map((r) => `${r.a},${r.b},${r.label}`))
    const preds = predictRelations(model, s, triggers)
    for (const p of closure ? [...preds, ...placeClosure(preds)] : preds) {
      if (gold.has(`${p.a},${p.b},${p.label}`)) tp++
      else fp++
    }
  }
  into.tp += tp
  into.fp += fp
  into.fn += total - tp
}
const f1 = (c: Tally): number => (2 * c.tp) / Math.max(1, 2 * c.tp + c.fp + c.fn)
for (let k = 0; k < 5; k++) {
  const train = items.filter((it) => foldOf.get(it.doc) !== k)
  const test = items.filter((it) => foldOf.get(it.doc) === k)
  const model = trainRelationModel(sentencesOf(train), triggers, { epochs })
  const total = test.reduce((a, it) => a + it.relations, 0)
  for (const b of BIASES) {
    const m = { ...model, nBias: b }
    score(m, test.flatMap((it) => it.gold), total, cv.get(b)!.gold)
    score(m, test.flatMap((it) => it.recognised), total, cv.get(b)!.rec)
  }
}
let nBias = BIASES[0]!
for (const b of BIASES) {
  const c = cv.get(b)!
  console.log(`  cv nBias ${String(b).padStart(2)}: gold entities F1 ${f1(c.gold).toFixed(3)} (P ${(c.gold.tp / Math.max(1, c.gold.tp + c.gold.fp)).toFixed(3)} R ${(c.gold.tp / Math.max(1, c.gold.tp + c.gold.fn)).toFixed(3)}), recognised F1 ${f1(c.rec).toFixed(3)} (P ${(c.rec.tp / Math.max(1, c.rec.tp + c.rec.fp)).toFixed(3)} R ${(c.rec.tp / Math.max(1, c.rec.tp + c.rec.fn)).toFixed(3)})`)
  if (f1(c.gold) > f1(cv.get(nBias)!.gold)) nBias = b
}
console.log(`  chosen nBias ${nBias} (best gold-mention F1 over the held-out folds)`)
if (args.includes('--cv-only')) process.exit(0)

const t1 = performance.now()
const trained = trainRelationModel(all, triggers, { epochs, trained: { data: `CoNLL04 train split of Bekoulis et al. 2018 (research use), ${useRecognised ? 'gold and recognised' : 'gold'} mentions`, nBias_cv: '5-fold by document on train' } })
const model = { ...trained, nBias }
const text = encodeRelationModel(model)
writeFileSync(outPath, text)
console.log(`${model.weights.size} features, ${model.trained['examples']} pair examples, ${(text.length / 1024).toFixed(0)} KiB in ${((performance.now() - t1) / 1000).toFixed(1)} s -> ${outPath}`)
