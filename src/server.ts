/**
 * Standalone server: `npm start` serves the engine over HTTP with in-memory storage.
 *
 * Environment: `PORT` (default 8080), `HOST` (default all interfaces), `API_KEY` and `API_SECRET` (when absent a
 * development pair is generated and printed), `BASE_PATH` (default none). One log line per request on stdout;
 * SIGTERM/SIGINT stop accepting connections, finish queued work (up to `DRAIN_TIMEOUT_MS`, default 10 s) and
 * report what was left queued.
 */
import { randomBytes } from 'node:crypto'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { createEngine } from './engine/create-engine.ts'
import type { Engine } from './engine/types.ts'
import { createCallbackDelivery, type CallbackDelivery } from './http/callbacks.ts'
import { createHttpHandler, type RequestLogEntry } from './http/handler.ts'
import { toNodeListener } from './http/node.ts'

/** Options of {@link startServer}; the standalone entry point fills them from the environment. */
export interface ServerOptions {
  /** Port; 0 picks a free one. @defaultValue 8080 */
  readonly port?: number
  /** Interface to listen on. @defaultValue all interfaces */
  readonly host?: string
  readonly apiKey: string
  readonly apiSecret: string
  /** @defaultValue '' */
  readonly basePath?: string
  /** How long shutdown waits for queued work. @defaultValue 10000 ms */
  readonly drainTimeoutMs?: number
  /** Where log lines go. @defaultValue console.log */
  readonly write?: (line: string) => void
}

/** A running server. */
export interface RunningServer {
  readonly server: Server
  readonly engine: Engine
  readonly delivery: CallbackDelivery
  readonly port: number
  /** Stop accepting, drain the queue with a timeout, deliver callbacks, close the engine; answers what was left. */
  shutdown(): Promise<{ drained: boolean; callbacksPending: number }>
}

/** One request log line: time, method, path, status, duration, account, bytes, and the error message if any. */
export function formatLogLine(e: RequestLogEntry): string {
  const parts = [new Date().toISOString(), e.method, e.path, String(e.status), `${e.ms}ms`, e.account ?? '-', `${e.bytesOut}B`]
  if (e.error !== undefined) parts.push(JSON.stringify(e.error))
  return parts.join(' ')
}

/** Start the engine, the callback delivery and the HTTP listener. */
export async function startServer(options: ServerOptions): Promise<RunningServer> {
  const write = options.write ?? ((line: string) => console.log(line))
  let engineRef: Engine | undefined
  const delivery = createCallbackDelivery({
    batchLimitOf: async (account) => (await engineRef?.account(account).subscription())?.basic_settings.callback_batch_limit ?? 100,
    log: (d) => {
      if (d.outcome !== 'delivered') write(`${new Date().toISOString()} callback ${d.url} ${d.items} items attempt ${d.attempt} ${d.outcome} ${d.error ?? ''}`)
    },
  })
  const engine = createEngine({
    accounts: [{ key: options.apiKey, secret: options.apiSecret, name: 'default' }],
    onCallback: (event) => delivery.push(event),
  })
  engineRef = engine
  const handler = createHttpHandler(engine, { basePath: options.basePath ?? '', log: (e) => write(formatLogLine(e)) })
  const server = createServer(toNodeListener(handler))
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(options.port ?? 8080, options.host, () => resolve())
  })
  const port = (server.address() as AddressInfo).port
  let closing: Promise<{ drained: boolean; callbacksPending: number }> | undefined
  return {
    server,
    engine,
    delivery,
    port,
    shutdown() {
      closing ??= (async () => {
        const stopped = new Promise<void>((resolve) => server.close(() => resolve()))
        server.closeIdleConnections()
        const timeoutMs = options.drainTimeoutMs ?? 10_000
        let timer: ReturnType<typeof setTimeout> | undefined
        const drained = await Promise.race([
          engine.drain().then(() => true),
          new Promise<boolean>((resolve) => {
            timer = setTimeout(() => resolve(false), timeoutMs)
          }),
        ])
        clearTimeout(timer)
        await Promise.race([delivery.flush(), new Promise<void>((r) => setTimeout(r, Math.min(timeoutMs, 5000)).unref())])
        const callbacksPending = delivery.pending()
        delivery.close()
        await engine.close()
        server.closeAllConnections()
        await stopped
        return { drained, callbacksPending }
      })()
      return closing
    },
  }
}

async function main(): Promise<void> {
  const env = process.env
  const port = env['PORT'] === undefined || env['PORT'] === '' ? 8080 : Number(env['PORT'])
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`PORT must be an integer 0-65535, found ${JSON.stringify(env['PORT'])}`)
  let apiKey = env['API_KEY'] ?? ''
  let apiSecret = env['API_SECRET'] ?? ''
  if ((apiKey === '') !== (apiSecret === '')) throw new Error('set both API_KEY and API_SECRET, or neither for a development pair')
  if (apiKey === '') {
    apiKey = `dev-${randomBytes(6).toString('hex')}`
    apiSecret = randomBytes(16).toString('hex')
    console.log(`no API_KEY/API_SECRET given; development pair:\n  API_KEY=${apiKey}\n  API_SECRET=${apiSecret}`)
  }
  const drainTimeoutMs = env['DRAIN_TIMEOUT_MS'] === undefined ? 10_000 : Number(env['DRAIN_TIMEOUT_MS'])
  const running = await startServer({
    port,
    ...(env['HOST'] === undefined ? {} : { host: env['HOST'] }),
    apiKey,
    apiSecret,
    basePath: env['BASE_PATH'] ?? '',
    drainTimeoutMs,
  })
  console.log(`listening on http://${env['HOST'] ?? 'localhost'}:${running.port}${env['BASE_PATH'] ?? ''} (status: GET /status.json, contract: GET /openapi.json)`)
  const stop = (signal: string): void => {
    console.log(`${signal}: no longer accepting connections; finishing queued work (up to ${drainTimeoutMs} ms)`)
    void running.shutdown().then(({ drained, callbacksPending }) => {
      console.log(
        drained
          ? `queue drained; ${callbacksPending} callback item(s) left undelivered; bye`
          : `drain timed out: items were left queued (in-memory storage, now lost); ${callbacksPending} callback item(s) undelivered`,
      )
      process.exit(0)
    })
  }
  process.once('SIGTERM', () => stop('SIGTERM'))
  process.once('SIGINT', () => stop('SIGINT'))
}

if (import.meta.url === `file://${process.argv[1]}` || process.argv[1]?.endsWith('/src/server.ts')) {
  main().catch((e: unknown) => {
    console.error(e instanceof Error ? e.message : String(e))
    process.exit(1)
  })
}
