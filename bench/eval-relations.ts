/**
 * Relation extraction on CoNLL04 dev (never trained on): strict relation precision, recall and F1, where a
 * predicted relation counts only when both arguments' token spans and types and the relation type equal a gold
 * relation (the measure of Miwa and Sasaki 2014, Bekoulis et al. 2018 and SpERT 2020).
 *
 *   npx tsx bench/eval-relations.ts [dataDir]      (default ../shared/data; npm run eval:relations)
 *
 * Two settings: with the gold entities given (the classifier and rules alone), and end to end, where the
 * entities come from our own recognition (the engine's entity extractor over the sentence's tokens joined by
 * spaces, Person -> Peop, Company -> Org, Place -> Loc; other types dropped). The published figures are on the
 * CoNLL04 test split, end to end.
 */
import { existsSync, readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { join, resolve } from 'node:path'
import { tokenStarts } from '../src/entities/conll.ts'
import { readConll04, type Conll04Sentence } from '../src/relations/conll04.ts'
import { argTypeOf, findRelations, loadRelationResources, type RelationEntity } from '../src/relations/index.ts'
import { createEntityExtractor } from '../src/entities/extract.ts'
import { createAnnotator } from '../src/nlp/annotate.ts'

const repo = fileURLToPath(new URL('..', import.meta.url))
const dataArg = resolve(process.argv[2] ?? resolve(repo, '../shared/data'))
const split = process.argv[3] ?? 'dev'
const file = [join(dataArg, 'relations', `conll04-${split}.txt`), join(dataArg, `conll04-${split}.txt`)].find((p) => existsSync(p))
if (file === undefined) {
  console.error(`no conll04-${split}.txt in ${dataArg} or ${dataArg}/relations`)
  process.exit(1)
}
const sentences = readConll04(readFileSync(file, 'utf8'), file)
const loaded = loadRelationResources()
// RELATIONS_N_BIAS overrides the model's bias against N, to see the precision/recall trade-off.
const res = process.env['RELATIONS_N_BIAS'] === undefined ? loaded : { ...loaded, model: { ...loaded.model, nBias: Number(process.env['RELATIONS_N_BIAS']) } }
const annotator = createAnnotator()
const extractor = createEntityExtractor()
const ENTITY_TYPE = { Peop: 'Person', Org: 'Company', Loc: 'Place' } as const
const LABELS = ['Work_For', 'Live_In', 'Located_In', 'OrgBased_In', 'Kill']

interface Counts { tp: number; fp: number; fn: number }
const table = (): Map<string, Counts> => new Map(['ALL', ...LABELS].map((l) => [l, { tp: 0, fp: 0, fn: 0 }]))
const gold = (s: Conll04Sentence): string[] =>
  s.relations.map((r) => {
    const a = s.mentions[r.a]!
    const b = s.mentions[r.b]!
    return `${r.label}|${a.start}:${a.end}:${a.type}|${b.start}:${b.end}:${b.type}`
  })
function tally(t: Map<string, Counts>, g: readonly string[], p: readonly string[]): void {
  const gs = new Set(g)
  const ps = new Set(p)
  for (const k of ps) {
    const l = k.split('|')[0]!
    const c = gs.has(k) ? 'tp' : 'fp'
    t.get(l)![c]++
    t.get('ALL')![c]++
  }
  for (const k of gs) if (!ps.has(k)) { t.get(k.split('|')[0]!)!.fn++; t.get('ALL')!.fn++ }
}
const prf = (c: Counts): string => {
  const p = c.tp / Math.max(1, c.tp + c.fp)
  const r = c.tp / Math.max(1, c.tp + c.fn)
  const f = p + r === 0 ? 0 : (2 * p * r) / (p + r)
  return `P ${p.toFixed(3)}  R ${r.toFixed(3)}  F1 ${f.toFixed(3)}  (tp ${c.tp}, fp ${c.fp}, fn ${c.fn})`
}

const withGold = table()
const endToEnd = table()
const ner = { tp: 0, fp: 0, fn: 0 }
let relMs = 0
let reachable = 0
let nerMs = 0
for (const s of sentences) {
  const text = s.tokens.join(' ')
  const starts = tokenStarts(s.tokens)
  const doc = annotator.annotate(text)
  // Document token index of the CoNLL04 token starting at a character offset (and ending at one).
  const byStart = new Map<number, number>()
  const byEnd = new Map<number, number>()
  doc.tokens.forEach((t) => { byStart.set(t.start, t.index); byEnd.set(t.end, t.index) })
  const conllOfStart = new Map(starts.map((c, i) => [c, i]))
  const conllOfEnd = new Map(starts.map((c, i) => [c + s.tokens[i]!.length, i]))
  const toDoc = (a: number, b: number): { tokenStart: number; tokenEnd: number } | undefined => {
    const x = byStart.get(starts[a]!)
    const y = byEnd.get(starts[b - 1]! + s.tokens[b - 1]!.length)
    return x === undefined || y === undefined ? undefined : { tokenStart: x, tokenEnd: y + 1 }
  }
  const toConll = (m: { tokenStart: number; tokenEnd: number }): [number, number] | undefined => {
    const a = conllOfStart.get(doc.tokens[m.tokenStart]!.start)
    const b = conllOfEnd.get(doc.tokens[m.tokenEnd - 1]!.end)
    return a === undefined || b === undefined ? undefined : [a, b + 1]
  }
  const keyOf = (label: string | undefined, ents: readonly RelationEntity[], args: readonly [number, number], spans: readonly { tokenStart: number; tokenEnd: number }[]): string | undefined => {
    if (label === undefined) return undefined
    const a = toConll(spans[0]!)
    const b = toConll(spans[1]!)
    const ta = argTypeOf(ents[args[0]]!.entity_type)
    const tb = argTypeOf(ents[args[1]]!.entity_type)
    if (a === undefined || b === undefined) return undefined
    return `${label}|${a[0]}:${a[1]}:${ta}|${b[0]}:${b[1]}:${tb}`
  }
  const g = gold(s)
  // 1. Gold entities.
  const goldEnts: RelationEntity[] = []
  for (const m of s.mentions) {
    const span = toDoc(m.start, m.end)
    if (span !== undefined) goldEnts.push({ title: s.tokens.slice(m.start, m.end).join(' '), entity_type: ENTITY_TYPE[m.type], mentions: [span] })
  }
  const pg = findRelations(doc, goldEnts, res.model, res.triggers, res.jobTitles)
  tally(withGold, g, pg.map((r) => keyOf(r.label, goldEnts, r.args, r.spans)).filter((k): k is string => k !== undefined))
  // 2. Our own entities.
  const t0 = performance.now()
  const ents: RelationEntity[] = extractor.extract(doc).filter((e) => argTypeOf(e.entity_type) !== undefined)
  const t1 = performance.now()
  const pe = findRelations(doc, ents, res.model, res.triggers, res.jobTitles)
  const t2 = performance.now()
  nerMs += t1 - t0
  relMs += t2 - t1
  tally(endToEnd, g, pe.map((r) => keyOf(r.label, ents, r.args, r.spans)).filter((k): k is string => k !== undefined))
  const gm = new Set(s.mentions.map((m) => `${m.start}:${m.end}:${m.type}`))
  const pm = new Set<string>()
  for (const e of ents) for (const m of e.mentions) { const c = toConll(m); if (c !== undefined) pm.add(`${c[0]}:${c[1]}:${argTypeOf(e.entity_type)}`) }
  for (const k of pm) if (gm.has(k)) ner.tp++; else ner.fp++
  for (const r of s.relations) {
    const a = s.mentions[r.a]!
    const b = s.mentions[r.b]!
    if (pm.has(`${a.start}:${a.end}:${a.type}`) && pm.has(`${b.start}:${b.end}:${b.type}`)) reachable++
  }
  for (const k of gm) if (!pm.has(k)) ner.fn++
}

const rels = sentences.reduce((a, s) => a + s.relations.length, 0)
console.log(`${file}: ${sentences.length} sentences, ${rels} gold relations; model ${res.model.weights.size} features`)
console.log('\nwith gold entities (strict relation):')
for (const [l, c] of withGold) console.log(`  ${l.padEnd(12)} ${prf(c)}`)
console.log('\nend to end, our entity recognition (strict relation):')
for (const [l, c] of endToEnd) console.log(`  ${l.padEnd(12)} ${prf(c)}`)
console.log(`  entities (Peop/Org/Loc, exact span and type): ${prf(ner)}`)
console.log(`  gold relations whose two arguments our recognition finds exactly (span and type): ${reachable} of ${rels} (${((100 * reachable) / rels).toFixed(1)}%, the recall ceiling end to end)`)
console.log(`\ntime: entity extraction ${nerMs.toFixed(0)} ms, relations ${relMs.toFixed(0)} ms over ${sentences.length} sentences`)
console.log('\npublished, CoNLL04 test split, end-to-end strict relation F1: table filling (Miwa and Sasaki 2014) ~0.61, multi-head selection (Bekoulis et al. 2018) 0.62, SpERT (2020) 0.715')
