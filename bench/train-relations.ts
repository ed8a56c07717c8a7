/**
 * Train the relation classifier on CoNLL04 train and write `lexicons/en/relations/model.json`.
 *
 *   npx tsx bench/train-relations.ts [dataDir] [--epochs N] [--runs N] [--seed N] [--gold-only] [--cv-only] [--no-closure] [--label-bias]
 *                                    [--splits LIST] [--lexicons DIR] [--out FILE]   (default ../shared/data)
 *
 * dataDir may be the data folder or its `relations/` folder. Only `conll04-train.txt` is read unless `--splits`
 * names others (`train,dev` for the shipped model, once every choice was made with dev held out: the model then
 * records which splits it learnt from, and eval-relations warns when it scores one of them). `--lexicons DIR`
 * reads the entity recognition (tagger and lexicons) from a lexicon folder laid out as `lexicons/`; `--out` writes
 * the model elsewhere than `lexicons/en/relations/model.json`.
 * Each training sentence is read by the engine as running text (`conll04Text`) and enters twice: with its gold
 * mentions, and with the mentions our own entity recognition finds in it (gold relations kept where both
 * arguments were recognised exactly), so the classifier learns from the words, boundaries and types it sees at
 * run time. `--gold-only` leaves the second copy out.
 *
 * `--runs N` (default 5) trains N perceptrons, each on its own shuffle of the examples, and averages their weights
 * into one model of the same form (`trainRelationModel`'s `runs`; the first shuffle's seed is `--seed`, default 1204):
 * the decisions vary less with the shuffle. Chosen
 * with dev held out: 5-fold cross-validation on train, gold mentions, 0.722 with one run, 0.730 with 5, 0.728 with 10;
 * CoNLL04 dev end to end (models trained on train only) 0.582 -> 0.589.
 *
 * The bias against N (no relation), which trades precision for recall, is chosen by 5-fold cross-validation on
 * train (folds by document; the best strict relation F1 over the held-out folds with their gold mentions, every
 * gold relation of the fold counting), then the model is trained on all of train with it. The F1 over the
 * held-out folds' recognised mentions is printed too but not used: the entity tagger learned from the CoNLL04
 * training split, so its mentions there are better than on unseen text. `--cv-only` prints the
 * cross-validation and writes nothing. `--label-bias` adds a bias per relation label, by coordinate ascent on the same
 * cross-validation (off by default: see the note where it is searched). The held-out folds are scored as the engine decodes: the classifier's
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
import { encodeRelationModel, placeClosure, predictRelations, RELATION_LABELS, trainRelationModel, type RelationSentence } from '../src/relations/model.ts'

const repo = fileURLToPath(new URL('..', import.meta.url))
const args = process.argv.slice(2)
const epochsAt = args.indexOf('--epochs')
const epochs = epochsAt >= 0 ? Number(args[epochsAt + 1]) : 12
const valueOf = (name: string): string | undefined => {
  const at = args.indexOf(name)
  return at >= 0 ? args[at + 1] : undefined
}
const runs = Number(valueOf('--runs') ?? 5)
const seed = Number(valueOf('--seed') ?? 1204)
const WITH_VALUE = new Set(['--epochs', '--runs', '--seed', '--splits', '--lexicons', '--out'])
const positional = args.filter((a, i) => !a.startsWith('--') && !WITH_VALUE.has(args[i - 1] ?? ''))
const dataArg = resolve(positional[0] ?? resolve(repo, '../shared/data'))
const splits = (valueOf('--splits') ?? 'train').split(',')
const files = splits.map((split) => {
  const f = [join(dataArg, 'relations', `conll04-${split}.txt`), join(dataArg, `conll04-${split}.txt`)].find((p) => existsSync(p))
  if (f === undefined) {
    console.error(`no conll04-${split}.txt in ${dataArg} or ${dataArg}/relations`)
    process.exit(1)
  }
  return f
})
const file = files.join(' + ')
const lexicons = valueOf('--lexicons')
const triggersPath = resolve(repo, 'lexicons/en/relations/triggers.tsv')
const outPath = resolve(valueOf('--out') ?? resolve(repo, 'lexicons/en/relations/model.json'))
const triggers = readTriggers(readFileSync(triggersPath, 'utf8'), triggersPath)
// Document ids are prefixed with their split, so that folds group each split's documents apart.
const corpus = files.flatMap((f, k) => readConll04(readFileSync(f, 'utf8'), f).map((s) => (splits.length === 1 ? s : { ...s, doc: `${splits[k]}:${s.doc}` })))
const ENTITY_TYPE = { Peop: 'Person', Org: 'Company', Loc: 'Place' } as const
const annotator = createAnnotator()
const extractor = createEntityExtractor(lexicons === undefined ? {} : { dataDir: resolve(lexicons) })
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

// 5-fold cross-validation by document for the bias against N, then for a bias per relation label.
const BIASES = [0, 2, 4, 6, 8, 10, 12, 15, 20]
const LABEL_STEPS = [-6, -4, -2, 0, 2, 4, 6, 8]
const docs = [...new Set(items.map((it) => it.doc))]
const foldOf = new Map(docs.map((d, i) => [d, i % 5]))
type Tally = { tp: number; fp: number; fn: number }
type Model = ReturnType<typeof trainRelationModel>
const newTally = (): Tally => ({ tp: 0, fp: 0, fn: 0 })
/** Strict relation counts of a model on sentences, over all labels ('ALL') and per label; every gold relation counts. */
const score = (model: Model, sents: readonly RelationSentence[], into: Map<string, Tally>): void => {
  const at = (l: string): Tally => {
    let t = into.get(l)
    if (t === undefined) into.set(l, (t = newTally()))
    return t
  }
  for (const s of sents) {
    const gold = new Set(s.relations.map((r) => `${r.a},${r.b},${r.label}`))
    const preds = predictRelations(model, s, triggers)
    const seen = new Set<string>()
    for (const p of closure ? [...preds, ...placeClosure(preds)] : preds) {
      const key = `${p.a},${p.b},${p.label}`
      if (seen.has(key)) continue
      seen.add(key)
      const c = gold.has(key) ? 'tp' : 'fp'
      at('ALL')[c]++
      at(p.label)[c]++
    }
  }
}
const f1 = (c: Tally): number => (2 * c.tp) / Math.max(1, 2 * c.tp + c.fp + c.fn)
const prf = (c: Tally): string => `F1 ${f1(c).toFixed(3)} (P ${(c.tp / Math.max(1, c.tp + c.fp)).toFixed(3)} R ${(c.tp / Math.max(1, c.tp + c.fn)).toFixed(3)})`
// Gold relation counts per label, for the gold-mention and the recognised-mention views of the held-out folds alike
// (a gold relation whose arguments were not recognised, or that the engine splits across sentences, is missed).
const goldTotals = new Map<string, number>([['ALL', 0]])
for (const s of corpus) for (const r of s.relations) {
  goldTotals.set('ALL', goldTotals.get('ALL')! + 1)
  goldTotals.set(r.label, (goldTotals.get(r.label) ?? 0) + 1)
}
const folds: { model: Model; gold: RelationSentence[]; rec: RelationSentence[] }[] = []
for (let k = 0; k < 5; k++) {
  const train = items.filter((it) => foldOf.get(it.doc) !== k)
  const test = items.filter((it) => foldOf.get(it.doc) === k)
  folds.push({ model: trainRelationModel(sentencesOf(train), triggers, { epochs, runs, seed }), gold: test.flatMap((it) => it.gold), rec: test.flatMap((it) => it.recognised) })
}
/** Cross-validated counts with the given biases: gold-mention and recognised-mention views. */
const cvAt = (nBias: number, labelBias: Readonly<Record<string, number>>): { gold: Map<string, Tally>; rec: Map<string, Tally> } => {
  const gold = new Map<string, Tally>()
  const rec = new Map<string, Tally>()
  for (const f of folds) {
    const m = { ...f.model, nBias, labelBias }
    score(m, f.gold, gold)
    score(m, f.rec, rec)
  }
  for (const t of [gold, rec]) for (const [l, n] of goldTotals) {
    const c = t.get(l) ?? newTally()
    c.fn = n - c.tp
    t.set(l, c)
  }
  return { gold, rec }
}
let nBias = BIASES[0]!
let best = -1
for (const b of BIASES) {
  const c = cvAt(b, {})
  console.log(`  cv nBias ${String(b).padStart(2)}: gold entities ${prf(c.gold.get('ALL')!)}, recognised ${prf(c.rec.get('ALL')!)}`)
  if (f1(c.gold.get('ALL')!) > best) {
    best = f1(c.gold.get('ALL')!)
    nBias = b
  }
}
console.log(`  chosen nBias ${nBias} (best gold-mention F1 over the held-out folds)`)
// Per-label biases on top, only with --label-bias (off since the issue 12 round of 2026-11-23: on the same data the
// search chose Live_In +8 in one run and -2 after the entity rules changed, and the second model missed "Mary Fisher
// lives in Louisville, Kentucky"; without them CoNLL04 dev reads 0.542 against 0.549, within what the biases swing).
// Coordinate ascent, two rounds, labels in a fixed order; a step is taken only when it
// raises the cross-validated gold-mention F1 over all labels.
const labelBias: Record<string, number> = {}
if (args.includes('--label-bias')) {
  for (let round = 0; round < 2; round++) {
    for (const l of RELATION_LABELS.slice(1)) {
      let keep = labelBias[l] ?? 0
      for (const v of LABEL_STEPS) {
        const f = f1(cvAt(nBias, { ...labelBias, [l]: v }).gold.get('ALL')!)
        if (f > best + 1e-9) {
          best = f
          keep = v
        }
      }
      if (keep === 0) delete labelBias[l]
      else labelBias[l] = keep
    }
  }
}
const final = cvAt(nBias, labelBias)
console.log(`  chosen label biases ${JSON.stringify(labelBias)}: gold entities ${prf(final.gold.get('ALL')!)}, recognised ${prf(final.rec.get('ALL')!)}`)
for (const l of RELATION_LABELS.slice(1)) console.log(`    ${l.padEnd(12)} gold entities ${prf(final.gold.get(l)!)}, recognised ${prf(final.rec.get(l)!)}`)
if (args.includes('--cv-only')) process.exit(0)

const t1 = performance.now()
const trained = trainRelationModel(all, triggers, { epochs, runs, seed, trained: { data: `CoNLL04 ${splits.length === 1 && splits[0] === 'train' ? 'train split' : `${splits.join(' + ')} splits`} of Bekoulis et al. 2018 (research use), ${useRecognised ? 'gold and recognised' : 'gold'} mentions`, ...(splits.length === 1 && splits[0] === 'train' ? {} : { splits: splits.join(',') }), nBias_cv: `5-fold by document on ${splits.join(' + ')}${args.includes('--label-bias') ? ', then per-label biases' : ''}` } })
const model = { ...trained, nBias, labelBias }
const text = encodeRelationModel(model)
writeFileSync(outPath, text)
console.log(`${model.weights.size} features, ${model.trained['examples']} pair examples, ${(text.length / 1024).toFixed(0)} KiB in ${((performance.now() - t1) / 1000).toFixed(1)} s -> ${outPath}`)
