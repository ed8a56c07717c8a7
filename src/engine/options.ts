import { randomBytes, randomUUID } from 'node:crypto'
import { EngineError } from '../errors.ts'
import type { Storage } from '../storage/types.ts'
import type { Analyzer } from '../pipeline/types.ts'
import type { DocumentOutput, CollectionOutput } from '../model/output.ts'
import type { SubscriptionOverrides } from './account.ts'
import type { QueryChecker } from './tuning.ts'
import { missingDataHint, resolveDataDir } from '../resources.ts'

/** One account an engine serves. */
export interface AccountOptions {
  /** Public key (`oauth_consumer_key`). */
  readonly key: string
  /** Secret used to sign requests. */
  readonly secret: string
  /** Consumer name shown in statistics. @defaultValue the key */
  readonly name?: string
  /** Subscription overrides; every field defaults to the contract's starter limits. */
  readonly subscription?: SubscriptionOverrides
}

/** Items processed for a configuration with a callback URL, handed to whoever delivers them. */
export interface ProcessedEvent {
  readonly account: string
  readonly configId: string
  readonly callback: string
  readonly kind: 'document' | 'collection'
  readonly output: DocumentOutput | CollectionOutput
}

/** Receiver of the engine's background log lines. */
export interface EngineLogger {
  warn(message: string): void
  info(message: string): void
}

/** Options of {@link createEngine}. Every field is optional. */
export interface EngineOptions {
  /** Accounts served. @defaultValue one development account with a random key and secret */
  readonly accounts?: readonly AccountOptions[]
  /** Storage backend. @defaultValue in-memory storage */
  readonly storage?: Storage
  /** Clock in epoch milliseconds (retention, statistics, limits). @defaultValue Date.now */
  readonly now?: () => number
  /** Id generator for configurations, tuning items and documents without an id. @defaultValue crypto.randomUUID */
  readonly newId?: () => string
  /** Extra analyzers run after the built-in ones (ordered by their `needs`). @defaultValue none */
  readonly analyzers?: readonly Analyzer[]
  /** Process queued items in the background. @defaultValue true */
  readonly background?: boolean
  /** Most items claimed in one storage call by the background worker. @defaultValue 16 */
  readonly workerBatch?: number
  /**
   * Worker threads that analyse (`node:worker_threads`, one analysis core per thread, models loaded once per
   * thread): queued items, collections, `analyze` and `analyzeMany` run there and never on the calling thread.
   * 0 analyses in-process (on the event loop, in slices that yield between texts).
   * @defaultValue 0 (the standalone server defaults to the number of cores: setting `workers`)
   */
  readonly workers?: number
  /**
   * Most unfinished (queued or processing) items one account may have; a submission that would pass it is refused
   * as a whole with ERR_QUEUE_FULL (429) and `retryAfterSeconds`. A collection counts as one item. 0 = no bound.
   * @defaultValue 10000
   */
  readonly maxQueuedPerAccount?: number
  /**
   * Lease of a claimed item (visibility timeout, ms): a claim not completed within it (its process died) is taken
   * over by any engine on the same storage. Held leases are extended while their items are being analysed.
   * @defaultValue 60000
   */
  readonly leaseMs?: number
  /**
   * How often the background worker looks for work while none is found (or the storage is unreachable): it
   * waits `min`, doubling up to `max` ms; a submission wakes it at once.
   * @defaultValue { min: 10, max: 1000 }
   */
  readonly pollMs?: { readonly min?: number; readonly max?: number }
  /**
   * Where background problems are reported: one `warn` line when the storage becomes unreachable (not one per
   * retry) and one `info` line when it is back. @defaultValue console.warn / console.info
   */
  readonly logger?: EngineLogger
  /** Retention of submitted and processed items, in milliseconds. @defaultValue 24 hours */
  readonly retentionMs?: number
  /** Called with each item processed for a configuration whose `callback` is set. @defaultValue none */
  readonly onCallback?: (event: ProcessedEvent) => void
  /**
   * Syntax check of boolean queries in tuning (queries, `+` user entities, phrases with operators).
   * @defaultValue the engine's query parser
   */
  readonly checkQuery?: QueryChecker
  /**
   * Folder of the models and lexicons (the package's `lexicons/`, or a copy of it), for installs where the code
   * cannot find them itself (a bundle placed outside the project that has textengine installed). Must hold
   * `en/sentiment.tsv`. Models load from it when an analysis first needs them.
   * @defaultValue the `TEXTENGINE_DATA_DIR` environment variable, else the package's own `lexicons/`
   */
  readonly dataDir?: string
}

/** Options after defaults and checks; frozen. */
export interface ResolvedOptions {
  readonly accounts: readonly Required<Omit<AccountOptions, 'subscription'>>[]
  readonly subscriptions: ReadonlyMap<string, SubscriptionOverrides | undefined>
  readonly storage: Storage | undefined
  readonly now: () => number
  readonly newId: () => string
  readonly analyzers: readonly Analyzer[]
  readonly background: boolean
  readonly workerBatch: number
  readonly workers: number
  readonly maxQueuedPerAccount: number
  readonly leaseMs: number
  readonly pollMinMs: number
  readonly pollMaxMs: number
  readonly logger: EngineLogger
  readonly retentionMs: number
  readonly onCallback: ((event: ProcessedEvent) => void) | undefined
  readonly checkQuery: QueryChecker | undefined
  readonly dataDir: string | undefined
}

/** `options.dataDir`, checked: a folder holding the data (models load later, so a wrong folder fails here). */
function checkDataDir(dataDir: string | undefined, bad: (msg: string) => never): string | undefined {
  if (dataDir === undefined) return undefined
  if (typeof dataDir !== 'string' || dataDir === '') bad(`options.dataDir must be a non-empty string, found ${JSON.stringify(dataDir)}`)
  const r = resolveDataDir(dataDir)
  if (!r.found) bad(`options.dataDir ${JSON.stringify(dataDir)} holds no textengine data (expected ${r.dir}/en/sentiment.tsv); ${missingDataHint(dataDir)}`)
  return r.dir
}

function pollOf(p: EngineOptions['pollMs'], bad: (msg: string) => never): { pollMinMs: number; pollMaxMs: number } {
  if (p === undefined) return { pollMinMs: 10, pollMaxMs: 1000 }
  if (typeof p !== 'object' || p === null) bad('options.pollMs must be an object {min, max}')
  const min = p.min ?? 10
  const max = p.max ?? Math.max(1000, min)
  if (typeof min !== 'number' || !Number.isFinite(min) || min < 1) bad(`options.pollMs.min must be a number >= 1, found ${String(min)}`)
  if (typeof max !== 'number' || !Number.isFinite(max) || max < min) bad(`options.pollMs.max must be a number >= pollMs.min (${min}), found ${String(max)}`)
  return { pollMinMs: min, pollMaxMs: max }
}

const CONSOLE_LOGGER: EngineLogger = Object.freeze({
  warn: (m: string) => console.warn(m),
  info: (m: string) => console.info(m),
})

function loggerOf(l: EngineLogger | undefined, bad: (msg: string) => never): EngineLogger {
  if (l === undefined) return CONSOLE_LOGGER
  if (typeof l !== 'object' || l === null || typeof l.warn !== 'function' || typeof l.info !== 'function') bad('options.logger must be an object with warn(message) and info(message) functions')
  return l
}

/**
 * Complete and check the options in one place, then freeze them. Bad options throw
 * ERR_INVALID_OPTIONS here, never later during analysis.
 */
export function resolveOptions(options: EngineOptions = {}): ResolvedOptions {
  const bad = (msg: string): never => {
    throw new EngineError('ERR_INVALID_OPTIONS', msg)
  }
  if (typeof options !== 'object' || options === null) bad('createEngine options must be an object')
  const accounts = options.accounts ?? [
    { key: `dev-${randomBytes(6).toString('hex')}`, secret: randomBytes(16).toString('hex'), name: 'development' },
  ]
  if (!Array.isArray(accounts) || accounts.length === 0) bad('options.accounts must be a non-empty array when given')
  const seen = new Set<string>()
  const subscriptions = new Map<string, SubscriptionOverrides | undefined>()
  const resolved = accounts.map((a, i) => {
    if (typeof a?.key !== 'string' || a.key === '') bad(`options.accounts[${i}].key must be a non-empty string`)
    if (typeof a.secret !== 'string' || a.secret === '') bad(`options.accounts[${i}].secret must be a non-empty string`)
    if (seen.has(a.key)) bad(`options.accounts[${i}].key "${a.key}" is used by two accounts`)
    seen.add(a.key)
    subscriptions.set(a.key, a.subscription)
    return Object.freeze({ key: a.key, secret: a.secret, name: a.name ?? a.key })
  })
  const num = (v: number | undefined, name: string, def: number, min: number): number => {
    if (v === undefined) return def
    if (typeof v !== 'number' || !Number.isFinite(v) || v < min) bad(`options.${name} must be a number >= ${min}, found ${String(v)}`)
    return v
  }
  const int = (v: number | undefined, name: string, def: number, min: number, max: number): number => {
    if (v === undefined) return def
    if (typeof v !== 'number' || !Number.isInteger(v) || v < min || v > max) bad(`options.${name} must be an integer ${min}-${max}, found ${String(v)}`)
    return v
  }
  const fn = <T>(v: T | undefined, name: string, def: T): T => {
    if (v === undefined) return def
    if (typeof v !== 'function') bad(`options.${name} must be a function`)
    return v
  }
  return Object.freeze({
    accounts: Object.freeze(resolved),
    subscriptions,
    storage: options.storage,
    now: fn(options.now, 'now', Date.now),
    newId: fn(options.newId, 'newId', randomUUID),
    analyzers: Object.freeze([...(options.analyzers ?? [])]),
    background: options.background ?? true,
    workerBatch: Math.floor(num(options.workerBatch, 'workerBatch', 16, 1)),
    workers: int(options.workers, 'workers', 0, 0, 256),
    maxQueuedPerAccount: int(options.maxQueuedPerAccount, 'maxQueuedPerAccount', 10_000, 0, Number.MAX_SAFE_INTEGER),
    leaseMs: int(options.leaseMs, 'leaseMs', 60_000, 100, 24 * 3600 * 1000),
    ...pollOf(options.pollMs, bad),
    logger: loggerOf(options.logger, bad),
    retentionMs: num(options.retentionMs, 'retentionMs', 24 * 3600 * 1000, 1),
    onCallback: options.onCallback === undefined ? undefined : fn(options.onCallback, 'onCallback', options.onCallback),
    checkQuery: options.checkQuery === undefined ? undefined : fn(options.checkQuery, 'checkQuery', options.checkQuery),
    dataDir: checkDataDir(options.dataDir, bad),
  })
}
