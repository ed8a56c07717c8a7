/**
 * `npx tsx bench/signature.ts` (`npm run bench:signature`): cost of one request signature verification
 * (`verifySignature`, src/auth/signature.ts) for the request shapes the client SDKs send (client-compat §1), and
 * for the failures: a bad signature and an unknown key (these two must cost the same, so that timing does not
 * tell which keys exist).
 *
 * Each case runs `BENCH_SIG_N` verifications (default 20,000) after a warm-up and prints microseconds per
 * verification (median of 5 rounds). No data folder needed. `BENCH_SIG_MODULE=path/to/signature.ts` also times
 * another copy (an older commit's) in the same rounds, for a before/after comparison.
 */
import { resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import { signUrl, type SignUrlOptions } from '../src/auth/signature.ts'

import { verifySignature } from '../src/auth/signature.ts'

// `BENCH_SIG_MODULE=file` also times the verifySignature of another copy of signature.ts (e.g. an older commit's),
// in the same rounds (interleaved), so that load from other processes falls on both alike.
const modulePath = process.env['BENCH_SIG_MODULE'] || undefined
type Verify = typeof verifySignature
const other = modulePath === undefined ? undefined : ((await import(pathToFileURL(resolve(modulePath)).href)) as { verifySignature: Verify }).verifySignature
const verifiers: Array<[string, Verify]> = [['now', verifySignature], ...(other === undefined ? [] : ([[modulePath ?? '', other]] as Array<[string, Verify]>))]

const N = Number(process.env['BENCH_SIG_N'] ?? 20_000)
const KEY = 'consumer-key'
const SECRET = 'consumer-secret'
const secrets = new Map([[KEY, SECRET]])

interface Case {
  readonly name: string
  readonly base: string
  readonly path: string
  readonly options: SignUrlOptions
  /** Tamper with the request: a wrong signature, or an unknown key. */
  readonly fault?: 'bad-signature' | 'unknown-key'
  readonly timestamp?: number
}

const cases: Case[] = [
  { name: 'http, rfc3986, query form', base: 'http://127.0.0.1:8080', path: '/document/processed.json?config_id=cfg-123', options: {} },
  { name: 'https (proxy), rfc3986', base: 'https://api.example.com', path: '/status.json', options: {} },
  { name: 'http, java escaper, verifier-escaped', base: 'http://127.0.0.1:8080', path: "/document/batch.json?config_id=it's~(x)", options: { family: 'java', form: 'verifier-escaped', header: 'minimal' } },
  { name: 'http, form escaper, sub-delims in id', base: 'http://127.0.0.1:8080', path: "/document/a!b'c(d)*~.json", options: { family: 'form' } },
  { name: 'bad signature', base: 'http://127.0.0.1:8080', path: '/status.json', options: {}, fault: 'bad-signature' },
  { name: 'unknown key', base: 'http://127.0.0.1:8080', path: '/status.json', options: {}, fault: 'unknown-key' },
]

function requestOf(c: Case): { rawTarget: string; host: string; authorization: string } {
  const key = c.fault === 'unknown-key' ? 'no-such-key' : KEY
  const s = signUrl(c.base + c.path, key, SECRET, '45095438949668051540', c.timestamp ?? 1551274346, c.options)
  const url = new URL(s.url)
  const rawTarget = s.url.slice(s.url.indexOf('/', url.protocol.length + 2))
  let authorization = s.authorization
  if (c.fault === 'bad-signature') authorization = authorization.replace(/oauth_signature="[^"]*"/, `oauth_signature="${encodeURIComponent('AAAAAAAAAAAAAAAAAAAAAAAAAAA=')}"`)
  return { rawTarget, host: url.host, authorization }
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b)
  return s[Math.floor(s.length / 2)]!
}

console.log(`verifySignature, ${N} verifications per round, median of 5 rounds, microseconds (node ${process.version})`)
console.log(`${'case'.padEnd(42)} ${verifiers.map(([name]) => name.padStart(12)).join(' ')}`)
for (const c of cases) {
  const r = requestOf(c)
  const req = { ...r, secretFor: (k: string) => secrets.get(k) }
  const expectOk = c.fault === undefined
  for (const [name, verify] of verifiers) {
    const first = verify(req)
    if (first.ok !== expectOk) throw new Error(`case ${c.name} (${name}): expected ok=${expectOk}, got ${JSON.stringify(first)}`)
    for (let i = 0; i < 2000; i++) verify(req)
  }
  const rounds: number[][] = verifiers.map(() => [])
  for (let round = 0; round < 5; round++) {
    verifiers.forEach(([, verify], v) => {
      const t0 = process.hrtime.bigint()
      for (let i = 0; i < N; i++) verify(req)
      rounds[v]!.push(Number(process.hrtime.bigint() - t0) / 1000 / N)
    })
  }
  console.log(`${c.name.padEnd(42)} ${rounds.map((r) => median(r).toFixed(1).padStart(12)).join(' ')}`)
}
