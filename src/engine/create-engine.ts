import { fail, show } from '../errors.ts'
import type { CollectionOutput, DocumentOutput } from '../model/output.ts'
import type { Subscription } from '../model/account.ts'
import type { Storage, StoredConfiguration } from '../storage/types.ts'
import { createMemoryStorage } from '../storage/memory.ts'
import { resolveOptions, type EngineOptions } from './options.ts'
import { buildSubscription } from './account.ts'
import { ANALYSIS_BATCH, ANALYSIS_BATCH_CHARS, AnalysisStopped, analysisBatches, batchLength, createAnalysisCore, type AnalysisCore, type DocumentMeta, type PreparingAnalyzer } from './analysis.ts'
import { createAnalysisPool, PoolClosedError, workersUnavailable, type AnalysisPool } from './workers.ts'
import { createBackgroundWorker, type Executor } from './workers-loop.ts'
import { builtinAnalyzers, checkLanguage, engineFeatureSettings } from './features.ts'
import { createSettingsService, type SettingsService } from './settings-service.ts'
import { createSettingsApi } from './account-api.ts'
import { createDocumentsApi } from './documents-api.ts'
import { createQueue } from './queue.ts'
import { createAccountGuard, createStatistics } from './statistics.ts'
import { createAccountStatistics, type AccountStatistics } from './account-statistics.ts'
import type { AccountApi, AnalyzeManyItem, AnalyzeOptions, CallClass, Engine, StatisticsQuery } from './types.ts'
import { builtinTemplateSources } from './templates.ts'
import { createQueryGrammar } from '../query/index.ts'
import { queryLimitsOf } from '../pipeline/analyzers/topics.ts'

interface AccountState {
  readonly key: string
  readonly secret: string
  readonly name: string
  readonly subscription: Subscription
  readonly settings: SettingsService
  readonly statistics: AccountStatistics
  readonly api: AccountApi
}

/**
 * Create an engine: plain functions over accounts, configurations, tuning and analysis. Options are
 * resolved, checked and frozen here; two engines share nothing.
 */
export function createEngine(options: EngineOptions = {}): Engine {
  const opts = resolveOptions(options)
  if (opts.workers > 0) {
    if (opts.analyzers.length > 0) {
      fail('ERR_INVALID_OPTIONS', `options.analyzers cannot run in worker threads (functions do not cross threads); use workers: 0 with extra analyzers, found workers: ${opts.workers}`)
    }
    const why = workersUnavailable()
    if (why !== undefined) fail('ERR_INVALID_OPTIONS', `options.workers ${opts.workers}: worker threads cannot start here: ${why}`)
  }
  const storage: Storage = opts.storage ?? createMemoryStorage()
  // One query parser per engine checks the syntax of every account's queries and compiles them for analysis.
  const grammar = createQueryGrammar()
  // In-process analysis core (workers: 0), or a pool of threads with one core each; with a pool, the models are
  // never loaded on this thread.
  const core: AnalysisCore | undefined =
    opts.workers > 0 ? undefined : createAnalysisCore([...builtinAnalyzers(opts.dataDir, grammar), ...(opts.analyzers as PreparingAnalyzer[])], { dataDir: opts.dataDir })
  const pool: AnalysisPool | undefined = opts.workers > 0 ? createAnalysisPool({ size: opts.workers, dataDir: opts.dataDir }) : undefined
  let closed = false
  const executor: Executor = pool !== undefined ? poolExecutor(pool) : inProcessExecutor(core!, () => closed)
  const templateSources = builtinTemplateSources()
  const templates = templateSources.map((t) => t.template)
  const accounts = new Map<string, AccountState>()
  const stats = createStatistics({ storage, now: opts.now })
  const guard = createAccountGuard({ now: opts.now })
  const settingsOf = (key: string): SettingsService => {
    const state = accounts.get(key)
    if (state === undefined) fail('ERR_UNAUTHORIZED', `unknown account key "${key}"`)
    return state.settings
  }
  const worker = createBackgroundWorker({
    storage,
    executor,
    accountOf: (key) => {
      const state = accounts.get(key)
      if (state === undefined) return undefined
      return {
        subscription: state.subscription,
        find: (configId) => state.settings.find(configId),
        countOutcome: (configId, language, processed) => state.statistics.countOutcome(configId, language, processed),
      }
    },
    now: opts.now,
    background: opts.background,
    workerBatch: opts.workerBatch,
    leaseMs: opts.leaseMs,
    pollMinMs: opts.pollMinMs,
    pollMaxMs: opts.pollMaxMs,
    warn: (m) => opts.logger.warn(m),
    info: (m) => opts.logger.info(m),
    onCallback: opts.onCallback,
  })
  /** Seconds until `excess` more items have finished, at the recent rate (1-60; 10 when nothing finished lately). */
  const retryAfterSeconds = (excess: number): number => {
    const rate = worker.rate()
    return rate > 0 ? Math.min(60, Math.max(1, Math.ceil(excess / rate))) : 10
  }
  // Submission order across the engine; a counter seeded by the clock keeps order across restarts.
  let seq = opts.now() * 1000
  const nextSeq = (): number => ++seq

  for (const a of opts.accounts) {
    const license = buildSubscription(opts.subscriptions.get(a.key), a.name)
    const subscription: Subscription = {
      ...license,
      feature_settings: engineFeatureSettings(license.feature_settings),
      templates: templates.map((t) => ({
        id: t.id, config_id: t.config_id, name: t.name, language: t.language, type: t.type, version: t.version, is_free: t.is_free,
      })),
    }
    const settings = createSettingsService({
      storage,
      account: a.key,
      subscription,
      licenseFeatures: license.feature_settings,
      templates: templateSources,
      now: opts.now,
      newId: opts.newId,
      checkQuery: opts.checkQuery ?? ((text: string) => {
        const r = grammar.parse(text, queryLimitsOf(subscription))
        return r.ok ? [] : r.problems
      }),
    })
    const statistics = createAccountStatistics({ account: a.key, consumerName: a.name, subscription, settings, statistics: stats, guard, now: opts.now })
    const queue = createQueue({
      storage,
      account: a.key,
      now: opts.now,
      newId: opts.newId,
      nextSeq,
      retentionMs: opts.retentionMs,
      limits: { ...subscription.basic_settings, job_ids_permitted: subscription.billing_settings.job_ids_permitted },
      maxQueued: opts.maxQueuedPerAccount,
      retryAfterSeconds,
    })
    const documents = createDocumentsApi({
      queue,
      settings,
      subscription,
      notify: () => worker.notify(),
      count: (e) => statistics.count(e),
      checkBalance: (n) => statistics.checkBalance(n),
    })
    const api: AccountApi = Object.freeze({
      key: a.key,
      ...createSettingsApi(settings, subscription, templates),
      ...documents,
      statistics: (q: StatisticsQuery) => statistics.query(q),
      recordCall: (callClass: CallClass, app?: string, configId?: string) => statistics.recordCall(callClass, app, configId),
    })
    accounts.set(a.key, { key: a.key, secret: a.secret, name: a.name, subscription, settings, statistics, api })
  }
  const defaultAccount = opts.accounts[0]!.key

  const stateOf = (key: string | undefined): AccountState => {
    const s = accounts.get(key ?? defaultAccount)
    if (s === undefined) fail('ERR_UNAUTHORIZED', `unknown account key "${String(key)}"`)
    return s
  }

  const open = (): void => {
    if (closed) fail('ERR_INTERNAL', 'the engine is closed')
  }

  /** Analyse one text in-process or on a worker thread. */
  const analyzeOne = (text: string, meta: DocumentMeta, stored: StoredConfiguration, subscription: Subscription, cacheKey: string): Promise<DocumentOutput> =>
    pool !== undefined ? pool.analyzeDocument(text, meta, stored, subscription, cacheKey) : Promise.resolve(core!.analyzeDocument(text, meta, stored, subscription, cacheKey))

  return Object.freeze({
    defaultAccount,
    account: (key: string) => stateOf(key).api,
    secretOf: (key: string) => accounts.get(key)?.secret,
    async analyze(text: string, o: AnalyzeOptions = {}): Promise<DocumentOutput> {
      open()
      if (typeof text !== 'string') fail('ERR_INVALID_FIELD', `text must be a string, found ${typeof text}`, 'text')
      const s = stateOf(o.account)
      const stored = await settingsOf(s.key).resolve(o.configId)
      checkLanguage(s.subscription, stored.configuration)
      const limit = s.subscription.basic_settings.document_length
      if (text.length > limit) fail('ERR_DOCUMENT_TOO_LONG', `text has ${text.length} characters, more than the limit of ${limit}`, 'text')
      return analyzeOne(text, { id: o.id ?? opts.newId(), tag: o.tag, metadata: o.metadata }, stored, s.subscription, `${s.key}/${stored.configuration.config_id}`)
    },
    async analyzeMany(texts: readonly (string | AnalyzeManyItem)[], o: Pick<AnalyzeOptions, 'account' | 'configId'> = {}): Promise<DocumentOutput[]> {
      open()
      if (!Array.isArray(texts)) fail('ERR_INVALID_FIELD', `texts must be an array of strings or {text, id, tag, metadata} objects, found ${show(texts)}`, 'texts')
      const s = stateOf(o.account)
      const stored = await settingsOf(s.key).resolve(o.configId)
      checkLanguage(s.subscription, stored.configuration)
      const limit = s.subscription.basic_settings.document_length
      // Every text is checked before any is analysed.
      const jobs = texts.map((t: unknown, i): { text: string; meta: DocumentMeta } => {
        const item = typeof t === 'string' ? { text: t } : t
        if (typeof item !== 'object' || item === null || typeof (item as AnalyzeManyItem).text !== 'string') {
          fail('ERR_INVALID_FIELD', `texts[${i}] must be a string or an object with a string text, found ${show(t)}`, `texts[${i}]`)
        }
        const { text, id, tag, metadata } = item as AnalyzeManyItem
        if (text.length > limit) fail('ERR_DOCUMENT_TOO_LONG', `texts[${i}] has ${text.length} characters, more than the limit of ${limit}`, `texts[${i}]`)
        if (id !== undefined && typeof id !== 'string') fail('ERR_INVALID_FIELD', `texts[${i}].id must be a string, found ${show(id)}`, `texts[${i}].id`)
        if (tag !== undefined && typeof tag !== 'string') fail('ERR_INVALID_FIELD', `texts[${i}].tag must be a string, found ${show(tag)}`, `texts[${i}].tag`)
        return { text, meta: { id: id ?? opts.newId(), tag, metadata } }
      })
      const cacheKey = `${s.key}/${stored.configuration.config_id}`
      if (pool !== undefined) return Promise.all(jobs.map((j) => pool.analyzeDocument(j.text, j.meta, stored, s.subscription, cacheKey)))
      // In-process: small batches of texts one after another (see analyzeDocuments), letting other work in every few
      // milliseconds.
      const out: DocumentOutput[] = []
      let since = performance.now()
      for (const batch of analysisBatches(jobs)) {
        if (performance.now() - since >= SLICE_MS) {
          await yieldToEventLoop()
          open()
          since = performance.now()
        }
        for (const r of core!.analyzeDocuments(batch, stored, s.subscription, cacheKey)) {
          if (r.output === undefined) throw r.error
          out.push(r.output)
        }
      }
      return out
    },
    async analyzeCollection(texts: readonly string[], o: AnalyzeOptions = {}): Promise<CollectionOutput> {
      open()
      const s = stateOf(o.account)
      const stored = await settingsOf(s.key).resolve(o.configId)
      checkLanguage(s.subscription, stored.configuration)
      if (!Array.isArray(texts) || texts.some((t) => typeof t !== 'string')) fail('ERR_INVALID_FIELD', 'texts must be an array of strings', 'documents')
      const meta: DocumentMeta = { id: o.id ?? opts.newId(), tag: o.tag, metadata: o.metadata }
      const cacheKey = `${s.key}/${stored.configuration.config_id}`
      if (pool !== undefined) return pool.analyzeCollection(texts, meta, stored, s.subscription, cacheKey)
      return core!.analyzeCollectionSliced(texts, meta, stored, s.subscription, cacheKey, { sliceMs: SLICE_MS, stop: () => closed })
    },
    drain: () => worker.drain(),
    async close() {
      if (closed) return
      closed = true
      // Stop claiming first; terminating the pool then hands its pending items back to the queue.
      const stopping = worker.stop()
      await pool?.close()
      await stopping
      await storage.close()
    },
  })
}

/**
 * Longest in-process run between two yields to the event loop (ms): collections, `analyzeMany` and the queue's
 * in-process worker between two batches of texts (see `analysisBatches`), where requests wait on it and polls find
 * what it finished since the last one. `bench:load -- --seconds 15 --workers 0`, one run each: a turn before every item processed 845 docs/s, status
 * call p50 / p99 / max 1.9 / 14.8 / 52 ms; 4 ms 973 docs/s, 7.6 / 23.4 / 71 ms; 10 ms 1,148 docs/s, 16.0 / 39.4 /
 * 143 ms (issue 18's target: p99 under 100). `bench/http.ts`, tweets, HTTP end to end against the in-process queue:
 * 0.57, 0.71-0.81 and 0.90-1.2.
 */
const SLICE_MS = 10

const yieldToEventLoop = (): Promise<void> => new Promise((resolve) => setImmediate(resolve))

/**
 * In-process analysis for the background worker: one batch at a time (documents analysed together, see
 * `analyzeDocuments`; collections alone, in slices), with a yield to the event loop before a batch once SLICE_MS have
 * passed since the last one, so requests are served every few milliseconds (between two batches), and before a batch
 * that is not full, so that the items claimed with its first join it. A batch takes the waiting documents of one
 * configuration, in the order they came, up to {@link ANALYSIS_BATCH} texts and {@link ANALYSIS_BATCH_CHARS}
 * characters. It holds two batches' worth of items (the one analysed and the next): a claimed item never waits
 * behind a long line of others while its lease runs.
 */
function inProcessExecutor(core: AnalysisCore, isClosed: () => boolean): Executor {
  interface Waiting {
    readonly text: string
    readonly meta: DocumentMeta
    readonly stored: StoredConfiguration
    readonly subscription: Subscription
    readonly cacheKey: string
    readonly resolve: (o: DocumentOutput) => void
    readonly reject: (e: unknown) => void
  }
  const waiting: Waiting[] = []
  let turn: Promise<unknown> = Promise.resolve()
  let lastYield = Number.NEGATIVE_INFINITY
  /**
   * Run `f` after everything asked for before it, after a turn of the event loop when SLICE_MS have passed since the
   * last one or when `wait()` says more work may come with one.
   */
  const exclusive = <T>(f: () => T | Promise<T>, wait: () => boolean = () => false): Promise<T> => {
    const p = turn.then(async () => {
      if (wait() || performance.now() - lastYield >= SLICE_MS) {
        await yieldToEventLoop()
        lastYield = performance.now()
      }
      if (isClosed()) throw new AnalysisStopped()
      return f()
    })
    turn = p.catch(() => {})
    return p
  }
  /** Analyse the next batch of waiting documents (none left: nothing). */
  const nextBatch = (): void => {
    if (waiting.length === 0) return
    const first = waiting[0]!
    const batch = waiting.splice(0, batchLength(waiting, 0, (a, b) => b.stored === a.stored && b.subscription === a.subscription && b.cacheKey === a.cacheKey))
    const results = core.analyzeDocuments(batch, first.stored, first.subscription, first.cacheKey)
    batch.forEach((w, i) => {
      const r = results[i]!
      if (r.output !== undefined) w.resolve(r.output)
      else w.reject(r.error)
    })
  }
  /**
   * Whether a turn for the waiting documents is queued and not yet started. One turn at a time, not one per document:
   * a turn analyses a whole batch, so with one per document the turns of the documents it took stayed queued behind
   * the next ones while claims kept the line full (7,779 queued at the end of a 10k backlog, each holding its
   * document's text and closures until the line ran dry).
   */
  let documentTurn = false
  /** Queue a turn that analyses the next batch (after a turn of the event loop when it is not full), then the next. */
  const scheduleDocuments = (): void => {
    if (documentTurn) return
    documentTurn = true
    exclusive(
      () => {
        documentTurn = false
        nextBatch()
        if (waiting.length > 0) scheduleDocuments()
      },
      () => waiting.length < ANALYSIS_BATCH,
    ).catch((e: unknown) => {
      // Closing: every document still waiting is given up (its item goes back to the queue).
      documentTurn = false
      for (const w of waiting.splice(0)) w.reject(e)
    })
  }
  return {
    capacity: 2 * ANALYSIS_BATCH,
    document: (text, meta, stored, subscription, cacheKey) =>
      new Promise<DocumentOutput>((resolve, reject) => {
        waiting.push({ text, meta, stored, subscription, cacheKey, resolve, reject })
        // A batch not yet full waits one turn of the event loop: the items claimed with this one join it.
        scheduleDocuments()
      }),
    collection: (texts, meta, stored, subscription, cacheKey) =>
      exclusive(() => core.analyzeCollectionSliced(texts, meta, stored, subscription, cacheKey, { sliceMs: SLICE_MS, stop: isClosed })),
    isStopped: (e) => e instanceof AnalysisStopped,
  }
}

/**
 * Analysis on the worker-thread pool: enough items held to keep every thread busy with two batches of up to four in
 * flight (the pool sends a thread up to eight texts in one message, see `MAX_BATCH`), and no more, so that a claimed
 * item does not wait long behind others while its lease runs.
 */
function poolExecutor(pool: AnalysisPool): Executor {
  return {
    capacity: pool.size * 8,
    document: (text, meta, stored, subscription, cacheKey) => pool.analyzeDocument(text, meta, stored, subscription, cacheKey),
    collection: (texts, meta, stored, subscription, cacheKey) => pool.analyzeCollection(texts, meta, stored, subscription, cacheKey),
    isStopped: (e) => e instanceof PoolClosedError,
  }
}
