import type { IncomingMessage, ServerResponse } from 'node:http'
import type { Duplex } from 'node:stream'
import { Readable } from 'node:stream'
import { BODY_CONSUMED_ERROR, type HttpHandler } from './handler.ts'

/** Options of {@link toNodeListener}. */
export interface NodeListenerOptions {
  /**
   * The request target as the client sent it. Frameworks that mount a sub-app rewrite `req.url` (Express strips
   * the mount path), so the default prefers Express's `req.originalUrl`.
   * @defaultValue `req.originalUrl ?? req.url`
   */
  readonly rawTarget?: (req: IncomingMessage) => string
}

/** A node:http listener, also usable as Express/Connect middleware: paths it does not serve go to `next`. */
export type NodeListener = (req: IncomingMessage, res: ServerResponse, next?: (error?: unknown) => void) => void

/**
 * The error a body-reading route answers (500) when something read the request stream before the listener:
 * the bytes are gone, and guessing them back from a parsed `req.body` would lose XML, gzip and exact text.
 */
function bodyConsumedMessage(req: IncomingMessage): string {
  const parsed = (req as IncomingMessage & { body?: unknown }).body !== undefined ? ' (req.body is already set)' : ''
  return (
    `a body parser read the request body before the textengine handler${parsed}, so the body is gone; mount the ` +
    'handler before express.json() and any other body parser (Express, Connect, Koa), or in Fastify answer from an ' +
    'onRequest hook with reply.hijack() (see src/http/README.md)'
  )
}

/**
 * Whether something already read the request stream: a body parser mounted before the listener (Express's
 * `express.json()`, a Fastify route's content-type parser, koa-bodyparser) or the application itself.
 */
function bodyConsumed(req: IncomingMessage): boolean {
  return req.readableDidRead || req.readableEnded
}

/** Marks a request that arrived through `checkContinue`: `100 Continue` is ours to send, once the body is wanted. */
const CONTINUE_PENDING = Symbol('textengine.continuePending')

/**
 * The request body as a web stream that starts reading only when the handler asks for it, which it does after
 * the signature and the call limits passed: a request marked by {@link continueListener} gets its
 * `100 Continue` then, so a client that waits for it never uploads a body that would be refused.
 */
function bodyStream(req: IncomingMessage, res: ServerResponse): ReadableStream<Uint8Array> {
  let reader: ReadableStreamDefaultReader<Uint8Array> | undefined
  const open = (): ReadableStreamDefaultReader<Uint8Array> => {
    if (reader === undefined) {
      const marked = req as IncomingMessage & { [CONTINUE_PENDING]?: boolean }
      if (marked[CONTINUE_PENDING] === true && !res.headersSent) {
        marked[CONTINUE_PENDING] = false
        res.writeContinue()
      }
      reader = (Readable.toWeb(req) as ReadableStream<Uint8Array>).getReader()
    }
    return reader
  }
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      const { done, value } = await open().read()
      if (done) controller.close()
      else controller.enqueue(value)
    },
    async cancel(reason) {
      await reader?.cancel(reason)
    },
    // No read-ahead: pull runs only when the handler reads, never when the Request is built.
  }, { highWaterMark: 0 })
}

/**
 * A `checkContinue` listener for node:http and node:https servers (`server.on('checkContinue', continueListener(l))`):
 * a request with `Expect: 100-continue` is served by the listener, and `100 Continue` is sent only when the
 * handler reads the body, after the signature and the call limits passed. A request refused before that (401,
 * 402, 405…) is answered without the client ever sending its body. Without it, node:http answers `100 Continue`
 * to every such request at once.
 */
export function continueListener(listener: NodeListener): (req: IncomingMessage, res: ServerResponse) => void {
  return (req, res) => {
    ;(req as IncomingMessage & { [CONTINUE_PENDING]?: boolean })[CONTINUE_PENDING] = true
    listener(req, res)
  }
}

/** Status and message node:http's parser errors get, instead of its bare `400 Bad Request` with no body. */
function clientErrorAnswer(error: Error & { code?: string }): { status: number; reason: string; message: string } {
  switch (error.code) {
    case 'HPE_HEADER_OVERFLOW':
      return { status: 431, reason: 'Request Header Fields Too Large', message: 'the request headers are larger than the server accepts (16 KiB by default)' }
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return { status: 408, reason: 'Request Timeout', message: 'the request was not received in time' }
    default:
      return { status: 400, reason: 'Bad Request', message: `the request is not valid HTTP (${error.code ?? 'parse error'}: ${error.message})` }
  }
}

/**
 * A `clientError` listener for node:http and node:https servers (`server.on('clientError', clientErrorListener)`):
 * a request node:http cannot parse (headers too large, malformed request line, timeout) is answered with the
 * status node would send and a JSON error body, `{"status": 431, "message": "…"}`, as every other error of the
 * API (an empty error body crashes one client); the connection is then closed.
 */
export function clientErrorListener(error: Error & { code?: string }, socket: Duplex): void {
  if (error.code === 'ECONNRESET' || !socket.writable) {
    socket.destroy()
    return
  }
  const { status, reason, message } = clientErrorAnswer(error)
  const body = JSON.stringify({ status, message })
  socket.end(
    `HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  )
}

function defaultTarget(req: IncomingMessage): string {
  const original = (req as IncomingMessage & { originalUrl?: unknown }).originalUrl
  return typeof original === 'string' ? original : (req.url ?? '/')
}

/**
 * Turn the handler into a node:http listener. The raw request target and Host header are passed to the handler
 * exactly as received (the signature covers them, and `new Request(url)` would normalise the URL); the body is
 * streamed so the handler's size limit stops reading early, and read only once the request passed authentication
 * (`Expect: 100-continue` is answered then when the server routes `checkContinue` through {@link continueListener},
 * by node:http at once otherwise). When a
 * `next` callback is given (Express, Connect, Koa via `ctx.req`/`ctx.res`), a request outside the handler's base
 * path or routes is passed on instead of answered. A body that a parser mounted before the listener already read
 * (`express.json()`, Fastify without `reply.hijack()`) makes the routes that read a body answer 500 naming the
 * cause and the fix.
 */
export function toNodeListener(handler: HttpHandler, options: NodeListenerOptions = {}): NodeListener {
  const targetOf = options.rawTarget ?? defaultTarget
  return (req, res, next) => {
    void (async () => {
      const rawTarget = targetOf(req)
      const host = req.headers.host ?? 'localhost'
      const headers = new Headers()
      for (const [name, value] of Object.entries(req.headers)) {
        if (value === undefined) continue
        if (Array.isArray(value)) for (const v of value) headers.append(name, v)
        else headers.set(name, value)
      }
      // The URL only serves the Request object; signing and routing use rawTarget and host as received.
      let url: URL
      try {
        url = new URL(rawTarget.startsWith('/') ? rawTarget : '/', `http://${/^[A-Za-z0-9.\-:[\]]+$/.test(host) ? host : 'localhost'}`)
      } catch {
        url = new URL('http://localhost/')
      }
      const method = (req.method ?? 'GET').toUpperCase()
      const hasBody = method !== 'GET' && method !== 'HEAD'
      const init: RequestInit & { duplex?: 'half' } = { method, headers }
      if (hasBody && bodyConsumed(req)) {
        // Routes that read no body still work; one that reads it answers 500 naming the cause and the fix. A
        // request that declared no body (no Transfer-Encoding, Content-Length absent or 0) lost nothing: served as empty.
        const cl = req.headers['content-length']
        if (req.headers['transfer-encoding'] !== undefined || (cl !== undefined && cl !== '0')) {
          const error = new Error(bodyConsumedMessage(req))
          error.name = BODY_CONSUMED_ERROR
          init.body = new ReadableStream<Uint8Array>({ pull: (controller) => controller.error(error) })
          init.duplex = 'half'
        }
      } else if (hasBody) {
        init.body = bodyStream(req, res)
        init.duplex = 'half'
      } else {
        req.resume()
      }
      const scheme = (req.socket as { encrypted?: boolean }).encrypted === true ? 'https' : 'http'
      const response = await handler.handleRaw(new Request(url, init), { rawTarget, host, scheme }, next !== undefined)
      if (response === undefined) {
        next?.()
        return
      }
      const outHeaders: Record<string, string> = {}
      response.headers.forEach((value, name) => {
        outHeaders[name] = value
      })
      res.writeHead(response.status, outHeaders)
      if (response.body === null || method === 'HEAD') {
        res.end()
        return
      }
      res.end(Buffer.from(await response.arrayBuffer()))
    })().catch((e: unknown) => {
      if (next !== undefined) {
        next(e)
        return
      }
      if (!res.headersSent) {
        const body = JSON.stringify({ status: 500, message: `internal error: ${e instanceof Error ? e.message : String(e)}` })
        res.writeHead(500, { 'content-type': 'application/json; charset=utf-8', 'content-length': String(Buffer.byteLength(body)) })
        res.end(body)
      } else {
        res.destroy()
      }
    })
  }
}
