/**
 * `npx tsx bench/http.ts [data dir]`: end-to-end throughput of the HTTP adapter over loopback, against the
 * in-process engine on the same texts in the same run.
 *
 * - HTTP: every text submitted in signed `POST /document/batch.json` calls of 100 documents while a second
 *   client polls `GET /document/processed.json` (signed) until every document came back; documents per second
 *   from the first submit to the last retrieval, plus the submit-only rate.
 * - In-process: `engine.analyze(text)` on each text, one after another.
 *
 * Each runs per sample set (tweets, hotel reviews, news; `BENCH_DOCS` caps each set), after an untimed warm-up:
 * every run sends every text of the set through its own path once first (in-process, queue or HTTP), so each engine
 * has seen the same documents before it is timed.
 * The client runs in the same process as the server (its JSON parsing and signing count against the HTTP rate).
 * `BENCH_POLL_MS` is the wait after an empty poll. Call limits are lifted for the bench account, since
 * the contract's 10 calls per second would measure the limiter, not the adapter.
 */
import { Agent, createServer, request } from 'node:http'
import type { AddressInfo } from 'node:net'
import { signUrl } from '../src/auth/signature.ts'
import { createEngine } from '../src/engine/create-engine.ts'
import { createHttpHandler } from '../src/http/handler.ts'
import { toNodeListener } from '../src/http/node.ts'
import winkNLP from 'wink-nlp'
import model from 'wink-eng-lite-web-model'
import { benchSets, dataDir, record } from './samples.ts'

const KEY = 'bench-key'
const SECRET = 'bench-secret'
const BATCH = 100
/**
 * Texts sent through before each timed run (JIT and caches warm), not timed: every text of the set, as the in-process
 * run analyses every text once first (a fresh engine's caches are cold; the same documents warm every path alike).
 */
const WARM = Infinity
/** Wait after a poll that found nothing (`BENCH_POLL_MS`). */
const POLL_MS = Number(process.env['BENCH_POLL_MS'] ?? 20)

const sets = benchSets(dataDir())
const unlimited = { billing_settings: { data_calls_limit: 0, settings_calls_limit: 0, polling_calls_limit: 0 } }

/**
 * CPU seconds of this process (user + system): on a shared machine wall time counts other processes' turns on the
 * cores, so every rate here is per CPU-second (client, server and engine, all in this process).
 */
function cpuNow(): number {
  const c = process.cpuUsage()
  return (c.user + c.system) / 1e6
}

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

async function httpRun(texts: readonly string[]): Promise<{ seconds: number; submitSeconds: number; polls: number; handlerMs: Map<string, number> }> {
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
  const warm = Math.min(WARM, texts.length)
  for (let i = 0; i < warm; i += BATCH) {
    await signed(port, 'POST', '/document/batch.json', JSON.stringify(texts.slice(i, Math.min(warm, i + BATCH)).map((text, j) => ({ id: `w${i + j}`, text }))))
  }
  await engine.drain()
  while ((await signed(port, 'GET', '/document/processed.json')).status === 200);

  handlerMs.clear()
  const t0 = cpuNow()
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
  const submitSeconds = cpuNow() - t0
  await poller
  const seconds = cpuNow() - t0
  await new Promise<void>((r) => server.close(() => r()))
  await engine.close()
  return { seconds, submitSeconds, polls, handlerMs }
}

async function inProcessRun(texts: readonly string[]): Promise<number> {
  const engine = createEngine({ accounts: [{ key: KEY, secret: SECRET, subscription: unlimited }], background: false })
  // Warm: every text once (JIT, caches and models as warm as the queue's engine after its warm-up batch).
  for (const t of texts) await engine.analyze(t)
  const t0 = cpuNow()
  for (const t of texts) await engine.analyze(t)
  const seconds = cpuNow() - t0
  await engine.close()
  return seconds
}

/** The engine's own queue without HTTP: submitDocuments in batches of 100, drain, takeProcessedDocuments. */
async function queueRun(texts: readonly string[]): Promise<number> {
  const engine = createEngine({ accounts: [{ key: KEY, secret: SECRET, subscription: unlimited }] })
  const api = engine.account(KEY)
  const warm = Math.min(WARM, texts.length)
  for (let i = 0; i < warm; i += BATCH) {
    await api.submitDocuments(texts.slice(i, Math.min(warm, i + BATCH)).map((text, j) => ({ id: `w${i + j}`, text })), { batch: true })
  }
  await engine.drain()
  while ((await api.takeProcessedDocuments({})).length > 0);
  const t0 = cpuNow()
  for (let i = 0; i < texts.length; i += BATCH) {
    await api.submitDocuments(texts.slice(i, i + BATCH).map((text, j) => ({ id: `d${i + j}`, text })), { batch: true })
  }
  await engine.drain()
  let retrieved = 0
  while (retrieved < texts.length) retrieved += (await api.takeProcessedDocuments({})).length
  const seconds = cpuNow() - t0
  await engine.close()
  return seconds
}

const nlp = winkNLP(model)
const rate = (n: number, s: number): string => (n / s).toFixed(1)
console.log(`batches of ${BATCH}; one process (client and server together); rates per CPU-second of the process\n`)
console.log('| set | texts | analyze docs/s | queue docs/s | HTTP submit+poll docs/s | HTTP tokens/s | queue / analyze | HTTP / queue | HTTP / analyze | polls | time in handler |')
console.log('| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |')
for (const { name, texts } of sets) {
  const tokens = texts.reduce((n, t) => n + nlp.readDoc(t).tokens().length(), 0)
  // Analyze runs first and last, so drift of a shared machine shows as a difference between the two.
  const localFirst = await inProcessRun(texts)
  const queue = await queueRun(texts)
  const http = await httpRun(texts)
  const localLast = await inProcessRun(texts)
  const local = (localFirst + localLast) / 2
  const n = texts.length
  const handler = [...http.handlerMs].map(([e, ms]) => `${e} ${(ms / 1000).toFixed(2)} s`).join(', ')
  console.log(
    `| ${name} | ${n} | ${rate(n, local)} (first ${rate(n, localFirst)}, last ${rate(n, localLast)}) | ${rate(n, queue)} | ${rate(n, http.seconds)} | ${rate(tokens, http.seconds)} | ${(local / queue).toFixed(3)} | ${(queue / http.seconds).toFixed(3)} | ${(local / http.seconds).toFixed(3)} | ${http.polls} | ${handler} |`,
  )
  record(`http.${name}.analyze.docs_per_s`, n / local, 'docs/s', true)
  record(`http.${name}.queue.docs_per_s`, n / queue, 'docs/s', true)
  record(`http.${name}.queue.tokens_per_s`, tokens / queue, 'tokens/s', true)
  record(`http.${name}.http.docs_per_s`, n / http.seconds, 'docs/s', true)
  record(`http.${name}.http.tokens_per_s`, tokens / http.seconds, 'tokens/s', true)
  record(`http.${name}.queue_over_analyze`, local / queue, 'x', true)
  record(`http.${name}.http_over_queue`, queue / http.seconds, 'x', true)
}
agent.destroy()
console.log('\ntargets: queue >= 0.9 of analyze; HTTP end to end >= 0.8 of the in-process queue')
