import { createReplayCache, verifySignature, type ReplayCache } from '../auth/signature.ts'
import { chooseResponseEncoding, decodeRequestBody, encodeResponseBody } from '../codecs/compression.ts'
import { isCodecError } from '../codecs/errors.ts'
import type { PathStyle } from '../codecs/writable.ts'
import type { Engine, AccountApi } from '../engine/types.ts'
import { isEngineError } from '../errors.ts'
import { buildOpenApi } from './openapi.ts'
import { createRoutes, matchRoute, splitFormat, type FileAnswer, type Route, type RouteMatch, type WireFormat } from './routes.ts'
import { checkQueryIdentifiers, checkBodyIdentifiers } from './identifiers.ts'
import { decodeBody, encodeAnswer, encodeError } from './wire.ts'

/** One line of the request log, handed to {@link HttpHandlerOptions.log} once per request. */
export interface RequestLogEntry {
  readonly method: string
  /** The path as received, without the query (the query carries the signature parameters). */
  readonly path: string
  readonly status: number
  /** Milliseconds from receipt to the response being ready. */
  readonly ms: number
  /** Account key, once the signature was verified. */
  readonly account: string | undefined
  /** Contract endpoint of the route, e.g. `E3`. */
  readonly endpoint: string | undefined
  /** Size of the response body as sent (after compression). */
  readonly bytesOut: number
  /** The error message, for answers of 400 and above. */
  readonly error: string | undefined
  /**
   * Set when items of a successful answer could not be encoded as stored and were sent as their writable copy
   * (non-finite numbers left out, lone surrogates as U+FFFD): how many, so the fault is seen in the log.
   */
  readonly warning?: string
}

/** Options of {@link createHttpHandler}. Every field is optional. */
export interface HttpHandlerOptions {
  /** Prefix the API is mounted under, e.g. `/api` (no trailing slash). @defaultValue '' */
  readonly basePath?: string
  /** Largest request body accepted as received (413 beyond). @defaultValue 4 MiB */
  readonly maxBodyBytes?: number
  /** Largest request body after gzip/deflate decoding (413 beyond; stops compression bombs). @defaultValue 8 MiB */
  readonly maxDecompressedBytes?: number
  /**
   * Also accept signatures made over `X-Forwarded-Host` (set this when a trusted proxy rewrites Host).
   * @defaultValue false
   */
  readonly trustProxy?: boolean
  /**
   * Replay window, in seconds: a request whose `oauth_timestamp` is missing, not a number (`abc`) or further than
   * this from the server clock is refused (401), and, with `replayCacheSize`, so is a signed request received a
   * second time within the window. Timestamps above 10^11 are read as milliseconds (client-compat §1). The
   * standalone server turns it on (900 s); `0` or undefined turns it off.
   * @defaultValue off
   */
  readonly replayWindowSeconds?: number
  /**
   * Signed requests remembered for the replay window (memory bound: about 150 bytes each). The signature is the
   * HMAC of the whole URL, nonce and timestamp included, so only the same request sent again is refused; a
   * client that repeats a nonce for another request still passes. Past this many within the window the oldest
   * are forgotten first. `0` checks timestamps only. Used only with `replayWindowSeconds`.
   * @defaultValue 100000
   */
  readonly replayCacheSize?: number
  /** Called once per request, after the answer is ready. @defaultValue none */
  readonly log?: (entry: RequestLogEntry) => void
  /** Serve the OpenAPI document at `/openapi.json` (unsigned). @defaultValue true */
  readonly openApi?: boolean
  /**
   * Development mode: serve every request as this account (a key of the engine) without checking any signature,
   * so `curl http://127.0.0.1:8080/status.json` works as is. For local use only: whoever reaches the port acts as
   * the account (`startServer` refuses it on a non-loopback address).
   * @defaultValue undefined: every request must be signed
   */
  readonly devAccount?: string
  /**
   * Browser origins allowed to call the API (CORS), e.g. `['https://app.example.com']`, or `['*']` for any. A
   * preflight `OPTIONS` from an allowed origin is answered 204 with `Access-Control-Allow-Methods` and
   * `Access-Control-Allow-Headers` (Authorization, Content-Type, Content-Encoding, X-App-Name, X-Api-Version);
   * answers to allowed origins carry `Access-Control-Allow-Origin`; a preflight from another origin is a 403.
   * @defaultValue none: no CORS headers, and `OPTIONS` is a 405 like any method a route does not serve
   */
  readonly corsOrigins?: readonly string[]
}

/** Request headers a browser may send cross-origin (the preflight's `Access-Control-Allow-Headers`). */
export const CORS_ALLOWED_HEADERS = 'Authorization, Content-Type, Content-Encoding, Accept-Encoding, X-App-Name, X-Api-Version'


/** The request target and Host exactly as received, which a web `Request` cannot keep (its URL is normalised). */
export interface RawRequestInfo {
  /** Request target as received: path and query, never re-serialised or decoded. */
  readonly rawTarget: string
  /** `Host` header as received. */
  readonly host: string
  /** Scheme of the connection (`https` over TLS); signature verification tries it first. @defaultValue 'http' */
  readonly scheme?: 'http' | 'https'
}

/**
 * A web-standard handler, `(Request) => Promise<Response>`, plus {@link HttpHandler.handleRaw} for adapters that
 * know the raw request target.
 */
export interface HttpHandler {
  (request: Request): Promise<Response>
  /**
   * Answer a request whose raw target and Host are known (node listener). With `passThrough`, a path that is
   * not under the base path or matches no route answers `undefined` so a framework can go on to its next handler.
   */
  handleRaw(request: Request, raw: RawRequestInfo, passThrough?: boolean): Promise<Response | undefined>
  /** The routes table the handler serves. */
  readonly routes: readonly Route[]
}

interface Resolved {
  readonly basePath: string
  readonly maxBodyBytes: number
  readonly maxDecompressedBytes: number
  readonly trustProxy: boolean
  readonly replayWindowSeconds: number | undefined
  readonly replayCache: ReplayCache | undefined
  readonly log: ((entry: RequestLogEntry) => void) | undefined
  readonly openApi: boolean
  readonly devAccount: string | undefined
  readonly corsOrigins: ReadonlySet<string> | undefined
}

function resolve(engine: Engine, options: HttpHandlerOptions): Resolved {
  const size = (v: number | undefined, name: string, def: number): number => {
    if (v === undefined) return def
    if (typeof v !== 'number' || !Number.isInteger(v) || v < 1) {
      throw new TypeError(`createHttpHandler: options.${name} must be a positive integer, found ${String(v)}`)
    }
    return v
  }
  const basePath = options.basePath ?? ''
  if (typeof basePath !== 'string' || (basePath !== '' && (!basePath.startsWith('/') || basePath.endsWith('/')))) {
    throw new TypeError(`createHttpHandler: options.basePath must be '' or start with '/' and not end with '/', found ${JSON.stringify(basePath)}`)
  }
  if (options.log !== undefined && typeof options.log !== 'function') throw new TypeError('createHttpHandler: options.log must be a function')
  const dev = options.devAccount
  if (dev !== undefined && (typeof dev !== 'string' || engine.secretOf(dev) === undefined)) {
    throw new TypeError(`createHttpHandler: options.devAccount must be the key of an account of the engine, found ${JSON.stringify(dev)}`)
  }
  const cors = options.corsOrigins
  if (cors !== undefined && (!Array.isArray(cors) || cors.some((o) => typeof o !== 'string' || !(o === '*' || /^https?:\/\/[^/\s]+$/.test(o))))) {
    throw new TypeError(`createHttpHandler: options.corsOrigins must be an array of origins such as "https://app.example.com" (no path) or "*", found ${JSON.stringify(cors)}`)
  }
  const window = options.replayWindowSeconds
  if (window !== undefined && (typeof window !== 'number' || !Number.isInteger(window) || window < 0)) {
    throw new TypeError(`createHttpHandler: options.replayWindowSeconds must be an integer number of seconds >= 0 (0: off), found ${String(window)}`)
  }
  const cacheSize = options.replayCacheSize ?? 100_000
  if (typeof cacheSize !== 'number' || !Number.isInteger(cacheSize) || cacheSize < 0) {
    throw new TypeError(`createHttpHandler: options.replayCacheSize must be an integer >= 0 (0: timestamps only), found ${String(cacheSize)}`)
  }
  const windowOn = window !== undefined && window > 0
  return Object.freeze({
    basePath,
    maxBodyBytes: size(options.maxBodyBytes, 'maxBodyBytes', 4 * 1024 * 1024),
    maxDecompressedBytes: size(options.maxDecompressedBytes, 'maxDecompressedBytes', 8 * 1024 * 1024),
    trustProxy: options.trustProxy ?? false,
    replayWindowSeconds: windowOn ? window : undefined,
    replayCache: windowOn && cacheSize > 0 ? createReplayCache(cacheSize) : undefined,
    log: options.log,
    openApi: options.openApi ?? true,
    devAccount: dev,
    corsOrigins: cors === undefined || cors.length === 0 ? undefined : new Set(cors),
  })
}

/** An error answer before encoding. */
class HttpFailure extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly headers: Readonly<Record<string, string>> = {},
    /** Not logged: the client went away (an upload aborted), nobody reads the answer. */
    readonly quiet = false,
  ) {
    super(message)
  }
}

/** Thrown by a body stream whose bytes something else already read (see node.ts): a 500 naming the fix. */
export const BODY_CONSUMED_ERROR = 'BodyConsumedError'

/** Methods a route table path may be asked with; HEAD is GET without a body, OPTIONS lists the others. */
const ROUTE_METHODS = ['GET', 'POST', 'PUT', 'DELETE'] as const

/**
 * Parse a raw query string leniently: split on `&`, name before the first `=`, both percent-decoded with `+` as
 * space (malformed escapes kept). The `oauth_verifier=oauth_consumer_key=K&…` form of one client parses into
 * ordinary (ignored) parameters.
 */
export function parseRawQuery(query: string): Map<string, string[]> {
  const out = new Map<string, string[]>()
  for (const piece of query.split('&')) {
    if (piece === '') continue
    const eq = piece.indexOf('=')
    const name = decodeQueryPart(eq < 0 ? piece : piece.slice(0, eq))
    const value = eq < 0 ? '' : decodeQueryPart(piece.slice(eq + 1))
    const list = out.get(name)
    if (list === undefined) out.set(name, [value])
    else list.push(value)
  }
  return out
}

function decodeQueryPart(s: string): string {
  const spaced = s.replace(/\+/g, ' ')
  try {
    return decodeURIComponent(spaced)
  } catch {
    return spaced
  }
}

/** Read a body stream up to `limit` bytes; one byte more is a 413, and reading stops there. */
async function readLimited(request: Request, limit: number): Promise<Uint8Array> {
  const declared = request.headers.get('content-length')
  if (declared !== null && /^\d+$/.test(declared) && Number(declared) > limit) {
    throw new HttpFailure(413, `request body of ${declared} bytes is over the limit of ${limit} bytes`)
  }
  if (request.body === null) return new Uint8Array(0)
  const reader = request.body.getReader()
  const chunks: Uint8Array[] = []
  let total = 0
  for (;;) {
    let next: ReadableStreamReadResult<Uint8Array>
    try {
      next = await reader.read()
    } catch (e) {
      if (e instanceof Error && e.name === BODY_CONSUMED_ERROR) throw new HttpFailure(500, e.message)
      // The client closed the connection mid-upload: nobody reads the answer, and it is not our failure.
      throw new HttpFailure(400, `the request body was not received in full (${e instanceof Error ? e.message : String(e)})`, {}, true)
    }
    const { done, value } = next
    if (done) break
    total += value.byteLength
    if (total > limit) {
      // Stop reading without destroying the stream: over a socket, cancelling would also kill the 413 answer.
      reader.releaseLock()
      throw new HttpFailure(413, `request body is over the limit of ${limit} bytes`)
    }
    chunks.push(value)
  }
  const out = new Uint8Array(total)
  let at = 0
  for (const c of chunks) {
    out.set(c, at)
    at += c.byteLength
  }
  return out
}

const UTF8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false })

/** Status of an engine error on the wire: 404 only for GET by id of a document or collection (client-compat §3). */
function wireStatus(status: number, route: Route | undefined): number {
  if (status === 404 && !(route?.method === 'GET' && (route.path.endsWith('/{id}') || route.keepsNotFound === true))) return 400
  return status
}

/** A GET that HEAD may run: every GET except the retrievals that remove what they return. */
function safeForHead(route: Route): boolean {
  return !route.path.endsWith('/processed')
}

/** `retryAfterSeconds` of an error (storage outage, back-pressure), rounded up to whole seconds, at least 1. */
function retryAfterOf(e: unknown): number | undefined {
  const v = typeof e === 'object' && e !== null ? (e as { retryAfterSeconds?: unknown }).retryAfterSeconds : undefined
  return typeof v === 'number' && Number.isFinite(v) && v > 0 ? Math.max(1, Math.ceil(v)) : undefined
}

/** The HTTP status an error carries: a `status` of 400-599 on an error with a string `code` (`ERR_…`). */
function statusOf(e: unknown): number | undefined {
  if (!(e instanceof Error)) return undefined
  const { status, code } = e as Error & { status?: unknown; code?: unknown }
  return typeof code === 'string' && typeof status === 'number' && Number.isInteger(status) && status >= 400 && status <= 599 ? status : undefined
}

/**
 * Create the HTTP face of an engine: a web-standard `(Request) => Promise<Response>` serving every endpoint of the
 * contract (routes table in `routes.ts`) under `basePath`, with `.json`, `.xml` or no suffix. Each request is
 * verified against `engine.secretOf(key)` (401 with a body on failure), sees only its own account, is counted
 * through `recordCall` (402 past call limits or expiry), and is answered with the status codes of
 * client-compat §3: error bodies are never empty, JSON is ASCII-only without nulls, and bodies are gzip- or
 * deflate-compressed when `Accept-Encoding` asks.
 */
export function createHttpHandler(engine: Engine, options: HttpHandlerOptions = {}): HttpHandler {
  const opts = resolve(engine, options)
  const routes = createRoutes()
  let openApiText: string | undefined

  async function respond(
    request: Request,
    status: number,
    format: WireFormat,
    body: string | Uint8Array | undefined,
    extraHeaders: Readonly<Record<string, string>> = {},
  ): Promise<Response> {
    const headers = new Headers(extraHeaders)
    if (body === undefined || body.length === 0) {
      headers.set('content-length', '0')
      return new Response(null, { status, headers })
    }
    const bytes = typeof body === 'string' ? new TextEncoder().encode(body) : body
    const coded = await encodeResponseBody(bytes, chooseResponseEncoding(request.headers.get('accept-encoding')))
    if (!headers.has('content-type')) headers.set('content-type', format === 'xml' ? 'application/xml; charset=utf-8' : 'application/json; charset=utf-8')
    if (coded.encoding !== undefined) {
      headers.set('content-encoding', coded.encoding)
      headers.set('vary', 'Accept-Encoding')
    }
    headers.set('content-length', String(coded.body.byteLength))
    return new Response(coded.body as Uint8Array<ArrayBuffer>, { status, headers })
  }

  /** CORS headers for an allowed `Origin`, or undefined when CORS is off or the origin is not allowed. */
  function corsHeaders(origin: string | null): Record<string, string> | undefined {
    if (opts.corsOrigins === undefined || origin === null) return undefined
    const expose = { 'access-control-expose-headers': 'WWW-Authenticate, Allow' }
    if (opts.corsOrigins.has(origin)) return { 'access-control-allow-origin': origin, vary: 'Origin', ...expose }
    if (opts.corsOrigins.has('*')) return { 'access-control-allow-origin': '*', ...expose }
    return undefined
  }

  /** Answer a CORS preflight for `path`: 204 with what the route allows, 403 for an origin not allowed, undefined for no route. */
  function preflight(request: Request, path: string): Response | undefined {
    const origin = request.headers.get('origin') ?? ''
    const allowed = corsHeaders(origin)
    if (allowed === undefined) {
      throw new HttpFailure(403, `origin ${JSON.stringify(origin)} may not call this API from a browser (allowed origins: ${[...(opts.corsOrigins ?? [])].join(', ')})`)
    }
    const methods: string[] = []
    for (const m of ['GET', 'POST', 'PUT', 'DELETE']) {
      const found = matchRoute(routes, m, path)
      if ((found !== undefined && !('allowed' in found)) || (m === 'GET' && opts.openApi && path === '/openapi.json')) methods.push(m)
    }
    if (methods.length === 0) return undefined
    return new Response(null, {
      status: 204,
      // Access-Control-Allow-Origin is added with every answer to an allowed origin, below.
      headers: {
        'access-control-allow-methods': methods.join(', '),
        'access-control-allow-headers': CORS_ALLOWED_HEADERS,
        'access-control-max-age': '600',
        'content-length': '0',
      },
    })
  }

  function authenticate(request: Request, raw: RawRequestInfo): string {
    const hosts = [raw.host]
    if (opts.trustProxy) {
      const forwarded = request.headers.get('x-forwarded-host')?.split(',')[0]?.trim()
      if (forwarded !== undefined && forwarded !== '') hosts.unshift(forwarded)
    }
    let reason = 'authentication failed'
    const forwardedProto = opts.trustProxy ? request.headers.get('x-forwarded-proto')?.split(',')[0]?.trim().toLowerCase() : undefined
    const scheme = forwardedProto === 'https' || forwardedProto === 'http' ? forwardedProto : (raw.scheme ?? 'http')
    const replay =
      opts.replayWindowSeconds === undefined
        ? {}
        : { replayWindowSeconds: opts.replayWindowSeconds, ...(opts.replayCache === undefined ? {} : { replayCache: opts.replayCache }) }
    for (const host of hosts) {
      const result = verifySignature(
        { rawTarget: raw.rawTarget, host, scheme, authorization: request.headers.get('authorization'), secretFor: (k) => engine.secretOf(k) },
        replay,
      )
      if (result.ok) return result.key
      reason = result.reason
      // A refused timestamp or a replay does not depend on the host: say so rather than "does not match".
      if (result.code === 'stale_timestamp' || result.code === 'replayed' || result.code === 'missing_header' || result.code === 'missing_parameter') break
    }
    throw new HttpFailure(401, `authentication failed: ${reason}`, { 'www-authenticate': 'OAuth realm=""' })
  }

  async function readBody(request: Request, route: Route, format: WireFormat): Promise<{ value: unknown; paths: PathStyle } | undefined> {
    const received = await readLimited(request, opts.maxBodyBytes)
    const bytes = await decodeRequestBody(received, request.headers.get('content-encoding'), { maxBytes: opts.maxDecompressedBytes })
    let text: string
    try {
      text = UTF8.decode(bytes)
    } catch {
      throw new HttpFailure(400, 'request body is not valid UTF-8')
    }
    if (text.trim() === '') {
      // A DELETE of taxonomy carries no body; other body routes need one.
      if (route.method === 'DELETE') return undefined
      throw new HttpFailure(400, `request body is empty; ${route.method} ${route.path} expects ${format === 'xml' ? 'an XML' : 'a JSON'} body`)
    }
    return decodeBody(format, text, route)
  }

  async function run(request: Request, raw: RawRequestInfo, passThrough: boolean): Promise<Response | undefined> {
    const started = performance.now()
    const queryAt = raw.rawTarget.indexOf('?')
    const rawPath = queryAt < 0 ? raw.rawTarget : raw.rawTarget.slice(0, queryAt)
    const rawQuery = queryAt < 0 ? '' : raw.rawTarget.slice(queryAt + 1)
    let format: WireFormat = splitFormat(rawPath).format
    let account: string | undefined
    let match: RouteMatch | undefined
    let response: Response
    let error: string | undefined
    let warning: string | undefined
    let quiet = false
    try {
      if (opts.basePath !== '' && rawPath !== opts.basePath && !rawPath.startsWith(opts.basePath + '/')) {
        if (passThrough) return undefined
        throw new HttpFailure(404, `no endpoint at ${rawPath}: the API is mounted under ${opts.basePath}`)
      }
      const path = rawPath.slice(opts.basePath.length)
      const head = request.method === 'HEAD'
      if (opts.corsOrigins !== undefined && request.method === 'OPTIONS' && request.headers.has('access-control-request-method')) {
        const answer = preflight(request, path)
        if (answer === undefined) {
          if (passThrough) return undefined
          throw new HttpFailure(404, `no endpoint at ${path}`)
        }
        response = answer
      } else if (opts.openApi && (request.method === 'GET' || head) && path === '/openapi.json') {
        openApiText ??= JSON.stringify(buildOpenApi(routes, opts.basePath), null, 2)
        response = await respond(request, 200, 'json', openApiText)
      } else if (request.method === 'OPTIONS') {
        // Not a CORS preflight: the methods of the path (RFC 9110 §9.3.7), unsigned, as /openapi.json is.
        const methods = methodsOf(path)
        if (methods.length === 0) {
          if (passThrough) return undefined
          throw new HttpFailure(404, `no endpoint at ${path}`)
        }
        response = new Response(null, { status: 204, headers: { allow: methods.join(', '), 'content-length': '0' } })
      } else {
        const found = matchRoute(routes, head ? 'GET' : request.method, path)
        if (found === undefined || 'allowed' in found) {
          if (passThrough) return undefined
          if (found === undefined) throw new HttpFailure(404, `no endpoint at ${path}`)
          const allowed = methodsOf(path).join(', ')
          throw new HttpFailure(405, `${request.method} is not allowed on ${path}; allowed: ${allowed}`, { allow: allowed })
        }
        if (head && !safeForHead(found.route)) {
          const allowed = methodsOf(path).join(', ')
          throw new HttpFailure(405, `HEAD is not allowed on ${path}: a GET there removes the items it returns; allowed: ${allowed}`, { allow: allowed })
        }
        match = found
        format = found.format
        // Development mode serves the configured account unsigned (local use only, see HttpHandlerOptions.devAccount).
        account = opts.devAccount ?? authenticate(request, raw)
        const api: AccountApi = engine.account(account)
        const query = parseRawQuery(rawQuery)
        checkQueryIdentifiers(query)
        const app = request.headers.get('x-app-name') ?? undefined
        await api.recordCall(found.route.callClass, app, query.get('config_id')?.[0])
        const decoded = found.route.hasBody ? await readBody(request, found.route, format) : undefined
        if (decoded !== undefined) checkBodyIdentifiers(found.route, decoded.value, decoded.paths)
        const value = await found.route.run({ account: api, body: decoded?.value, query, id: found.id, app })
        const answered = await answer(request, found, value)
        response = answered.response
        if (answered.repaired > 0) warning = `${answered.repaired} item(s) could not be encoded as stored and were sent without their non-finite numbers (lone surrogates as U+FFFD)`
      }
      if (head) response = new Response(null, { status: response.status, headers: response.headers })
    } catch (e) {
      const failure = toFailure(e, match?.route)
      error = failure.message
      quiet = failure.quiet
      response = await respond(request, failure.status, format, encodeError(format, failure.status, failure.message), failure.headers)
      if (request.method === 'HEAD') response = new Response(null, { status: response.status, headers: response.headers })
    }
    const cors = corsHeaders(request.headers.get('origin'))
    if (cors !== undefined) for (const [name, value] of Object.entries(cors)) response.headers[name === 'vary' ? 'append' : 'set'](name, value)
    if (!quiet) opts.log?.({
      method: request.method,
      path: rawPath,
      status: response.status,
      ms: Math.round((performance.now() - started) * 10) / 10,
      account,
      endpoint: match?.route.endpoint,
      bytesOut: Number(response.headers.get('content-length') ?? 0),
      error,
      ...(warning === undefined ? {} : { warning }),
    })
    return response
  }

  async function answer(request: Request, match: RouteMatch, value: unknown): Promise<{ response: Response; repaired: number }> {
    const { route, format } = match
    const data = async (v: unknown): Promise<{ response: Response; repaired: number }> => {
      const encoded = encodeAnswer(format, v, route.xmlRoot)
      return { response: await respond(request, 200, format, encoded.body), repaired: encoded.repaired }
    }
    const empty = async (status: number): Promise<{ response: Response; repaired: number }> => ({ response: await respond(request, status, format, undefined), repaired: 0 })
    switch (route.answer) {
      case 'value':
        return data(value)
      case 'list': {
        const list = Array.isArray(value) ? value : []
        return list.length === 0 ? empty(202) : data(list)
      }
      case 'accepted':
        return empty(202)
      case 'ok-empty':
        return empty(200)
      case 'submit': {
        const items = (value as { autoResponse?: unknown[] } | undefined)?.autoResponse ?? []
        return items.length === 0 ? empty(202) : data(items)
      }
      case 'file': {
        const file = value as FileAnswer
        const response = await respond(request, 200, format, file.bytes, { 'content-type': file.contentType, 'content-disposition': `attachment; filename="${file.filename}"` })
        return { response, repaired: 0 }
      }
    }
  }

  function toFailure(e: unknown, route: Route | undefined): HttpFailure {
    if (e instanceof HttpFailure) return e
    const retry = retryAfterOf(e)
    const headers: Record<string, string> = retry === undefined ? {} : { 'retry-after': String(retry) }
    if (isEngineError(e)) return new HttpFailure(wireStatus(e.status, route), e.message, headers)
    if (isCodecError(e)) return new HttpFailure(e.status, e.message, headers)
    // Any other error that says what to answer (storage outage 503, back-pressure 429/503, a stored value 400):
    // a coded error with an HTTP status, and Retry-After when it says when to come back.
    const status = statusOf(e)
    if (status !== undefined) return new HttpFailure(status, (e as Error).message, headers)
    const detail = e instanceof Error ? e.message : String(e)
    return new HttpFailure(500, `internal error: ${detail}`, headers)
  }

  /** Methods served at a path (HEAD with GET, OPTIONS always when any), in a fixed order. */
  function methodsOf(path: string): string[] {
    const methods: string[] = []
    for (const m of ROUTE_METHODS) {
      const found = matchRoute(routes, m, path)
      if ((found !== undefined && !('allowed' in found)) || (m === 'GET' && opts.openApi && path === '/openapi.json')) methods.push(m)
    }
    if (methods.includes('GET')) methods.splice(methods.indexOf('GET') + 1, 0, 'HEAD')
    if (methods.length > 0) methods.push('OPTIONS')
    return methods
  }

  const handler = (async (request: Request): Promise<Response> => {
    const url = new URL(request.url)
    const raw: RawRequestInfo = {
      rawTarget: url.pathname + url.search,
      host: request.headers.get('host') ?? url.host,
      scheme: url.protocol === 'https:' ? 'https' : 'http',
    }
    return (await run(request, raw, false)) as Response
  }) as HttpHandler
  Object.defineProperty(handler, 'handleRaw', {
    value: (request: Request, raw: RawRequestInfo, passThrough = false) => run(request, raw, passThrough),
  })
  Object.defineProperty(handler, 'routes', { value: routes })
  return handler
}
