/**
 * Train the aspect-sentiment model (src/sentiment/aspect.ts) on the SemEval-2014 Task 4 aspect-term
 * training sets, restaurants and laptops pooled, and write `lexicons/en/aspect-model.json`.
 *
 *   npx tsx bench/train-aspects.ts [dataDir] [out]      (default ../shared/data, or its aspects/ folder)
 *
 * Data: SemEval-2014 Task 4 (Pontiki et al. 2014) aspect-term polarity training sets, as in ../shared/data/aspects
 * (research use; the data never enter this repository, only the learned weights). Deterministic: the same data give
 * byte-identical weights.
 */
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { trainAspectModel, type AspectVector } from '../src/sentiment/aspect.ts'
import { ASPECT_SETS, aspectDirOrExit, readAspectSet } from './aspect-data.ts'

const dir = aspectDirOrExit(process.argv[2])
const out = process.argv[3] ?? fileURLToPath(new URL('../lexicons/en/aspect-model.json', import.meta.url))
const t0 = performance.now()
const items = ASPECT_SETS.flatMap((s) => readAspectSet(join(dir, s.file)))
const fit = items.filter((it) => it.x !== undefined)
const model = trainAspectModel(
  fit.map((it) => it.x as AspectVector),
  fit.map((it) => it.label),
  { trained: { data: 'SemEval-2014 Task 4 aspect-term polarity training sets (restaurants + laptops), research use', items: fit.length } },
)
const json = JSON.stringify(model)
writeFileSync(out, json + '\n')
console.log(`trained on ${fit.length} aspects; ${Object.keys(model.words).length} words; in ${((performance.now() - t0) / 1000).toFixed(1)} s; ${json.length} bytes -> ${out}`)
