/**
 * Configuration of the standalone server (`textengine serve`): a JSON file, environment variables and a few
 * command-line flags, merged in that order (later wins), checked in one function and frozen. Nothing here opens
 * a socket or connects anywhere, so every bad setting is reported before the server listens.
 */
import { randomBytes } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { availableParallelism } from 'node:os'
import { dirname, resolve as resolvePath } from 'node:path'
import { createSecureContext } from 'node:tls'
import { parseArgs } from 'node:util'
import { parseSubscriptionOverrides, type SubscriptionOverrides } from '../engine/account.ts'
import type { AccountOptions } from '../engine/options.ts'
import { callbackAddressCheck } from '../http/callbacks.ts'

/** Format of the request log: one text line, one JSON object per line, or nothing. */
export type LogFormat = 'text' | 'json' | 'off'

/** The server configuration after defaults and checks; frozen. */
export interface ServerConfig {
  /** Interface to listen on; undefined means all interfaces. */
  readonly host: string | undefined
  readonly port: number
  readonly basePath: string
  /** Certificate and key (PEM, read from the files named by `tls_cert` and `tls_key`); undefined serves HTTP. */
  readonly tls: { readonly cert: string; readonly key: string; readonly certFile: string; readonly keyFile: string } | undefined
  /** Browser origins allowed (CORS); empty means no CORS headers. */
  readonly corsOrigins: readonly string[]
  readonly logFormat: LogFormat
  /** `'memory'` or a Redis URL. */
  readonly storage: string
  /** Key prefix in Redis. */
  readonly storagePrefix: string
  readonly drainTimeoutMs: number
  /** Analysis worker threads (0: analyse on the event loop, in slices). */
  readonly workers: number
  /**
   * V8's heap growing factor for the server process, as a percentage over the live heap (`--heap-growing-percent`):
   * how much garbage the old space may gather before the next full collection. 0 leaves V8's own, adaptive factor.
   */
  readonly heapGrowingPercent: number
  /** Development mode: requests are served as the first account without a signature check (loopback only). */
  readonly dev: boolean
  /** Serve the playground page at `/` (beside the API). */
  readonly playground: boolean
  /** Replay window of signed requests in seconds (timestamp skew and repeated requests); 0 turns it off. */
  readonly replayWindowSeconds: number
  /** Signed requests remembered to refuse a second use within the window; 0 checks timestamps only. */
  readonly replayCacheSize: number
  /** Callback destinations allowed inside the default denied ranges (addresses, CIDR ranges, host names). */
  readonly callbackAllow: readonly string[]
  /** Callback destinations refused besides the default denied ranges. */
  readonly callbackDeny: readonly string[]
  /** Accounts served; the first is the development-mode account and the one `API_KEY`/`API_SECRET` set. */
  readonly accounts: readonly AccountOptions[]
  /** No account was configured: the one account is a generated development pair, to be printed. */
  readonly generatedAccount: boolean
  /** The configuration file read, if any. */
  readonly configFile: string | undefined
}

/**
 * A bad setting or a bad flag: one line naming the setting, the value found and what is allowed. `exitCode` is 2
 * for a command-line usage error and 3 for a configuration error.
 */
export class ServerConfigError extends Error {
  override readonly name = 'ServerConfigError'
  readonly code = 'ERR_SERVER_CONFIG'
  constructor(
    message: string,
    readonly exitCode: 2 | 3 = 3,
  ) {
    super(message)
  }
}

/** Input of {@link loadServerConfig}. */
export interface LoadServerConfigInput {
  /** Path of the JSON configuration file. @defaultValue `--config` of argv, else `TEXTENGINE_CONFIG`, else none */
  readonly file?: string | undefined
  /** Environment variables (pass `process.env`). @defaultValue none */
  readonly env?: Readonly<Record<string, string | undefined>>
  /** Arguments after `serve`: `--config FILE`, `--dev`, `--host HOST`, `--port N`. @defaultValue none */
  readonly argv?: readonly string[]
  /** Reads the configuration file and the TLS files. @defaultValue `fs.readFileSync(path, 'utf8')` */
  readonly readFile?: (path: string) => string
}

/** One setting: its key in the file, its environment variable, default and allowed values (README table). */
export interface SettingInfo {
  readonly key: string
  readonly env: string
  readonly flag?: string
  readonly default: string
  readonly allowed: string
}

/** Every setting of the server configuration, in the order the README lists them. */
export const SERVER_SETTINGS: readonly SettingInfo[] = Object.freeze([
  { key: '(the file itself)', env: 'TEXTENGINE_CONFIG', flag: '--config FILE', default: 'none', allowed: 'path of a JSON file' },
  { key: 'host', env: 'HOST', flag: '--host HOST', default: 'all interfaces (127.0.0.1 in dev mode)', allowed: 'host name or IP address' },
  { key: 'port', env: 'PORT', flag: '--port N', default: '8080', allowed: 'integer 0-65535 (0 picks a free port)' },
  { key: 'base_path', env: 'BASE_PATH', default: '"" (none)', allowed: '"" or a path starting with / and not ending with /' },
  { key: 'tls_cert', env: 'TEXTENGINE_TLS_CERT', default: 'none (HTTP)', allowed: 'path of a PEM certificate (chain); with tls_key serves HTTPS' },
  { key: 'tls_key', env: 'TEXTENGINE_TLS_KEY', default: 'none (HTTP)', allowed: 'path of the PEM private key of tls_cert' },
  { key: 'cors_origins', env: 'TEXTENGINE_CORS_ORIGINS', default: 'none (no CORS headers)', allowed: 'array of origins such as "https://app.example.com", or "*" (env: comma-separated)' },
  { key: 'log_format', env: 'TEXTENGINE_LOG_FORMAT', default: 'text', allowed: 'text, json, off' },
  { key: 'storage', env: 'TEXTENGINE_STORAGE, REDIS_URL', default: 'memory', allowed: 'memory, or a redis:// or rediss:// URL' },
  { key: 'storage_prefix', env: 'TEXTENGINE_STORAGE_PREFIX', default: 'textengine:', allowed: 'prefix of every Redis key' },
  { key: 'drain_timeout_ms', env: 'DRAIN_TIMEOUT_MS', default: '10000', allowed: 'integer >= 0: how long shutdown waits for queued work' },
  { key: 'workers', env: 'TEXTENGINE_WORKERS', default: 'the number of CPU cores', allowed: 'integer 0-256: analysis worker threads (one analysis engine and its models, about 150 MB, each); 0 analyses on the main thread' },
  { key: 'heap_growing_percent', env: 'TEXTENGINE_HEAP_GROWING_PERCENT', default: '15', allowed: "integer 0-400: how far the JavaScript heap may grow over what is live before V8 collects it in full (V8's --heap-growing-percent, set for the whole server process, worker threads included); 0 leaves V8's own factor (up to 4x the live heap: 30-70 MB more at the peak of a 10,000-document backlog, for the same collection pauses)" },
  { key: 'dev', env: 'TEXTENGINE_DEV', flag: '--dev', default: 'false', allowed: 'true or false (env: 1, 0, true, false); loopback hosts only' },
  { key: 'playground', env: 'TEXTENGINE_PLAYGROUND', default: 'true', allowed: 'true or false (env: 1, 0, true, false): serve the playground page at / beside the API' },
  { key: 'replay_window_seconds', env: 'TEXTENGINE_REPLAY_WINDOW_SECONDS', default: '900', allowed: 'integer 0-86400: signed requests whose oauth_timestamp is missing, not a number or further than this from the clock are refused (401), and so is a request received twice; 0 turns the replay window off' },
  { key: 'replay_cache_size', env: 'TEXTENGINE_REPLAY_CACHE_SIZE', default: '100000', allowed: 'integer 0-10000000: signed requests remembered within the window (about 150 bytes each; the oldest are forgotten first); 0 checks timestamps only' },
  { key: 'callback_allow', env: 'TEXTENGINE_CALLBACK_ALLOW', default: 'none', allowed: 'array of addresses, CIDR ranges or host names callbacks may reach although private, loopback or link-local, e.g. ["127.0.0.1/32"] for local development (env: comma-separated)' },
  { key: 'callback_deny', env: 'TEXTENGINE_CALLBACK_DENY', default: 'none (private, loopback, link-local, 0.0.0.0 and multicast are always refused)', allowed: 'array of addresses, CIDR ranges or host names callbacks may not reach (env: comma-separated)' },
  { key: 'accounts', env: 'API_KEY + API_SECRET', default: 'one generated development pair, printed', allowed: 'array of {key, secret, name, subscription}; API_KEY/API_SECRET set the first one' },
  { key: 'accounts[0].subscription', env: 'TEXTENGINE_SUBSCRIPTION', default: 'no call limits, unlimited documents, no expiry', allowed: 'JSON subscription overrides, merged over those of the first account' },
])

/**
 * Default of the `heap_growing_percent` setting. With V8's own factor (up to 4x the live heap while collections are
 * quick), `textengine serve` holding a 10,000-document backlog peaked at 318-341 MiB (bench/memory.ts `--only serve`,
 * eight processes, 2026-12-07); at 30, 301-308 (three); at 15, 278-296 (eight) for server CPU within the machine's
 * noise (medians 15.5 s with V8's factor, 16.2 s at 15: at most a few percent). At 15 the old space is collected in
 * full once it is 1.15x what was live after the last collection: 16 full collections instead of 3 in the library's
 * 10,000-document backlog, whose pauses on the main thread add up to the same (about 0.55 s either way: the marking
 * runs beside it, on a helper thread; the young generation's collections, most of the pauses, get shorter), and that
 * backlog peaks at 261-266 MiB instead of 328-344 (README, "Measuring").
 */
export const DEFAULT_HEAP_GROWING_PERCENT = 15

const FILE_KEYS = ['host', 'port', 'base_path', 'tls_cert', 'tls_key', 'cors_origins', 'log_format', 'storage', 'storage_prefix', 'drain_timeout_ms', 'workers', 'heap_growing_percent', 'dev', 'playground', 'replay_window_seconds', 'replay_cache_size', 'callback_allow', 'callback_deny', 'accounts'] as const
const ACCOUNT_KEYS = ['key', 'secret', 'name', 'subscription'] as const
const LOOPBACK = ['localhost', '::1', '[::1]']

/** Whether a host name or address stays on this machine: `localhost`, `127.0.0.0/8` or `::1`. */
export function isLoopbackHost(host: string | undefined): boolean {
  if (host === undefined) return false
  const h = host.trim().toLowerCase()
  return LOOPBACK.includes(h) || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(h) || h === '::ffff:127.0.0.1'
}

/** Hide the password of a URL in messages. */
export function redactUrl(url: string): string {
  return url.replace(/^([a-z]+:\/\/[^:/@]*:)[^@/]*@/i, '$1***@')
}

const show = (v: unknown): string => JSON.stringify(v) ?? String(v)

function fail(setting: string, found: unknown, allowed: string): never {
  throw new ServerConfigError(`${setting}: ${show(found)} is not allowed; expected ${allowed}`)
}

type Raw = Record<string, unknown>
const isObject = (v: unknown): v is Raw => typeof v === 'object' && v !== null && !Array.isArray(v)

/** Merge subscription overrides section by section (`over` wins field by field). */
function mergeOverrides(base: SubscriptionOverrides | undefined, over: SubscriptionOverrides): SubscriptionOverrides {
  const b = base ?? {}
  const name = over.name ?? b.name
  const billing = b.billing_settings === undefined && over.billing_settings === undefined ? undefined : { ...b.billing_settings, ...over.billing_settings }
  const basic = b.basic_settings === undefined && over.basic_settings === undefined ? undefined : { ...b.basic_settings, ...over.basic_settings }
  const bf = b.feature_settings
  const of = over.feature_settings
  let features: SubscriptionOverrides['feature_settings']
  if (bf !== undefined || of !== undefined) {
    const document = bf?.document === undefined && of?.document === undefined ? undefined : { ...bf?.document, ...of?.document }
    const collection = bf?.collection === undefined && of?.collection === undefined ? undefined : { ...bf?.collection, ...of?.collection }
    const html = of?.html_processing ?? bf?.html_processing
    const langs = of?.supported_languages ?? bf?.supported_languages
    features = {
      ...(document === undefined ? {} : { document }),
      ...(collection === undefined ? {} : { collection }),
      ...(html === undefined ? {} : { html_processing: html }),
      ...(langs === undefined ? {} : { supported_languages: langs }),
    }
  }
  return {
    ...(name === undefined ? {} : { name }),
    ...(billing === undefined ? {} : { billing_settings: billing }),
    ...(basic === undefined ? {} : { basic_settings: basic }),
    ...(features === undefined ? {} : { feature_settings: features }),
  }
}

/** Subscription overrides from a setting, with the setting's name in any message. */
function subscriptionOf(value: unknown, setting: string): SubscriptionOverrides {
  try {
    return parseSubscriptionOverrides(value, setting)
  } catch (e) {
    throw new ServerConfigError(e instanceof Error ? e.message : String(e))
  }
}

function parseJsonSetting(text: string, setting: string, what: string): unknown {
  try {
    return JSON.parse(text) as unknown
  } catch (e) {
    throw new ServerConfigError(`${setting}: ${what} is not valid JSON (${e instanceof Error ? e.message : String(e)})`)
  }
}

/** Parse the flags of `textengine serve`; a bad flag is a usage error (exit code 2). */
export function parseServeArgs(argv: readonly string[]): { config?: string; dev?: boolean; host?: string; port?: string; help?: boolean } {
  try {
    const { values, positionals } = parseArgs({
      args: [...argv],
      options: {
        config: { type: 'string' },
        dev: { type: 'boolean' },
        host: { type: 'string' },
        port: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
      allowPositionals: true,
      strict: true,
    })
    if (positionals.length > 0) throw new Error(`unexpected argument ${show(positionals[0])}`)
    return values
  } catch (e) {
    throw new ServerConfigError(`textengine serve: ${e instanceof Error ? e.message : String(e)} (see textengine serve --help)`, 2)
  }
}

/**
 * Load the server configuration: the JSON file (from `file`, `--config` or `TEXTENGINE_CONFIG`), then the
 * environment, then the flags, each overriding the one before; check every setting and freeze the result.
 * Throws {@link ServerConfigError} whose one-line message names the setting, the value found and what is allowed.
 * Reads files (the configuration and the TLS pair) through `readFile`; opens no socket. Paths in the file are
 * relative to the file's folder, paths in the environment to the working directory.
 */
export function loadServerConfig(input: LoadServerConfigInput = {}): ServerConfig {
  const env = input.env ?? {}
  const readFile = input.readFile ?? ((p: string) => readFileSync(p, 'utf8'))
  const flags = parseServeArgs(input.argv ?? [])
  const envOf = (name: string): string | undefined => {
    const v = env[name]
    return v === undefined || v === '' ? undefined : v
  }

  // The file.
  const configFile = input.file ?? flags.config ?? envOf('TEXTENGINE_CONFIG')
  let file: Raw = {}
  let fileDir = process.cwd()
  if (configFile !== undefined) {
    let text: string
    try {
      text = readFile(configFile)
    } catch (e) {
      const code = (e as { code?: string }).code
      throw new ServerConfigError(`configuration file ${configFile}: cannot be read (${code === 'ENOENT' ? 'no such file' : (code ?? (e instanceof Error ? e.message : String(e)))})`)
    }
    const parsed = parseJsonSetting(text, `configuration file ${configFile}`, 'the file')
    if (!isObject(parsed)) throw new ServerConfigError(`configuration file ${configFile}: expected a JSON object of settings, found ${Array.isArray(parsed) ? 'an array' : show(parsed)}`)
    for (const k of Object.keys(parsed)) {
      if (!(FILE_KEYS as readonly string[]).includes(k)) throw new ServerConfigError(`${k}: not a setting (configuration file ${configFile}); allowed: ${FILE_KEYS.join(', ')}`)
    }
    file = parsed
    fileDir = dirname(resolvePath(configFile))
  }
  // Each setting as [value, where it came from]; `where` prefixes messages.
  type Source = { value: unknown; where: string; fromFile: boolean }
  const pick = (key: string, envNames: readonly string[], flag?: unknown, flagName?: string): Source | undefined => {
    if (flag !== undefined) return { value: flag, where: `${flagName}`, fromFile: false }
    for (const n of envNames) {
      const v = envOf(n)
      if (v !== undefined) return { value: v, where: `${n} (environment)`, fromFile: false }
    }
    if (key in file) return { value: file[key], where: key, fromFile: true }
    return undefined
  }

  const str = (s: Source, allowed: string): string => (typeof s.value === 'string' ? s.value : fail(s.where, s.value, allowed))
  const int = (s: Source | undefined, def: number, min: number, max: number, allowed: string): number => {
    if (s === undefined) return def
    const v = typeof s.value === 'string' && /^\s*-?\d+\s*$/.test(s.value) ? Number(s.value) : s.value
    if (typeof v !== 'number' || !Number.isInteger(v) || v < min || v > max) fail(s.where, s.value, allowed)
    return v
  }
  const bool = (s: Source | undefined, def: boolean): boolean => {
    if (s === undefined) return def
    if (typeof s.value === 'boolean') return s.value
    if (typeof s.value === 'string' && !s.fromFile) {
      const t = s.value.trim().toLowerCase()
      if (t === '1' || t === 'true') return true
      if (t === '0' || t === 'false') return false
    }
    return fail(s.where, s.value, s.fromFile ? 'true or false' : '1, 0, true or false')
  }

  // host, port, base path
  const hostSrc = pick('host', ['HOST'], flags.host, '--host')
  let host = hostSrc === undefined ? undefined : str(hostSrc, 'a host name or IP address')
  if (host !== undefined && (host.trim() === '' || /[\s/]/.test(host))) fail(hostSrc!.where, host, 'a host name or IP address such as 127.0.0.1, ::1 or 0.0.0.0')
  const port = int(pick('port', ['PORT'], flags.port, '--port'), 8080, 0, 65535, 'an integer 0-65535 (0 picks a free port)')
  const bpSrc = pick('base_path', ['BASE_PATH'])
  const basePath = bpSrc === undefined ? '' : str(bpSrc, 'a string')
  if (basePath !== '' && (!basePath.startsWith('/') || basePath.endsWith('/') || /[\s?#]/.test(basePath))) {
    fail(bpSrc!.where, basePath, '"" or a path that starts with "/" and does not end with "/", e.g. "/api"')
  }

  // TLS: both files or neither; read and checked as a pair here.
  const certSrc = pick('tls_cert', ['TEXTENGINE_TLS_CERT'])
  const keySrc = pick('tls_key', ['TEXTENGINE_TLS_KEY'])
  let tls: ServerConfig['tls']
  if (certSrc !== undefined || keySrc !== undefined) {
    if (certSrc === undefined) throw new ServerConfigError(`tls_cert: missing; tls_key (${show(keySrc!.value)}) needs the certificate file too (TEXTENGINE_TLS_CERT or "tls_cert")`)
    if (keySrc === undefined) throw new ServerConfigError(`tls_key: missing; tls_cert (${show(certSrc.value)}) needs the private key file too (TEXTENGINE_TLS_KEY or "tls_key")`)
    const readPem = (s: Source, what: string, marker: RegExp): { path: string; text: string } => {
      const given = str(s, `the path of a PEM ${what} file`)
      const path = s.fromFile ? resolvePath(fileDir, given) : resolvePath(given)
      let text: string
      try {
        text = readFile(path)
      } catch (e) {
        const code = (e as { code?: string }).code
        throw new ServerConfigError(`${s.where}: ${show(given)} cannot be read (${code === 'ENOENT' ? `no such file: ${path}` : (code ?? String(e))}); expected the path of a PEM ${what} file`)
      }
      if (!marker.test(text)) fail(s.where, given, `a PEM ${what} file (it has no "-----BEGIN ${what === 'certificate' ? 'CERTIFICATE' : '… PRIVATE KEY'}-----" line)`)
      return { path, text }
    }
    const cert = readPem(certSrc, 'certificate', /-----BEGIN CERTIFICATE-----/)
    const key = readPem(keySrc, 'private key', /-----BEGIN [A-Z ]*PRIVATE KEY-----/)
    try {
      createSecureContext({ cert: cert.text, key: key.text })
    } catch (e) {
      throw new ServerConfigError(`tls_key: ${show(key.path)} does not go with tls_cert ${show(cert.path)} (${e instanceof Error ? e.message : String(e)})`)
    }
    tls = Object.freeze({ cert: cert.text, key: key.text, certFile: cert.path, keyFile: key.path })
  }

  // CORS
  const corsSrc = pick('cors_origins', ['TEXTENGINE_CORS_ORIGINS'])
  let corsOrigins: string[] = []
  if (corsSrc !== undefined) {
    const allowed = 'an array of origins such as ["https://app.example.com"] (scheme://host[:port], no path), or "*" for any'
    const list = typeof corsSrc.value === 'string' && !corsSrc.fromFile ? corsSrc.value.split(',').map((s) => s.trim()).filter((s) => s !== '') : corsSrc.value
    if (!Array.isArray(list)) fail(corsSrc.where, corsSrc.value, allowed)
    for (const o of list as unknown[]) {
      if (typeof o !== 'string' || !(o === '*' || /^https?:\/\/[^/\s]+$/.test(o))) fail(corsSrc.where, o, allowed)
    }
    corsOrigins = list as string[]
  }

  // Log format
  const logSrc = pick('log_format', ['TEXTENGINE_LOG_FORMAT'])
  const logFormat = (logSrc === undefined ? 'text' : str(logSrc, 'text, json or off')) as LogFormat
  if (!['text', 'json', 'off'].includes(logFormat)) fail(logSrc!.where, logFormat, 'text, json or off')

  // Storage
  const storageSrc = pick('storage', ['TEXTENGINE_STORAGE', 'REDIS_URL'])
  const storage = storageSrc === undefined ? 'memory' : str(storageSrc, 'memory or a redis:// URL')
  if (storage !== 'memory') {
    let ok = false
    try {
      const u = new URL(storage)
      ok = (u.protocol === 'redis:' || u.protocol === 'rediss:') && u.hostname !== ''
    } catch {
      ok = false
    }
    if (!ok) fail(storageSrc!.where, redactUrl(storage), '"memory" or a Redis URL such as "redis://127.0.0.1:6379" (rediss:// for TLS)')
  }
  const prefixSrc = pick('storage_prefix', ['TEXTENGINE_STORAGE_PREFIX'])
  const storagePrefix = prefixSrc === undefined ? 'textengine:' : str(prefixSrc, 'a string such as "textengine:"')

  const drainTimeoutMs = int(pick('drain_timeout_ms', ['DRAIN_TIMEOUT_MS']), 10_000, 0, 24 * 3600 * 1000, 'an integer number of milliseconds, 0 to 86400000')
  const workers = int(pick('workers', ['TEXTENGINE_WORKERS']), availableParallelism(), 0, 256, 'an integer 0-256 (analysis worker threads; 0 analyses on the main thread)')
  const heapGrowingPercent = int(pick('heap_growing_percent', ['TEXTENGINE_HEAP_GROWING_PERCENT']), DEFAULT_HEAP_GROWING_PERCENT, 0, 400, "an integer 0-400 (percent the heap may grow over what is live before a full collection; 0 leaves V8's own factor)")

  // Development mode: loopback only; with no host it listens on 127.0.0.1.
  const devSrc = pick('dev', ['TEXTENGINE_DEV'], flags.dev, '--dev')
  const dev = bool(devSrc, false)
  if (dev) {
    if (host === undefined) host = '127.0.0.1'
    else if (!isLoopbackHost(host)) {
      throw new ServerConfigError(
        `${devSrc!.where}: development mode (no signature checks) is refused on host ${show(host)} (${hostSrc!.where}); it is allowed only on a loopback host: 127.0.0.1, ::1 or localhost`,
      )
    }
  }

  const playground = bool(pick('playground', ['TEXTENGINE_PLAYGROUND']), true)

  // Signing: the replay window (issue 18), on by default.
  const replayWindowSeconds = int(pick('replay_window_seconds', ['TEXTENGINE_REPLAY_WINDOW_SECONDS']), 900, 0, 86_400, 'an integer number of seconds, 0 to 86400 (0 turns the replay window off)')
  const replayCacheSize = int(pick('replay_cache_size', ['TEXTENGINE_REPLAY_CACHE_SIZE']), 100_000, 0, 10_000_000, 'an integer 0 to 10000000 (0 checks timestamps only)')

  // Callback destinations.
  const addressList = (key: string, env: string): string[] => {
    const src = pick(key, [env])
    if (src === undefined) return []
    const allowed = 'an array of IP addresses, CIDR ranges (e.g. "127.0.0.1/32", "10.0.0.0/8") or host names'
    const list = typeof src.value === 'string' && !src.fromFile ? src.value.split(',').map((x) => x.trim()).filter((x) => x !== '') : src.value
    if (!Array.isArray(list)) fail(src.where, src.value, allowed)
    try {
      callbackAddressCheck(key === 'callback_allow' ? { allow: list as string[] } : { deny: list as string[] }, src.where)
    } catch (e) {
      throw new ServerConfigError(`${e instanceof Error ? e.message : String(e)}; expected ${allowed}`)
    }
    return list as string[]
  }
  const callbackAllow = addressList('callback_allow', 'TEXTENGINE_CALLBACK_ALLOW')
  const callbackDeny = addressList('callback_deny', 'TEXTENGINE_CALLBACK_DENY')

  // Accounts: the file's, then API_KEY/API_SECRET for the first, then TEXTENGINE_SUBSCRIPTION over its subscription.
  const accounts: AccountOptions[] = []
  if ('accounts' in file) {
    const list = file['accounts']
    if (!Array.isArray(list) || list.length === 0) fail('accounts', list, 'a non-empty array of {key, secret, name, subscription}')
    const seen = new Set<string>()
    list.forEach((a: unknown, i: number) => {
      const at = `accounts[${i}]`
      if (!isObject(a)) fail(at, a, 'an object {key, secret, name, subscription}')
      for (const k of Object.keys(a)) if (!(ACCOUNT_KEYS as readonly string[]).includes(k)) throw new ServerConfigError(`${at}.${k}: not a setting; allowed: ${ACCOUNT_KEYS.join(', ')}`)
      const key = typeof a['key'] === 'string' && a['key'] !== '' ? a['key'] : fail(`${at}.key`, a['key'], 'a non-empty string')
      const secret = typeof a['secret'] === 'string' && a['secret'] !== '' ? a['secret'] : fail(`${at}.secret`, a['secret'] === undefined ? undefined : '***', 'a non-empty string')
      if (seen.has(key)) fail(`${at}.key`, key, 'a key no other account uses')
      seen.add(key)
      const name = a['name'] === undefined ? undefined : typeof a['name'] === 'string' ? a['name'] : fail(`${at}.name`, a['name'], 'a string')
      const subscription = a['subscription'] === undefined ? undefined : subscriptionOf(a['subscription'], `${at}.subscription`)
      accounts.push({ key, secret, ...(name === undefined ? {} : { name }), ...(subscription === undefined ? {} : { subscription }) })
    })
  }
  const apiKey = envOf('API_KEY')
  const apiSecret = envOf('API_SECRET')
  if ((apiKey === undefined) !== (apiSecret === undefined)) {
    throw new ServerConfigError(`${apiKey === undefined ? 'API_KEY' : 'API_SECRET'} (environment): missing; set both API_KEY and API_SECRET, or neither`)
  }
  if (apiKey !== undefined && apiSecret !== undefined) {
    const first = accounts[0]
    if (accounts.slice(1).some((a) => a.key === apiKey)) fail('API_KEY (environment)', apiKey, 'a key no other account of the configuration file uses')
    accounts[0] = { ...first, key: apiKey, secret: apiSecret, name: first?.name ?? 'default' }
  }
  let generatedAccount = false
  if (accounts.length === 0) {
    accounts.push({ key: `dev-${randomBytes(6).toString('hex')}`, secret: randomBytes(16).toString('hex'), name: 'default' })
    generatedAccount = true
  }
  const subEnv = envOf('TEXTENGINE_SUBSCRIPTION')
  if (subEnv !== undefined) {
    const over = subscriptionOf(parseJsonSetting(subEnv, 'TEXTENGINE_SUBSCRIPTION (environment)', 'the value'), 'TEXTENGINE_SUBSCRIPTION')
    const first = accounts[0]!
    accounts[0] = { ...first, subscription: mergeOverrides(first.subscription, over) }
  }

  return Object.freeze({
    host,
    port,
    basePath,
    tls,
    corsOrigins: Object.freeze(corsOrigins),
    logFormat,
    storage,
    storagePrefix,
    drainTimeoutMs,
    workers,
    heapGrowingPercent,
    dev,
    playground,
    replayWindowSeconds,
    replayCacheSize,
    callbackAllow: Object.freeze(callbackAllow),
    callbackDeny: Object.freeze(callbackDeny),
    accounts: Object.freeze(accounts.map((a) => Object.freeze(a))),
    generatedAccount,
    configFile,
  })
}
