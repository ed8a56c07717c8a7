/**
 * The HTTP client of `bench/http.ts`: signed `POST /document/batch.json` calls of 100 documents while a second loop
 * polls `GET /document/processed.json` (signed) until every document came back, as the commercial service's clients
 * do. `bench/http.ts` runs it in its own process (client CPU counted against the HTTP path) and, forked, in a process
 * of its own (the server's CPU alone: what a self-hosted server spends per document when its clients run elsewhere).
 *
 * Forked with `HTTP_CLIENT_CHILD=1`, it answers each message `{ port, texts, tag }` with `{ polls }` (or `{ error }`)
 * once every document came back.
 */
import { fork } from 'node:child_process'
import { Agent, request } from 'node:http'
import { fileURLToPath } from 'node:url'
import { signUrl } from '../src/auth/signature.ts'

export const BENCH_KEY = 'bench-key'
export const BENCH_SECRET = 'bench-secret'
/** Documents per submit call. */
export const HTTP_BATCH = 100
/** Wait after a poll that found nothing (`BENCH_POLL_MS`). */
const POLL_MS = Number(process.env['BENCH_POLL_MS'] ?? 20)

const agent = new Agent({ keepAlive: true, maxSockets: 4 })
let nonce = 0

/** One signed call to the server at 127.0.0.1:`port` as the bench account, over the client's keep-alive sockets. */
export function signed(port: number, method: string, path: string, body?: string): Promise<{ status: number; text: string }> {
  const base = `http://127.0.0.1:${port}`
  const s = signUrl(base + path, BENCH_KEY, BENCH_SECRET, String(++nonce), Date.now())
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

/** Submit `texts` (ids `<tag>-<n>`) in batches while polling until every document came back; returns the polls made. */
export async function httpRoundTrip(port: number, texts: readonly string[], tag: string): Promise<number> {
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
  for (let i = 0; i < texts.length; i += HTTP_BATCH) {
    const batch = texts.slice(i, i + HTTP_BATCH).map((text, j) => ({ id: `${tag}-${i + j}`, text }))
    const r = await signed(port, 'POST', '/document/batch.json', JSON.stringify(batch))
    if (r.status !== 202) throw new Error(`submit answered ${r.status}: ${r.text}`)
  }
  await poller
  return polls
}

/** Close the client's keep-alive sockets. */
export function closeHttpClient(): void {
  agent.destroy()
}

/** This client forked into a process of its own: its round trips, and its end. */
export interface ForkedHttpClient {
  /** {@link httpRoundTrip} in the forked process; resolves with the polls it made. */
  roundTrip(port: number, texts: readonly string[], tag: string): Promise<number>
  /** Close its sockets and let it exit. */
  close(): void
}

/** Fork this client (with the caller's loader flags, so that it runs under tsx as the caller does). */
export function forkHttpClient(): ForkedHttpClient {
  const child = fork(fileURLToPath(import.meta.url), [], { env: { ...process.env, HTTP_CLIENT_CHILD: '1' }, execArgv: process.execArgv })
  return {
    roundTrip: (port, texts, tag) =>
      new Promise((resolve, reject) => {
        child.once('message', (m: { polls?: number; error?: string }) => (m.error === undefined ? resolve(m.polls ?? 0) : reject(new Error(m.error))))
        child.send({ port, texts, tag })
      }),
    close: () => child.send('exit'),
  }
}

if (process.env['HTTP_CLIENT_CHILD'] === '1' && process.send !== undefined) {
  process.on('message', (m: { port: number; texts: string[]; tag: string } | 'exit') => {
    if (m === 'exit') {
      closeHttpClient()
      process.disconnect()
      return
    }
    httpRoundTrip(m.port, m.texts, m.tag).then(
      (polls) => process.send!({ polls }),
      (e: unknown) => process.send!({ error: (e as Error).message }),
    )
  })
}
