/**
 * Aspect-term polarity on the SemEval-2014 Task 4 training sets (restaurants, laptops): 5-fold
 * cross-validated accuracy of our aspect sentiment (src/sentiment/aspect.ts, the function every analyzer
 * uses), beside the majority class and the sentence-score approach (an aspect takes its sentence's lexicon
 * score, as the engine did before aspect sentiment), all in the same run, with the published test-set figures.
 *
 *   npm run eval:aspects -- [--no-mams] [--test DIR] [dataDir]        (default ../shared/data, or its aspects/ folder)
 *
 * `--test DIR`: also the held-out SemEval-2014 test sets found in DIR (see the end of this file).
 *
 * Folds: an item is in fold (index of its sentence, in order of first appearance) mod 5, so that the aspects of one
 * sentence are tested together (a sentence's other aspects would otherwise teach its own words; until this commit
 * item i was in fold i mod 5). For a fold of one set, the model is trained on the set's other four folds plus the
 * whole other set (the shipped model is trained on both sets), plus the added MAMS training data when the aspects folder has `MAMS-ATSA/` (not with --no-mams; see
 * bench/aspect-data.ts), never on the fold itself; folds hold SemEval-2014 training items only, added data is only
 * ever on the training side.
 * The majority class is that of the training folds. Polarity of a score: > 0.05 positive, < -0.05
 * negative, else neutral (the engine's default thresholds).
 */
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { aspectMentionScore, createAspectModel, loadAspectModel } from '../src/sentiment/aspect.ts'
import { ASPECT_SETS, aspectDirOrExit, fitAspects, mamsFromArgs, readAspectSet, type AspectItem } from './aspect-data.ts'

const FOLDS = 5
const cls = (s: number): number => (s > 0.05 ? 2 : s < -0.05 ? 0 : 1)
const pct = (a: number, n: number): string => ((100 * a) / n).toFixed(1)
/** The test set's file beside a training file's name ("Restaurants_Train.xml.seg" -> "Restaurants_Test_Gold.xml.seg"). */
const testFile = (trainFile: string): string => trainFile.replace('_Train.', '_Test_Gold.')

const testAt = process.argv.indexOf('--test')
const testDir = testAt >= 0 ? process.argv[testAt + 1] : undefined
if (testAt >= 0 && (testDir === undefined || !ASPECT_SETS.some((s) => existsSync(join(testDir, testFile(s.file)))))) {
  console.error(`--test ${testDir ?? ''}: no SemEval-2014 test files (${ASPECT_SETS.map((s) => testFile(s.file)).join(', ')}) there`)
  process.exit(1)
}
const dir = aspectDirOrExit(process.argv.slice(2).find((a, i, all) => !a.startsWith('--') && all[i - 1] !== '--test'))
const t0 = performance.now()
/** Fold of each item: its sentence's index (in order of first appearance) mod 5, so that the aspects of one sentence are tested together and never learnt from each other. */
const foldsOf = (items: readonly AspectItem[]): number[] => {
  const ids = new Map<string, number>()
  return items.map((it) => {
    if (!ids.has(it.text)) ids.set(it.text, ids.size)
    return (ids.get(it.text) as number) % FOLDS
  })
}
const sets = ASPECT_SETS.map((s) => {
  const items = readAspectSet(join(dir, s.file), s.name)
  return { name: s.name, items, fold: foldsOf(items) }
})
const mams = mamsFromArgs(dir, process.argv, sets.flatMap((s) => s.items))
if (mams.items.length > 0) {
  console.log(`added training data: ${mams.items.length} MAMS aspects (sentences left out: ${mams.dropped.test} SemEval-2014 test sentences, ${mams.dropped.train} equal to a training sentence)`)
}

const rows: string[][] = []
for (const set of sets) {
  const others = sets.filter((s) => s !== set).flatMap((s) => s.items)
  let ours = 0
  let oursSame = 0
  let majority = 0
  let sentence = 0
  const confusion = [
    [0, 0, 0],
    [0, 0, 0],
    [0, 0, 0],
  ]
  for (let f = 0; f < FOLDS; f++) {
    const test = set.items.filter((_, i) => set.fold[i] === f)
    const train = set.items.filter((_, i) => set.fold[i] !== f)
    const model = createAspectModel(fitAspects([...train, ...others, ...mams.items]))
    const modelSame = mams.items.length === 0 ? createAspectModel(fitAspects(train)) : createAspectModel(fitAspects([...train, ...others]))
    const counts = [0, 0, 0]
    for (const it of train) counts[it.label]!++
    const maj = counts.indexOf(Math.max(...counts))
    for (const it of test) {
      const p = cls(aspectMentionScore(model, it.evidence, it.span))
      confusion[it.label]![p]!++
      if (p === it.label) ours++
      if (cls(aspectMentionScore(modelSame, it.evidence, it.span)) === it.label) oursSame++
      if (maj === it.label) majority++
      if (cls(it.sentence) === it.label) sentence++
    }
  }
  const n = set.items.length
  const dist = [0, 1, 2].map((k) => set.items.filter((it) => it.label === k).length)
  console.log(`${set.name}: ${n} aspects (negative ${dist[0]}, neutral ${dist[1]}, positive ${dist[2]}); ${set.items.filter((it) => it.x?.lexicon !== true).length} without lexicon evidence in their sentence`)
  console.log(`  confusion of ours (rows gold neg/neu/pos, columns predicted): ${JSON.stringify(confusion)}`)
  rows.push([set.name, pct(ours, n), pct(oursSame, n), pct(sentence, n), pct(majority, n)])
}

console.log(`\nSemEval-2014 Task 4 aspect-term polarity, accuracy % (5-fold CV on the training sets, same run; ${((performance.now() - t0) / 1000).toFixed(0)} s)\n`)
console.log(`| set | ours (aspect sentiment) | ours, trained ${mams.items.length === 0 ? 'on this set only' : 'without the added data'} | sentence score (before) | majority class |`)
console.log('| --- | --- | --- | --- | --- |')
for (const r of rows) console.log(`| ${r.join(' | ')} |`)
console.log('\nPublished, on the test sets (restaurants / laptops): majority 65.0 / 53.5, NRC-Canada SVM (2014 winner) 80.9 / 70.5,')
console.log('ATAE-LSTM 77.2 / 68.7, BERT-SPC 84.5 / 78.9.')

// --test DIR: the held-out SemEval-2014 test sets (the same three-line format, `<Set>_Test_Gold.xml.seg`, e.g. from
// github.com/songyouwei/ABSA-PyTorch `datasets/semeval14/`), scored with the committed model (never trained on them)
// beside the majority class of the training set and the sentence score.
if (testDir !== undefined) {
  const model = loadAspectModel()
  console.log(`\nHeld out: the SemEval-2014 test sets in ${testDir}, the committed model (lexicons/en/aspect-model.json), accuracy %\n`)
  console.log('| set | aspects | ours (committed model) | sentence score | majority class of training | NRC-Canada (2014 winner), published |')
  console.log('| --- | --- | --- | --- | --- | --- |')
  const published: Record<string, string> = { restaurants: '80.9', laptops: '70.5' }
  for (const set of sets) {
    const file = join(testDir, testFile(ASPECT_SETS.find((s) => s.name === set.name)!.file))
    if (!existsSync(file)) continue
    const items = readAspectSet(file, set.name)
    const counts = [0, 0, 0]
    for (const it of set.items) counts[it.label]!++
    const maj = counts.indexOf(Math.max(...counts))
    let ours = 0
    let sentence = 0
    let majority = 0
    for (const it of items) {
      if (cls(aspectMentionScore(model, it.evidence, it.span)) === it.label) ours++
      if (cls(it.sentence) === it.label) sentence++
      if (maj === it.label) majority++
    }
    console.log(`| ${set.name} | ${items.length} | ${pct(ours, items.length)} | ${pct(sentence, items.length)} | ${pct(majority, items.length)} | ${published[set.name] ?? '-'} |`)
  }
}
