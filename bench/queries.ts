/**
 * Query evaluation benchmark: annotate the sample documents once, then time query evaluation with
 * 0, 100 and 1,000 generated queries (compiled once per set), and print the analysis rate each
 * would give (annotation + query evaluation) and its ratio to 0 queries.
 *
 *   npx tsx bench/queries.ts [samples dir or data dir]      (default ../shared/data/samples)
 *
 * One document per line of every .txt file; for .tsv files the last column of each line after the
 * header. Queries are generated from the corpus's own words and bigrams with a seeded generator, so
 * a share of them hit; the mix covers terms, phrases, wildcards, OR, AND, NOT, NEAR, WITH, NOTWITH.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { createAnnotator } from '../src/nlp/annotate.ts'
import type { AnnotatedDocument } from '../src/nlp/types.ts'
import { compileQuerySet, createDocumentIndex, createQueryGrammar } from '../src/query/index.ts'
import { record } from './samples.ts'
import type { QueryDefinition } from '../src/query/index.ts'

// The samples folder itself, or a data folder holding one (`npm run bench -- <data dir>` passes the data folder).
const arg = process.argv[2] ?? resolve(fileURLToPath(new URL('..', import.meta.url)), '..', 'shared', 'data', 'samples')
const dir = existsSync(join(arg, 'samples')) && statSync(join(arg, 'samples')).isDirectory() ? join(arg, 'samples') : arg
if (!existsSync(dir) || !statSync(dir).isDirectory()) {
  process.stderr.write(`samples folder not found: ${dir}\nusage: npx tsx bench/queries.ts <samples dir>\n`)
  process.exit(2)
}

const texts: string[] = []
for (const f of readdirSync(dir).sort()) {
  const lines = readFileSync(join(dir, f), 'utf8').split(/\r?\n/).map((l) => l.trim()).filter((l) => l !== '')
  if (f.endsWith('.txt')) texts.push(...lines.map((l) => l.slice(0, 2048)))
  else if (f.endsWith('.tsv')) texts.push(...lines.slice(1).map((l) => (l.split('\t').at(-1) ?? '').slice(0, 2048)).filter((t) => t !== ''))
}

const annotator = createAnnotator()
annotator.annotate('Warm-up sentence for the annotator.')
let t0 = performance.now()
const docs: AnnotatedDocument[] = texts.map((t) => annotator.annotate(t))
const annotateMs = performance.now() - t0
const tokens = docs.reduce((s, d) => s + d.tokens.length, 0)

// Seeded generator (mulberry32): the same queries every run.
function createRandom(seed: number): () => number {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

// Vocabulary: letter-only words by frequency (ties alphabetical), bigrams seen in the corpus.
const counts = new Map<string, number>()
const bigrams: string[] = []
for (const d of docs) {
  for (let i = 0; i < d.tokens.length; i++) {
    const w = d.tokens[i]?.text.toLowerCase() ?? ''
    if (!/^\p{L}{3,}$/u.test(w)) continue
    counts.set(w, (counts.get(w) ?? 0) + 1)
    const next = d.tokens[i + 1]?.text.toLowerCase() ?? ''
    if (/^\p{L}{3,}$/u.test(next) && bigrams.length < 5000) bigrams.push(`${w} ${next}`)
  }
}
const operatorWords = new Set(['and', 'or', 'not', 'near', 'with', 'notwith'])
const vocabulary = [...counts.entries()]
  .filter(([w]) => !operatorWords.has(w))
  .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
  .slice(0, 3000)
  .map(([w]) => w)

function generateQueries(n: number, seed: number): QueryDefinition[] {
  const rnd = createRandom(seed)
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)] as T
  const word = (): string => pick(vocabulary)
  const term = (): string => {
    const r = rnd()
    if (r < 0.15) return `"${pick(bigrams)}"`
    if (r < 0.25) return `${word().slice(0, 4)}*`
    return word()
  }
  const shapes = [
    () => `${term()} OR ${term()} OR ${term()}`,
    () => `${term()} AND ${term()}`,
    () => `(${term()} OR ${term()}) AND ${term()}`,
    () => `${term()} NOT ${term()}`,
    () => `${term()} NEAR/${1 + Math.floor(rnd() * 10)} ${term()}`,
    () => `${term()} WITH ${term()}`,
    () => `${term()} NOTWITH ${term()}`,
    () => term(),
  ]
  return Array.from({ length: n }, (_, i) => ({ id: `q${i}`, name: `query ${i}`, query: pick(shapes)() }))
}

const grammar = createQueryGrammar()
const blacklist = vocabulary.slice(200, 205).concat(['zz*'])
const rows: Array<{ queries: number; compileMs: number; evalMs: number; matches: number }> = []
for (const n of [0, 100, 1000]) {
  const queries = generateQueries(n, 20261122 + n)
  t0 = performance.now()
  const set = compileQuerySet(queries, n === 0 ? [] : blacklist, { grammar })
  const compileMs = performance.now() - t0
  if (set.problems.length > 0) throw new Error(`generated query failed to parse: ${JSON.stringify(set.problems[0])}`)
  // Two passes, keeping the faster, to damp noise from the shared machine.
  let best = Infinity
  let matches = 0
  for (let pass = 0; pass < 2; pass++) {
    matches = 0
    t0 = performance.now()
    for (const d of docs) matches += set.evaluate(d, createDocumentIndex(d)).length
    best = Math.min(best, performance.now() - t0)
  }
  rows.push({ queries: n, compileMs, evalMs: best, matches })
}

const perDoc = (ms: number): string => `${((ms / docs.length) * 1000).toFixed(1)} µs/doc`
process.stdout.write(`documents ${docs.length}, tokens ${tokens}, from ${dir}\n`)
process.stdout.write(`annotation (wink + our token layer): ${(annotateMs / docs.length).toFixed(3)} ms/doc, ${Math.round(docs.length / (annotateMs / 1000))} docs/s\n`)
process.stdout.write('queries  compile ms  query eval          matches  analysis docs/s  ratio to 0 queries\n')
const base = annotateMs + (rows[0]?.evalMs ?? 0)
for (const r of rows) {
  const total = annotateMs + r.evalMs
  process.stdout.write(
    `${String(r.queries).padStart(7)}  ${r.compileMs.toFixed(1).padStart(10)}  ${perDoc(r.evalMs).padEnd(18)}  ${String(r.matches).padStart(7)}  ${String(Math.round(docs.length / (total / 1000))).padStart(15)}  ${(total / base).toFixed(3).padStart(18)}\n`,
  )
}
record('queries.annotation.docs_per_s', docs.length / (annotateMs / 1000), 'docs/s', true)
const last = rows[rows.length - 1]
if (last !== undefined) record('queries.ratio_1000_to_0', (annotateMs + last.evalMs) / base, 'x', false)
process.stdout.write('ratio = (annotation + query evaluation) / (annotation + evaluation with 0 queries); target: 1,000 queries at most 2.000\n')
