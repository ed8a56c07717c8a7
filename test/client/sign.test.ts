import { readdirSync, readFileSync } from 'node:fs'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { signUrl as serverSignUrl, verifySignature } from '../../src/auth/signature.ts'
import { computeSignature, escapeRfc3986, randomNonce, signingKey, signUrl } from '../../src/client/index.ts'

const KEY = 'consumer-key'
const SECRET = 'consumer-secret'
const NONCE = '45095438949668051540'
const TS = 1551274346
const PARAMS = `oauth_consumer_key=${KEY}&oauth_nonce=${NONCE}&oauth_signature_method=HMAC-SHA1&oauth_timestamp=${TS}&oauth_version=1.0`

// client-compat §1 test vectors: the full signed URL and its base64 signature.
const VECTORS: readonly (readonly [string, string])[] = [
  [`https://api.semantria.com/status.json?${PARAMS}`, 'NSwpaxPSOXNCS6spVRxBiDDN+Hs='],
  [`http://127.0.0.1:8080/status.json?${PARAMS}`, 'P8ItwaUKWNvniHrd7xWj6GCSuiM='],
  [`http://127.0.0.1:8080/document/processed.json?config_id=cfg-123&oauth_verifier=${PARAMS}`, 'rPKYWwn1rqTphsR4DqChBDImzFM='],
  [`http://127.0.0.1:8080/document/processed.json?job_id=job-1&oauth_verifier=${PARAMS}`, 'DCaiUhE3QnTG7iVEoBHdNE/25j8='],
  [`http://127.0.0.1:8080/document/processed.json?config_id=cfg-123&${PARAMS}`, 'hO2UkLBslzG2hYtC6gxJ5CFCcaQ='],
  [
    `http://127.0.0.1:8080/document/batch.json?config_id=cfg-123&oauth_verifier=${PARAMS.replace(/=/g, '%3D').replace(/&/g, '%26')}`,
    'BWFxFbh8dY6t8OJN5pV+nZJjB4k=',
  ],
  [
    'http://127.0.0.1:18931/status.json?oauth_consumer_key=consumer-key&oauth_nonce=1234567&oauth_signature_method=HMAC-SHA1&oauth_timestamp=1551274346000&oauth_version=1.0',
    'btKpeiPbKc5kkc58YznHd2NR6fA=',
  ],
]

describe('client signing: client-compat §1 test vectors', () => {
  it('derives the HMAC key as the lower-case MD5 hex of the secret', () => {
    expect(signingKey(SECRET)).toBe('c04af039f2f0b3ce260a84f46050db58')
  })

  it.each(VECTORS)('signs %s', (url, signature) => {
    expect(computeSignature(url, SECRET)).toBe(signature)
  })

  it('appends the five oauth parameters and builds the quoted, sorted Authorization header', () => {
    const signed = signUrl('https://api.semantria.com/status.json', KEY, SECRET, { nonce: NONCE, timestamp: TS })
    expect(signed.url).toBe(VECTORS[0]![0])
    expect(signed.signature).toBe('NSwpaxPSOXNCS6spVRxBiDDN+Hs=')
    expect(signed.authorization).toBe(
      'OAuth realm="",oauth_consumer_key="consumer-key",oauth_nonce="45095438949668051540",' +
        'oauth_signature="NSwpaxPSOXNCS6spVRxBiDDN%2BHs%3D",oauth_signature_method="HMAC-SHA1",' +
        'oauth_timestamp="1551274346",oauth_version="1.0"',
    )
    const withQuery = signUrl('http://127.0.0.1:8080/document/processed.json?config_id=cfg-123', KEY, SECRET, { nonce: NONCE, timestamp: TS })
    expect(withQuery.url).toBe(VECTORS[4]![0])
    expect(withQuery.signature).toBe(VECTORS[4]![1])
    const millis = signUrl('http://127.0.0.1:18931/status.json', KEY, SECRET, { nonce: '1234567', timestamp: 1551274346000 })
    expect(millis.signature).toBe('btKpeiPbKc5kkc58YznHd2NR6fA=')
  })

  it('escapes as RFC 3986: only unreserved characters kept, UTF-8, upper-case hex; a lone surrogate throws', () => {
    expect(escapeRfc3986("a b!*'()~-._/?=&%é😀")).toBe('a%20b%21%2A%27%28%29~-._%2F%3F%3D%26%25%C3%A9%F0%9F%98%80')
    expect(() => escapeRfc3986('x\uD800y')).toThrow(TypeError)
    expect(() => signUrl('http://h/\uDC00', KEY, SECRET)).toThrow(TypeError)
  })

  it('draws fresh nonces of 1 to 20 digits and the timestamp in seconds', () => {
    const nonces = new Set(Array.from({ length: 50 }, () => randomNonce()))
    expect(nonces.size).toBe(50)
    for (const n of nonces) expect(n).toMatch(/^\d{1,20}$/)
    const before = Math.floor(Date.now() / 1000)
    const signed = signUrl('http://h/status.json', KEY, SECRET)
    const ts = Number(/oauth_timestamp=(\d+)/.exec(signed.url)?.[1])
    expect(ts).toBeGreaterThanOrEqual(before)
    expect(ts).toBeLessThanOrEqual(before + 2)
  })
})

// URLs as clients build them: any scheme/host/port, path segments and query values of arbitrary Unicode (no lone
// surrogates), sometimes a trailing `?` or `&`.
const segment = fc.string({ unit: 'grapheme', maxLength: 12 })
const arbUrl = fc
  .record({
    scheme: fc.constantFrom('http', 'https'),
    host: fc.constantFrom('127.0.0.1', 'localhost', 'api.example.com', '[::1]'),
    port: fc.option(fc.integer({ min: 1, max: 65535 }), { nil: undefined }),
    path: fc.array(segment, { maxLength: 4 }),
    query: fc.option(fc.array(fc.tuple(segment, segment), { maxLength: 4 }), { nil: undefined }),
    tail: fc.constantFrom('', '?', '&'),
  })
  .map(({ scheme, host, port, path, query, tail }) => {
    let url = `${scheme}://${host}${port === undefined ? '' : ':' + port}/${path.join('/')}.json`
    if (query !== undefined) url += '?' + query.map(([k, v]) => `${k}=${v}`).join('&')
    return url + (query === undefined && tail === '&' ? '' : tail)
  })

describe('client signing equals the server-side signer', () => {
  it('gives the URL, signature and header of src/auth/signature.ts signUrl for random URLs, keys and secrets', () => {
    fc.assert(
      fc.property(
        arbUrl,
        fc.stringMatching(/^[A-Za-z0-9_-]{1,40}$/),
        fc.string({ unit: 'grapheme', maxLength: 40 }),
        fc.bigInt({ min: 0n, max: 2n ** 64n - 1n }),
        fc.oneof(fc.integer({ min: 0, max: 2 ** 31 }), fc.integer({ min: 10 ** 12, max: 2 * 10 ** 12 })),
        (url, key, secret, nonce, timestamp) => {
          const ours = signUrl(url, key, secret, { nonce: String(nonce), timestamp })
          const theirs = serverSignUrl(url, key, secret, String(nonce), timestamp)
          expect(ours).toEqual({ url: theirs.url, authorization: theirs.authorization, signature: theirs.signature })
        },
      ),
      { numRuns: 300 },
    )
  })

  it('makes signatures the server verifies over the raw target and Host', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(segment, segment), { maxLength: 3 }), fc.string({ unit: 'grapheme', maxLength: 20 }), (query, secret) => {
        const search = query.map(([k, v]) => `${escapeRfc3986(k)}=${escapeRfc3986(v)}`).join('&')
        const signed = signUrl(`http://127.0.0.1:8080/document/processed.json${search === '' ? '' : '?' + search}`, KEY, secret)
        const rawTarget = signed.url.slice('http://127.0.0.1:8080'.length)
        const verdict = verifySignature({ rawTarget, host: '127.0.0.1:8080', authorization: signed.authorization, secretFor: (k) => (k === KEY ? secret : undefined) })
        expect(verdict.ok).toBe(true)
        const wrong = verifySignature({ rawTarget, host: '127.0.0.1:8080', authorization: signed.authorization, secretFor: () => secret + 'x' })
        expect(wrong.ok).toBe(false)
      }),
    )
  })
})

describe('src/client stays browser-safe', () => {
  it('imports no Node module, and the wire types with import type only', () => {
    const dir = new URL('../../src/client/', import.meta.url)
    const files = readdirSync(dir).filter((f) => f.endsWith('.ts'))
    expect(files.length).toBeGreaterThan(0)
    for (const file of files) {
      const source = readFileSync(new URL(file, dir), 'utf8')
      const imports = [...source.matchAll(/^(import|export)\b(.*?)\bfrom\s+'([^']+)'/gms)].map((m) => ({ kind: m[1]!, clause: m[2]!, from: m[3]! }))
      for (const { kind, clause, from } of imports) {
        expect(from, `${file}: ${from}`).not.toMatch(/^node:|^(fs|path|crypto|url|os|zlib|http|https|stream|buffer)$/)
        if (!from.startsWith('./') && !from.startsWith('../model/') && !from.startsWith('@noble/hashes/')) throw new Error(`${file} imports ${from}`)
        if (from.startsWith('../')) expect(`${kind}${clause}`, `${file}: ${from}`).toMatch(/^(import|export) type\b/)
      }
    }
  })
})
