/**
 * `npx tsx bench/http.ts [data dir]`: end-to-end throughput of the HTTP adapter over loopback, against the
 * in-process engine on the same texts in the same run.
 *
 * - HTTP: every text submitted in signed `POST /document/batch.json` calls of 100 documents while a second
 *   client polls `GET /document/processed.json` (signed) until every document came back; documents per second
 *   from the first submit to the last retrieval, plus the submit-only rate.
 * - In-process: `engine.analyze(text)` on each text, one after another.
 *
 * The client runs in the same process as the server (its JSON parsing and signing count against the HTTP rate).
 * `BENCH_HTTP_DOCS` caps the number of texts (default: all); `BENCH_POLL_MS` is the wait after an empty poll. Call limits are lifted for the bench account, since
 * the contract's 10 calls per second would measure the limiter, not the adapter.
 */
import { Agent, createServer, request } from 'node:http'
import type { AddressInfo } from 'node:net'
import { signUrl } from '../src/auth/signature.ts'
import { createEngine } from '../src/engine/create-engine.ts'
import { createHttpHandler } from '../src/http/handler.ts'
import { toNodeListener } from '../src/http/node.ts'
import { dataDir, loadSamples } from './samples.ts'

const KEY = 'bench-key'
const SECRET = 'bench-secret'
const BATCH = 100
/** Texts analyzed before each timed run (JIT and caches warm), not timed. */
const WARM = 200
/** Wait after a poll that found nothing (`BENCH_POLL_MS`). */
const POLL_MS = Number(process.env['BENCH_POLL_MS'] ?? 20)

const all = loadSamples(dataDir()).flatMap((s) => s.texts)
const cap = Number(process.env['BENCH_HTTP_DOCS'] ?? all.length)
const texts = all.slice(0, Math.max(1, Math.min(all.length, cap)))
const unlimited = { billing_settings: { data_calls_limit: 0, settings_calls_limit: 0, polling_calls_limit: 0 } }

const agent = new Agent({ keepAlive: true, maxSockets: 4 })
let nonce = 0

function signed(port: number, method: string, path: string, body?: string): Promise<{ status: number; text: string }> {
  const base = `http://127.0.0.1:${port}`
  const s = signUrl(base + path, KEY, SECRET, String(++nonce), Date.now())
  const bytes = body === undefined ? undefined : Buffer.from(body)
  return new Promise((resolve, reject) => {
    const req = request(
      {
        agent, host: '127.0.0.1', port, method, path: s.url.slice(base.length),
        headers: { authorization: s.authorization, 'x-app-name': 'bench/node/1.0/json', ...(bytes ? { 'content-length': String(bytes.length) } : {}) },
      },
      (res) => {
        const chunks: Buffer[] = []
        res.on('data', (c: Buffer) => chunks.push(c))
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }))
        res.on('error', reject)
      },
    )
    req.on('error', reject)
    req.end(bytes)
  })
}

async function httpRun(): Promise<{ seconds: number; submitSeconds: number; polls: number; handlerMs: Map<string, number> }> {
  const engine = createEngine({ accounts: [{ key: KEY, secret: SECRET, subscription: unlimited }] })
  // Time spent inside the handler per endpoint (signature check, decoding, engine call, encoding).
  const handlerMs = new Map<string, number>()
  const log = (e: { endpoint: string | undefined; ms: number }): void => {
    handlerMs.set(e.endpoint ?? '-', (handlerMs.get(e.endpoint ?? '-') ?? 0) + e.ms)
  }
  const server = createServer(toNodeListener(createHttpHandler(engine, { log })))
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()))
  const port = (server.address() as AddressInfo).port
  // Warm-up: one small batch through the whole path, not timed.
  for (let i = 0; i < WARM; i += BATCH) {
    await signed(port, 'POST', '/document/batch.json', JSON.stringify(texts.slice(i, Math.min(WARM, i + BATCH)).map((text, j) => ({ id: `w${i + j}`, text }))))
  }
  await engine.drain()
  while ((await signed(port, 'GET', '/document/processed.json')).status === 200);

  handlerMs.clear()
  const t0 = performance.now()
  let retrieved = 0
  let polls = 0
  const poller = (async () => {
    while (retrieved < texts.length) {
      const r = await signed(port, 'GET', '/document/processed.json')
      polls++
      if (r.status === 200) retrieved += (JSON.parse(r.text) as unknown[]).length
      else if (r.status === 202) await new Promise((res) => setTimeout(res, POLL_MS))
      else throw new Error(`poll answered ${r.status}: ${r.text}`)
    }
  })()
  for (let i = 0; i < texts.length; i += BATCH) {
    const batch = texts.slice(i, i + BATCH).map((text, j) => ({ id: `d${i + j}`, text }))
    const r = await signed(port, 'POST', '/document/batch.json', JSON.stringify(batch))
    if (r.status !== 202) throw new Error(`submit answered ${r.status}: ${r.text}`)
  }
  const submitSeconds = (performance.now() - t0) / 1000
  await poller
  const seconds = (performance.now() - t0) / 1000
  await new Promise<void>((r) => server.close(() => r()))
  agent.destroy()
  await engine.close()
  return { seconds, submitSeconds, polls, handlerMs }
}

async function inProcessRun(): Promise<number> {
  const engine = createEngine({ accounts: [{ key: KEY, secret: SECRET, subscription: unlimited }], background: false })
  for (const t of texts.slice(0, WARM)) await engine.analyze(t)
  const t0 = performance.now()
  for (const t of texts) await engine.analyze(t)
  const seconds = (performance.now() - t0) / 1000
  await engine.close()
  return seconds
}

/** The engine's own queue without HTTP: submitDocuments in batches of 100, drain, takeProcessedDocuments. */
async function queueRun(): Promise<number> {
  const engine = createEngine({ accounts: [{ key: KEY, secret: SECRET, subscription: unlimited }] })
  const api = engine.account(KEY)
  for (let i = 0; i < WARM; i += BATCH) {
    await api.submitDocuments(texts.slice(i, Math.min(WARM, i + BATCH)).map((text, j) => ({ id: `w${i + j}`, text })), { batch: true })
  }
  await engine.drain()
  while ((await api.takeProcessedDocuments({})).length > 0);
  const t0 = performance.now()
  for (let i = 0; i < texts.length; i += BATCH) {
    await api.submitDocuments(texts.slice(i, i + BATCH).map((text, j) => ({ id: `d${i + j}`, text })), { batch: true })
  }
  await engine.drain()
  let retrieved = 0
  while (retrieved < texts.length) retrieved += (await api.takeProcessedDocuments({})).length
  const seconds = (performance.now() - t0) / 1000
  await engine.close()
  return seconds
}

// Analyze runs first and last, so drift of a shared machine shows as a difference between the two.
const localFirst = await inProcessRun()
const queue = await queueRun()
const http = await httpRun()
const localLast = await inProcessRun()
const local = (localFirst + localLast) / 2
const rate = (s: number): string => (texts.length / s).toFixed(1)
console.log(`texts: ${texts.length} (${texts.reduce((n, t) => n + t.length, 0)} characters), batches of ${BATCH}`)
console.log(`in-process engine.analyze          ${rate(local).padStart(8)} docs/s  (first ${rate(localFirst)}, last ${rate(localLast)})`)
console.log(`in-process queue (submit, drain, take) ${rate(queue).padStart(7)} docs/s  (${queue.toFixed(2)} s)`)
console.log(`HTTP submit (signed batches)       ${rate(http.submitSeconds).padStart(8)} docs/s  (${http.submitSeconds.toFixed(2)} s, analysis running meanwhile)`)
console.log(`HTTP submit + poll, end to end     ${rate(http.seconds).padStart(8)} docs/s  (${http.seconds.toFixed(2)} s, ${http.polls} polls)`)
console.log(`time inside the handler: ${[...http.handlerMs].map(([e, ms]) => `${e} ${(ms / 1000).toFixed(2)} s`).join(', ')}`)
console.log(`end to end / in-process analyze    ${(local / http.seconds).toFixed(3)}`)
console.log(`end to end / in-process queue      ${(queue / http.seconds).toFixed(3)}`)
