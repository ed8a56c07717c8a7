import { fail } from '../errors.ts'
import type { CollectionOutput, DocumentOutput } from '../model/output.ts'
import type { Subscription } from '../model/account.ts'
import type { CollectionInput, DocumentInput, QueueItem, Storage, StoredConfiguration } from '../storage/types.ts'
import { createMemoryStorage } from '../storage/memory.ts'
import { resolveOptions, type EngineOptions, type ResolvedOptions } from './options.ts'
import { buildSubscription } from './account.ts'
import { createAnalysisCore, type AnalysisCore, type PreparingAnalyzer } from './analysis.ts'
import { builtinAnalyzers, checkLanguage, engineFeatureSettings } from './features.ts'
import { createSettingsService, type SettingsService } from './settings-service.ts'
import { createSettingsApi } from './account-api.ts'
import { createDocumentsApi } from './documents-api.ts'
import { createQueue } from './queue.ts'
import { createAccountGuard, createStatistics } from './statistics.ts'
import { createAccountStatistics, type AccountStatistics } from './account-statistics.ts'
import type { AccountApi, AnalyzeOptions, CallClass, Engine, StatisticsQuery } from './types.ts'
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
  const storage: Storage = opts.storage ?? createMemoryStorage()
  // One query parser per engine checks the syntax of every account's queries and compiles them for analysis.
  const grammar = createQueryGrammar()
  const core = createAnalysisCore([...builtinAnalyzers(opts.dataDir, grammar), ...(opts.analyzers as PreparingAnalyzer[])])
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
  const worker = createWorker(storage, core, opts, (key) => accounts.get(key), settingsOf)
  // Submission order across the engine; a counter seeded by the clock keeps order across restarts.
  let seq = opts.now() * 1000
  const nextSeq = (): number => ++seq
  let closed = false

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

  return Object.freeze({
    defaultAccount,
    account: (key: string) => stateOf(key).api,
    secretOf: (key: string) => accounts.get(key)?.secret,
    async analyze(text: string, o: AnalyzeOptions = {}): Promise<DocumentOutput> {
      if (typeof text !== 'string') fail('ERR_INVALID_FIELD', `text must be a string, found ${typeof text}`, 'text')
      const s = stateOf(o.account)
      const stored = await settingsOf(s.key).resolve(o.configId)
      checkLanguage(s.subscription, stored.configuration)
      const limit = s.subscription.basic_settings.document_length
      if (text.length > limit) fail('ERR_DOCUMENT_TOO_LONG', `text has ${text.length} characters, more than the limit of ${limit}`, 'text')
      return core.analyzeDocument(
        text,
        { id: o.id ?? opts.newId(), tag: o.tag, metadata: o.metadata },
        stored,
        s.subscription,
        `${s.key}/${stored.configuration.config_id}`,
      )
    },
    async analyzeCollection(texts: readonly string[], o: AnalyzeOptions = {}): Promise<CollectionOutput> {
      const s = stateOf(o.account)
      const stored = await settingsOf(s.key).resolve(o.configId)
      checkLanguage(s.subscription, stored.configuration)
      if (!Array.isArray(texts) || texts.some((t) => typeof t !== 'string')) fail('ERR_INVALID_FIELD', 'texts must be an array of strings', 'documents')
      return core.analyzeCollection(
        texts,
        { id: o.id ?? opts.newId(), tag: o.tag, metadata: o.metadata },
        stored,
        s.subscription,
        `${s.key}/${stored.configuration.config_id}`,
      )
    },
    drain: () => worker.drain(),
    async close() {
      if (closed) return
      closed = true
      await worker.stop()
      await storage.close()
    },
  })
}

interface Worker {
  /** Wake the worker: items were queued. */
  notify(): void
  drain(): Promise<void>
  stop(): Promise<void>
}

/**
 * The background worker: claim queued items, analyze each under its configuration, store the outcome.
 * Runs on the event loop in small steps (`setImmediate` between claims) so it never blocks callers.
 */
function createWorker(
  storage: Storage,
  core: AnalysisCore,
  opts: ResolvedOptions,
  accountOf: (key: string) => AccountState | undefined,
  settingsOf: (key: string) => SettingsService,
): Worker {
  let running = false
  let stopped = false
  let waiters: Array<() => void> = []
  const idle = (): void => {
    const w = waiters
    waiters = []
    for (const f of w) f()
  }

  /** The outcome of an item, and the callback URL of the configuration it was analysed under (if any). */
  async function processItem(item: QueueItem): Promise<{ done: QueueItem; callback: string | undefined }> {
    const state = accountOf(item.account)
    let stored: StoredConfiguration | undefined
    try {
      stored = state === undefined ? undefined : await settingsOf(item.account).find(item.configId)
    } catch {
      stored = undefined
    }
    const failed = (reason: string): QueueItem => ({
      ...item,
      status: 'FAILED',
      finishedAt: opts.now(),
      output: { id: item.id, config_id: item.configId, ...(item.jobId !== undefined ? { job_id: item.jobId } : {}), status: 'FAILED', failure_reason: reason },
    })
    if (state === undefined || stored === undefined) return { done: failed(`configuration ${item.configId} no longer exists`), callback: undefined }
    const callback = stored.configuration.callback
    const meta = { id: item.id, jobId: item.jobId, tag: item.input.tag, metadata: item.input.metadata }
    const cacheKey = `${item.account}/${item.configId}`
    try {
      const output =
        item.kind === 'document'
          ? core.analyzeDocument((item.input as DocumentInput).text, meta, stored, state.subscription, cacheKey)
          : core.analyzeCollection((item.input as CollectionInput).documents, meta, stored, state.subscription, cacheKey)
      return { done: { ...item, status: output.status === 'FAILED' ? 'FAILED' : 'PROCESSED', finishedAt: opts.now(), output }, callback }
    } catch (e) {
      return { done: failed(`analysis failed: ${e instanceof Error ? e.message : String(e)}`), callback }
    }
  }

  async function loop(): Promise<void> {
    if (running) return
    running = true
    try {
      while (!stopped) {
        const items = await storage.claimQueued(opts.workerBatch)
        if (items.length === 0) break
        for (const item of items) {
          const { done, callback } = await processItem(item)
          const storedOk = await storage.completeItem(done)
          if (storedOk && done.output !== undefined) {
            const state = accountOf(item.account)
            const language = 'language' in done.output && typeof done.output.language === 'string' ? done.output.language : ''
            await state?.statistics.countOutcome(item.configId, language, done.status === 'PROCESSED')
            if (callback !== undefined && callback !== '' && opts.onCallback !== undefined) {
              opts.onCallback({ account: item.account, configId: item.configId, callback, kind: item.kind, output: done.output })
            }
          }
          // Yield between items so a large batch never starves request handling.
          await new Promise<void>((r) => setImmediate(r))
        }
      }
    } finally {
      running = false
      idle()
    }
  }

  return {
    notify() {
      if (opts.background && !stopped) void loop()
    },
    async drain() {
      if (stopped) return
      // loop() claims until a claim comes back empty; when it already runs, wait for that run first.
      if (running) await new Promise<void>((r) => waiters.push(r))
      await loop()
    },
    async stop() {
      stopped = true
      if (running) await new Promise<void>((r) => waiters.push(r))
    },
  }
}


