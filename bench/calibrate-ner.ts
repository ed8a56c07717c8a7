/**
 * Fit `lexicons/en/ner/calibration.json`: the logistic calibration of the tagger's span probabilities
 * (src/entities/extract.ts `CALIBRATION_FEATURES`: the tagger's margin, span shape and position, headline,
 * common words, agreement of the lexicons and gazetteer), so that `confident` (probability x 100 >=
 * `entities_threshold`) means what it says.
 *
 *   npx tsx bench/calibrate-ner.ts [dataDir]       (npm run calibrate:ner; default ../shared/data)
 *
 * Samples: every Person/Company/Place span the tagger proposes when each sentence of CoNLL-2003 `eng.testa`
 * (the development split) is analysed as a document of its own, labelled right when a gold entity has exactly
 * its span and type. Fitted by full-batch gradient descent on the log loss (fixed step and iteration count,
 * small L2), so the file is the same on every run. Run it again after retraining the tagger.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { join, resolve } from 'node:path'
import { readConll, spansOfLabels, tokenStarts } from '../src/entities/conll.ts'
import { createEntityTagger } from '../src/entities/tagger.ts'
import { CALIBRATION_FEATURES, extractEntities, loadEntityLexicons, type ExtractTrace } from '../src/entities/extract.ts'
import { createAnnotator } from '../src/nlp/annotate.ts'

const repo = fileURLToPath(new URL('..', import.meta.url))
const dataArg = resolve(process.argv[2] ?? resolve(repo, '../shared/data'))
const file = [join(dataArg, 'ner', 'eng.testa'), join(dataArg, 'eng.testa')].find((p) => existsSync(p))
if (file === undefined) {
  console.error(`no eng.testa in ${dataArg} or ${dataArg}/ner`)
  process.exit(1)
}
const TYPE_OF: Record<string, string> = { Person: 'PER', Company: 'ORG', Place: 'LOC' }
const sentences = readConll(readFileSync(file, 'utf8'), file).flatMap((d) => d.sentences)
const annotator = createAnnotator()
const tagger = createEntityTagger()
// Fit on the tagger's own confidence: the calibration in use must not feed back into its features.
const { calibration: _unused, ...lexicons } = loadEntityLexicons()
const X: number[][] = []
const Y: number[] = []
for (const s of sentences) {
  const text = s.tokens.join(' ')
  const starts = tokenStarts(s.tokens)
  const doc = annotator.annotate(text)
  const trace: ExtractTrace = { tagger: [], candidates: [], overridden: [] }
  extractEntities(doc, tagger, { ...lexicons, calibration: { weights: [1, 0, 0, 0, 0, 0, 0], bias: 0 }, trace })
  const gold = new Set(spansOfLabels(s.labels).map((g) => `${g.type}:${g.start}:${g.end}`))
  for (const c of trace.candidates) {
    if (c.source !== 'tagger' || c.features === undefined) continue
    const a = doc.tokens[c.start]!.start
    const b = doc.tokens[c.end - 1]!.end
    const i = starts.indexOf(a)
    let j = -1
    for (let k = 0; k < s.tokens.length; k++) if (starts[k]! + s.tokens[k]!.length === b) j = k + 1
    X.push([...c.features])
    Y.push(i >= 0 && j > i && gold.has(`${TYPE_OF[c.type]}:${i}:${j}`) ? 1 : 0)
  }
}
const F = CALIBRATION_FEATURES.length
const w = new Array<number>(F).fill(0)
w[0] = 1
let bias = 0
const L2 = 1e-3
const STEP = 0.5
for (let it = 0; it < 3000; it++) {
  const g = new Array<number>(F).fill(0)
  let gb = 0
  for (let n = 0; n < X.length; n++) {
    let z = bias
    for (let k = 0; k < F; k++) z += w[k]! * X[n]![k]!
    const err = 1 / (1 + Math.exp(-z)) - Y[n]!
    for (let k = 0; k < F; k++) g[k]! += err * X[n]![k]!
    gb += err
  }
  for (let k = 0; k < F; k++) w[k] = w[k]! - STEP * (g[k]! / X.length + L2 * w[k]!)
  bias -= STEP * (gb / X.length)
}
const round = (x: number): number => Math.round(x * 1e4) / 1e4
const out = { weights: w.map(round), bias: round(bias), features: CALIBRATION_FEATURES, fitted_on: `${X.length} tagger spans of CoNLL-2003 eng.testa, one sentence per document (${Y.filter((y) => y === 1).length} right)` }
writeFileSync(resolve(repo, 'lexicons/en/ner/calibration.json'), JSON.stringify(out, null, 2) + '\n')
console.log(JSON.stringify(out, null, 2))
// Reliability: share right per band of calibrated probability.
const bands = [0, 0.3, 0.55, 0.7, 0.85, 0.95, 1.01]
for (let k = 0; k + 1 < bands.length; k++) {
  let n = 0
  let right = 0
  for (let i = 0; i < X.length; i++) {
    let z = out.bias
    for (let f = 0; f < F; f++) z += out.weights[f]! * X[i]![f]!
    const p = 1 / (1 + Math.exp(-z))
    if (p >= bands[k]! && p < bands[k + 1]!) { n++; right += Y[i]! }
  }
  console.log(`  p in [${bands[k]}, ${Math.min(1, bands[k + 1]!)}): ${n} spans, ${(right / Math.max(1, n)).toFixed(3)} right`)
}
