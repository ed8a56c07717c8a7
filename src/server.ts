/**
 * Standalone server: `textengine serve [--config FILE]` (and `npm start`) serves the engine over HTTP or HTTPS.
 *
 * Settings come from a JSON file, the environment and a few flags (`src/server/config.ts`, README "Server"): host,
 * port, base path, TLS certificate and key, CORS origins, request log format, storage (memory or Redis), drain
 * timeout, development mode and accounts with their subscription limits. With no account configured a
 * development pair is generated and printed. One log line per request on stdout; SIGTERM/SIGINT stop accepting
 * connections, finish queued work (up to the drain timeout) and report what was left queued.
 *
 * {@link startServer} is the same server for embedding code, with the settings as options.
 */
import { createServer as createHttpServer, type Server as HttpServer } from 'node:http'
import { createServer as createHttpsServer, type Server as HttpsServer } from 'node:https'
import type { AddressInfo } from 'node:net'
import { setFlagsFromString } from 'node:v8'
import { createEngine } from './engine/create-engine.ts'
import type { AccountOptions } from './engine/options.ts'
import type { Engine } from './engine/types.ts'
import { createCallbackDelivery, type CallbackAddressPolicy, type CallbackDelivery } from './http/callbacks.ts'
import { createHttpHandler, type RequestLogEntry } from './http/handler.ts'
import { clientErrorListener, continueListener, toNodeListener } from './http/node.ts'
import { createPlayground, withPlayground } from './http/playground.ts'
import { isLoopbackHost, loadServerConfig, redactUrl, ServerConfigError, SERVER_SETTINGS, type LogFormat, type ServerConfig } from './server/config.ts'
import type { Storage } from './storage/types.ts'

export { loadServerConfig, ServerConfigError, SERVER_SETTINGS, isLoopbackHost, type ServerConfig, type LogFormat }
export type { LoadServerConfigInput, SettingInfo } from './server/config.ts'

/** Options of {@link startServer}. Give `accounts`, or `apiKey` and `apiSecret` for one account. */
export interface ServerOptions {
  /** Port; 0 picks a free one. @defaultValue 8080 */
  readonly port?: number
  /** Interface to listen on. @defaultValue all interfaces; 127.0.0.1 with `dev` */
  readonly host?: string
  /** Accounts served (key, secret, name, subscription overrides with call limits). @defaultValue one account from `apiKey`/`apiSecret` */
  readonly accounts?: readonly AccountOptions[]
  /** Key of the one account when `accounts` is not given. */
  readonly apiKey?: string
  /** Secret of the one account when `accounts` is not given. */
  readonly apiSecret?: string
  /** @defaultValue '' */
  readonly basePath?: string
  /** Certificate and private key (PEM text, as node:https takes them): serve HTTPS. @defaultValue none: HTTP */
  readonly tls?: { readonly cert: string | Buffer; readonly key: string | Buffer }
  /** Browser origins allowed (CORS), or `['*']`. @defaultValue none */
  readonly corsOrigins?: readonly string[]
  /** Request log: `text` lines, `json` lines, or `off`. @defaultValue 'text' */
  readonly logFormat?: LogFormat
  /** Storage of the engine; closed by `shutdown()`. @defaultValue in-memory storage */
  readonly storage?: Storage
  /**
   * Development mode: requests are served as the first account without a signature check. Refused (throws)
   * unless `host` is a loopback address. @defaultValue false
   */
  readonly dev?: boolean
  /** Serve the playground page (`playground/`) at `/` beside the API (see `createPlayground`). @defaultValue true */
  readonly playground?: boolean
  /** How long shutdown waits for queued work. @defaultValue 10000 ms */
  readonly drainTimeoutMs?: number
  /** Analysis worker threads (the engine's `workers` option). @defaultValue 0: analysis on the main thread, in slices */
  readonly workers?: number
  /**
   * Replay window of signed requests, in seconds: a timestamp that is missing, not a number or further than this
   * from the clock is refused (401), as is a signed request received a second time. 0 turns it off.
   * @defaultValue 900
   */
  readonly replayWindowSeconds?: number
  /** Signed requests remembered within the window; 0 checks timestamps only. @defaultValue 100000 */
  readonly replayCacheSize?: number
  /**
   * Destinations callbacks may and may not reach. Private, loopback and link-local addresses are refused unless
   * listed in `allow` (local development: `{ allow: ['127.0.0.1/32'] }`).
   * @defaultValue the default denied ranges only
   */
  readonly callbackAddresses?: CallbackAddressPolicy
  /** Where log lines go. @defaultValue console.log */
  readonly write?: (line: string) => void
}

/** A running server. */
export interface RunningServer {
  readonly server: HttpServer | HttpsServer
  readonly engine: Engine
  readonly delivery: CallbackDelivery
  readonly port: number
  /** Base URL of the API, e.g. `https://127.0.0.1:8443/api`. */
  readonly url: string
  /** Stop accepting, drain the queue with a timeout, deliver callbacks, close the engine; answers what was left. */
  shutdown(): Promise<{ drained: boolean; callbacksPending: number }>
}

/** One request log line: time, method, path, status, duration, account, bytes, and the error message if any. */
export function formatLogLine(e: RequestLogEntry): string {
  const parts = [new Date().toISOString(), e.method, e.path, String(e.status), `${e.ms}ms`, e.account ?? '-', `${e.bytesOut}B`]
  if (e.error !== undefined) parts.push(JSON.stringify(e.error))
  if (e.warning !== undefined) parts.push(`warning: ${JSON.stringify(e.warning)}`)
  return parts.join(' ')
}

/** One request log line as a JSON object: `time` plus the fields of the entry (absent ones left out). */
export function formatLogJson(e: RequestLogEntry): string {
  return JSON.stringify({ time: new Date().toISOString(), ...e })
}

function resolveAccounts(options: ServerOptions): readonly AccountOptions[] {
  if (options.accounts !== undefined) return options.accounts
  if (options.apiKey === undefined || options.apiSecret === undefined) throw new TypeError('startServer: give options.accounts, or options.apiKey and options.apiSecret')
  return [{ key: options.apiKey, secret: options.apiSecret, name: 'default' }]
}

/** Start the engine, the callback delivery and the HTTP (or, with `tls`, HTTPS) listener. */
export async function startServer(options: ServerOptions): Promise<RunningServer> {
  const write = options.write ?? ((line: string) => console.log(line))
  const dev = options.dev ?? false
  const host = options.host ?? (dev ? '127.0.0.1' : undefined)
  if (dev && !isLoopbackHost(host)) {
    throw new TypeError(`startServer: development mode (no signature checks) is refused on host ${JSON.stringify(host)}; use a loopback host: 127.0.0.1, ::1 or localhost`)
  }
  const logFormat = options.logFormat ?? 'text'
  const format = logFormat === 'json' ? formatLogJson : formatLogLine
  let engineRef: Engine | undefined
  const delivery = createCallbackDelivery({
    ...(options.callbackAddresses === undefined ? {} : { addresses: options.callbackAddresses }),
    batchLimitOf: async (account) => (await engineRef?.account(account).subscription())?.basic_settings.callback_batch_limit ?? 100,
    log: (d) => {
      if (d.outcome === 'delivered' || logFormat === 'off') return
      const time = new Date().toISOString()
      write(
        logFormat === 'json'
          ? JSON.stringify({ time, callback: d.url, items: d.items, attempt: d.attempt, outcome: d.outcome, error: d.error })
          : `${time} callback ${d.url} ${d.items} items attempt ${d.attempt} ${d.outcome} ${d.error ?? ''}`,
      )
    },
  })
  // The engine's background log (one line when the storage becomes unreachable, one when it is back) goes where the
  // request log goes.
  const engineLog = (level: 'warn' | 'info') => (message: string): void => {
    if (logFormat === 'off') return
    const time = new Date().toISOString()
    write(logFormat === 'json' ? JSON.stringify({ time, level, message }) : `${time} ${level} ${message}`)
  }
  const engine = createEngine({
    accounts: resolveAccounts(options),
    ...(options.storage === undefined ? {} : { storage: options.storage }),
    ...(options.workers === undefined ? {} : { workers: options.workers }),
    logger: { warn: engineLog('warn'), info: engineLog('info') },
    onCallback: (event) => delivery.push(event),
  })
  engineRef = engine
  let handler
  try {
    handler = createHttpHandler(engine, {
      basePath: options.basePath ?? '',
      ...(logFormat === 'off' ? {} : { log: (e: RequestLogEntry) => write(format(e)) }),
      ...(dev ? { devAccount: engine.defaultAccount } : {}),
      replayWindowSeconds: options.replayWindowSeconds ?? 900,
      replayCacheSize: options.replayCacheSize ?? 100_000,
      ...(options.corsOrigins === undefined || options.corsOrigins.length === 0 ? {} : { corsOrigins: options.corsOrigins }),
    })
  } catch (e) {
    delivery.close()
    await engine.close()
    throw e
  }
  const listener = toNodeListener(options.playground === false ? handler : withPlayground(handler, createPlayground({ apiBase: options.basePath ?? '' })))
  const server = options.tls === undefined ? createHttpServer(listener) : createHttpsServer({ cert: options.tls.cert, key: options.tls.key }, listener)
  // `100 Continue` only once a request passed authentication; node's own parse errors answered with a JSON body.
  server.on('checkContinue', continueListener(listener))
  server.on('clientError', clientErrorListener)
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject)
      server.listen(options.port ?? 8080, host, () => {
        server.off('error', reject)
        resolve()
      })
    })
  } catch (e) {
    delivery.close()
    await engine.close()
    throw e
  }
  const port = (server.address() as AddressInfo).port
  const shownHost = host === undefined ? 'localhost' : host.includes(':') && !host.startsWith('[') ? `[${host}]` : host
  const url = `${options.tls === undefined ? 'http' : 'https'}://${shownHost}:${port}${options.basePath ?? ''}`
  let closing: Promise<{ drained: boolean; callbacksPending: number }> | undefined
  return {
    server,
    engine,
    delivery,
    port,
    url,
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

/**
 * The storage a configuration names: undefined for memory, or Redis after one PING (with a short timeout), so an
 * unreachable Redis is one error line before the server listens instead of endless reconnect attempts.
 */
export async function openConfiguredStorage(config: Pick<ServerConfig, 'storage' | 'storagePrefix'>): Promise<Storage | undefined> {
  if (config.storage === 'memory') return undefined
  const { Redis } = await import('ioredis')
  const probe = new Redis(config.storage, { lazyConnect: true, connectTimeout: 2000, maxRetriesPerRequest: 1, retryStrategy: () => null })
  // The 'error' event carries the cause (ECONNREFUSED, ENOTFOUND…); the rejected connect only says the connection closed.
  let cause: string | undefined
  probe.on('error', (e: Error) => {
    cause ??= e.message
  })
  try {
    await probe.connect()
    await probe.ping()
  } catch (e) {
    throw new ServerConfigError(`storage: cannot reach Redis at ${redactUrl(config.storage)} (${cause ?? (e instanceof Error ? e.message : String(e))})`)
  } finally {
    probe.disconnect()
  }
  const { createRedisStorage } = await import('./storage/redis.ts')
  return createRedisStorage({ url: config.storage, prefix: config.storagePrefix })
}

/** Options of {@link startServer} from a loaded configuration (opens the configured storage). */
export async function serverOptionsFromConfig(config: ServerConfig, write?: (line: string) => void): Promise<ServerOptions> {
  const storage = await openConfiguredStorage(config)
  return {
    port: config.port,
    ...(config.host === undefined ? {} : { host: config.host }),
    accounts: config.accounts,
    basePath: config.basePath,
    ...(config.tls === undefined ? {} : { tls: { cert: config.tls.cert, key: config.tls.key } }),
    corsOrigins: config.corsOrigins,
    logFormat: config.logFormat,
    ...(storage === undefined ? {} : { storage }),
    dev: config.dev,
    playground: config.playground,
    drainTimeoutMs: config.drainTimeoutMs,
    workers: config.workers,
    replayWindowSeconds: config.replayWindowSeconds,
    replayCacheSize: config.replayCacheSize,
    callbackAddresses: { allow: config.callbackAllow, deny: config.callbackDeny },
    ...(write === undefined ? {} : { write }),
  }
}

/** `textengine serve --help`. */
export const SERVE_USAGE = `Usage: textengine serve [--config FILE] [--dev] [--host HOST] [--port N]

Serves the HTTP API (HTTPS when tls_cert and tls_key are set). Settings come from the JSON file (--config or
TEXTENGINE_CONFIG), then the environment, then these flags; later wins.

Settings (file key / environment variable / default):
${SERVER_SETTINGS.map((s) => `  ${s.key.padEnd(26)} ${s.env.padEnd(30)} ${s.default}`).join('\n')}

Exit codes: 0 stopped by SIGTERM/SIGINT after draining, 2 bad flag, 3 bad setting or configuration file (one line
on stderr naming the setting, the value and what is allowed), 1 any other failure to start.`

/** Where {@link runServer} prints. */
export interface ServeIo {
  readonly out: (line: string) => void
  readonly err: (line: string) => void
  /** Called with a function to run on SIGTERM/SIGINT. @defaultValue process.once for both signals */
  readonly onStop?: (stop: (signal: string) => void) => void
  /** Sets V8 flags of this process (`heap_growing_percent`). @defaultValue node:v8's setFlagsFromString */
  readonly setV8Flags?: (flags: string) => void
}

/**
 * `textengine serve`: load the configuration, print the development pair when one was generated, listen, and on
 * SIGTERM/SIGINT shut down; resolves with the exit code (3 for a bad setting, 2 for a bad flag) once stopped.
 */
export async function runServer(argv: readonly string[], env: Readonly<Record<string, string | undefined>>, io?: ServeIo): Promise<number> {
  const out = io?.out ?? ((l: string) => console.log(l))
  const err = io?.err ?? ((l: string) => console.error(l))
  if (argv.includes('--help') || argv.includes('-h')) {
    out(SERVE_USAGE)
    return 0
  }
  let config: ServerConfig
  let options: ServerOptions
  try {
    config = loadServerConfig({ argv, env })
    options = await serverOptionsFromConfig(config, out)
  } catch (e) {
    if (e instanceof ServerConfigError) {
      err(`textengine serve: ${e.message}`)
      return e.exitCode
    }
    throw e
  }
  // Before the engine loads its models: the server's heap collects its garbage sooner than V8's adaptive factor lets
  // it (the setting's doc in src/server/config.ts). A process-wide flag, so it is the server's to set, not startServer's:
  // code that embeds the server owns its process.
  if (config.heapGrowingPercent > 0) (io?.setV8Flags ?? setFlagsFromString)(`--heap-growing-percent=${config.heapGrowingPercent}`)
  if (config.generatedAccount) {
    const a = config.accounts[0]!
    out(`no API_KEY/API_SECRET or accounts given; development pair:\n  API_KEY=${a.key}\n  API_SECRET=${a.secret}`)
  }
  let running: RunningServer
  try {
    running = await startServer(options)
  } catch (e) {
    // The engine closed the storage already when it was created; a second close of Redis may throw.
    await options.storage?.close().catch(() => {})
    const code = (e as { code?: string }).code
    const hint = code === 'EACCES' ? ' (ports below 1024 need privileges; use a higher port or a proxy)' : code === 'EADDRINUSE' ? ' (another process listens there)' : ''
    err(`textengine serve: cannot listen on ${config.host ?? 'all interfaces'} port ${config.port}: ${e instanceof Error ? e.message : String(e)}${hint}`)
    return code === 'EACCES' || code === 'EADDRINUSE' ? 3 : 1
  }
  out(`listening on ${running.url} (status: GET /status.json, contract: GET /openapi.json)`)
  if (config.dev) out(`development mode: every request is served as account ${config.accounts[0]!.key} without a signature check`)
  if (config.storage !== 'memory') out(`storage: Redis at ${redactUrl(config.storage)} (prefix ${JSON.stringify(config.storagePrefix)})`)
  return await new Promise<number>((resolve) => {
    const stop = (signal: string): void => {
      out(`${signal}: no longer accepting connections; finishing queued work (up to ${config.drainTimeoutMs} ms)`)
      void running.shutdown().then(({ drained, callbacksPending }) => {
        out(
          drained
            ? `queue drained; ${callbacksPending} callback item(s) left undelivered; bye`
            : `drain timed out: items were left queued${config.storage === 'memory' ? ' (in-memory storage, now lost)' : ' (kept in Redis)'}; ${callbacksPending} callback item(s) undelivered`,
        )
        resolve(0)
      })
    }
    if (io?.onStop !== undefined) io.onStop(stop)
    else {
      process.once('SIGTERM', () => stop('SIGTERM'))
      process.once('SIGINT', () => stop('SIGINT'))
    }
  })
}

if (import.meta.url === `file://${process.argv[1]}` || process.argv[1]?.endsWith('/src/server.ts')) {
  runServer(process.argv.slice(2), process.env).then(
    (code) => process.exit(code),
    (e: unknown) => {
      console.error(`textengine serve: ${e instanceof Error ? e.message : String(e)}`)
      process.exit(1)
    },
  )
}
