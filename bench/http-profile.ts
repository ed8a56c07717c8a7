/**
 * `npx tsx bench/http-profile.ts [data dir] [--set tweets|reviews|news] [--docs N] [--rounds R] [--list bucket]`
 * (`npm run bench:http-profile`): where the server's CPU goes on the HTTP path beside the in-process queue, by V8's
 * sampling profiler inside the server process, so that work on the HTTP/queue ratio of `bench/http.ts` is aimed by a
 * profile, not by feel.
 *
 * One engine and one server in this process, the client of `bench/http.ts` forked into a process of its own (so every
 * profiled sample is the server's). After two untimed passes of each path, the two paths alternate `--rounds` times
 * (default 3, the order flipping each round): the queue (`submitDocuments`, `drain`, `takeProcessedDocuments`) and HTTP
 * (signed batch submits while the client polls `processed.json`), each timed over `--docs` texts of the set (default
 * 200, the set repeated to fill them). For each path: the CPU time of this process (user and system; the kernel's
 * socket work counts in system), the profiled samples put in the first of these buckets that a frame of their stack
 * belongs to: the analysis (pipeline, models, wink-nlp), the storage, the HTTP handler and adapter (with signatures and
 * codecs), the rest of the engine; else V8's garbage collector, idle, or other (native code, node's internals); and the
 * functions that take the own time of one bucket on the HTTP path (`--list` with a bucket's name as printed, default
 * the HTTP handler's).
 *
 * A breakdown, not a rate: the profiler's sampling costs CPU of its own, and these runs read the HTTP path at 0.91
 * (news) and 0.97 (tweets) of the queue on 2026-12-07 while `bench/http.ts` read 0.72-0.87 the same hour, so the
 * ratio of the issue's target is `bench/http.ts`'s. What this adds is where the difference goes: on that day a news
 * story's answer cost about 250 us to encode (`JSON.stringify` 134, the flattening and UTF-8 of its text and the
 * escaping of a few non-ASCII characters the rest) and 40 us to write to the socket, out of 550 us of HTTP work a
 * story, against 3.6 ms of analysis.
 */
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { Session } from 'node:inspector/promises'
import { fileURLToPath } from 'node:url'
import { createEngine } from '../src/engine/create-engine.ts'
import { createHttpHandler } from '../src/http/handler.ts'
import { toNodeListener } from '../src/http/node.ts'
import { benchSets, dataDir, queueRoundTrip } from './samples.ts'
import { BENCH_KEY as KEY, BENCH_SECRET as SECRET, forkHttpClient } from './http-client.ts'

const argv = process.argv.slice(2)
function option(name: string, fallback: string): string {
  const i = argv.indexOf(name)
  if (i < 0) return fallback
  const v = argv[i + 1]
  if (v === undefined) throw new Error(`${name} needs a value`)
  argv.splice(i, 2)
  return v
}
const setName = option('--set', 'tweets')
const docs = Number(option('--docs', '200'))
const rounds = Number(option('--rounds', '3'))
/** The bucket whose own time is listed by function (`--list`, default the HTTP handler's). */
const listed = option('--list', 'HTTP handler and adapter')
if (!(docs > 0) || !Number.isInteger(rounds) || rounds < 1) throw new Error('--docs and --rounds need positive numbers')
// The data folder: the argument left after the options, else ../shared/data beside the repository.
const set = benchSets(dataDir(argv[0] ?? fileURLToPath(new URL('../../shared/data', import.meta.url)))).find((s) => s.name === setName)
if (set === undefined) throw new Error(`--set ${setName}: no such sample set (tweets, reviews, news)`)
const texts = Array.from({ length: docs }, (_, i) => set.texts[i % set.texts.length]!)

const unlimited = { billing_settings: { data_calls_limit: 0, settings_calls_limit: 0, polling_calls_limit: 0 } }
const engine = createEngine({ accounts: [{ key: KEY, secret: SECRET, subscription: unlimited }] })
const server = createServer(toNodeListener(createHttpHandler(engine)))
await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()))
const port = (server.address() as AddressInfo).port
const client = forkHttpClient()
const viaHttp = async (tag: string): Promise<void> => {
  await client.roundTrip(port, texts, tag)
}
const viaQueue = (tag: string): Promise<void> => queueRoundTrip(engine, KEY, texts, tag)

for (let w = 0; w < 2; w++) {
  await viaQueue(`wq${w}`)
  await viaHttp(`wh${w}`)
}

interface ProfileNode {
  id: number
  callFrame: { functionName: string; url: string; lineNumber: number }
  children?: number[]
}
interface Totals {
  user: number
  system: number
  buckets: Map<string, number>
  handler: Map<string, number>
}
/** Where the analysis runs: the pipeline, the engine's analysis step, the models' code and wink-nlp's. */
const ANALYSIS = ['/src/pipeline/', '/src/engine/analysis.ts', '/src/engine/workers.ts', '/src/nlp/', '/src/sentiment/', '/src/entities/', '/src/themes/', '/src/langid/', '/src/relations/', '/src/semantic/', '/src/query/', '/wink-']
const BUCKETS: ReadonlyArray<[string, (url: string) => boolean]> = [
  ['analysis (pipeline, models, wink-nlp)', (u) => ANALYSIS.some((part) => u.includes(part))],
  ['storage', (u) => u.includes('/src/storage/')],
  ['HTTP handler and adapter', (u) => u.includes('/src/http/') || u.includes('/src/auth/') || u.includes('/src/codecs/')],
  ['engine (queue, accounts)', (u) => u.includes('/src/engine/')],
]

/** The bucket of a sample: the first bucket, in BUCKETS order, that some frame of its stack belongs to. */
function bucketOf(stack: readonly ProfileNode[]): string {
  for (const [name, test] of BUCKETS) if (stack.some((n) => test(n.callFrame.url))) return name
  const leaf = stack[0]!.callFrame.functionName
  return leaf === '(garbage collector)' ? 'garbage collector' : leaf === '(idle)' ? 'idle' : 'other (native, node internals)'
}

const session = new Session()
session.connect()
await session.post('Profiler.enable')
await session.post('Profiler.setSamplingInterval', { interval: 200 })
const totals = new Map<string, Totals>()
async function profiled(path: string, run: () => Promise<void>): Promise<void> {
  const t = totals.get(path) ?? { user: 0, system: 0, buckets: new Map(), handler: new Map() }
  totals.set(path, t)
  await session.post('Profiler.start')
  const c0 = process.cpuUsage()
  await run()
  const c = process.cpuUsage(c0)
  const { profile } = await session.post('Profiler.stop')
  t.user += c.user / 1e6
  t.system += c.system / 1e6
  const byId = new Map<number, ProfileNode>()
  const parent = new Map<number, number>()
  for (const n of profile.nodes as ProfileNode[]) {
    byId.set(n.id, n)
    for (const c of n.children ?? []) parent.set(c, n.id)
  }
  const samples = profile.samples ?? []
  const deltas = profile.timeDeltas ?? []
  for (let i = 0; i < samples.length; i++) {
    const stack: ProfileNode[] = []
    for (let id: number | undefined = samples[i]; id !== undefined; id = parent.get(id)) stack.push(byId.get(id)!)
    const ms = (deltas[i] ?? 0) / 1000
    const bucket = bucketOf(stack)
    t.buckets.set(bucket, (t.buckets.get(bucket) ?? 0) + ms)
    if (bucket === listed) {
      const f = stack[0]!.callFrame
      const key = `${f.functionName || '(anonymous)'} ${f.url === '' ? '(native)' : f.url.split('/').slice(-2).join('/')}`
      t.handler.set(key, (t.handler.get(key) ?? 0) + ms)
    }
  }
}

for (let r = 0; r < rounds; r++) {
  const order: Array<[string, () => Promise<void>]> = [
    ['queue', () => viaQueue(`q${r}`)],
    ['HTTP', () => viaHttp(`h${r}`)],
  ]
  if (r % 2 === 1) order.reverse()
  for (const [path, run] of order) await profiled(path, run)
}
await session.post('Profiler.disable')
session.disconnect()

const n = docs * rounds
const queue = totals.get('queue')!
const http = totals.get('HTTP')!
const perDoc = (ms: number): string => ((ms * 1000) / n).toFixed(0)
console.log(`${setName}: ${docs} texts a run, ${rounds} runs a path, alternating; server CPU and profiled samples per document, microseconds\n`)
console.log('| | queue | HTTP (client forked) | HTTP - queue |')
console.log('| --- | ---: | ---: | ---: |')
const row = (name: string, q: number, h: number): void => console.log(`| ${name} | ${perDoc(q)} | ${perDoc(h)} | ${perDoc(h - q)} |`)
row('CPU, user', queue.user * 1000, http.user * 1000)
row('CPU, system', queue.system * 1000, http.system * 1000)
for (const name of [...BUCKETS.map(([b]) => b), 'garbage collector', 'other (native, node internals)', 'idle']) {
  row(`samples: ${name}`, queue.buckets.get(name) ?? 0, http.buckets.get(name) ?? 0)
}
console.log(`\nThe own time of the samples in "${listed}" on the HTTP path, by function (microseconds a document):`)
for (const [key, ms] of [...http.handler].sort((a, b) => b[1] - a[1]).slice(0, 15)) console.log(`  ${perDoc(ms).padStart(5)}  ${key}`)

client.close()
await new Promise<void>((r) => server.close(() => r()))
await engine.close()
