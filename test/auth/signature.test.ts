import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import {
  computeSignature,
  createReplayCache,
  ESCAPER_FAMILIES,
  escapeForSignature,
  parseAuthorization,
  signingKey,
  signUrl,
  verifySignature,
} from '../../src/auth/signature.ts'
import type { VerifyResult } from '../../src/auth/signature.ts'

const KEY = 'consumer-key'
const SECRET = 'consumer-secret'
const NONCE = '45095438949668051540'
const TS = '1551274346'
const P = `oauth_consumer_key=${KEY}&oauth_nonce=${NONCE}&oauth_signature_method=HMAC-SHA1&oauth_timestamp=${TS}&oauth_version=1.0`
const secretFor = (k: string): string | undefined => (k === KEY ? SECRET : undefined)

// client-compat §1 test vectors.
const VECTORS: readonly (readonly [string, string])[] = [
  [`https://api.semantria.com/status.json?${P}`, 'NSwpaxPSOXNCS6spVRxBiDDN+Hs='],
  [`http://127.0.0.1:8080/status.json?${P}`, 'P8ItwaUKWNvniHrd7xWj6GCSuiM='],
  [`http://127.0.0.1:8080/document/processed.json?config_id=cfg-123&oauth_verifier=${P}`, 'rPKYWwn1rqTphsR4DqChBDImzFM='],
  [`http://127.0.0.1:8080/document/processed.json?job_id=job-1&oauth_verifier=${P}`, 'DCaiUhE3QnTG7iVEoBHdNE/25j8='],
  [`http://127.0.0.1:8080/document/processed.json?config_id=cfg-123&${P}`, 'hO2UkLBslzG2hYtC6gxJ5CFCcaQ='],
  [
    'http://127.0.0.1:8080/document/batch.json?config_id=cfg-123&oauth_verifier=oauth_consumer_key%3Dconsumer-key%26oauth_nonce%3D45095438949668051540%26oauth_signature_method%3DHMAC-SHA1%26oauth_timestamp%3D1551274346%26oauth_version%3D1.0',
    'BWFxFbh8dY6t8OJN5pV+nZJjB4k=',
  ],
  [
    'http://127.0.0.1:18931/status.json?oauth_consumer_key=consumer-key&oauth_nonce=1234567&oauth_signature_method=HMAC-SHA1&oauth_timestamp=1551274346000&oauth_version=1.0',
    'btKpeiPbKc5kkc58YznHd2NR6fA=',
  ],
]

/** Split a full URL into what a server receives: Host header and raw request target. */
function received(url: string): { host: string; rawTarget: string } {
  const m = /^https?:\/\/([^/]+)(\/.*)$/.exec(url)
  if (m?.[1] === undefined || m[2] === undefined) throw new Error(`bad test URL ${url}`)
  return { host: m[1], rawTarget: m[2] }
}

function header(signature: string, shape: 'sorted' | 'unquoted' | 'minimal' | 'lowerhex' | 'extra' = 'sorted'): string {
  const enc = encodeURIComponent(signature)
  switch (shape) {
    case 'sorted':
      return `OAuth realm="",oauth_consumer_key="${KEY}",oauth_nonce="${NONCE}",oauth_signature="${enc}",oauth_signature_method="HMAC-SHA1",oauth_timestamp="${TS}",oauth_version="1.0"`
    case 'unquoted':
      return `OAuth,oauth_version=1.0,oauth_signature_method=HMAC-SHA1,oauth_nonce="${NONCE}",oauth_consumer_key="${KEY}",oauth_timestamp="${TS}",oauth_signature="${enc}"`
    case 'minimal':
      return `OAuth,oauth_consumer_key="${KEY}",oauth_signature="${enc}"`
    case 'lowerhex':
      return `OAuth oauth_consumer_key="${KEY}", oauth_signature="${enc.replace(/%[0-9A-F]{2}/g, (h) => h.toLowerCase())}"`
    case 'extra':
      return `config_id="cfg-123", oauth_signature=${enc}, oauth_consumer_key=${KEY}, oauth_verifier="x"`
  }
}

function expectOk(result: VerifyResult): void {
  expect(result).toMatchObject({ ok: true, key: KEY })
}

describe('signing key', () => {
  it('is the lower-case hex MD5 of the secret', () => {
    expect(signingKey(SECRET)).toBe('c04af039f2f0b3ce260a84f46050db58')
  })
})

describe('client-compat §1 test vectors', () => {
  it.each(VECTORS)('signs %s as %s in every escaper family', (url, expected) => {
    for (const family of ESCAPER_FAMILIES) expect(computeSignature(url, SECRET, family)).toBe(expected)
  })

  it.each(VECTORS)('verifies %s sent with each header shape', (url, signature) => {
    const { host, rawTarget } = received(url)
    for (const shape of ['sorted', 'unquoted', 'minimal', 'lowerhex', 'extra'] as const) {
      expectOk(verifySignature({ rawTarget, host, authorization: header(signature, shape), secretFor }))
    }
  })

  it.each(VECTORS)('refuses %s when one character of the target changes', (url, signature) => {
    const { host, rawTarget } = received(url)
    const tampered = rawTarget.replace('.json', '.xml')
    const result = verifySignature({ rawTarget: tampered, host, authorization: header(signature), secretFor })
    expect(result).toMatchObject({ ok: false, code: 'bad_signature' })
  })
})

describe('parseAuthorization', () => {
  it('reads the sorted, quoted shape with an empty realm', () => {
    const p = parseAuthorization('OAuth realm="",oauth_consumer_key="K",oauth_nonce="N",oauth_signature="S%2Bx%3D"')
    expect(p.get('realm')).toBe('')
    expect(p.get('oauth_consumer_key')).toBe('K')
    expect(p.get('oauth_nonce')).toBe('N')
    expect(p.get('oauth_signature')).toBe('S%2Bx%3D')
  })

  it('skips a bare OAuth piece and reads unquoted values', () => {
    const p = parseAuthorization('OAuth,oauth_version=1.0,oauth_signature_method=HMAC-SHA1,oauth_nonce="N"')
    expect([...p.entries()]).toEqual([
      ['oauth_version', '1.0'],
      ['oauth_signature_method', 'HMAC-SHA1'],
      ['oauth_nonce', 'N'],
    ])
  })

  it('accepts a header not starting with OAuth, extra keys first, and values holding "="', () => {
    const p = parseAuthorization(' config_id="c-1" , oauth_signature="abc=" ,oauth_consumer_key=K')
    expect(p.get('config_id')).toBe('c-1')
    expect(p.get('oauth_signature')).toBe('abc=')
    expect(p.get('oauth_consumer_key')).toBe('K')
  })
})

describe('verifySignature', () => {
  const url = `http://127.0.0.1:8080/status.json?${P}`
  const sig = computeSignature(url, SECRET)

  it('accepts the request when TLS ended at a proxy (client signed https, server sees http)', () => {
    const httpsSig = computeSignature(`https://api.example.com/status.json?${P}`, SECRET)
    expectOk(verifySignature({ rawTarget: `/status.json?${P}`, host: 'api.example.com', authorization: header(httpsSig), secretFor }))
  })

  it('accepts the absolute-form target a forward proxy sends', () => {
    const s = computeSignature(`http://api.example.com/status.json?${P}`, SECRET)
    expectOk(verifySignature({ rawTarget: `http://api.example.com/status.json?${P}`, host: 'proxy.local', authorization: header(s), secretFor }))
  })

  it('accepts a Host header with or without the default port', () => {
    const bare = computeSignature(`https://api.example.com/status.json?${P}`, SECRET)
    expectOk(verifySignature({ rawTarget: `/status.json?${P}`, host: 'api.example.com:443', authorization: header(bare), secretFor }))
    const withPort = computeSignature(`http://api.example.com:80/status.json?${P}`, SECRET)
    expectOk(verifySignature({ rawTarget: `/status.json?${P}`, host: 'api.example.com', authorization: header(withPort), secretFor }))
  })

  it("accepts a target whose ' ( ) ! * ~ were escaped after signing", () => {
    const signedUrl = `http://h:1/document/it's(1)!*~.json?${P}`
    const s = computeSignature(signedUrl, SECRET)
    const sent = `/document/it%27s%281%29%21%2A%7E.json?${P}`
    expectOk(verifySignature({ rawTarget: sent, host: 'h:1', authorization: header(s), secretFor }))
  })

  it('accepts a path signed with UTF-8 and sent unescaped (Node reads those bytes as Latin-1)', () => {
    const signedUrl = `http://h:1/document/caf\u00e9-\u{1F600}.json?${P}`
    const s = computeSignature(signedUrl, SECRET)
    const asNodeSeesIt = Buffer.from(`/document/caf\u00e9-\u{1F600}.json?${P}`, 'utf8').toString('latin1')
    expectOk(verifySignature({ rawTarget: asNodeSeesIt, host: 'h:1', authorization: header(s), secretFor }))
    expectOk(verifySignature({ rawTarget: `/document/caf\u00e9-\u{1F600}.json?${P}`, host: 'h:1', authorization: header(s), secretFor }))
  })

  it('accepts a signature from each escaper family where the families disagree', () => {
    const signedUrl = `http://h:1/document/a b~c'd*(e)!.json?tag=x y&${P}`
    const families = new Set(ESCAPER_FAMILIES.map((f) => escapeForSignature(signedUrl, f)))
    expect(families.size).toBe(4)
    for (const family of ESCAPER_FAMILIES) {
      const s = computeSignature(signedUrl, SECRET, family)
      const result = verifySignature({ rawTarget: received(signedUrl).rawTarget, host: 'h:1', authorization: header(s), secretFor })
      expect(result).toMatchObject({ ok: true, family })
    }
  })

  it('names each failure with a machine code and a message', () => {
    const rawTarget = `/status.json?${P}`
    const host = '127.0.0.1:8080'
    expect(verifySignature({ rawTarget, host, authorization: undefined, secretFor })).toMatchObject({ ok: false, code: 'missing_header' })
    expect(verifySignature({ rawTarget, host, authorization: 'OAuth', secretFor })).toMatchObject({ ok: false, code: 'missing_parameter' })
    expect(verifySignature({ rawTarget, host, authorization: `OAuth oauth_consumer_key="${KEY}"`, secretFor })).toMatchObject({
      ok: false,
      code: 'missing_parameter',
      reason: expect.stringContaining('oauth_signature') as unknown,
    })
    expect(verifySignature({ rawTarget, host, authorization: header(sig).replace(KEY, 'other'), secretFor })).toMatchObject({
      ok: false,
      code: 'unknown_key',
    })
    expect(
      verifySignature({ rawTarget, host, authorization: `OAuth oauth_consumer_key="${KEY}",oauth_signature="%zz"`, secretFor }),
    ).toMatchObject({ ok: false, code: 'malformed_signature' })
    const wrongSecret = computeSignature(url, 'another-secret')
    const failure = verifySignature({ rawTarget, host, authorization: header(wrongSecret), secretFor })
    expect(failure).toMatchObject({ ok: false, code: 'bad_signature' })
    if (!failure.ok) expect(failure.reason.length).toBeGreaterThan(0)
  })

  it('accepts the same nonce twice by default', () => {
    const req = { rawTarget: `/status.json?${P}`, host: '127.0.0.1:8080', authorization: header(sig), secretFor }
    expectOk(verifySignature(req))
    expectOk(verifySignature(req))
  })

  it('checks the timestamp only when a replay window is set, reading 13 digits as milliseconds', () => {
    const req = { rawTarget: `/status.json?${P}`, host: '127.0.0.1:8080', authorization: header(sig), secretFor }
    const at = (seconds: number) => ({ replayWindowSeconds: 300, now: () => seconds * 1000 })
    expectOk(verifySignature(req, at(1551274346 + 100)))
    expect(verifySignature(req, at(1551274346 + 301))).toMatchObject({ ok: false, code: 'stale_timestamp' })
    const [msUrl, msSig] = VECTORS[6] ?? ['', '']
    const { host, rawTarget } = received(msUrl)
    // The two-parameter header carries no timestamp: it is read from the query.
    const msReq = { rawTarget, host, authorization: header(msSig, 'minimal'), secretFor }
    expectOk(verifySignature(msReq, at(1551274346 - 10)))
    expect(verifySignature(msReq, at(1551274346 + 3600))).toMatchObject({ ok: false, code: 'stale_timestamp' })
  })
})

describe('signUrl', () => {
  it('produces the vectors in the query and both oauth_verifier forms', () => {
    expect(signUrl('https://api.semantria.com/status.json', KEY, SECRET, NONCE, TS).signature).toBe('NSwpaxPSOXNCS6spVRxBiDDN+Hs=')
    expect(
      signUrl('http://127.0.0.1:8080/document/processed.json?config_id=cfg-123', KEY, SECRET, NONCE, TS, { form: 'verifier' }).signature,
    ).toBe('rPKYWwn1rqTphsR4DqChBDImzFM=')
    expect(
      signUrl('http://127.0.0.1:8080/document/batch.json?config_id=cfg-123', KEY, SECRET, NONCE, TS, { form: 'verifier-escaped' })
        .signature,
    ).toBe('BWFxFbh8dY6t8OJN5pV+nZJjB4k=')
  })

  it('should verify every request it signs, whatever the path, query, family, form and header shape', () => {
    const segment = fc.stringMatching(/^[A-Za-z0-9._~!*'()-]{1,12}$/)
    fc.assert(
      fc.property(
        fc.array(segment, { minLength: 1, maxLength: 3 }),
        fc.option(fc.tuple(segment, segment), { nil: undefined }),
        fc.constantFrom(...ESCAPER_FAMILIES),
        fc.constantFrom('query', 'verifier', 'verifier-escaped'),
        fc.constantFrom('full', 'unquoted', 'minimal'),
        fc.constantFrom('http', 'https'),
        fc.bigInt({ min: 0n, max: 2n ** 64n - 1n }),
        fc.boolean(),
        (segments, query, family, form, headerShape, scheme, nonce, millis) => {
          const base = `${scheme}://svc.local:9000/${segments.join('/')}.json${query ? `?${query[0]}=${query[1]}` : ''}`
          const ts = millis ? '1551274346000' : '1551274346'
          const signed = signUrl(base, KEY, SECRET, nonce.toString(), ts, { family, form, header: headerShape })
          const { host, rawTarget } = received(signed.url)
          const result = verifySignature({ rawTarget, host, authorization: signed.authorization, secretFor })
          expect(result).toMatchObject({ ok: true, key: KEY })
        },
      ),
      { seed: 4242, numRuns: 200 },
    )
  })
})

describe('replay window and key enumeration (issue 18)', () => {
  const NOW = 1_800_000_000
  const signedAt = (ts: string | number, nonce = NONCE, path = '/status.json') => {
    const s = signUrl(`http://127.0.0.1:8080${path}`, KEY, SECRET, nonce, ts)
    const { host, rawTarget } = received(s.url)
    return { rawTarget, host, authorization: s.authorization, secretFor }
  }
  const window = (cache = createReplayCache(1000)) => ({ replayWindowSeconds: 900, replayCache: cache, now: () => NOW * 1000 })

  it('refuses a timestamp that is not a number, or from 2019, with a message saying why', () => {
    const abc = verifySignature(signedAt('abc'), window())
    expect(abc).toMatchObject({ ok: false, code: 'stale_timestamp' })
    if (!abc.ok) expect(abc.reason).toMatch(/oauth_timestamp "abc" is not a number of seconds/)
    const old = verifySignature(signedAt(1551274346), window())
    expect(old).toMatchObject({ ok: false, code: 'stale_timestamp' })
    if (!old.ok) expect(old.reason).toMatch(/oauth_timestamp 1551274346 \(2019-02-27T13:32:26\.000Z\) is more than 900 seconds away from the server clock/)
    const missing = verifySignature({ ...signedAt(NOW), authorization: header(computeSignature(`http://127.0.0.1:8080/status.json`, SECRET), 'minimal'), rawTarget: '/status.json' }, window())
    expect(missing).toMatchObject({ ok: false, code: 'stale_timestamp' })
  })

  it('accepts timestamps within the window in seconds and milliseconds, also when only the URL carries them', () => {
    expectOk(verifySignature(signedAt(NOW - 899), window()))
    expectOk(verifySignature(signedAt((NOW + 600) * 1000, '1234567'), window()))
    const s = signUrl('http://127.0.0.1:8080/document/batch.json?config_id=c', KEY, SECRET, NONCE, NOW, { form: 'verifier-escaped', header: 'minimal', family: 'java' })
    expectOk(verifySignature({ ...received(s.url), authorization: s.authorization, secretFor }, window()))
  })

  it('refuses the same signed request twice within the window, but not a repeated nonce on another request', () => {
    const cache = createReplayCache(1000)
    const first = signedAt(NOW)
    expectOk(verifySignature(first, window(cache)))
    const again = verifySignature(first, window(cache))
    expect(again).toMatchObject({ ok: false, code: 'replayed' })
    if (!again.ok) expect(again.reason).toMatch(/already received/)
    // One client repeats a nonce within a second (client-compat §1): another URL, another signature, accepted.
    expectOk(verifySignature(signedAt(NOW, NONCE, '/subscription.json'), window(cache)))
    // A forged request does not enter the cache: the real one still passes afterwards.
    const real = signedAt(NOW, '999')
    const forged = { ...real, authorization: real.authorization.replace(/oauth_signature="[^"]+"/, 'oauth_signature="AAAAAAAAAAAAAAAAAAAAAAAAAAA%3D"') }
    expect(verifySignature(forged, window(cache))).toMatchObject({ ok: false, code: 'bad_signature' })
    expectOk(verifySignature(real, window(cache)))
  })

  it('keeps the cache bounded, forgetting the oldest first and entries past the window', () => {
    const cache = createReplayCache(3)
    for (let i = 0; i < 10; i++) expectOk(verifySignature(signedAt(NOW, String(i)), window(cache)))
    expect(cache.size()).toBe(3)
    expect(verifySignature(signedAt(NOW, '9'), window(cache))).toMatchObject({ ok: false, code: 'replayed' })
    const later = { replayWindowSeconds: 900, replayCache: cache, now: () => (NOW + 1000) * 1000 }
    expectOk(verifySignature(signedAt(NOW + 1000, 'x'), later))
    expect(cache.size()).toBe(1)
  })

  it('answers an unknown key and a bad signature with the same message', () => {
    const good = signedAt(1551274346)
    const unknown = verifySignature({ ...good, authorization: good.authorization.replace(`"${KEY}"`, '"no-such-key"') })
    const bad = verifySignature({ ...good, authorization: good.authorization.replace(/oauth_signature="[^"]+"/, 'oauth_signature="AAAAAAAAAAAAAAAAAAAAAAAAAAA%3D"') })
    expect(unknown).toMatchObject({ ok: false, code: 'unknown_key' })
    expect(bad).toMatchObject({ ok: false, code: 'bad_signature' })
    if (!unknown.ok && !bad.ok) expect(unknown.reason).toBe(bad.reason)
  })

  it('does not try a bogus default port on a Host that has a port', () => {
    // "127.0.0.1:8080:80" was tried before; a signature over it must not pass.
    const bogus = computeSignature(`http://127.0.0.1:8080:80/status.json?${P}`, SECRET)
    expect(verifySignature({ rawTarget: `/status.json?${P}`, host: '127.0.0.1:8080', authorization: header(bogus), secretFor })).toMatchObject({ ok: false })
  })
})
