import { createHash, createHmac, createSecretKey, randomBytes, timingSafeEqual, type KeyObject } from 'node:crypto'

/**
 * The four escaper families the client SDKs use for ESCAPE(full URL) (client-compat §1):
 * - `rfc3986`: only `A-Z a-z 0-9 - . _ ~` kept, upper-case hex;
 * - `uri-component`: JavaScript `encodeURIComponent` (also keeps `! * ' ( )`);
 * - `java`: Java `URLEncoder` (space as `+`, keeps `*`, encodes `~`);
 * - `form`: form style (space as `+`, keeps `~`).
 */
export type EscaperFamily = 'rfc3986' | 'uri-component' | 'java' | 'form'

/** Every {@link EscaperFamily}, in the order verification tries them. */
export const ESCAPER_FAMILIES: readonly EscaperFamily[] = ['rfc3986', 'uri-component', 'java', 'form']

const hex = (c: string): string => '%' + c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')

/**
 * ESCAPE of client-compat §1 in one family. Non-ASCII is percent-encoded as UTF-8. Returns `undefined` when the
 * text holds a lone surrogate (no client can have signed it).
 */
export function escapeForSignature(text: string, family: EscaperFamily): string | undefined {
  let encoded: string
  try {
    encoded = encodeURIComponent(text)
  } catch {
    return undefined
  }
  switch (family) {
    case 'uri-component':
      return encoded
    case 'rfc3986':
      return encoded.replace(/[!'()*]/g, hex)
    case 'java':
      return encoded.replace(/[!'()~]/g, hex).replace(/%20/g, '+')
    case 'form':
      return encoded.replace(/[!'()*]/g, hex).replace(/%20/g, '+')
  }
}

/** The HMAC key of a secret: the ASCII bytes of its lower-case hex MD5 (32 characters, not the raw digest). */
export function signingKey(secret: string): string {
  return createHash('md5').update(secret, 'utf8').digest('hex')
}

// Derived HMAC keys by secret: verification would otherwise hash the secret again on every request. Accounts
// are few; the map is emptied when it reaches its bound (secrets of removed accounts do not pile up).
const KEY_CACHE_LIMIT = 4096
const keyCache = new Map<string, KeyObject>()

/** {@link signingKey} as a cached HMAC key object. */
function cachedKey(secret: string): KeyObject {
  let key = keyCache.get(secret)
  if (key === undefined) {
    if (keyCache.size >= KEY_CACHE_LIMIT) keyCache.clear()
    key = createSecretKey(Buffer.from(signingKey(secret), 'latin1'))
    keyCache.set(secret, key)
  }
  return key
}

/** Raw 20-byte HMAC-SHA1 of ESCAPE(url) in one family, or `undefined` when `url` cannot be escaped. */
function rawSignature(url: string, key: string, family: EscaperFamily): Buffer | undefined {
  const base = escapeForSignature(url, family)
  if (base === undefined) return undefined
  return createHmac('sha1', key).update(base, 'utf8').digest()
}

/**
 * The base64 signature (standard alphabet, `=` padding) a client computes for the full URL it sends, which must
 * already hold the five oauth parameters. Throws a `TypeError` when the URL holds a lone surrogate.
 */
export function computeSignature(fullUrl: string, secret: string, family: EscaperFamily = 'rfc3986'): string {
  const raw = rawSignature(fullUrl, signingKey(secret), family)
  if (raw === undefined) throw new TypeError('the URL holds a lone surrogate and cannot be signed')
  return raw.toString('base64')
}

/** Options of {@link signUrl}: how a particular client shapes the request. */
export interface SignUrlOptions {
  /** @defaultValue 'rfc3986' */
  readonly family?: EscaperFamily
  /**
   * How the oauth parameters are appended: `query` as ordinary parameters; `verifier` as
   * `&oauth_verifier=oauth_consumer_key=K&oauth_nonce=…` (unescaped); `verifier-escaped` as
   * `&oauth_verifier=oauth_consumer_key%3DK%26…`. Both verifier forms are what one client sends.
   * @defaultValue 'query'
   */
  readonly form?: 'query' | 'verifier' | 'verifier-escaped'
  /**
   * The Authorization header shape: `full` (realm, the six parameters sorted and quoted), `unquoted`
   * (`OAuth,oauth_version=1.0,…` with some values bare), `minimal` (`OAuth,oauth_consumer_key="K",oauth_signature="S"`).
   * @defaultValue 'full'
   */
  readonly header?: 'full' | 'unquoted' | 'minimal'
}

/** Result of {@link signUrl}. */
export interface SignedUrl {
  /** The URL to request: the input plus the oauth parameters. */
  readonly url: string
  /** Base64 signature, not percent-encoded. */
  readonly signature: string
  /** Value of the `Authorization` header. */
  readonly authorization: string
}

/**
 * Sign a request the way the client SDKs do (client side, for tests and the test HTTP client): append the five
 * oauth parameters to `url`, sign the result, and build the Authorization header. `timestamp` may be seconds or
 * milliseconds, as clients differ.
 */
export function signUrl(
  url: string,
  key: string,
  secret: string,
  nonce: string,
  timestamp: string | number,
  options: SignUrlOptions = {},
): SignedUrl {
  const params =
    `oauth_consumer_key=${key}&oauth_nonce=${nonce}&oauth_signature_method=HMAC-SHA1` +
    `&oauth_timestamp=${timestamp}&oauth_version=1.0`
  const form = options.form ?? 'query'
  const sep = url.includes('?') ? (url.endsWith('?') || url.endsWith('&') ? '' : '&') : '?'
  let full: string
  if (form === 'query') full = url + sep + params
  else if (form === 'verifier') full = url + sep + 'oauth_verifier=' + params
  else full = url + sep + 'oauth_verifier=' + params.replace(/=/g, '%3D').replace(/&/g, '%26')
  const signature = computeSignature(full, secret, options.family ?? 'rfc3986')
  const escaped = encodeURIComponent(signature)
  let authorization: string
  switch (options.header ?? 'full') {
    case 'full':
      authorization =
        `OAuth realm="",oauth_consumer_key="${key}",oauth_nonce="${nonce}",oauth_signature="${escaped}",` +
        `oauth_signature_method="HMAC-SHA1",oauth_timestamp="${timestamp}",oauth_version="1.0"`
      break
    case 'unquoted':
      authorization =
        `OAuth,oauth_version=1.0,oauth_signature_method=HMAC-SHA1,oauth_nonce="${nonce}",oauth_consumer_key="${key}",` +
        `oauth_timestamp="${timestamp}",oauth_signature="${escaped}"`
      break
    case 'minimal':
      authorization = `OAuth,oauth_consumer_key="${key}",oauth_signature="${escaped}"`
      break
  }
  return { url: full, signature, authorization }
}

/**
 * Parse an `Authorization` header leniently (client-compat §1 step 1): split on `,`, trim, skip pieces without
 * `=` (a bare `OAuth`), key = text before the first `=` (a leading `OAuth ` scheme word removed), value = the rest
 * with surrounding double quotes removed. Any order, quoted or not, extra keys kept; the first occurrence of a
 * key wins. Values are returned as sent (not percent-decoded).
 */
export function parseAuthorization(header: string): Map<string, string> {
  const params = new Map<string, string>()
  for (const rawPiece of header.split(',')) {
    let piece = rawPiece.trim()
    const eq = piece.indexOf('=')
    if (eq < 0) continue
    // "OAuth realm=…" and "OAuth oauth_consumer_key=…": drop the scheme word in front of the first key.
    const space = piece.search(/\s/)
    if (space >= 0 && space < eq) piece = piece.slice(space).trim()
    const at = piece.indexOf('=')
    const key = piece.slice(0, at).trim()
    let value = piece.slice(at + 1).trim()
    if (value.length >= 2 && value.startsWith('"') && value.endsWith('"')) value = value.slice(1, -1)
    else if (value.startsWith('"')) value = value.slice(1)
    if (key.length > 0 && !params.has(key)) params.set(key, value)
  }
  return params
}

/** Machine codes of a failed {@link verifySignature}. */
export type SignatureFailure =
  | 'missing_header'
  | 'missing_parameter'
  | 'unknown_key'
  | 'malformed_signature'
  | 'bad_signature'
  | 'stale_timestamp'
  | 'replayed'

/** Input of {@link verifySignature}. */
export interface VerifyRequest {
  /** The request target exactly as received (`/path.ext?query`, or the absolute form), never re-serialised or decoded. */
  readonly rawTarget: string
  /** The `Host` header as received. */
  readonly host: string
  /** The `Authorization` header, if any. */
  readonly authorization: string | null | undefined
  /** The secret of a consumer key, `undefined` for an unknown key. */
  readonly secretFor: (key: string) => string | undefined
  /**
   * The scheme the request arrived with, tried first (the other one is still tried: TLS may end at a proxy).
   * @defaultValue 'http'
   */
  readonly scheme?: 'http' | 'https'
}

/** Options of {@link verifySignature}. */
export interface VerifyOptions {
  /**
   * When set, a request whose `oauth_timestamp` differs from `now` by more than this many seconds is refused
   * (timestamps above 10^11 are read as milliseconds), as is one with no timestamp or a timestamp that is not a
   * number. Off by default: the library leaves it to the server (the standalone server turns it on).
   * @defaultValue undefined
   */
  readonly replayWindowSeconds?: number
  /**
   * Signed requests already seen (see {@link createReplayCache}): a verified request whose signature was seen
   * within the replay window is refused as a replay. Needs `replayWindowSeconds`.
   * @defaultValue none: repeated requests are accepted
   */
  readonly replayCache?: ReplayCache
  /**
   * Clock for the replay window, epoch milliseconds.
   * @defaultValue Date.now
   */
  readonly now?: () => number
}

/** Result of {@link verifySignature}: the consumer key on success, a machine code and a message otherwise. */
export type VerifyResult =
  | { readonly ok: true; readonly key: string; readonly family: EscaperFamily }
  | { readonly ok: false; readonly code: SignatureFailure; readonly reason: string }

/**
 * The signatures of verified requests seen within the replay window, bounded in memory. A signature is the HMAC
 * of the whole URL, nonce and timestamp included, so the same signature twice is the same request sent twice: a
 * replay. (A client that reuses a nonce for a different request gives a different signature, which client-compat
 * §1 requires to accept.) Entries are kept until their timestamp leaves the window; past `maxEntries` the oldest
 * are forgotten first.
 */
export interface ReplayCache {
  /**
   * Record a verified signature whose timestamp is `timestampSeconds`; false when it was already recorded and its
   * timestamp is still within the window (a replay).
   */
  remember(key: string, signature: Buffer, timestampSeconds: number, nowSeconds: number, windowSeconds: number): boolean
  /** Entries held. */
  size(): number
}

/** Create a {@link ReplayCache} holding at most `maxEntries` signatures (at least 1). */
export function createReplayCache(maxEntries: number): ReplayCache {
  if (!Number.isInteger(maxEntries) || maxEntries < 1) throw new TypeError(`createReplayCache: maxEntries must be a positive integer, found ${String(maxEntries)}`)
  // Insertion order is roughly expiry order (timestamps are close to the clock); the sweep stops at the first live one.
  const seen = new Map<string, number>()
  return {
    remember(key, signature, timestampSeconds, nowSeconds, windowSeconds) {
      for (const [k, expires] of seen) {
        if (expires >= nowSeconds && seen.size < maxEntries) break
        seen.delete(k)
      }
      const id = key + '\u0000' + signature.toString('base64')
      const expires = seen.get(id)
      if (expires !== undefined && expires >= nowSeconds) return false
      seen.delete(id)
      seen.set(id, timestampSeconds + windowSeconds)
      return true
    },
    size: () => seen.size,
  }
}

/** Decode `%XX` (hex in either case) only; `+` stays `+` since it is a base64 character. */
function percentDecodeSignature(value: string): string | undefined {
  if (/%(?![0-9a-fA-F]{2})/.test(value)) return undefined
  return value.replace(/%([0-9a-fA-F]{2})/g, (_, h: string) => String.fromCharCode(Number.parseInt(h, 16)))
}

const DEFAULT_PORTS: Readonly<Record<string, string>> = { http: '80', https: '443' }

/**
 * The hosts a client may have put in the URL for one scheme: as received first, then without the scheme's default
 * port, or with it when the Host has no port.
 */
function hostVariants(host: string, scheme: 'http' | 'https'): string[] {
  const port = DEFAULT_PORTS[scheme] ?? ''
  const hasPort = /:\d*$/.test(host) && !/^\[[^\]]*\]$/.test(host)
  if (!hasPort) return [host, `${host}:${port}`]
  const bare = host.replace(/:(80|443)$/, '')
  return bare === host ? [host] : [host, bare]
}

/** The raw target with `%21 %27 %28 %29 %2A %7E` decoded back (one client's HTTP library escapes after signing). */
function unescapeSubDelims(target: string): string {
  return target.replace(/%(21|27|28|29|2A|7E)/gi, (_, h: string) => String.fromCharCode(Number.parseInt(h, 16)))
}

/**
 * The raw target, the same with sub-delimiters decoded back, and, when the target holds raw bytes above 0x7F
 * read as Latin-1 (how Node exposes unescaped UTF-8 in a request line), both again with those bytes read as UTF-8.
 */
function targetVariants(rawTarget: string): string[] {
  const variants = [rawTarget]
  if (/%(?:21|27|28|29|2A|7E)/i.test(rawTarget)) variants.push(unescapeSubDelims(rawTarget))
  if (/[\x80-\xff]/.test(rawTarget) && !/[^\x00-\xff]/.test(rawTarget)) {
    const utf8 = Buffer.from(rawTarget, 'latin1').toString('utf8')
    if (!utf8.includes('\uFFFD')) variants.push(utf8, unescapeSubDelims(utf8))
  }
  return [...new Set(variants)]
}

/** ESCAPE of a text in each family, in {@link ESCAPER_FAMILIES} order; `undefined` when it holds a lone surrogate. */
function escapedByFamily(text: string): readonly string[] | undefined {
  let encoded: string
  try {
    encoded = encodeURIComponent(text)
  } catch {
    return undefined
  }
  // Families differ only on ! ' ( ) * ~ and the space: without them, one text serves all four.
  if (!/[!'()*~]|%20/.test(encoded)) return [encoded, encoded, encoded, encoded]
  return ESCAPER_FAMILIES.map((f) => escapeForSignature(text, f) ?? '')
}

/** `oauth_timestamp` as sent: from the header, else from the raw target (plain, or inside an escaped `oauth_verifier`). */
function timestampTextOf(params: Map<string, string>, rawTarget: string): string | undefined {
  return params.get('oauth_timestamp') ?? /[?&]oauth_timestamp(?:=|%3D)([^&%#]*)/i.exec(rawTarget)?.[1] ?? /oauth_timestamp(?:=|%3D)([^&%#]*)/i.exec(rawTarget)?.[1]
}

/** A timestamp text in seconds (13 digits and more read as milliseconds), or undefined when it is not a number. */
function timestampSeconds(text: string): number | undefined {
  if (!/^\d{1,16}$/.test(text)) return undefined
  const n = Number(text)
  return n > 1e11 ? n / 1000 : n
}

/** The secret verification runs with for an unknown key, so that an unknown key costs what a bad signature costs. */
const DUMMY_SECRET = randomBytes(16).toString('hex')

/** The one answer for an unknown key and a bad signature: telling them apart would let a caller find valid keys. */
const BAD_CREDENTIALS = 'the consumer key is unknown or the signature does not match the request URL'

/**
 * Verify a request signature exactly as client-compat §1 requires, accepting every client SDK: the consumer key
 * and signature are read from the Authorization header (leniently), the URL is rebuilt from the raw target and the
 * Host header under both schemes (the request's own first), with and without the default port, and with
 * `%21 %27 %28 %29 %2A %7E` decoded back; each is escaped by the four escaper families (a text the families agree
 * on is signed once) and compared in constant time, stopping at the first match. The HMAC key derived from a
 * secret is cached.
 *
 * An unknown key is verified against a random secret, through the same variants, and answers the same message
 * as a bad signature: neither the answer nor its timing tells whether a key exists (the codes differ for logs).
 *
 * Neither method nor body is signed (the contract's signature covers the URL only). With `replayWindowSeconds`, a
 * timestamp that is missing, not a number or too far from the clock is refused; with a `replayCache` too, a
 * request already seen within the window is refused as a replay.
 */
export function verifySignature(request: VerifyRequest, options: VerifyOptions = {}): VerifyResult {
  const header = request.authorization
  if (header === null || header === undefined || header.trim() === '') {
    return { ok: false, code: 'missing_header', reason: 'the Authorization header is missing' }
  }
  const params = parseAuthorization(header)
  const key = params.get('oauth_consumer_key')
  const sent = params.get('oauth_signature')
  if (key === undefined || key === '') {
    return { ok: false, code: 'missing_parameter', reason: 'the Authorization header has no oauth_consumer_key' }
  }
  if (sent === undefined || sent === '') {
    return { ok: false, code: 'missing_parameter', reason: 'the Authorization header has no oauth_signature' }
  }
  const decoded = percentDecodeSignature(sent)
  const expected =
    decoded !== undefined && /^[A-Za-z0-9+/]{27}=$/.test(decoded) ? Buffer.from(decoded, 'base64') : undefined
  if (expected === undefined || expected.length !== 20) {
    return {
      ok: false,
      code: 'malformed_signature',
      reason: 'oauth_signature is not a percent-encoded base64 HMAC-SHA1 (28 characters)',
    }
  }
  let ts: number | undefined
  const window = options.replayWindowSeconds
  const nowSeconds = window === undefined ? 0 : (options.now ?? Date.now)() / 1000
  if (window !== undefined) {
    const text = timestampTextOf(params, request.rawTarget)
    if (text === undefined || text === '') {
      return { ok: false, code: 'stale_timestamp', reason: 'oauth_timestamp is missing (the server refuses requests outside its replay window)' }
    }
    ts = timestampSeconds(text)
    if (ts === undefined) {
      return {
        ok: false,
        code: 'stale_timestamp',
        reason: `oauth_timestamp ${JSON.stringify(text.slice(0, 24))} is not a number of seconds (or milliseconds) since 1970`,
      }
    }
    if (Math.abs(nowSeconds - ts) > window) {
      return {
        ok: false,
        code: 'stale_timestamp',
        reason:
          `oauth_timestamp ${text} (${new Date(ts * 1000).toISOString()}) is more than ${window} seconds away from the ` +
          `server clock (${new Date(nowSeconds * 1000).toISOString()}); sign each request with the current time`,
      }
    }
  }
  const secret = request.secretFor(key)
  const hmacKey = cachedKey(secret ?? DUMMY_SECRET)
  // A request through a forward proxy carries the absolute form `http://host/path?…`: its host wins.
  const absolute = /^(https?):\/\/([^/?#]*)(.*)$/i.exec(request.rawTarget)
  const requestHost = absolute?.[2] ?? request.host
  const rawTarget = absolute === null ? request.rawTarget : absolute[3] || '/'
  const first = absolute === null ? (request.scheme ?? 'http') : (absolute[1]!.toLowerCase() as 'http' | 'https')
  const targets = targetVariants(rawTarget).map(escapedByFamily)
  const tried = new Set<string>()
  let match: EscaperFamily | undefined
  search: for (const scheme of first === 'https' ? (['https', 'http'] as const) : (['http', 'https'] as const)) {
    for (const host of hostVariants(requestHost, scheme)) {
      // ESCAPE works character by character, so ESCAPE(prefix + target) = ESCAPE(prefix) + ESCAPE(target).
      const prefixes = escapedByFamily(`${scheme}://${host}`)
      if (prefixes === undefined) continue
      for (const byFamily of targets) {
        if (byFamily === undefined) continue
        for (let f = 0; f < ESCAPER_FAMILIES.length; f++) {
          const base = prefixes[f]! + byFamily[f]!
          if (tried.has(base)) continue
          tried.add(base)
          const actual = createHmac('sha1', hmacKey).update(base, 'latin1').digest()
          if (timingSafeEqual(actual, expected)) {
            match = ESCAPER_FAMILIES[f]
            break search
          }
        }
      }
    }
  }
  if (match === undefined || secret === undefined) {
    return { ok: false, code: secret === undefined ? 'unknown_key' : 'bad_signature', reason: BAD_CREDENTIALS }
  }
  if (options.replayCache !== undefined && window !== undefined && ts !== undefined) {
    if (!options.replayCache.remember(key, expected, ts, nowSeconds, window)) {
      return {
        ok: false,
        code: 'replayed',
        reason: 'this signed request was already received (same oauth_nonce, oauth_timestamp and URL); sign every request with a fresh oauth_nonce',
      }
    }
  }
  return { ok: true, key, family: match }
}
