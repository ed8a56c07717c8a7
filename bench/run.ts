/**
 * `npm run bench -- [data dir] [--docs N] [--save-baseline]`: every speed benchmark in turn, each in its own
 * process (so one's memory and JIT state never colours another's figures), with the same data folder; then each
 * figure beside the committed baseline (bench/baseline.json) and its change.
 *
 * - engine.ts: one-thread docs/s and tokens/s per set for wink `readDoc`, our analyze (default, every output on),
 *   VADER and compromise; per-step shares; 1 thread vs N workers; model loads; peak RSS.
 * - http.ts: analyze, the queued path and HTTP end to end per set.
 * - queries.ts: query evaluation cost (0, 100, 1,000 queries).
 * - memory.ts: peak RSS over a 10k-document backlog.
 * - cold-start.ts: process start to first result (plain node on the compiled package) beside wink-nlp.
 *
 * `--docs N` caps each sample set at N texts (BENCH_DOCS; the full sets are tweets 3,211, reviews 100, news 10);
 * `--only engine,http` runs some; `--save-baseline` writes this run's figures to bench/baseline.json.
 */
import { spawnSync } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { availableParallelism, cpus, loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { BenchFigure } from './samples.ts'

const argv = process.argv.slice(2)
const flag = (name: string): string | undefined => {
  const i = argv.indexOf(name)
  if (i < 0) return undefined
  const v = argv[i + 1]
  argv.splice(i, 2)
  return v
}
const docs = flag('--docs')
const only = flag('--only')?.split(',')
const save = argv.includes('--save-baseline')
const args = argv.filter((a) => a !== '--save-baseline')
if (docs !== undefined && !(Number(docs) > 0)) {
  process.stderr.write(`--docs needs a positive number, found ${JSON.stringify(docs)}\n`)
  process.exit(2)
}

const results = join(mkdtempSync(join(tmpdir(), 'textengine-bench-')), 'figures.jsonl')
writeFileSync(results, '')
const env = { ...process.env, BENCH_RESULTS: results, ...(docs !== undefined ? { BENCH_DOCS: docs } : {}) }
const benches = ['engine', 'http', 'queries', 'memory', 'cold-start'].filter((b) => only === undefined || only.includes(b))
const started = new Date()
const load0 = loadavg()[0]!
let failed = 0
for (const b of benches) {
  console.log(`\n## bench/${b}.ts\n`)
  const r = spawnSync(process.execPath, ['--import', 'tsx', fileURLToPath(new URL(`${b}.ts`, import.meta.url)), ...args], { stdio: 'inherit', env })
  if (r.status !== 0) {
    failed++
    console.log(`\nbench/${b}.ts FAILED (exit ${String(r.status)}${r.signal ? `, ${r.signal}` : ''})`)
  }
}

const figures: BenchFigure[] = readFileSync(results, 'utf8').split('\n').filter((l) => l !== '').map((l) => JSON.parse(l) as BenchFigure)
const baselineFile = fileURLToPath(new URL('baseline.json', import.meta.url))
interface Baseline {
  readonly measured: string
  readonly commit: string
  readonly machine: string
  readonly docs: string
  readonly note: string
  readonly figures: Record<string, { value: number; unit: string; higherIsBetter: boolean }>
}
const baseline: Baseline | undefined = existsSync(baselineFile) ? (JSON.parse(readFileSync(baselineFile, 'utf8')) as Baseline) : undefined

console.log('\n## change against bench/baseline.json\n')
if (baseline === undefined) console.log('no baseline file (run with --save-baseline to write one)')
else {
  console.log(`baseline: ${baseline.measured}, commit ${baseline.commit}, ${baseline.machine}, docs per set: ${baseline.docs}${baseline.note ? `; ${baseline.note}` : ''}`)
  console.log(`this run: ${started.toISOString()}, docs per set: ${docs ?? 'all'}, load average at start ${load0.toFixed(2)} on ${availableParallelism()} cores\n`)
  console.log('| figure | baseline | now | change |')
  console.log('| --- | ---: | ---: | ---: |')
  for (const f of figures) {
    const b = baseline.figures[f.key]
    if (b === undefined) {
      console.log(`| ${f.key} | - | ${f.value} ${f.unit} | new |`)
      continue
    }
    const change = b.value === 0 ? 0 : (f.value - b.value) / b.value
    const better = f.higherIsBetter ? change > 0 : change < 0
    console.log(`| ${f.key} | ${b.value} | ${f.value} ${f.unit} | ${change >= 0 ? '+' : ''}${(100 * change).toFixed(1)}%${Math.abs(change) >= 0.05 ? (better ? ' better' : ' worse') : ''} |`)
  }
  for (const k of Object.keys(baseline.figures)) if (!figures.some((f) => f.key === k)) console.log(`| ${k} | ${baseline.figures[k]!.value} | (not measured) | |`)
}

if (save) {
  const commit = spawnSync('git', ['rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).stdout.trim() || 'unknown'
  const out: Baseline = {
    measured: started.toISOString(),
    commit,
    machine: `${cpus()[0]?.model ?? process.arch}, ${availableParallelism()} cores, node ${process.version}, load average ${load0.toFixed(2)} at start`,
    docs: docs ?? 'all',
    note: process.env['BENCH_NOTE'] ?? '',
    figures: Object.fromEntries(figures.map((f) => [f.key, { value: f.value, unit: f.unit, higherIsBetter: f.higherIsBetter }])),
  }
  writeFileSync(baselineFile, JSON.stringify(out, null, 2) + '\n')
  console.log(`\nwrote ${figures.length} figures to ${baselineFile}`)
}
process.exitCode = failed === 0 ? 0 : 1
