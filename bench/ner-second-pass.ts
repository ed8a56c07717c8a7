/**
 * What the entity tagger's right-to-left pass costs the pipeline (issue 16: the pipeline's rate may drop by 10% at
 * most). Two engines in one process: one reads the shipped data folder (both directions), the other a copy of it
 * without `tagger-rev.bin.gz` (left to right only), and, as a null comparison, a third reads a full copy (both
 * directions again). On each sample set (tweets, hotel reviews, news), with the default configuration and with every
 * output on, the engines analyse the same chunks of 10 texts in turn, each chunk five times, and the fastest of the
 * five counts (the machine is shared: the fastest pass is the least disturbed). Printed: the rate both ways over the
 * rate one way (1 - it is the drop the second pass costs), and the null: the copy's rate over the shipped folder's. The share of sentences and tokens the second pass reads (`worthReversing`) is printed beside it.
 *
 *   npx tsx bench/ner-second-pass.ts [dataDir]      (default ../shared/data; npm run bench:ner-pass)
 */
import { cpSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createEngine, type Engine } from '../src/index.ts'
import { createAnnotator } from '../src/nlp/annotate.ts'
import { extractEntities, loadEntityLexicons } from '../src/entities/extract.ts'
import { createEntityTagger, loadDefaultModel, quietWords, worthReversing, type EntityTagger } from '../src/entities/tagger.ts'
import { resolveDataDir } from '../src/resources.ts'
import { EVERY_OUTPUT_ON } from '../test/fixtures/golden/golden.ts'
import { benchSets, dataDir } from './samples.ts'

const sets = benchSets(dataDir())
const model = loadDefaultModel()
if (model.reverse === undefined) {
  console.error('no right-to-left weights (tagger-rev.bin.gz) beside the tagger: nothing to measure')
  process.exit(1)
}
const shipped = resolveDataDir().dir
const tmp = mkdtempSync(join(tmpdir(), 'ner-pass-'))
const oneWayDir = join(tmp, 'one-way')
const sameDir = join(tmp, 'same')
cpSync(shipped, oneWayDir, { recursive: true })
rmSync(join(oneWayDir, 'en', 'ner', 'tagger-rev.bin.gz'))
cpSync(shipped, sameDir, { recursive: true })
process.on('exit', () => rmSync(tmp, { recursive: true, force: true }))

const forward = createEntityTagger({ ...model, reverseWeights: null })
const quiet = quietWords()
const annotator = createAnnotator()
const lexicons = loadEntityLexicons()

/** The sentences (token lists) the tagger is given for a text, as the pipeline gives them. */
function taggerInput(text: string): string[][] {
  const seen: string[][] = []
  const recorder: EntityTagger = { trained: forward.trained, tag: (t) => forward.tag(t), tagDocument: (s) => (seen.push(...s.map((x) => [...x])), forward.tagDocument(s)) }
  extractEntities(annotator.annotate(text), recorder, lexicons)
  return seen
}

async function engineFor(dir: string | undefined, every: boolean): Promise<Engine> {
  const engine = createEngine({ background: false, ...(dir === undefined ? {} : { dataDir: dir }) })
  if (every) await engine.account(engine.defaultAccount).updateConfigurations(EVERY_OUTPUT_ON)
  return engine
}

async function fastest(engine: Engine, chunk: readonly string[]): Promise<number> {
  let min = Infinity
  for (let p = 0; p < 5; p++) {
    const t0 = performance.now()
    for (const t of chunk) await engine.analyze(t, { id: 'b' })
    min = Math.min(min, performance.now() - t0)
  }
  return min
}

const pct = (x: number): string => `${(100 * x).toFixed(1)}%`
console.log('set      docs  configuration  | ms/doc both ways, one way, both ways (copy) | rate both ways / one way, null | read twice: sentences, tokens')
for (const set of sets) {
  const texts = set.texts
  let sentences = 0, tokens = 0, twiceS = 0, twiceT = 0
  for (const doc of texts.map(taggerInput)) {
    const spans = forward.tagDocument(doc)
    doc.forEach((s, k) => {
      sentences++
      tokens += s.length
      if (worthReversing(s, spans[k]!, quiet)) { twiceS++; twiceT += s.length }
    })
  }
  for (const every of [false, true]) {
    const engines = [await engineFor(undefined, every), await engineFor(oneWayDir, every), await engineFor(sameDir, every)]
    for (const e of engines) for (const t of texts) await e.analyze(t, { id: 'w' })
    const ms = [0, 0, 0]
    for (let i = 0, c = 0; i < texts.length; i += 10, c++) {
      const chunk = texts.slice(i, i + 10)
      // The order turns with every chunk, so no engine always goes first.
      for (let k = 0; k < 3; k++) {
        const e = (k + c) % 3
        ms[e]! += await fastest(engines[e]!, chunk)
      }
    }
    const n = texts.length
    console.log(`${set.name.padEnd(8)} ${String(n).padStart(5)}  ${(every ? 'every output' : 'default').padEnd(13)} | ${ms.map((x) => (x / n).toFixed(3)).join(', ')} | ${(ms[1]! / ms[0]!).toFixed(3)}, ${(ms[0]! / ms[2]!).toFixed(3)} | ${pct(twiceS / sentences)}, ${pct(twiceT / tokens)}`)
  }
}
