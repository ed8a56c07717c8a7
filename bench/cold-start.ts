/**
 * `npm run bench:cold-start [-- --runs N]` (also run by `npm run bench`): time from process start to the first
 * analysis result, in fresh processes, ours beside wink-nlp in the same run.
 *
 * - ours: plain `node` importing the compiled package, `createEngine().analyze(text)` — every built-in model
 *   (language, sentiment lexicons and model, NER tagger and lexicons, wink-nlp's English model) is loaded for this
 *   first result. The package is compiled as `npm run build` does (tsc with tsconfig.build.json, esbuild for the
 *   query grammar) into .tmp/cold-start-dist, a private folder, so the bench never rewrites dist/ under other
 *   users of the working tree (`--dist` measures the existing dist/ instead, `--no-build` reuses the last build);
 * - wink-nlp: `winkNLP(model).readDoc(text)` with wink-eng-lite-web-model, tokens read out.
 *
 * Each child reports `performance.now()` when it has its result (milliseconds since its process started, Node's
 * time origin) and the CPU time it has used by then (`process.cpuUsage()`, user + system, every thread of the
 * process: on a loaded machine the wall time also counts the waits for a core, the CPU time much less); the parent
 * also records the wall time from spawn to exit. Runs alternate ours/wink so that noise on this shared machine falls
 * on both; medians are printed with their ratio.
 *
 * `--build DIR` measures the compiled package in DIR instead of building one. `--baseline DIR` also measures the compiled package in DIR (`DIR/src/index.js`, e.g. a build of another commit
 * made with `bench/build-dist.ts`), in the same alternation: a before/after comparison in one run.
 */
import { spawnSync } from 'node:child_process'
import { availableParallelism, loadavg } from 'node:os'
import { join, resolve } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { median, record } from './samples.ts'
import { buildPackageInto } from './build-dist.ts'

const ROOT = fileURLToPath(new URL('..', import.meta.url))
const TEXT = 'The staff were friendly, but the room was not clean. Tim Cook stayed here!'
const runsArg = process.argv.indexOf('--runs')
const RUNS = runsArg >= 0 ? Number(process.argv[runsArg + 1]) : 7

const buildArg = process.argv.indexOf('--build')
const BUILD =
  buildArg >= 0 ? resolve(process.argv[buildArg + 1] ?? '') : process.argv.includes('--dist') ? join(ROOT, 'dist') : join(ROOT, '.tmp', 'cold-start-dist')
const baselineArg = process.argv.indexOf('--baseline')
const BASELINE = baselineArg >= 0 ? resolve(process.argv[baselineArg + 1] ?? '') : undefined
const ours = (build: string): string => `
import { createEngine } from ${JSON.stringify(pathToFileURL(join(build, 'src', 'index.js')).href)}
const engine = createEngine()
const out = await engine.analyze(${JSON.stringify(TEXT)}, { id: 'cold' })
const ms = performance.now()
const cpu = process.cpuUsage()
await engine.close()
const person = out.entities?.find((e) => e.entity_type === 'Person')?.title
process.stdout.write(JSON.stringify({ ms, cpu: (cpu.user + cpu.system) / 1000, check: out.status + ' ' + out.sentiment_polarity + ' ' + person }))
`
const WINK = `
import { createRequire } from 'node:module'
const require = createRequire(${JSON.stringify(new URL('../package.json', import.meta.url).href)})
const winkNLP = require('wink-nlp')
const model = require('wink-eng-lite-web-model')
const nlp = winkNLP(model)
const tokens = nlp.readDoc(${JSON.stringify(TEXT)}).tokens().out()
const ms = performance.now()
const cpu = process.cpuUsage()
process.stdout.write(JSON.stringify({ ms, cpu: (cpu.user + cpu.system) / 1000, check: tokens.length + ' tokens' }))
`

interface Sample {
  readonly ms: number
  readonly cpu: number
  readonly wall: number
  readonly check: string
}

function run(code: string, name: string): Sample {
  const t0 = performance.now()
  const r = spawnSync(process.execPath, ['--input-type=module', '-e', code], { cwd: ROOT, encoding: 'utf8' })
  const wall = performance.now() - t0
  if (r.status !== 0) throw new Error(`${name} exited with ${String(r.status)}:\n${r.stderr}`)
  const { ms, cpu, check } = JSON.parse(r.stdout) as { ms: number; cpu: number; check: string }
  return { ms, cpu, wall, check }
}


if (!process.argv.includes('--no-build') && !process.argv.includes('--dist') && buildArg < 0) {
  buildPackageInto(ROOT, BUILD)
}

const oursCode = ours(BUILD)
const baselineCode = BASELINE === undefined ? undefined : ours(BASELINE)
const mine: Sample[] = []
const wink: Sample[] = []
const base: Sample[] = []
for (let i = 0; i < RUNS; i++) {
  mine.push(run(oursCode, 'ours'))
  wink.push(run(WINK, 'wink-nlp'))
  if (baselineCode !== undefined) base.push(run(baselineCode, 'baseline'))
}
const expected = 'PROCESSED negative Tim Cook'
for (const xs of [mine, base]) if (xs.some((s) => s.check !== expected)) throw new Error(`unexpected result: ${xs.map((s) => s.check).join(' | ')}`)

const fmt = (x: number): string => x.toFixed(0).padStart(6)
console.log(`Cold start: process start -> first analysis result, ${RUNS} fresh processes each, alternating (node ${process.version})`)
console.log(`text: ${JSON.stringify(TEXT)}`)
// On a shared machine the absolute figures move with the load; the ratio (same run, alternating) moves less.
console.log(`load average ${loadavg().map((x) => x.toFixed(2)).join(' ')} on ${availableParallelism()} cores\n`)
console.log('| | median ms to result | min | max | median CPU ms to result | median wall ms (spawn to exit) | result |')
console.log('| --- | ---: | ---: | ---: | ---: | ---: | --- |')
const rows: [string, Sample[]][] = [[`textengine (${BUILD.startsWith(ROOT) ? BUILD.slice(ROOT.length) : BUILD}, createEngine().analyze)`, mine], ['wink-nlp readDoc (lite web model)', wink]]
if (BASELINE !== undefined) rows.push([`baseline (${BASELINE}, createEngine().analyze)`, base])
for (const [name, xs] of rows) {
  const ms = xs.map((s) => s.ms)
  console.log(`| ${name} | ${fmt(median(ms))} | ${fmt(Math.min(...ms))} | ${fmt(Math.max(...ms))} | ${fmt(median(xs.map((s) => s.cpu)))} | ${fmt(median(xs.map((s) => s.wall)))} | ${xs[0]!.check} |`)
}
const ratio = median(mine.map((s) => s.ms)) / median(wink.map((s) => s.ms))
const cpuRatio = median(mine.map((s) => s.cpu)) / median(wink.map((s) => s.cpu))
record('cold_start.first_result_ms', median(mine.map((s) => s.ms)), 'ms', false)
record('cold_start.wink_ms', median(wink.map((s) => s.ms)), 'ms', false)
console.log(`\nratio textengine / wink-nlp: ${ratio.toFixed(2)}x (CPU time ${cpuRatio.toFixed(2)}x); target: textengine under 1000 ms: ${median(mine.map((s) => s.ms)) < 1000 ? 'met' : 'NOT met'}`)
if (BASELINE !== undefined) {
  const r = (f: (s: Sample) => number): string => (median(mine.map(f)) / median(base.map(f))).toFixed(2)
  console.log(`textengine / baseline: ${r((s) => s.ms)}x to result, ${r((s) => s.cpu)}x CPU time`)
}
