/**
 * `npx tsx bench/http.ts [data dir]`: end-to-end throughput of the HTTP adapter over loopback, against the
 * in-process engine and its queue on the same texts in the same run.
 *
 * - In-process: `engine.analyze(text)` on each text, one after another.
 * - Queue: `submitDocuments` in batches of 100, `drain()`, `takeProcessedDocuments` until every document came back.
 * - HTTP: signed `POST /document/batch.json` calls of 100 documents while a second client polls
 *   `GET /document/processed.json` (signed) until every document came back.
 *
 * One engine serves all three paths (the same models and caches), after an untimed warm-up of `WARM_PASSES` (default
 * 2) passes of every text of every set through each path. Then per sample set (tweets, hotel reviews, news;
 * `BENCH_DOCS` caps each set), `ROUNDS` rounds (default 3) of chunks of `CHUNK` texts (default 200): each chunk goes
 * through the three paths in turn, the order rotating from chunk to chunk, and each path's CPU time (user + system
 * of this process) is summed over its chunks. On a shared machine a path that ran alone in a quiet or a busy minute
 * read 0.77 to 1.49 of `analyze` for the queue, and the HTTP path faster than the queue it runs on; taking turns puts
 * the same load on all three. The client runs in the same process as the server (its JSON parsing and signing count
 * against the HTTP rate). `BENCH_POLL_MS` is the wait after an empty poll (idle, no CPU). Call limits are lifted for
 * the bench account, since the contract's 10 calls per second would measure the limiter, not the adapter.
 */
import { Agent, createServer, request } from 'node:http'
import type { AddressInfo } from 'node:net'
import { signUrl } from '../src/auth/signature.ts'
import { createEngine } from '../src/engine/create-engine.ts'
import { createHttpHandler } from '../src/http/handler.ts'
import { toNodeListener } from '../src/http/node.ts'
import winkNLP from 'wink-nlp'
import model from 'wink-eng-lite-web-model'
import { benchSets, dataDir, queueRoundTrip, record } from './samples.ts'

const KEY = 'bench-key'
const SECRET = 'bench-secret'
const BATCH = 100
/** Untimed passes of every text of every set through each path before timing (`WARM_PASSES`). */
const WARM_PASSES = Math.max(1, Number(process.env['WARM_PASSES'] ?? 2))
/** Timed rounds over each set (`ROUNDS`). */
const ROUNDS = Math.max(1, Number(process.env['ROUNDS'] ?? 3))
/** Texts per turn of a path (`CHUNK`). */
const CHUNK = Math.max(1, Number(process.env['CHUNK'] ?? 200))
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

/** Time inside the handler per endpoint (signature check, decoding, engine call, encoding), summed over the timed chunks. */
const handlerMs = new Map<string, number>()
let timing = false
const engine = createEngine({ accounts: [{ key: KEY, secret: SECRET, subscription: unlimited }] })
const server = createServer(
  toNodeListener(
    createHttpHandler(engine, {
      log: (e) => {
        if (timing) handlerMs.set(e.endpoint ?? '-', (handlerMs.get(e.endpoint ?? '-') ?? 0) + e.ms)
      },
    }),
  ),
)
await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()))
const port = (server.address() as AddressInfo).port

/** In-process: `engine.analyze(text)` on each text, one after another. */
async function viaAnalyze(texts: readonly string[]): Promise<void> {
  for (const t of texts) await engine.analyze(t)
}

/** The engine's own queue without HTTP (see `queueRoundTrip`). */
const viaQueue = (texts: readonly string[], tag: string): Promise<void> => queueRoundTrip(engine, KEY, texts, tag)

/** HTTP: signed batch submits while a second client polls `processed.json` until every document came back. */
async function viaHttp(texts: readonly string[], tag: string): Promise<number> {
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
    const batch = texts.slice(i, i + BATCH).map((text, j) => ({ id: `${tag}-${i + j}`, text }))
    const r = await signed(port, 'POST', '/document/batch.json', JSON.stringify(batch))
    if (r.status !== 202) throw new Error(`submit answered ${r.status}: ${r.text}`)
  }
  await poller
  return polls
}

/** CPU seconds of one call. */
async function timed(f: () => Promise<unknown>): Promise<number> {
  const t0 = cpuNow()
  await f()
  return cpuNow() - t0
}

// Warm-up (models, JIT, caches), not timed: every text of every set through each path, WARM_PASSES times (default 2).
for (let w = 0; w < WARM_PASSES; w++) {
  for (const { texts } of sets) {
    await viaAnalyze(texts)
    await viaQueue(texts, `wq${w}`)
    await viaHttp(texts, `wh${w}`)
  }
}

const nlp = winkNLP(model)
const rate = (n: number, s: number): string => (n / s).toFixed(1)
console.log(`batches of ${BATCH}; one process (client and server together); rates per CPU-second of the process\n`)
console.log('| set | texts | analyze docs/s | queue docs/s | HTTP submit+poll docs/s | HTTP tokens/s | queue / analyze | HTTP / queue | HTTP / analyze | polls | time in handler |')
console.log('| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |')
for (const { name, texts } of sets) {
  const tokens = texts.reduce((n, t) => n + nlp.readDoc(t).tokens().length(), 0)
  // The three paths take turns chunk by chunk, the order rotating, so that a shared machine's drift and load fall
  // on all three alike; each path's CPU time is summed over its chunks.
  let local = 0
  let queue = 0
  let httpSeconds = 0
  let polls = 0
  handlerMs.clear()
  timing = true
  let k = 0
  for (let r = 0; r < ROUNDS; r++) {
    for (let i = 0; i < texts.length; i += CHUNK, k++) {
      const part = texts.slice(i, i + CHUNK)
      const paths = [
        async () => (local += await timed(() => viaAnalyze(part))),
        async () => (queue += await timed(() => viaQueue(part, `q${r}-${i}`))),
        async () => (httpSeconds += await timed(async () => (polls += await viaHttp(part, `h${r}-${i}`)))),
      ]
      for (let j = 0; j < paths.length; j++) await paths[(k + j) % paths.length]!()
    }
  }
  timing = false
  const n = texts.length * ROUNDS
  const handler = [...handlerMs].map(([e, ms]) => `${e} ${(ms / 1000).toFixed(2)} s`).join(', ')
  console.log(
    `| ${name} | ${texts.length} x ${ROUNDS} | ${rate(n, local)} | ${rate(n, queue)} | ${rate(n, httpSeconds)} | ${rate(tokens * ROUNDS, httpSeconds)} | ${(local / queue).toFixed(3)} | ${(queue / httpSeconds).toFixed(3)} | ${(local / httpSeconds).toFixed(3)} | ${polls} | ${handler} |`,
  )
  record(`http.${name}.analyze.docs_per_s`, n / local, 'docs/s', true)
  record(`http.${name}.queue.docs_per_s`, n / queue, 'docs/s', true)
  record(`http.${name}.queue.tokens_per_s`, (tokens * ROUNDS) / queue, 'tokens/s', true)
  record(`http.${name}.http.docs_per_s`, n / httpSeconds, 'docs/s', true)
  record(`http.${name}.http.tokens_per_s`, (tokens * ROUNDS) / httpSeconds, 'tokens/s', true)
  record(`http.${name}.queue_over_analyze`, local / queue, 'x', true)
  record(`http.${name}.http_over_queue`, queue / httpSeconds, 'x', true)
}
agent.destroy()
await new Promise<void>((r) => server.close(() => r()))
await engine.close()
console.log('\ntargets: queue >= 0.9 of analyze; HTTP end to end >= 0.8 of the in-process queue')
