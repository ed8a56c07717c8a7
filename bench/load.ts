/**
 * `npm run bench:load -- [--seconds N] [--workers N] [--submitters N] [--data DIR]`: a bounded load test of the
 * standalone server over loopback (issue 18).
 *
 * The server (`startServer`, in this process, memory storage, the engine's default bound of 10,000 unfinished
 * items per account) is fed signed `POST /document/batch.json` calls of 100 documents by `--submitters` clients
 * (default 4) as fast as it answers them, which is faster than it can analyse, for `--seconds` (default 60); a
 * refused client waits what `Retry-After` says (at most 5 s), as a well-behaved client does. A
 * poller retrieves processed documents (`GET /document/processed.json`) all along, and a prober times a signed
 * `GET /status.json` every 50 ms. After the load, submission stops and polling goes on until every accepted
 * document came back (at most 10 minutes).
 *
 * Printed: documents accepted, refused (by status, with the Retry-After seen), processed (retrieved), lost
 * (accepted but never retrieved: must be 0) and duplicated (retrieved twice: must be 0); peak RSS of the process
 * (server, worker threads and clients together); p50/p99/max latency of the status call during the load (target:
 * p99 < 100 ms). Exit code 1 when a document was lost or duplicated.
 *
 * Texts: the sample sets of the data folder (`../shared/data` by default), else the test fixtures.
 */
import { existsSync, readFileSync } from 'node:fs'
import { Agent, request } from 'node:http'
import { availableParallelism } from 'node:os'
import { resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import { signUrl } from '../src/auth/signature.ts'
import { startServer } from '../src/server.ts'
import { loadSamples } from './samples.ts'

const { values: args } = parseArgs({
  options: {
    seconds: { type: 'string', default: '60' },
    workers: { type: 'string' },
    submitters: { type: 'string', default: '4' },
    data: { type: 'string' },
  },
})
const seconds = Number(args.seconds)
const workers = args.workers === undefined ? availableParallelism() : Number(args.workers)
const submitters = Number(args.submitters)
if (!Number.isFinite(seconds) || seconds <= 0 || seconds > 3600) throw new Error(`--seconds must be 1-3600, found ${args.seconds}`)
if (!Number.isInteger(workers) || workers < 0) throw new Error(`--workers must be an integer >= 0, found ${args.workers}`)
if (!Number.isInteger(submitters) || submitters < 1) throw new Error(`--submitters must be an integer >= 1, found ${args.submitters}`)

const KEY = 'load-key'
const SECRET = 'load-secret'
const BATCH = 100
const DRAIN_LIMIT_MS = 10 * 60_000

function loadTexts(): string[] {
  const dir = args.data ?? resolve(fileURLToPath(new URL('..', import.meta.url)), '..', 'shared', 'data')
  if (existsSync(resolve(dir, 'samples'))) return loadSamples(dir).flatMap((s) => s.texts)
  const fixture = new URL('../test/fixtures/golden/texts.json', import.meta.url)
  process.stderr.write(`no samples under ${dir}; using ${fileURLToPath(fixture)}\n`)
  return JSON.parse(readFileSync(fixture, 'utf8')) as string[]
}

const texts = loadTexts()
// Call limits lifted: the bench measures the server under load, not the contract's 10 calls per second.
const unlimited = { billing_settings: { data_calls_limit: 0, settings_calls_limit: 0, polling_calls_limit: 0 } }
const server = await startServer({
  host: '127.0.0.1',
  port: 0,
  accounts: [{ key: KEY, secret: SECRET, subscription: unlimited }],
  logFormat: 'off',
  playground: false,
  workers,
})
const port = server.port
const agent = new Agent({ keepAlive: true, maxSockets: submitters + 4 })
let nonce = 0

function signed(method: string, path: string, body?: string): Promise<{ status: number; text: string; retryAfter: string | undefined }> {
  const base = `http://127.0.0.1:${port}`
  const s = signUrl(base + path, KEY, SECRET, `${process.pid}${++nonce}`, Math.floor(Date.now() / 1000))
  const bytes = body === undefined ? undefined : Buffer.from(body)
  return new Promise((resolvePromise, reject) => {
    const req = request(
      {
        agent,
        host: '127.0.0.1',
        port,
        method,
        path: s.url.slice(base.length),
        headers: { authorization: s.authorization, 'x-app-name': 'bench-load/node/1.0/json', ...(bytes ? { 'content-type': 'application/json', 'content-length': String(bytes.length) } : {}) },
      },
      (res) => {
        const chunks: Buffer[] = []
        res.on('data', (c: Buffer) => chunks.push(c))
        res.on('end', () => {
          const ra = res.headers['retry-after']
          resolvePromise({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8'), retryAfter: Array.isArray(ra) ? ra[0] : ra })
        })
        res.on('error', reject)
      },
    )
    req.on('error', reject)
    req.end(bytes)
  })
}

// ---- measurements ----
let peakRss = process.memoryUsage.rss()
const rssTimer = setInterval(() => {
  peakRss = Math.max(peakRss, process.memoryUsage.rss())
}, 100)
let accepted = 0
const refused = new Map<string, number>()
const retryAfters = new Map<string, number>()
const acceptedIds = new Set<string>()
const retrieved = new Map<string, number>()
let polls = 0
const statusMs: number[] = []
const statusFailures = new Map<number, number>()

// Warm-up, not measured: every worker thread has loaded its models before the clock starts (cold start is
// `npm run bench:cold-start`'s business).
{
  const warm = Array.from({ length: Math.max(1, workers) * 4 }, (_, i) => ({ id: `warm-${i}`, text: texts[i % texts.length]! }))
  await signed('POST', '/document/batch.json', JSON.stringify(warm))
  let back = 0
  while (back < warm.length) {
    const r = await signed('GET', '/document/processed.json')
    if (r.status === 200) back += (JSON.parse(r.text) as unknown[]).length
    else await new Promise((r2) => setTimeout(r2, 50))
  }
}

const t0 = performance.now()
const loadEnd = t0 + seconds * 1000
let loading = true

async function submitter(n: number): Promise<void> {
  let next = n * 1_000_000
  while (performance.now() < loadEnd) {
    const docs = Array.from({ length: BATCH }, () => {
      const i = next++
      return { id: `s${n}-${i}`, text: texts[i % texts.length]! }
    })
    let r: Awaited<ReturnType<typeof signed>>
    try {
      r = await signed('POST', '/document/batch.json', JSON.stringify(docs))
    } catch (e) {
      const key = `connection error (${e instanceof Error ? e.message : String(e)})`
      refused.set(key, (refused.get(key) ?? 0) + BATCH)
      continue
    }
    if (r.status === 202 || r.status === 200) {
      accepted += BATCH
      for (const d of docs) acceptedIds.add(d.id)
    } else {
      if (!refused.has(String(r.status))) process.stderr.write(`first refusal: ${r.status} ${r.text.slice(0, 200)}\n`)
      refused.set(String(r.status), (refused.get(String(r.status)) ?? 0) + BATCH)
      if (r.retryAfter !== undefined) retryAfters.set(r.retryAfter, (retryAfters.get(r.retryAfter) ?? 0) + 1)
      // As a well-behaved client does: wait as long as Retry-After says (the queue stays full meanwhile, since the
      // others keep submitting as soon as there is room).
      const wait = Math.min(5000, Math.max(50, Number(r.retryAfter ?? 1) * 1000))
      await new Promise((r2) => setTimeout(r2, Math.min(wait, Math.max(0, loadEnd - performance.now()))))
    }
  }
}

async function poller(): Promise<void> {
  const drainEnd = () => loadEnd + DRAIN_LIMIT_MS
  while (loading || (retrievedCount() < accepted && performance.now() < drainEnd())) {
    polls++
    const r = await signed('GET', '/document/processed.json')
    if (r.status === 200) {
      for (const o of JSON.parse(r.text) as Array<{ id: string }>) retrieved.set(o.id, (retrieved.get(o.id) ?? 0) + 1)
    } else {
      if (r.status !== 202) statusFailures.set(r.status, (statusFailures.get(r.status) ?? 0) + 1)
      await new Promise((r2) => setTimeout(r2, 20))
    }
  }
}
const retrievedCount = (): number => retrieved.size

async function prober(): Promise<void> {
  while (performance.now() < loadEnd) {
    const s = performance.now()
    const r = await signed('GET', '/status.json')
    statusMs.push(performance.now() - s)
    if (r.status !== 200) statusFailures.set(r.status, (statusFailures.get(r.status) ?? 0) + 1)
    await new Promise((r2) => setTimeout(r2, 50))
  }
}

process.stdout.write(
  `bench:load: ${seconds} s of load on 127.0.0.1:${port}, ${submitters} submitters x ${BATCH}-document batches, ` +
    `workers ${workers}, ${texts.length} texts, memory storage\n`,
)
const pollDone = poller()
await Promise.all([...Array.from({ length: submitters }, (_, n) => submitter(n)), prober()])
loading = false
const loadSeconds = (performance.now() - t0) / 1000
const retrievedDuringLoad = retrievedCount()
await pollDone
const totalSeconds = (performance.now() - t0) / 1000
clearInterval(rssTimer)
peakRss = Math.max(peakRss, process.memoryUsage.rss())
await server.shutdown()
agent.destroy()

const lost = [...acceptedIds].filter((id) => !retrieved.has(id)).length
const duplicated = [...retrieved.values()].filter((n) => n > 1).length
const unknown = [...retrieved.keys()].filter((id) => !acceptedIds.has(id)).length
const sorted = [...statusMs].sort((a, b) => a - b)
const pct = (p: number): number => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN
const refusedTotal = [...refused.values()].reduce((n, v) => n + v, 0)

const lines = [
  `accepted    ${accepted} documents (${(accepted / loadSeconds).toFixed(0)}/s over ${loadSeconds.toFixed(1)} s of load)`,
  `refused     ${refusedTotal} documents${refusedTotal === 0 ? '' : ': ' + [...refused.entries()].map(([k, v]) => `${v} with ${k}`).join(', ')}` +
    (retryAfters.size === 0 ? '' : `; Retry-After seen: ${[...retryAfters.entries()].map(([k, v]) => `${k} s x${v}`).join(', ')}`),
  `processed   ${retrieved.size} documents retrieved (${retrievedDuringLoad} during the load: ${(retrievedDuringLoad / loadSeconds).toFixed(0)}/s; all by ${totalSeconds.toFixed(1)} s), ${polls} polls`,
  `lost        ${lost} (accepted, never retrieved)   duplicated ${duplicated}   unknown ${unknown}`,
  `peak RSS    ${(peakRss / 2 ** 20).toFixed(0)} MB (server, ${workers} worker thread(s) and clients, one process)`,
  `GET /status during the load: ${statusMs.length} calls, p50 ${pct(50).toFixed(1)} ms, p99 ${pct(99).toFixed(1)} ms, max ${(sorted.at(-1) ?? NaN).toFixed(1)} ms (target p99 < 100 ms)` +
    (statusFailures.size === 0 ? '' : `; non-2xx: ${[...statusFailures.entries()].map(([k, v]) => `${k} x${v}`).join(', ')}`),
]
process.stdout.write(lines.join('\n') + '\n')
process.exit(lost > 0 || duplicated > 0 ? 1 : 0)
