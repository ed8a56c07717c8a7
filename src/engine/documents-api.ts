import { fail } from '../errors.ts'
import type { Subscription } from '../model/account.ts'
import type { CollectionOutput, DocumentOutput } from '../model/output.ts'
import type { SettingsService } from './settings-service.ts'
import type { Queue } from './queue.ts'
import type { AccountApi, TakeOptions } from './types.ts'
import { checkLanguage } from './features.ts'

/** The submission and retrieval half of an account's API. */
export type DocumentsApi = Pick<
  AccountApi,
  | 'submitDocuments'
  | 'getDocument'
  | 'takeProcessedDocuments'
  | 'cancelDocument'
  | 'submitCollection'
  | 'getCollection'
  | 'takeProcessedCollections'
  | 'cancelCollection'
>

/** What the documents API needs from the engine. */
export interface DocumentsApiDeps {
  readonly queue: Queue
  readonly settings: SettingsService
  readonly subscription: Subscription
  /** Wake the background worker. */
  readonly notify: () => void
  /** Count documents for statistics (queued, retrieved). */
  readonly count: (event: CountEvent) => Promise<void>
  /** ERR_BALANCE (402) when this many more documents exceed the balance. */
  readonly checkBalance: (adding: number) => Promise<void>
}

/** A counted queue event. */
export interface CountEvent {
  readonly configId: string
  readonly app: string | undefined
  readonly docs_queued?: number
  readonly batches_queued?: number
  readonly docs_retrieved?: number
}

/**
 * Create the documents API of one account: the queue (validation, job ids, retention, auto-response)
 * behind the configuration's resolution, the license's language and balance checks, statistics and
 * the worker's wake-up.
 */
export function createDocumentsApi(d: DocumentsApiDeps): DocumentsApi {
  /** The configuration a submission goes to, checked against the license. */
  async function target(configId: string | undefined): Promise<{ configId: string; autoResponse: boolean; callback: boolean }> {
    const c = (await d.settings.resolve(configId)).configuration
    checkLanguage(d.subscription, c)
    return { configId: c.config_id, autoResponse: c.auto_response, callback: c.callback !== undefined && c.callback !== '' }
  }

  const countOf = (input: unknown, batch: boolean): number => (batch && Array.isArray(input) ? input.length : 1)

  async function resolveTake(o: TakeOptions): Promise<{ configId?: string; jobId?: string; id?: string }> {
    const byJob = o.jobId !== undefined && o.jobId !== ''
    if (byJob && o.configId !== undefined && o.configId !== '') {
      fail('ERR_JOB_ID', `retrieve by config_id or by job_id, not both (config_id "${o.configId}", job_id "${o.jobId}")`, 'job_id')
    }
    const out: { configId?: string; jobId?: string; id?: string } = {}
    if (byJob) out.jobId = o.jobId!
    // Retrieval by job id spans configurations.
    if (!byJob) out.configId = (await d.settings.resolve(o.configId)).configuration.config_id
    if (o.id !== undefined && o.id !== '') out.id = o.id
    return out
  }

  return {
    async submitDocuments(input, o) {
      const t = await target(o.configId)
      await d.checkBalance(countOf(input, o.batch))
      const r = await d.queue.submitDocuments(input, { ...t, jobId: o.jobId === '' ? undefined : o.jobId, batch: o.batch })
      await d.count({ configId: t.configId, app: o.app, docs_queued: r.accepted, batches_queued: 1 })
      if (r.autoResponse.length > 0) await d.count({ configId: t.configId, app: o.app, docs_retrieved: r.autoResponse.length })
      d.notify()
      return { accepted: r.accepted, autoResponse: r.autoResponse }
    },
    async getDocument(id, configId) {
      return d.queue.getDocument(id, (await d.settings.resolve(configId)).configuration.config_id)
    },
    async takeProcessedDocuments(o) {
      const items: DocumentOutput[] = await d.queue.takeDocuments(await resolveTake(o))
      if (items.length > 0) await d.count({ configId: items[0]!.config_id, app: o.app, docs_retrieved: items.length })
      return items
    },
    async cancelDocument(id, configId) {
      await d.queue.cancel('document', id, (await d.settings.resolve(configId)).configuration.config_id)
    },
    async submitCollection(input, o) {
      const t = await target(o.configId)
      const docs = typeof input === 'object' && input !== null ? (input as { documents?: unknown }).documents : undefined
      await d.checkBalance(Array.isArray(docs) ? docs.length : 1)
      const r = await d.queue.submitCollection(input, { ...t, jobId: o.jobId === '' ? undefined : o.jobId })
      await d.count({ configId: t.configId, app: o.app, docs_queued: Array.isArray(docs) ? docs.length : 0, batches_queued: 1 })
      d.notify()
      return { accepted: r.accepted, autoResponse: r.autoResponse }
    },
    async getCollection(id, configId) {
      return d.queue.getCollection(id, (await d.settings.resolve(configId)).configuration.config_id)
    },
    async takeProcessedCollections(o) {
      const items: CollectionOutput[] = await d.queue.takeCollections(await resolveTake(o))
      if (items.length > 0) await d.count({ configId: items[0]!.config_id, app: o.app, docs_retrieved: items.length })
      return items
    },
    async cancelCollection(id, configId) {
      await d.queue.cancel('collection', id, (await d.settings.resolve(configId)).configuration.config_id)
    },
  }
}
