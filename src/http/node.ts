import type { IncomingMessage, ServerResponse } from 'node:http'
import { Readable } from 'node:stream'
import type { HttpHandler } from './handler.ts'

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

function defaultTarget(req: IncomingMessage): string {
  const original = (req as IncomingMessage & { originalUrl?: unknown }).originalUrl
  return typeof original === 'string' ? original : (req.url ?? '/')
}

/**
 * Turn the handler into a node:http listener. The raw request target and Host header are passed to the handler
 * exactly as received (the signature covers them, and `new Request(url)` would normalise the URL); the body is
 * streamed so the handler's size limit stops reading early; `Expect: 100-continue` is answered by node:http. When a
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
          const message = bodyConsumedMessage(req)
          init.body = new ReadableStream<Uint8Array>({ pull: (controller) => controller.error(new Error(message)) })
          init.duplex = 'half'
        }
      } else if (hasBody) {
        init.body = Readable.toWeb(req) as ReadableStream<Uint8Array>
        init.duplex = 'half'
      } else {
        req.resume()
      }
      const response = await handler.handleRaw(new Request(url, init), { rawTarget, host }, next !== undefined)
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
