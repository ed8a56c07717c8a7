/**
 * Intentions on the cases written for this project, each file reported separately: `test/fixtures/intentions.json`
 * (development: used while building the rules), `intentions-fresh.json` (written before the analyzer was first run
 * on them: the honest generalisation estimate of the first rules) and `intentions-fresh2.json` (written after the
 * rules were revised on the first two, before measuring them), `intentions-fresh3.json` and `intentions-fresh4.json` (the latter written after the rules were revised on fresh3) and `intentions-fresh5.json` (written blind, as fresh3) (reviews, tweets, forum
 * posts and support emails written by a helper that had not read the analyzer, before measuring). Precision and recall of the intention type with its
 * `who` (case-insensitive), and of type, who and `what` together (exact text, case-insensitive). Cases that expect
 * none (negated, hypothetical, past, questions) count as false positives when anything is found.
 *
 *   npx tsx bench/eval-intentions.ts [cases.json ...] [--verbose]      (npm run eval:intentions)
 */
import { existsSync, readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { resolve } from 'node:path'
import { createAnnotator } from '../src/nlp/annotate.ts'
import { findIntentions } from '../src/pipeline/analyzers/intentions.ts'

type Counts = { tp: number; fp: number; fn: number }
type Expected = { type: string; who: string; what: string }
const repo = fileURLToPath(new URL('..', import.meta.url))
const args = process.argv.slice(2)
const verbose = args.includes('--verbose')
const given = args.filter((a) => !a.startsWith('--'))
const files: [string, string][] =
  given.length > 0
    ? given.map((f) => [resolve(f), 'given'])
    : (
        [
          ['intentions.json', 'development'],
          ['intentions-fresh.json', 'fresh (written before measuring)'],
          ['intentions-fresh2.json', 'fresh2 (written after the rule changes, before measuring)'],
          ['intentions-fresh3.json', 'fresh3 (written by a helper that had not read the analyzer, before measuring)'],
          ['intentions-fresh4.json', 'fresh4 (written after the rule changes on fresh3, before measuring)'],
          ['intentions-fresh5.json', 'fresh5 (written blind by a helper that had read neither the analyzer nor the other sets; first figures in its commit; no longer blind: the rules were revised on it)'],
          ['intentions-fresh6.json', 'fresh6 (written after the fresh3/fresh4 rule changes, before measuring)'],
          ['intentions-fresh8.json', 'fresh8 (written blind by a helper that had read neither the analyzers nor the other sets, before measuring; first figures in its commit; no longer blind: the rules were revised on it)'],
          ['intentions-fresh9.json', 'fresh9 (written blind by a helper that had read neither the analyzers nor the other sets; measured once at 21:29 UTC, in the commit that lists it; no longer blind: the rules were revised on it)'],
          ['intentions-fresh10.json', 'fresh10 (written blind on 2026-11-27 by a helper that had read neither the analyzers nor the other sets; first figures in its commit; no longer blind: the rules were revised on it)'],
          ['intentions-fresh11.json', 'fresh11 (written blind on 2026-11-27 by a helper that had read neither the analyzers nor the other sets; first figures in its commit; no longer blind: the rules were revised on it)'],
          ['intentions-fresh12.json', 'fresh12 (written blind on 2026-11-27 by a helper that had read neither the analyzers nor the other sets; first figures in its commit; no longer blind: the rules were revised on it)'],
          ['intentions-fresh13.json', 'fresh13 (written blind on 2026-11-27 by a helper that had read neither the analyzers nor the other sets; first figures in its commit; no longer blind: the rules were revised on it)'],
          ['intentions-fresh14.json', 'fresh14 (written blind on 2026-11-27 by a helper that had read neither the analyzers nor the other sets; first figures in its commit; no longer blind: the rules were revised on it)'],
          ['intentions-fresh15.json', 'fresh15 (written blind on 2026-11-27 by a helper that had read neither the analyzers nor the other sets; first figures in its commit; no longer blind: the rules were revised on it)'],
          ['intentions-fresh16.json', 'fresh16 (written blind on 2026-11-27 by a helper that had read neither the analyzers nor the other sets; first figures in its commit; no longer blind: the rules were revised on it)'],
          ['intentions-fresh17.json', 'fresh17 (written blind on 2026-11-27 by a helper that had read neither the analyzers nor the other sets; first figures in its commit)'],
        ] as const
      )
        .map(([f, label]): [string, string] => [resolve(repo, 'test/fixtures', f), label])
        .filter(([f]) => existsSync(f))
const annotator = createAnnotator()
const norm = (s: string): string => s.toLowerCase().trim()
const line = (name: string, c: Counts): string => {
  const p = c.tp / Math.max(1, c.tp + c.fp)
  const r = c.tp / Math.max(1, c.tp + c.fn)
  return `  ${name.padEnd(20)} P ${p.toFixed(3)}  R ${r.toFixed(3)}  F1 ${(p + r === 0 ? 0 : (2 * p * r) / (p + r)).toFixed(3)}  (tp ${c.tp}, fp ${c.fp}, fn ${c.fn})`
}

for (const [file, label] of files) {
  const { cases } = JSON.parse(readFileSync(file, 'utf8')) as { cases: { text: string; intentions: Expected[] }[] }
  const loose: Counts = { tp: 0, fp: 0, fn: 0 }
  const strict: Counts = { tp: 0, fp: 0, fn: 0 }
  const t0 = performance.now()
  for (const c of cases) {
    const got = findIntentions(annotator.annotate(c.text))
    for (const [counts, key] of [
      [loose, (x: Expected) => `${x.type}|${norm(x.who)}`],
      [strict, (x: Expected) => `${x.type}|${norm(x.who)}|${norm(x.what)}`],
    ] as const) {
      const g = new Set(c.intentions.map(key))
      const p = new Set(got.map(key))
      for (const k of p) if (g.has(k)) counts.tp++
      else counts.fp++
      for (const k of g) if (!p.has(k)) counts.fn++
    }
    if (verbose) {
      const gk = c.intentions.map((x) => `${x.type}|${x.who}|${x.what}`).join('; ')
      const pk = got.map((x) => `${x.type}|${x.who}|${x.what}|"${x.evidence_phrase}"`).join('; ')
      if (gk.toLowerCase() !== got.map((x) => `${x.type}|${x.who}|${x.what}`).join('; ').toLowerCase()) console.log(`${c.text}\n  gold: ${gk}\n  got:  ${pk}`)
    }
  }
  const ms = performance.now() - t0
  console.log(`${label}: ${file}: ${cases.length} cases, ${cases.reduce((a, c) => a + c.intentions.length, 0)} intentions expected (${ms.toFixed(0)} ms with annotation)`)
  console.log(line('type + who', loose))
  console.log(line('type + who + what', strict))
}
