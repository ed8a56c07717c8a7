import type { Configuration, Template } from '../model/configuration.ts'
import type { CollectionOutput, DocumentOutput } from '../model/output.ts'
import type { FeatureRecord, ServiceStatus, StatisticsRecord, Subscription } from '../model/account.ts'

/** The tuning resources of a configuration, by their path name on the wire. */
export type TuningResource = 'queries' | 'categories' | 'phrases' | 'entities' | 'blacklist' | 'taxonomy'

/** Call classes the contract limits separately. */
export type CallClass = 'data' | 'settings' | 'polling'

/** Options of a submission. */
export interface SubmitOptions {
  /** Configuration id; the primary configuration when absent. */
  readonly configId?: string | undefined
  /** Job id applied to items that carry none of their own. */
  readonly jobId?: string | undefined
  /** Calling application (`x-app-name`), for statistics. */
  readonly app?: string | undefined
}

/** What a submission answers: nothing, or (auto_response) already processed items, which are thereby retrieved. */
export interface SubmitResult<T> {
  readonly accepted: number
  readonly autoResponse: T[]
}

/** Retrieval of processed items: by configuration (primary by default) or by job id, never both. */
export interface TakeOptions {
  readonly configId?: string | undefined
  readonly jobId?: string | undefined
  /** Only this one id (collections). */
  readonly id?: string | undefined
  readonly app?: string | undefined
}

/** Query of `GET /statistics`. */
export interface StatisticsQuery {
  readonly interval?: string | undefined
  readonly from?: string | undefined
  readonly to?: string | undefined
  readonly config_id?: string | undefined
  readonly config_name?: string | undefined
  readonly group?: string | undefined
  readonly app?: string | undefined
  readonly user_id?: string | undefined
  readonly user_email?: string | undefined
}

/**
 * Everything one account can do. Inputs typed `unknown` are untrusted wire values (parsed JSON or XML):
 * they are validated in full before anything is stored, and a bad one throws an `EngineError` naming
 * the field, the value and the limit.
 */
export interface AccountApi {
  readonly key: string

  listConfigurations(): Promise<Configuration[]>
  /** Create configurations (array or one object); a `{template, name}` item clones. Answers the stored items. */
  createConfigurations(input: unknown): Promise<Configuration[]>
  /** Partial merge by `config_id`/`id` (the primary when absent); nulls mean unchanged. Answers the stored items. */
  updateConfigurations(input: unknown): Promise<Configuration[]>
  /** Delete by ids; the primary cannot be deleted; an unknown id deletes nothing. */
  deleteConfigurations(input: unknown): Promise<void>
  listTemplates(): Promise<Template[]>

  listTuning(resource: TuningResource, configId?: string): Promise<unknown[]>
  createTuning(resource: TuningResource, input: unknown, configId?: string): Promise<unknown[]>
  updateTuning(resource: TuningResource, input: unknown, configId?: string): Promise<unknown[]>
  deleteTuning(resource: TuningResource, input: unknown, configId?: string): Promise<void>

  /** Submit documents: one object (`batch: false`) or an array. */
  submitDocuments(input: unknown, options: SubmitOptions & { readonly batch: boolean }): Promise<SubmitResult<DocumentOutput>>
  /** Status or output of one document; does not dequeue. ERR_NOT_FOUND when unknown. */
  getDocument(id: string, configId?: string): Promise<DocumentOutput>
  /** Processed documents, removed as they are returned (up to `polling_batch_limit`). */
  takeProcessedDocuments(options: TakeOptions): Promise<DocumentOutput[]>
  /** Cancel a queued document; a processed one stays. ERR_NOT_FOUND when unknown. */
  cancelDocument(id: string, configId?: string): Promise<void>

  submitCollection(input: unknown, options: SubmitOptions): Promise<SubmitResult<CollectionOutput>>
  getCollection(id: string, configId?: string): Promise<CollectionOutput>
  takeProcessedCollections(options: TakeOptions): Promise<CollectionOutput[]>
  cancelCollection(id: string, configId?: string): Promise<void>

  subscription(): Promise<Subscription>
  features(language?: string | readonly string[]): Promise<FeatureRecord[]>
  statistics(query: StatisticsQuery): Promise<StatisticsRecord[]>
  status(): Promise<ServiceStatus>

  /**
   * Count one API call of a class (statistics) and enforce the subscription's call limits and expiry:
   * throws ERR_CALL_LIMIT or ERR_LICENSE_EXPIRED (402).
   */
  recordCall(callClass: CallClass, app?: string, configId?: string): Promise<void>
}

/** Options of an in-process analysis. */
export interface AnalyzeOptions {
  /** Account key; the engine's default account when absent. */
  readonly account?: string
  /** Configuration id; the account's primary configuration when absent. */
  readonly configId?: string
  readonly id?: string
  readonly tag?: string
  readonly metadata?: unknown
}

/** One text of {@link Engine.analyzeMany} with its identity and pass-through fields. */
export interface AnalyzeManyItem {
  readonly text: string
  /** @defaultValue the engine's `newId()` */
  readonly id?: string
  readonly tag?: string
  readonly metadata?: unknown
}

/** The engine: plain functions over accounts, configurations, tuning and analysis. */
export interface Engine {
  /** Analyze one text now (bypassing the queue) and return the Detailed output exactly as on the wire. */
  analyze(text: string, options?: AnalyzeOptions): Promise<DocumentOutput>
  /**
   * Analyze many texts now (bypassing the queue), each on its own (Detailed mode), spread over the worker threads
   * when the engine has `workers`, else in-process yielding to the event loop between texts. Outputs in input
   * order, each as `analyze` would give it. Every text is checked before any is analysed.
   */
  analyzeMany(texts: readonly (string | AnalyzeManyItem)[], options?: Pick<AnalyzeOptions, 'account' | 'configId'>): Promise<DocumentOutput[]>
  /** Analyze texts together (Discovery mode) and return the collection output. */
  analyzeCollection(texts: readonly string[], options?: AnalyzeOptions): Promise<CollectionOutput>
  /** The API of one account; ERR_UNAUTHORIZED when the key is unknown. */
  account(key: string): AccountApi
  /** Secret of an account key (for request signing), or undefined. */
  secretOf(key: string): string | undefined
  /** Key of the default account (the development account when none was configured). */
  readonly defaultAccount: string
  /** Resolves once every queued item has been processed. */
  drain(): Promise<void>
  /**
   * Stop background work, terminate the worker threads and close storage. Queued items are left queued; items
   * claimed but not finished are given back to the queue (another process may take them at once).
   */
  close(): Promise<void>
}
