/**
 * Train the aspect-sentiment model (src/sentiment/aspect.ts) and write `lexicons/en/aspect-model.json`.
 *
 *   npx tsx bench/train-aspects.ts [--no-mams] [dataDir] [out]      (default ../shared/data, or its aspects/ folder)
 *
 * The shipped model learns from MAMS too (2.9 MB, 69k words; without MAMS 1.2 MB, 28.5k words): MAMS joins whenever
 * the aspects folder holds `MAMS-ATSA/` (`--no-mams` leaves it out; `--mams` stops when it is missing).
 *
 * Data (only the learned weights enter this repository, never the data):
 * - SemEval-2014 Task 4 (Pontiki et al. 2014) aspect-term polarity training sets, restaurants and laptops, as in
 *   `../shared/data/aspects/*.xml.seg` (research use).
 * - MAMS aspect-term sets (Jiang et al., EMNLP-IJCNLP 2019, github.com/siat-nlp/MAMS-for-ABSA, commit
 *   cddcdb0, `data/MAMS-ATSA/raw/{train,val,test}.xml` copied to `aspects/MAMS-ATSA/`; Apache-2.0), less the sentences
 *   that are SemEval-2014 test or training sentences, each item weighing 0.1 (see `readMams` and `ADDED_WEIGHT` in
 *   bench/aspect-data.ts).
 * Deterministic: the same data give byte-identical weights.
 */
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { ADDED_WEIGHT, ASPECT_SETS, aspectDirOrExit, fitAspects, mamsFromArgs, readAspectSet } from './aspect-data.ts'
import { packAspectModel } from '../src/sentiment/aspect.ts'

const args = process.argv.slice(2).filter((a) => a !== '--mams' && a !== '--no-mams')
const dir = aspectDirOrExit(args[0])
const out = args[1] ?? fileURLToPath(new URL('../lexicons/en/aspect-model.json', import.meta.url))
const t0 = performance.now()
const items = ASPECT_SETS.flatMap((s) => readAspectSet(join(dir, s.file), s.name))
const mams = mamsFromArgs(dir, process.argv, items)
const data =
  mams.items.length === 0
    ? 'SemEval-2014 Task 4 aspect-term polarity training sets (restaurants + laptops), research use'
    : `SemEval-2014 Task 4 aspect-term polarity training sets (restaurants + laptops), research use; MAMS-ATSA train+val+test (siat-nlp/MAMS-for-ABSA, Apache-2.0) less ${mams.dropped.test} SemEval-2014 test and ${mams.dropped.train} SemEval-2014 training sentences, weight ${ADDED_WEIGHT}`
const fit = [...items, ...mams.items].filter((it) => it.x !== undefined)
const model = fitAspects(fit, { trained: { data, items: fit.length } })
// Packed: the word table as one string and its weights as scaled integers (see packAspectModel: the engine loads it faster).
const json = packAspectModel(model)
writeFileSync(out, json + '\n')
console.log(`trained on ${fit.length} aspects (${mams.items.length} from MAMS); ${Object.keys(model.words).length} words; in ${((performance.now() - t0) / 1000).toFixed(1)} s; ${json.length} bytes -> ${out}`)
