/**
 * Named-entity evaluation on CoNLL-2003 `eng.testa` (the development split; never trained on):
 * exact-span precision, recall and F1 per type and overall, for our tagger and for compromise
 * (people/places/organizations mapped to PER/LOC/ORG), both in this process and run, plus tokens per
 * second of both and the model's size on disk and load time.
 *
 *   npx tsx bench/eval-ner.ts [dataDir]      (default ../shared/data; npm run eval:ner)
 *
 * A predicted entity counts as correct only when its token span and type both equal a gold entity.
 * compromise reads each sentence's tokens joined by single spaces; its character offsets are mapped
 * back to the tokens they overlap. Last, on the sample news articles and short texts (`samples/`), the
 * time of `extractEntities` beside the time of annotation (the part of the pipeline it needs). compromise has no MISC, so the table also gives both systems'
 * figures on PER+LOC+ORG only (the published compromise figure, about 0.40 F1, is on those three).
 */
import { existsSync, readFileSync, statSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { join, resolve } from 'node:path'
import nlp from 'compromise'
import { readConll, spansOfLabels, type TypedSpan } from '../src/entities/conll.ts'
import { createEntityTagger, loadDefaultModel, NER_LEXICON_DIR } from '../src/entities/tagger.ts'
import { extractEntities, loadEntityLexicons } from '../src/entities/extract.ts'
import { createAnnotator } from '../src/nlp/annotate.ts'
import type { EntityType } from '../src/entities/features.ts'

const repo = fileURLToPath(new URL('..', import.meta.url))
const dataArg = resolve(process.argv[2] ?? resolve(repo, '../shared/data'))
const file = [join(dataArg, 'ner', 'eng.testa'), join(dataArg, 'eng.testa')].find((p) => existsSync(p))
if (file === undefined) {
  console.error(`no eng.testa in ${dataArg} or ${dataArg}/ner`)
  process.exit(1)
}
const docs = readConll(readFileSync(file, 'utf8'), file)
const sentences = docs.flatMap((d) => d.sentences)
const tokenCount = sentences.reduce((a, s) => a + s.tokens.length, 0)
const gold = sentences.map((s) => spansOfLabels(s.labels))

const TYPES: EntityType[] = ['PER', 'ORG', 'LOC', 'MISC']
interface Counts { tp: number; fp: number; fn: number }
function score(pred: readonly (readonly TypedSpan[])[], types: readonly EntityType[]): Map<string, Counts> {
  const table = new Map<string, Counts>()
  for (const t of [...types, 'ALL']) table.set(t, { tp: 0, fp: 0, fn: 0 })
  const all = table.get('ALL') as Counts
  for (let i = 0; i < gold.length; i++) {
    const g = (gold[i] ?? []).filter((s) => types.includes(s.type))
    const p = (pred[i] ?? []).filter((s) => types.includes(s.type))
    const key = (s: TypedSpan): string => `${s.type}:${s.start}:${s.end}`
    const gk = new Set(g.map(key))
    const pk = new Set(p.map(key))
    for (const s of p) {
      const c = table.get(s.type) as Counts
      if (gk.has(key(s))) { c.tp++; all.tp++ } else { c.fp++; all.fp++ }
    }
    for (const s of g) if (!pk.has(key(s))) { (table.get(s.type) as Counts).fn++; all.fn++ }
  }
  return table
}
const prf = (c: Counts): [number, number, number] => {
  const p = c.tp / Math.max(1, c.tp + c.fp)
  const r = c.tp / Math.max(1, c.tp + c.fn)
  return [p, r, p + r === 0 ? 0 : (2 * p * r) / (p + r)]
}
const f3 = (x: number): string => x.toFixed(3)

// --- our tagger -----------------------------------------------------------------------------
const modelPath = NER_LEXICON_DIR + 'tagger.bin.gz'
const l0 = performance.now()
const model = loadDefaultModel()
const loadMs = performance.now() - l0
const tagger = createEntityTagger(model)
// Warm-up on the first 200 sentences for both systems, then the timed pass over everything.
const warm = sentences.slice(0, 200)
tagger.tagDocument(warm.map((s) => s.tokens))
const t0 = performance.now()
const ours: TypedSpan[][] = []
for (const d of docs) for (const spans of tagger.tagDocument(d.sentences.map((s) => s.tokens))) ours.push(spans)
const oursMs = performance.now() - t0

// --- compromise -----------------------------------------------------------------------------
function compromiseSpans(tokens: readonly string[]): TypedSpan[] {
  const text = tokens.join(' ')
  const starts: number[] = []
  let at = 0
  for (const t of tokens) { starts.push(at); at += t.length + 1 }
  const doc = nlp(text)
  const out: TypedSpan[] = []
  const add = (type: EntityType, view: { json: (o: object) => unknown }): void => {
    for (const m of view.json({ offset: true }) as Array<{ offset?: { start: number; length: number } }>) {
      if (m.offset === undefined) continue
      const a = m.offset.start
      const b = a + m.offset.length
      let s = -1
      let e = -1
      for (let i = 0; i < tokens.length; i++) {
        const ts = starts[i] ?? 0
        const te = ts + (tokens[i]?.length ?? 0)
        if (te > a && ts < b) { if (s < 0) s = i; e = i + 1 }
      }
      if (s >= 0) out.push({ type, start: s, end: e })
    }
  }
  add('PER', doc.people())
  add('LOC', doc.places())
  add('ORG', doc.organizations())
  return out
}
for (const s of warm) compromiseSpans(s.tokens)
const c0 = performance.now()
const theirs = sentences.map((s) => compromiseSpans(s.tokens))
const theirMs = performance.now() - c0

// --- report ---------------------------------------------------------------------------------
console.log(`eng.testa: ${docs.length} documents, ${sentences.length} sentences, ${tokenCount} tokens, ${gold.flat().length} gold entities`)
console.log(`model: ${modelPath} ${(statSync(modelPath).size / 1024 / 1024).toFixed(2)} MiB on disk, ${model.weights.index.size} features, load ${loadMs.toFixed(0)} ms`)
console.log('')
console.log('exact-span P / R / F1      ours (PER/ORG/LOC/MISC)')
const o4 = score(ours, TYPES)
for (const [t, c] of o4) console.log(`  ${t.padEnd(5)} ${prf(c).map(f3).join(' / ')}   (tp ${c.tp}, fp ${c.fp}, fn ${c.fn})`)
console.log('')
console.log('PER+LOC+ORG only           ours                    compromise 14.17')
const T3: EntityType[] = ['PER', 'LOC', 'ORG']
const o3 = score(ours, T3)
const c3 = score(theirs, T3)
for (const t of [...T3, 'ALL']) {
  console.log(`  ${t.padEnd(5)}                    ${prf(o3.get(t) as Counts).map(f3).join(' / ')}   ${prf(c3.get(t) as Counts).map(f3).join(' / ')}`)
}
console.log('')
const oursRate = tokenCount / (oursMs / 1000)
const theirRate = tokenCount / (theirMs / 1000)
console.log(`speed: ours ${Math.round(oursRate)} tokens/s, compromise ${Math.round(theirRate)} tokens/s, ratio ${(oursRate / theirRate).toFixed(1)}x`)
console.log('')
const oF = prf(o4.get('ALL') as Counts)[2]
console.log('published: CRF taggers with gazetteers about 0.87-0.89 F1 (PER/ORG/LOC/MISC); compromise about 0.40 F1 (PER+LOC+ORG of testa)')
console.log(`targets: overall F1 >= 0.87 -> ${f3(oF)} ${oF >= 0.87 ? 'met' : 'NOT met'}; speed >= 5x compromise -> ${(oursRate / theirRate).toFixed(1)}x ${oursRate / theirRate >= 5 ? 'met' : 'NOT met'}`)

// --- confidence: precision of our spans by confidence band (what entities_threshold cuts) -----
{
  const bands = [0, 0.6, 0.8, 0.9, 0.99, 1.01]
  const hit = new Array<number>(bands.length - 1).fill(0)
  const all = new Array<number>(bands.length - 1).fill(0)
  ours.forEach((spans, i) => {
    const g = new Set((gold[i] ?? []).map((s) => `${s.type}:${s.start}:${s.end}`))
    for (const s of spans as Array<TypedSpan & { confidence: number }>) {
      const b = bands.findIndex((lo, k) => s.confidence >= lo && s.confidence < (bands[k + 1] ?? 2))
      all[b] = (all[b] ?? 0) + 1
      if (g.has(`${s.type}:${s.start}:${s.end}`)) hit[b] = (hit[b] ?? 0) + 1
    }
  })
  console.log('')
  console.log('precision by confidence (x100 = the entity confidence compared with entities_threshold):')
  for (let k = 0; k < all.length; k++) {
    console.log(`  [${bands[k]}, ${Math.min(1, bands[k + 1] ?? 1)}${k === all.length - 1 ? ']' : ')'}: ${all[k]} spans, precision ${f3((hit[k] ?? 0) / Math.max(1, all[k] ?? 0))}`)
  }
  console.log('')
}

// --- share of the pipeline: annotation vs entity extraction on the sample texts -------------
const samplesDir = [join(dataArg, 'samples'), join(dataArg, '..', 'samples')].find((p) => existsSync(join(p, 'news-articles.txt')))
if (samplesDir !== undefined) {
  const annotator = createAnnotator()
  const lexicons = loadEntityLexicons()
  for (const name of ['news-articles.txt', 'short-texts.txt']) {
    const texts = readFileSync(join(samplesDir, name), 'utf8').split(/\r?\n/).filter((t) => t.trim() !== '')
    const docsA = texts.map((t) => annotator.annotate(t))
    for (const d of docsA) extractEntities(d, tagger, lexicons)
    const a0 = performance.now()
    const annotated = texts.map((t) => annotator.annotate(t))
    const annotateMs = performance.now() - a0
    const e0 = performance.now()
    let found = 0
    for (const d of annotated) found += extractEntities(d, tagger, lexicons).length
    const extractMs = performance.now() - e0
    const toks = annotated.reduce((a, d) => a + d.tokens.length, 0)
    console.log(
      `${name}: ${texts.length} texts, ${toks} tokens, ${found} entities; annotate ${annotateMs.toFixed(0)} ms, extractEntities ${extractMs.toFixed(0)} ms ` +
        `(${((100 * extractMs) / (annotateMs + extractMs)).toFixed(0)}% of annotate+entities)`,
    )
  }
}
