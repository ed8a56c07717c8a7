/**
 * Opinions on the development cases of `test/fixtures/opinions.json` (written for this project): precision and
 * recall of (speaker, quotation) pairs, the quotation compared case-insensitively without quote marks and
 * punctuation at its ends, and of the speaker alone per case (attribution). Cases that expect none count as
 * false positives when anything is found. Entities come from the engine's extractor, as in the pipeline.
 *
 *   npx tsx bench/eval-opinions.ts [cases.json] [--verbose]      (npm run eval:opinions)
 */
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { resolve } from 'node:path'
import { createAnnotator } from '../src/nlp/annotate.ts'
import { createEntityExtractor } from '../src/entities/extract.ts'
import { findOpinions } from '../src/pipeline/analyzers/opinions.ts'

const repo = fileURLToPath(new URL('..', import.meta.url))
const args = process.argv.slice(2)
const verbose = args.includes('--verbose')
const file = resolve(args.find((a) => !a.startsWith('--')) ?? resolve(repo, 'test/fixtures/opinions.json'))
const { cases } = JSON.parse(readFileSync(file, 'utf8')) as { cases: { text: string; opinions: { speaker: string; quotation: string }[] }[] }
const annotator = createAnnotator()
const extractor = createEntityExtractor()
const norm = (s: string): string => s.toLowerCase().replace(/[\s"“”„«»]+/g, ' ').trim().replace(/^[\s.,;:!?'‘’]+|[\s.,;:!?'‘’]+$/g, '')
const pairs = { tp: 0, fp: 0, fn: 0 }
const speakers = { tp: 0, fp: 0, fn: 0 }
const t0 = performance.now()
for (const c of cases) {
  const doc = annotator.annotate(c.text)
  const entities = extractor.extract(doc).map((e) => ({ type: 'named' as const, title: e.title, entity_type: e.entity_type, mentions: e.mentions }))
  const got = findOpinions(doc, entities, undefined)
  for (const [counts, key] of [
    [pairs, (x: { speaker: string; quotation: string }) => `${x.speaker.toLowerCase()}|${norm(x.quotation)}`],
    [speakers, (x: { speaker: string; quotation: string }) => x.speaker.toLowerCase()],
  ] as const) {
    const g = new Set(c.opinions.map(key))
    const p = new Set(got.map(key))
    for (const k of p) if (g.has(k)) counts.tp++; else counts.fp++
    for (const k of g) if (!p.has(k)) counts.fn++
  }
  if (verbose) {
    const gk = c.opinions.map((x) => `${x.speaker}|${norm(x.quotation)}`).join('; ')
    const pk = got.map((x) => `${x.speaker}|${norm(x.quotation)}`).join('; ')
    if (gk !== pk) console.log(`${c.text}\n  gold: ${gk}\n  got:  ${got.map((x) => `${x.speaker}|${x.quotation}|topic ${x.topic}`).join('; ')}`)
  }
}
const ms = performance.now() - t0
const line = (name: string, c: { tp: number; fp: number; fn: number }): string => {
  const p = c.tp / Math.max(1, c.tp + c.fp)
  const r = c.tp / Math.max(1, c.tp + c.fn)
  return `${name.padEnd(22)} P ${p.toFixed(3)}  R ${r.toFixed(3)}  F1 ${(p + r === 0 ? 0 : (2 * p * r) / (p + r)).toFixed(3)}  (tp ${c.tp}, fp ${c.fp}, fn ${c.fn})`
}
console.log(`${file}: ${cases.length} cases, ${cases.reduce((a, c) => a + c.opinions.length, 0)} opinions expected (${ms.toFixed(0)} ms with annotation and entities)`)
console.log(line('speaker + quotation', pairs))
console.log(line('speaker per case', speakers))
