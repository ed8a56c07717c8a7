/**
 * Intentions on the development cases of `test/fixtures/intentions.json` (written for this project): precision and
 * recall of the intention type with its `who` (case-insensitive), and of type, who and `what` together (exact text,
 * case-insensitive). Cases that expect none (negated, hypothetical, past, questions) count as false positives when
 * anything is found.
 *
 *   npx tsx bench/eval-intentions.ts [cases.json] [--verbose]      (npm run eval:intentions)
 */
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { resolve } from 'node:path'
import { createAnnotator } from '../src/nlp/annotate.ts'
import { findIntentions } from '../src/pipeline/analyzers/intentions.ts'

const repo = fileURLToPath(new URL('..', import.meta.url))
const args = process.argv.slice(2)
const verbose = args.includes('--verbose')
const file = resolve(args.find((a) => !a.startsWith('--')) ?? resolve(repo, 'test/fixtures/intentions.json'))
const { cases } = JSON.parse(readFileSync(file, 'utf8')) as { cases: { text: string; intentions: { type: string; who: string; what: string }[] }[] }
const annotator = createAnnotator()
const loose = { tp: 0, fp: 0, fn: 0 }
const strict = { tp: 0, fp: 0, fn: 0 }
const norm = (s: string): string => s.toLowerCase().trim()
const t0 = performance.now()
for (const c of cases) {
  const got = findIntentions(annotator.annotate(c.text))
  for (const [counts, key] of [
    [loose, (x: { type: string; who: string; what: string }) => `${x.type}|${norm(x.who)}`],
    [strict, (x: { type: string; who: string; what: string }) => `${x.type}|${norm(x.who)}|${norm(x.what)}`],
  ] as const) {
    const g = new Set(c.intentions.map(key))
    const p = new Set(got.map(key))
    for (const k of p) if (g.has(k)) counts.tp++; else counts.fp++
    for (const k of g) if (!p.has(k)) counts.fn++
  }
  if (verbose) {
    const gk = c.intentions.map((x) => `${x.type}|${x.who}|${x.what}`).join('; ')
    const pk = got.map((x) => `${x.type}|${x.who}|${x.what}|"${x.evidence_phrase}"`).join('; ')
    if (gk !== got.map((x) => `${x.type}|${x.who}|${x.what}`).join('; ')) console.log(`${c.text}\n  gold: ${gk}\n  got:  ${pk}`)
  }
}
const ms = performance.now() - t0
const line = (name: string, c: { tp: number; fp: number; fn: number }): string => {
  const p = c.tp / Math.max(1, c.tp + c.fp)
  const r = c.tp / Math.max(1, c.tp + c.fn)
  return `${name.padEnd(20)} P ${p.toFixed(3)}  R ${r.toFixed(3)}  F1 ${(p + r === 0 ? 0 : (2 * p * r) / (p + r)).toFixed(3)}  (tp ${c.tp}, fp ${c.fp}, fn ${c.fn})`
}
console.log(`${file}: ${cases.length} cases, ${cases.reduce((a, c) => a + c.intentions.length, 0)} intentions expected (${ms.toFixed(0)} ms with annotation)`)
console.log(line('type + who', loose))
console.log(line('type + who + what', strict))
