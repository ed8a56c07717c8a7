/**
 * Memory of a backlog: 10,000 documents (the sample texts, repeated with distinct ids) submitted to the engine's
 * queue in batches of 100, processed in the background, held as processed outputs, then taken. Prints the peak
 * RSS of the process (the kernel's high-water mark) and, at each stage (models loaded, outputs held, outputs
 * taken), RSS, the JS heap and off-heap array buffers.
 *
 * The backlog runs three times, each in fresh processes: on the compiled package under plain `node` (what a user runs:
 * `npm run build`'s output, compiled here into .tmp/memory-dist, a private folder, so the bench never rewrites
 * dist/ under other users of the working tree), on the sources under tsx (as every other bench runs; tsx keeps
 * the transpiled source of every module, chevrotain's 644 files and wink's 3 MB model JSON, transformed to a
 * JavaScript module, included, about 120 MiB more after loading), and on the compiled package under
 * `node --heap-growing-percent=15`, the heap setting `textengine serve` runs with (its `heap_growing_percent`), which
 * code that embeds the engine may give its own process.
 *
 * Then, on the compiled package, a stream of new vocabulary: every distinct text of the data folder's sentiment
 * corpora, keyphrase documents, aspect sentences and CoNLL-2003 training sentences, in that order, through
 * `engine.analyze` one after another (no backlog). The sample sets repeat about 18k words; this stream brings tens of
 * thousands more, which is what the caches that intern words (wink's learned words, the annotator's, the NER
 * decoders', the aspect features') meet in a long-running server. Prints its peak RSS and the heap at the end.
 *
 *   npx tsx bench/memory.ts [data dir] [--no-build] [--only compiled|tsx|serve|stream] [--runs N]   BENCH_BACKLOG=n documents (default 10,000)
 *
 * Each backlog runs in N fresh processes (default 3) and its figures are their medians: the same code's peak RSS moves
 * by up to 100 MiB from one process to the next, with when V8 runs its major collections (the old space holds garbage
 * until the next one). The live heap with the outputs held (after a full collection, `--expose-gc`) is printed beside
 * it (from one more process, whose peak is not counted: the collection lowers what comes after): what the engine and
 * its outputs actually hold.
 *   BENCH_PACK_ABOVE=bytes: the memory storage's compressOutputsAbove (Infinity: never deflate; default: the storage's)
 *
 * `serve` (Linux: it reads the server's /proc entries): the same backlog through the standalone server itself,
 * `textengine serve` of the compiled package (`TEXTENGINE_WORKERS=0`, memory storage) in a process of its own: signed
 * `POST /document/batch.json` calls of 100, a wait until the server's CPU time stops growing (the backlog analysed and
 * held), then `GET /document/processed.json` until every document came back; the server's peak RSS (VmHWM) when held
 * and at the end, and its CPU time. What a self-hosted server's memory does with the backlog, its HTTP layer, request
 * bodies and answers included.
 */
import { spawn, spawnSync } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { dataDir, loadSamples, median, record } from './samples.ts'
import { buildPackageInto } from './build-dist.ts'
import { BENCH_KEY, BENCH_SECRET, closeHttpClient, signed } from './http-client.ts'
import { DEFAULT_HEAP_GROWING_PERCENT } from '../src/server/config.ts'

const ROOT = fileURLToPath(new URL('..', import.meta.url))
const BUILD = join(ROOT, '.tmp', 'memory-dist')
const N = Math.max(1, Number(process.env['BENCH_BACKLOG'] ?? 10_000))
const BATCH = 100
const runsArg = process.argv.indexOf('--runs')
/** Fresh processes per backlog run (`--runs N`, default 3); the figures are their medians. */
const backlogRuns = Math.max(1, runsArg >= 0 ? Number(process.argv[runsArg + 1]) : 3)
const onlyArg = process.argv.indexOf('--only')
const only = onlyArg >= 0 ? process.argv[onlyArg + 1] : undefined
const dir = dataDir(process.argv.slice(2).find((a, i, all) => !a.startsWith('--') && all[i - 1] !== '--only' && all[i - 1] !== '--runs'))
const texts = loadSamples(dir).flatMap((s) => s.texts)
const textsFile = join(mkdtempSync(join(tmpdir(), 'textengine-memory-')), 'texts.json')
writeFileSync(textsFile, JSON.stringify(texts))

/** The backlog, as plain JavaScript (run by `node` on the build, or by `node --import tsx` on the sources). */
const backlog = (engineModule: string, measureLive: boolean): string => `
import { readFileSync } from 'node:fs'
import { createEngine, createMemoryStorage } from ${JSON.stringify(engineModule)}
const N = ${N}, BATCH = ${BATCH}
const texts = JSON.parse(readFileSync(${JSON.stringify(textsFile)}, 'utf8'))
const where = () => {
  const m = process.memoryUsage()
  const f = (b) => Math.round(b / 1024 / 1024)
  return { rss: f(m.rss), heapUsed: f(m.heapUsed), heapTotal: f(m.heapTotal), arrayBuffers: f(m.arrayBuffers) }
}
// The high-water mark's moment: RSS sampled every 20 ms (between documents: the in-process worker yields before each).
let top = { rss: 0, stage: 'loading', heapTotal: 0, arrayBuffers: 0 }
let stage = 'loading'
setInterval(() => {
  const m = process.memoryUsage()
  if (m.rss > top.rss) top = { rss: m.rss, stage, heapTotal: m.heapTotal, arrayBuffers: m.arrayBuffers }
}, 20).unref()
const unlimited = { billing_settings: { data_calls_limit: 0, settings_calls_limit: 0, polling_calls_limit: 0 } }
const pack = ${JSON.stringify(process.env['BENCH_PACK_ABOVE'] ?? '')}
const engine = createEngine({ accounts: [{ key: 'mem', secret: 'mem', subscription: unlimited }], ...(pack === '' ? {} : { storage: createMemoryStorage({ compressOutputsAbove: Number(pack) }) }) })
const api = engine.account('mem')
await engine.analyze(texts[0]) // models loaded
const loaded = where()
stage = 'processing'
const t0 = performance.now()
for (let i = 0; i < N; i += BATCH) {
  const batch = Array.from({ length: Math.min(BATCH, N - i) }, (_, j) => ({ id: 'm' + (i + j), text: texts[(i + j) % texts.length] }))
  await api.submitDocuments(batch, { batch: true })
}
await engine.drain()
const seconds = (performance.now() - t0) / 1000
const held = where()
// What the engine and the held outputs take once garbage is collected (V8 leaves garbage in the old space until its
// next mark-compact, so the peak RSS also depends on when that comes).
let live = -1
if (${measureLive}) {
  globalThis.gc()
  live = where().heapUsed
}
stage = 'taking'
let taken = 0
while (taken < N) {
  const got = await api.takeProcessedDocuments({})
  if (got.length === 0) break
  taken += got.length
}
const after = where()
await engine.close()
const f = (b) => Math.round(b / 1024 / 1024)
process.stdout.write(JSON.stringify({ seconds, taken, loaded, held, live, after, peak: process.resourceUsage().maxRSS / 1024, top: { stage: top.stage, rss: f(top.rss), heapTotal: f(top.heapTotal), arrayBuffers: f(top.arrayBuffers) } }))
`

interface Stage {
  readonly rss: number
  readonly heapUsed: number
  readonly heapTotal: number
  readonly arrayBuffers: number
}
interface Result {
  readonly seconds: number
  readonly taken: number
  readonly loaded: Stage
  readonly held: Stage
  /** Heap in use with the outputs held, after a full collection (MiB); -1 unless measured (a run of its own). */
  readonly live: number
  readonly after: Stage
  readonly peak: number
  /** The highest RSS sampled (every 20 ms): its stage, heap committed and array buffers then. */
  readonly top: { stage: string; rss: number; heapTotal: number; arrayBuffers: number }
}

function run(name: string, nodeArgs: readonly string[], engineModule: string, measureLive = false): Result {
  const r = spawnSync(process.execPath, [...nodeArgs, ...(measureLive ? ['--expose-gc'] : []), '--input-type=module', '-e', backlog(engineModule, measureLive)], { cwd: ROOT, encoding: 'utf8', maxBuffer: 1 << 24 })
  if (r.status !== 0) throw new Error(`${name} backlog exited with ${String(r.status)}:\n${r.stderr}`)
  return JSON.parse(r.stdout) as Result
}

const runs: Array<{ name: string; key: string; args: string[]; module: string }> = []
if (only === undefined || only === 'compiled' || only === 'serve' || only === 'stream') {
  if (!process.argv.includes('--no-build')) {
    buildPackageInto(ROOT, BUILD)
  }
}
if (only === undefined || only === 'compiled') {
  runs.push({ name: 'compiled package, plain node', key: 'memory.compiled', args: [], module: pathToFileURL(join(BUILD, 'src', 'index.js')).href })
  // The heap setting `textengine serve` runs with (its `heap_growing_percent`), for code that embeds the engine: it is
  // the host process's to set (`node --heap-growing-percent=15`), so the engine never sets it.
  runs.push({ name: `compiled package, node --heap-growing-percent=${DEFAULT_HEAP_GROWING_PERCENT}`, key: 'memory.compiled_heap_growing', args: [`--heap-growing-percent=${DEFAULT_HEAP_GROWING_PERCENT}`], module: pathToFileURL(join(BUILD, 'src', 'index.js')).href })
}
if (only === undefined || only === 'tsx') {
  runs.push({ name: 'sources under tsx', key: 'memory', args: ['--import', 'tsx'], module: pathToFileURL(join(ROOT, 'src', 'index.ts')).href })
}

const stage = (s: Stage): string => `RSS ${s.rss}, heap ${s.heapUsed} of ${s.heapTotal}, array buffers ${s.arrayBuffers}`
console.log(`backlog of ${N} documents (${texts.length} sample texts repeated), batches of ${BATCH}, ${backlogRuns} fresh process(es) per run; MiB\n`)
console.log('| run | processed in | loaded | outputs held | taken | peak RSS | highest sampled |')
console.log('| --- | ---: | --- | --- | --- | ---: | --- |')
const summaries: string[] = []
for (const r of runs) {
  const results: Result[] = []
  for (let k = 0; k < backlogRuns; k++) {
    const m = run(r.name, r.args, r.module)
    if (m.taken !== N) throw new Error(`${r.name}: ${N} submitted, ${m.taken} taken`)
    results.push(m)
    console.log(`| ${r.name} | ${m.seconds.toFixed(1)} s | ${stage(m.loaded)} | ${stage(m.held)} | ${stage(m.after)} | ${m.peak.toFixed(0)} | ${m.top.rss} while ${m.top.stage} (heap ${m.top.heapTotal}, array buffers ${m.top.arrayBuffers}) |`)
  }
  // The median over fresh processes: one run's peak moves by up to 100 MiB with the timing of V8's collections.
  const peaks = results.map((m) => m.peak)
  const peak = median(peaks)
  // One more process, not counted above: it collects the garbage once the outputs are held (which would lower the
  // peaks that come later, while they are taken) to read what the engine and the outputs hold.
  const live = run(r.name, r.args, r.module, true).live
  summaries.push(`${r.name}: peak RSS median ${peak.toFixed(0)} MiB (${Math.min(...peaks).toFixed(0)}-${Math.max(...peaks).toFixed(0)} over ${results.length}); live heap with the outputs held, after a full collection, ${live} MiB; target <= 300: ${peak <= 300 ? 'met' : 'NOT met'}`)
  record(`${r.key}.backlog_peak_rss_mib`, peak, 'MiB', false)
  record(`${r.key}.backlog_held_rss_mib`, median(results.map((m) => m.held.rss)), 'MiB', false)
  record(`${r.key}.loaded_rss_mib`, median(results.map((m) => m.loaded.rss)), 'MiB', false)
}
console.log('')
for (const line of summaries) console.log(line)

// The standalone server's own backlog (see the module comment), on the compiled package.
interface ServeResult {
  /** Peak RSS (MiB) once the backlog is analysed and held, and at the end (every output taken). */
  readonly held: number
  readonly peak: number
  /** The server's CPU seconds (user + system) for the backlog, from start to every document analysed. */
  readonly cpu: number
}
async function serverBacklog(args: readonly string[]): Promise<ServeResult> {
  const child = spawn(process.execPath, args, {
    cwd: ROOT,
    env: { ...process.env, TEXTENGINE_WORKERS: '0', HOST: '127.0.0.1', PORT: '0', API_KEY: BENCH_KEY, API_SECRET: BENCH_SECRET, TEXTENGINE_LOG_FORMAT: 'off' },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let stderr = ''
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()))
  try {
    const port = await new Promise<number>((resolve, reject) => {
      let out = ''
      child.stdout.on('data', (c: Buffer) => {
        out += c.toString()
        const m = /listening on http:\/\/127\.0\.0\.1:(\d+)/.exec(out)
        if (m !== null) resolve(Number(m[1]))
      })
      child.once('exit', (code) => reject(new Error(`server exited with ${String(code)} before listening:\n${stderr}`)))
    })
    const call = (method: string, path: string, body?: string): Promise<{ status: number; text: string }> => signed(port, method, path, body)
    const proc = (file: string): string => readFileSync(`/proc/${child.pid}/${file}`, 'utf8')
    const cpu = (): number => {
      const f = proc('stat').split(') ')[1]!.split(' ')
      return (Number(f[11]) + Number(f[12])) / 100
    }
    const hwm = (): number => Number(/VmHWM:\s+(\d+)/.exec(proc('status'))![1]) / 1024
    for (let i = 0; i < N; i += BATCH) {
      const batch = Array.from({ length: Math.min(BATCH, N - i) }, (_, j) => ({ id: 'm' + (i + j), text: texts[(i + j) % texts.length] }))
      const r = await call('POST', '/document/batch.json', JSON.stringify(batch))
      if (r.status !== 202) throw new Error(`submit answered ${r.status}: ${r.text}`)
    }
    // Analysed and held: the server's CPU time stands still for a second (its clock ticks are 10 ms).
    let last = -1
    for (let c = cpu(); c !== last; c = cpu()) {
      last = c
      await new Promise((r) => setTimeout(r, 1000))
    }
    const held = hwm()
    let taken = 0
    for (let r = await call('GET', '/document/processed.json'); r.status === 200; r = await call('GET', '/document/processed.json')) {
      taken += (JSON.parse(r.text) as unknown[]).length
    }
    if (taken !== N) throw new Error(`server: ${N} submitted, ${taken} taken`)
    return { held, peak: hwm(), cpu: last }
  } finally {
    child.kill('SIGTERM')
    await new Promise((r) => (child.exitCode !== null ? r(undefined) : child.once('exit', r)))
  }
}
if ((only === undefined || only === 'serve') && existsSync('/proc/self/status')) {
  const serve = [join(BUILD, 'src', 'cli.js'), 'serve']
  const results: ServeResult[] = []
  console.log(`\nbacklog of ${N} documents through the standalone server over HTTP (textengine serve of the compiled package, TEXTENGINE_WORKERS=0, memory storage, heap_growing_percent ${process.env['TEXTENGINE_HEAP_GROWING_PERCENT'] ?? `${DEFAULT_HEAP_GROWING_PERCENT} (its default)`}); MiB\n`)
  console.log('| run | server CPU | peak RSS, held | peak RSS, at the end |')
  console.log('| --- | ---: | ---: | ---: |')
  for (let k = 0; k < backlogRuns; k++) {
    const m = await serverBacklog(serve)
    results.push(m)
    console.log(`| textengine serve | ${m.cpu.toFixed(1)} s | ${m.held.toFixed(0)} | ${m.peak.toFixed(0)} |`)
  }
  const peaks = results.map((m) => m.peak)
  const peak = median(peaks)
  console.log(`\ntextengine serve: peak RSS median ${peak.toFixed(0)} MiB (${Math.min(...peaks).toFixed(0)}-${Math.max(...peaks).toFixed(0)} over ${peaks.length}), server CPU median ${median(results.map((m) => m.cpu)).toFixed(1)} s; target <= 300: ${peak <= 300 ? 'met' : 'NOT met'}`)
  record('memory.serve.backlog_peak_rss_mib', peak, 'MiB', false)
  closeHttpClient()
} else if (only === undefined || only === 'serve') {
  console.log('\nbacklog through textengine serve: not measured (it reads the server process\'s /proc entries, which this system lacks)')
}

// The stream of new vocabulary (see the module comment), on the compiled package.
/** Distinct texts of the data folder's corpora, in a fixed order (what is missing is left out). */
function vocabularyTexts(data: string): string[] {
  const out: string[] = []
  const file = (...p: string[]): string | undefined => (existsSync(join(data, ...p)) ? readFileSync(join(data, ...p), 'utf8') : undefined)
  // Sentiment corpora: "id<TAB>rating<TAB>text" lines, and TweetEval's one tweet per line.
  for (const f of ['tweets_GroundTruth.txt', 'movieReviewSnippets_GroundTruth.txt']) {
    for (const line of (file('sentiment', f) ?? '').split(/\r?\n/)) out.push(line.split('\t').slice(2).join(' '))
  }
  out.push(...(file('sentiment', 'tweeteval', 'val_text.txt') ?? '').split(/\r?\n/))
  // Keyphrase documents, file by file in name order.
  for (const set of ['Inspec', 'SemEval2017', '500N-KPCrowd-dev']) {
    const d = join(data, 'keyphrase', set, 'docsutf8')
    if (!existsSync(d)) continue
    for (const f of readdirSync(d).sort()) out.push(readFileSync(join(d, f), 'utf8').slice(0, 2048))
  }
  // Aspect sentences: three lines per item, the sentence first, with $T$ for the aspect.
  for (const f of ['Restaurants_Train.xml.seg', 'Laptops_Train.xml.seg']) {
    const lines = (file('aspects', f) ?? '').split(/\r?\n/)
    for (let i = 0; i + 1 < lines.length; i += 3) out.push(lines[i]!.replace('$T$', lines[i + 1]!))
  }
  // CoNLL-2003 training sentences, tokens joined by spaces.
  let words: string[] = []
  for (const line of (file('ner', 'eng.train') ?? '').split(/\r?\n/)) {
    const w = line.split(' ')[0] ?? ''
    if (w === '' || w === '-DOCSTART-') {
      if (words.length > 0) out.push(words.join(' '))
      words = []
    } else words.push(w)
  }
  if (words.length > 0) out.push(words.join(' '))
  return [...new Set(out.map((t) => t.trim()).filter((t) => t !== ''))]
}

if (only === undefined || only === 'stream') {
  const stream = vocabularyTexts(dir)
  const distinct = new Set(stream.flatMap((t) => t.toLowerCase().split(/[^\p{L}\p{N}']+/u).filter((w) => w !== ''))).size
  const streamFile = join(mkdtempSync(join(tmpdir(), 'textengine-memory-')), 'stream.json')
  writeFileSync(streamFile, JSON.stringify(stream))
  const program = `
import { readFileSync } from 'node:fs'
import { createEngine } from ${JSON.stringify(pathToFileURL(join(BUILD, 'src', 'index.js')).href)}
const texts = JSON.parse(readFileSync(${JSON.stringify(streamFile)}, 'utf8'))
const engine = createEngine({ background: false })
const t0 = performance.now()
for (const t of texts) await engine.analyze(t)
const seconds = (performance.now() - t0) / 1000
const m = process.memoryUsage()
const f = (b) => Math.round(b / 1024 / 1024)
await engine.close()
process.stdout.write(JSON.stringify({ seconds, peak: process.resourceUsage().maxRSS / 1024, rss: f(m.rss), heapUsed: f(m.heapUsed), heapTotal: f(m.heapTotal), arrayBuffers: f(m.arrayBuffers) }))
`
  const r = spawnSync(process.execPath, ['--input-type=module', '-e', program], { cwd: ROOT, encoding: 'utf8', maxBuffer: 1 << 24 })
  if (r.status !== 0) throw new Error(`vocabulary stream exited with ${String(r.status)}:\n${r.stderr}`)
  const m = JSON.parse(r.stdout) as { seconds: number; peak: number; rss: number; heapUsed: number; heapTotal: number; arrayBuffers: number }
  console.log(`\nstream of new vocabulary (compiled package, engine.analyze one text after another): ${stream.length} distinct texts of ${dir}, ${distinct} distinct words; MiB\n`)
  console.log('| run | analysed in | at the end | peak RSS |')
  console.log('| --- | ---: | --- | ---: |')
  console.log(`| vocabulary stream | ${m.seconds.toFixed(1)} s | RSS ${m.rss}, heap ${m.heapUsed} of ${m.heapTotal}, array buffers ${m.arrayBuffers} | ${m.peak.toFixed(0)} |`)
  record('memory.stream.peak_rss_mib', m.peak, 'MiB', false)
}
