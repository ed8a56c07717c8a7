/**
 * Opinions on the cases written for this project, each file reported separately: `test/fixtures/opinions.json`
 * (development: used while building the rules), `opinions-fresh.json` (written before the analyzer was first run
 * on them: the honest generalisation estimate of the first rules) and `opinions-fresh2.json` (written after the
 * rules were revised on the first two, before measuring them), `opinions-fresh3.json` and `opinions-fresh4.json` (the latter written after the rules were revised on fresh3) and `opinions-fresh5.json` (written blind, as fresh3) (written by a helper that had
 * not read the analyzer, in wire-news and review style, before measuring). Precision and recall of (speaker, quotation) pairs,
 * the quotation compared case-insensitively without quote marks and punctuation at its ends, and of the speaker
 * alone per case (attribution); where an expected opinion lists acceptable topics, the share of found pairs whose topic
 * is one of them; and found pairs of the wrong type (a case's `user_entities` are given as user entities, as the
 * pipeline does, and its speakers are then expected to be user). Cases that expect none count as false positives when anything is found. Entities
 * come from the engine's extractor, as in the pipeline; the expected speakers that are not among its entities' titles
 * are counted (a miss there is the recogniser's, not the attribution's).
 *
 *   npx tsx bench/eval-opinions.ts [cases.json ...] [--verbose]      (npm run eval:opinions)
 */
import { existsSync, readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { resolve } from 'node:path'
import { createAnnotator } from '../src/nlp/annotate.ts'
import { createEntityExtractor } from '../src/entities/extract.ts'
import { findOpinions } from '../src/pipeline/analyzers/opinions.ts'
import { literalMatches } from '../src/pipeline/analyzers/entities.ts'
import type { DocumentEntity } from '../src/pipeline/analyzers/relations.ts'

type Counts = { tp: number; fp: number; fn: number }
type Keyed = { speaker: string; quotation: string }
type Expected = Keyed & { topic?: string[] }
type UserEntity = { title: string; entity_type: string; terms: string[] }
const repo = fileURLToPath(new URL('..', import.meta.url))
const args = process.argv.slice(2)
const verbose = args.includes('--verbose')
const given = args.filter((a) => !a.startsWith('--'))
const files: [string, string][] =
  given.length > 0
    ? given.map((f) => [resolve(f), 'given'])
    : (
        [
          ['opinions.json', 'development'],
          ['opinions-fresh.json', 'fresh (written before measuring)'],
          ['opinions-fresh2.json', 'fresh2 (written after the rule changes, before measuring)'],
          ['opinions-fresh3.json', 'fresh3 (written by a helper that had not read the analyzer, before measuring)'],
          ['opinions-fresh4.json', 'fresh4 (written after the rule changes on fresh3, before measuring)'],
          ['opinions-fresh5.json', 'fresh5 (written blind by a helper that had read neither the analyzer nor the other sets; first figures in its commit; no longer blind: the rules were revised on it)'],
          ['opinions-fresh6.json', 'fresh6 (written after the fresh3/fresh4 rule changes, before measuring)'],
          ['opinions-fresh7.json', 'fresh7 (quotation boundaries, written before measuring)'],
          ['opinions-fresh8.json', 'fresh8 (written blind by a helper that had read neither the analyzers nor the other sets, before measuring; first figures in its commit; no longer blind: the rules were revised on it)'],
          ['opinions-fresh9.json', 'fresh9 (written blind by a helper that had read neither the analyzers nor the other sets; measured once at 21:29 UTC, in the commit that lists it; no longer blind: the rules were revised on it)'],
          ['opinions-fresh10.json', 'fresh10 (written blind on 2026-11-27 by a helper that had read neither the analyzers nor the other sets; first figures in its commit; no longer blind: the rules were revised on it)'],
          ['opinions-fresh11.json', 'fresh11 (written blind on 2026-11-27 by a helper that had read neither the analyzers nor the other sets; first figures in its commit; no longer blind: the rules were revised on it)'],
          ['opinions-fresh12.json', 'fresh12 (written blind on 2026-11-27 by a helper that had read neither the analyzers nor the other sets; first figures in its commit; no longer blind: the rules were revised on it)'],
          ['opinions-fresh13.json', 'fresh13 (written blind on 2026-11-27 by a helper that had read neither the analyzers nor the other sets; first figures in its commit; no longer blind: the rules were revised on it)'],
          ['opinions-fresh14.json', 'fresh14 (written blind on 2026-11-27 by a helper that had read neither the analyzers nor the other sets; first figures in its commit; no longer blind: the rules were revised on it)'],
          ['opinions-fresh15.json', 'fresh15 (written blind on 2026-11-27 by a helper that had read neither the analyzers nor the other sets; first figures in its commit; no longer blind: the rules were revised on it)'],
          ['opinions-fresh16.json', 'fresh16 (written blind on 2026-11-27 by a helper that had read neither the analyzers nor the other sets; first figures in its commit; no longer blind: the rules were revised on it)'],
          ['opinions-fresh17.json', 'fresh17 (written blind on 2026-11-27 by a helper that had read neither the analyzers nor the other sets; first figures in its commit)'],
        ] as const
      )
        .map(([f, label]): [string, string] => [resolve(repo, 'test/fixtures', f), label])
        .filter(([f]) => existsSync(f))
const annotator = createAnnotator()
const extractor = createEntityExtractor()
const norm = (s: string): string => s.toLowerCase().replace(/[\s"“”„«»]+/g, ' ').trim().replace(/^[\s.,;:!?'‘’]+|[\s.,;:!?'‘’]+$/g, '')
const line = (name: string, c: Counts): string => {
  const p = c.tp / Math.max(1, c.tp + c.fp)
  const r = c.tp / Math.max(1, c.tp + c.fn)
  return `  ${name.padEnd(22)} P ${p.toFixed(3)}  R ${r.toFixed(3)}  F1 ${(p + r === 0 ? 0 : (2 * p * r) / (p + r)).toFixed(3)}  (tp ${c.tp}, fp ${c.fp}, fn ${c.fn})`
}

for (const [file, label] of files) {
  const { cases } = JSON.parse(readFileSync(file, 'utf8')) as {
    cases: { text: string; opinions: Expected[]; user_entities?: UserEntity[]; expect_type?: 'named' | 'user' }[]
  }
  const pairs: Counts = { tp: 0, fp: 0, fn: 0 }
  // topic: of the expected opinions found (speaker and quotation right) that name acceptable topics, how many got one
  const topics = { right: 0, scored: 0 }
  let typeWrong = 0
  const speakers: Counts = { tp: 0, fp: 0, fn: 0 }
  const unrecognised: string[] = []
  const t0 = performance.now()
  for (const c of cases) {
    const doc = annotator.annotate(c.text)
    // as documentEntities in the pipeline: user entities (literal terms) first, named ones off the tokens they take
    const user: DocumentEntity[] = []
    const taken = new Set<number>()
    if (c.user_entities !== undefined) {
      const literals = c.user_entities.flatMap((u) => u.terms.map((t) => ({ ...u, words: annotator.annotate(t).tokens.map((k) => k.text.toLowerCase()) })))
      for (const [lit, mentions] of literalMatches(doc, literals)) {
        for (const m of mentions) for (let k = m.tokenStart; k < m.tokenEnd; k++) taken.add(k)
        user.push({ type: 'user', title: lit.title, entity_type: lit.entity_type, mentions })
      }
    }
    const named: DocumentEntity[] = extractor
      .extract(doc)
      .map((e) => ({ type: 'named' as const, title: e.title, entity_type: e.entity_type, mentions: e.mentions.filter((m) => ![...Array(m.tokenEnd - m.tokenStart).keys()].some((k) => taken.has(m.tokenStart + k))) }))
      .filter((e) => e.mentions.length > 0)
    const entities = [...user, ...named]
    const got = findOpinions(doc, entities, undefined)
    for (const [counts, key] of [
      [pairs, (x: Keyed) => `${x.speaker.toLowerCase()}|${norm(x.quotation)}`],
      [speakers, (x: Keyed) => x.speaker.toLowerCase()],
    ] as const) {
      const g = new Set(c.opinions.map(key))
      const p = new Set(got.map(key))
      for (const k of p) if (g.has(k)) counts.tp++
      else counts.fp++
      for (const k of g) if (!p.has(k)) counts.fn++
    }
    const pairKey = (x: Keyed): string => `${x.speaker.toLowerCase()}|${norm(x.quotation)}`
    for (const x of c.opinions) {
      const hit = got.find((o) => pairKey(o) === pairKey(x))
      if (hit === undefined) continue
      if (hit.type !== (c.expect_type ?? 'named')) typeWrong++
      if (x.topic === undefined || x.topic.length === 0) continue
      topics.scored++
      if (x.topic.some((t) => t.toLowerCase() === hit.topic.toLowerCase())) topics.right++
    }
    const titles = new Set(entities.map((e) => e.title.toLowerCase()))
    for (const s of new Set(c.opinions.map((x) => x.speaker))) if (!titles.has(s.toLowerCase())) unrecognised.push(s)
    if (verbose) {
      const gk = c.opinions.map((x) => `${x.speaker}|${norm(x.quotation)}`).join('; ')
      const pk = got.map((x) => `${x.speaker}|${norm(x.quotation)}`).join('; ')
      if (gk !== pk) console.log(`${c.text}\n  gold: ${gk}\n  got:  ${got.map((x) => `${x.speaker}|${x.quotation}|topic ${x.topic}`).join('; ')}\n  entities: ${entities.map((e) => `${e.title}/${e.entity_type}`).join(', ')}`)
    }
  }
  const ms = performance.now() - t0
  console.log(`${label}: ${file}: ${cases.length} cases, ${cases.reduce((a, c) => a + c.opinions.length, 0)} opinions expected (${ms.toFixed(0)} ms with annotation and entities)`)
  console.log(line('speaker + quotation', pairs))
  console.log(line('speaker per case', speakers))
  if (topics.scored > 0) console.log(`  topic (of the pairs found whose case names acceptable topics): ${topics.right}/${topics.scored} = ${(topics.right / topics.scored).toFixed(3)}`)
  console.log(`  pairs found with the wrong type (named/user): ${typeWrong}`)
  console.log(`  expected speakers the entity recogniser does not give as a title: ${unrecognised.length}${unrecognised.length > 0 ? ` (${unrecognised.slice(0, 8).join(', ')}${unrecognised.length > 8 ? ', ...' : ''})` : ''}`)
}
