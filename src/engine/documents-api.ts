import { fail, show } from '../errors.ts'
import type { Subscription } from '../model/account.ts'
import type { CollectionOutput, DocumentOutput } from '../model/output.ts'
import type { CollectionInput, DocumentInput, ItemKind, QueueItem, Storage, TakeFilter } from '../storage/types.ts'
import type { SettingsService } from './settings-service.ts'
import type { AccountApi, SubmitOptions, TakeOptions } from './types.ts'
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
  readonly account: string
  readonly storage: Storage
  readonly settings: SettingsService
  readonly subscription: Subscription
  readonly now: () => number
  readonly newId: () => string
  readonly retentionMs: number
  /** Next submission sequence number (monotonic per engine). */
  readonly nextSeq: () => number
  /** Wake the background worker. */
  readonly notify: () => void
  /** Count documents for statistics (queued, retrieved). */
  readonly count: (event: CountEvent) => Promise<void>
}

/** A counted queue event. */
export interface CountEvent {
  readonly configId: string
  readonly app: string | undefined
  readonly docs_queued?: number
  readonly batches_queued?: number
  readonly docs_retrieved?: number
}

const ID_LIMIT = 36
const TAG_LIMIT = 50
const JOB_ID_LIMIT = 50
const DAY_MS = 24 * 3600 * 1000

/**
 * Create the documents API of one account: validation of whole requests before anything is stored,
 * job-id rules, auto-response, retrieval that dequeues, cancellation and retention.
 */
export function createDocumentsApi(d: DocumentsApiDeps): DocumentsApi {
  const limits = d.subscription.basic_settings
  let lastPurge = 0

  /** Retention: purge lazily, at most once a minute. */
  async function purge(): Promise<void> {
    const now = d.now()
    if (now - lastPurge < 60_000) return
    lastPurge = now
    await d.storage.purgeBefore(now - d.retentionMs)
  }

  function str(v: unknown, path: string, limit: number, required: boolean): string | undefined {
    if (v === undefined || v === null) {
      if (required) fail('ERR_MISSING_FIELD', `${path} is required`, path)
      return undefined
    }
    const s = typeof v === 'number' && Number.isFinite(v) ? String(v) : v
    if (typeof s !== 'string') fail('ERR_INVALID_FIELD', `${path}: expected a string, found ${show(v)}`, path)
    if (s.length > limit) fail('ERR_INVALID_FIELD', `${path}: at most ${limit} characters, found ${s.length}`, path)
    return s
  }

  function text(v: unknown, path: string): string {
    if (v === undefined || v === null) fail('ERR_MISSING_FIELD', `${path} is required`, path)
    if (typeof v !== 'string') fail('ERR_INVALID_FIELD', `${path}: expected a string, found ${show(v)}`, path)
    if (v.length > limits.document_length) {
      fail('ERR_DOCUMENT_TOO_LONG', `${path} has ${v.length} characters, more than the limit of ${limits.document_length} per document`, path)
    }
    return v
  }

  /** Job id rules: not with auto_response or callback, and at most job_ids_permitted new ids per 24 h. */
  async function checkJob(jobId: string | undefined, configId: string): Promise<void> {
    if (jobId === undefined) return
    const stored = await d.settings.resolve(configId)
    const c = stored.configuration
    if (c.auto_response) fail('ERR_JOB_ID', `job_id cannot be used with configuration ${c.config_id}, which has auto_response on`, 'job_id')
    if (c.callback !== undefined && c.callback !== '') {
      fail('ERR_JOB_ID', `job_id cannot be used with configuration ${c.config_id}, which delivers by callback`, 'job_id')
    }
    const permitted = d.subscription.billing_settings.job_ids_permitted
    const r = await d.storage.useJobId(d.account, jobId, d.now(), DAY_MS, permitted)
    if (!r.accepted) fail('ERR_RESOURCE_LIMIT', `job_id ${show(jobId)}: at most ${permitted} distinct job ids per 24 hours`, 'job_id')
  }

  async function configOf(configId: string | undefined): Promise<{ id: string; autoResponse: boolean }> {
    const stored = await d.settings.resolve(configId)
    checkLanguage(d.subscription, stored.configuration)
    return { id: stored.configuration.config_id, autoResponse: stored.configuration.auto_response }
  }

  async function autoRespond<T>(kind: ItemKind, configId: string, enabled: boolean, app: string | undefined): Promise<T[]> {
    if (!enabled) return []
    const items = await d.storage.takeProcessed(d.account, kind, { configId }, limits.auto_response_batch_limit)
    if (items.length > 0) await d.count({ configId, app, docs_retrieved: items.length })
    return items.map((i) => i.output as T)
  }

  function checkBalance(n: number): void {
    const balance = d.subscription.billing_settings.docs_balance
    if (balance >= 0 && n > balance) fail('ERR_BALANCE', `documents balance exceeded: ${n} documents sent, ${balance} left`)
  }

  function wireOf<T extends DocumentOutput | CollectionOutput>(item: QueueItem): T {
    if ((item.status === 'PROCESSED' || item.status === 'FAILED') && item.output !== undefined) return item.output as T
    const out: Record<string, unknown> = { id: item.id, config_id: item.configId }
    if (item.jobId !== undefined) out['job_id'] = item.jobId
    if (item.input.tag !== undefined) out['tag'] = item.input.tag
    out['status'] = 'QUEUED'
    return out as T
  }

  function filterOf(o: TakeOptions, configId: string): TakeFilter {
    if (o.jobId !== undefined && o.jobId !== '' && o.configId !== undefined && o.configId !== '') {
      fail('ERR_JOB_ID', 'retrieve either by config_id or by job_id, not both', 'job_id')
    }
    return o.jobId !== undefined && o.jobId !== '' ? { jobId: o.jobId } : { configId }
  }

  async function take<T>(kind: ItemKind, o: TakeOptions): Promise<T[]> {
    await purge()
    const byJob = o.jobId !== undefined && o.jobId !== ''
    const configId = byJob ? '' : (await d.settings.resolve(o.configId)).configuration.config_id
    const filter = filterOf(o, configId)
    let items: QueueItem[]
    if (o.id !== undefined && o.id !== '') {
      // Only that one item, and only once it is finished (E7 `document_id`).
      const one = byJob ? undefined : await d.storage.takeItem({ account: d.account, kind, configId, id: o.id })
      items = one === undefined ? [] : [one]
    } else {
      items = await d.storage.takeProcessed(d.account, kind, filter, limits.polling_batch_limit)
    }
    if (items.length > 0) await d.count({ configId: items[0]!.configId, app: o.app, docs_retrieved: items.length })
    return items.map((i) => wireOf<DocumentOutput | CollectionOutput>(i) as T)
  }

  async function getOne<T extends DocumentOutput | CollectionOutput>(kind: ItemKind, id: string, configIdIn?: string): Promise<T> {
    await purge()
    const configId = (await d.settings.resolve(configIdIn)).configuration.config_id
    const item = await d.storage.getItem({ account: d.account, kind, configId, id })
    if (item === undefined) fail('ERR_NOT_FOUND', `no ${kind} with id ${show(id)} in configuration ${configId}`, 'id')
    return wireOf<T>(item)
  }

  async function cancel(kind: ItemKind, id: string, configIdIn?: string): Promise<void> {
    const configId = (await d.settings.resolve(configIdIn)).configuration.config_id
    const r = await d.storage.cancelQueued({ account: d.account, kind, configId, id })
    if (r === 'missing') fail('ERR_NOT_FOUND', `no ${kind} with id ${show(id)} in configuration ${configId}`, 'id')
  }

  return {
    async submitDocuments(input, o: SubmitOptions & { batch: boolean }) {
      await purge()
      const list = o.batch ? input : [input]
      if (!Array.isArray(list)) fail('ERR_INVALID_FIELD', `the body of a batch must be an array of documents, found ${show(input)}`)
      if (list.length === 0) fail('ERR_INVALID_FIELD', 'the batch holds no document')
      if (list.length > limits.incoming_batch_limit) {
        fail('ERR_BATCH_LIMIT', `the batch holds ${list.length} documents, more than the limit of ${limits.incoming_batch_limit}`)
      }
      const cfg = await configOf(o.configId)
      const docs = list.map((raw, i) => {
        const path = o.batch ? `documents[${i}]` : 'document'
        if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) fail('ERR_INVALID_FIELD', `${path}: expected a document object, found ${show(raw)}`, path)
        const r = raw as Record<string, unknown>
        const input: DocumentInput = { text: text(r['text'], `${path}.text`) }
        const tag = str(r['tag'], `${path}.tag`, TAG_LIMIT, false)
        if (tag !== undefined) input.tag = tag
        if (r['metadata'] !== undefined && r['metadata'] !== null) input.metadata = r['metadata']
        const id = str(r['id'], `${path}.id`, ID_LIMIT, false) ?? d.newId().slice(0, ID_LIMIT)
        if (id === '') fail('ERR_INVALID_FIELD', `${path}.id must not be empty`, `${path}.id`)
        const jobId = str(r['job_id'], `${path}.job_id`, JOB_ID_LIMIT, false) ?? (o.jobId === '' ? undefined : o.jobId)
        return { id, jobId, input }
      })
      const ids = new Set<string>()
      docs.forEach((x, i) => {
        if (ids.has(x.id)) fail('ERR_INVALID_FIELD', `documents[${i}].id ${show(x.id)} appears twice in the batch`, `documents[${i}].id`)
        ids.add(x.id)
      })
      for (const j of new Set(docs.map((x) => x.jobId))) await checkJob(j, cfg.id)
      checkBalance(docs.length)
      const now = d.now()
      await d.storage.putItems(
        docs.map((x) => ({
          account: d.account,
          kind: 'document',
          configId: cfg.id,
          id: x.id,
          ...(x.jobId !== undefined ? { jobId: x.jobId } : {}),
          status: 'QUEUED',
          seq: d.nextSeq(),
          submittedAt: now,
          input: x.input,
        })),
      )
      await d.count({ configId: cfg.id, app: o.app, docs_queued: docs.length, batches_queued: 1 })
      d.notify()
      const anyJob = docs.some((x) => x.jobId !== undefined)
      return { accepted: docs.length, autoResponse: await autoRespond<DocumentOutput>('document', cfg.id, cfg.autoResponse && !anyJob, o.app) }
    },
    getDocument: (id, configId) => getOne<DocumentOutput>('document', id, configId),
    takeProcessedDocuments: (o) => take<DocumentOutput>('document', o),
    cancelDocument: (id, configId) => cancel('document', id, configId),

    async submitCollection(input, o: SubmitOptions) {
      await purge()
      if (typeof input !== 'object' || input === null || Array.isArray(input)) fail('ERR_INVALID_FIELD', `the body must be a collection object, found ${show(input)}`)
      const r = input as Record<string, unknown>
      const docs = r['documents']
      if (!Array.isArray(docs)) fail('ERR_INVALID_FIELD', `collection.documents: expected an array of strings, found ${show(docs)}`, 'documents')
      if (docs.length === 0) fail('ERR_INVALID_FIELD', 'collection.documents holds no text', 'documents')
      if (docs.length > limits.collection_limit) {
        fail('ERR_BATCH_LIMIT', `the collection holds ${docs.length} documents, more than the limit of ${limits.collection_limit}`, 'documents')
      }
      const texts = docs.map((t, i) => text(t, `collection.documents[${i}]`))
      const cfg = await configOf(o.configId)
      const id = str(r['id'], 'collection.id', ID_LIMIT, false) ?? d.newId().slice(0, ID_LIMIT)
      const tag = str(r['tag'], 'collection.tag', TAG_LIMIT, false)
      const jobId = str(r['job_id'], 'collection.job_id', JOB_ID_LIMIT, false) ?? (o.jobId === '' ? undefined : o.jobId)
      await checkJob(jobId, cfg.id)
      checkBalance(texts.length)
      const value: CollectionInput = { documents: texts }
      if (tag !== undefined) value.tag = tag
      if (r['metadata'] !== undefined && r['metadata'] !== null) value.metadata = r['metadata']
      await d.storage.putItems([
        {
          account: d.account,
          kind: 'collection',
          configId: cfg.id,
          id,
          ...(jobId !== undefined ? { jobId } : {}),
          status: 'QUEUED',
          seq: d.nextSeq(),
          submittedAt: d.now(),
          input: value,
        },
      ])
      await d.count({ configId: cfg.id, app: o.app, docs_queued: texts.length, batches_queued: 1 })
      d.notify()
      return { accepted: 1, autoResponse: await autoRespond<CollectionOutput>('collection', cfg.id, cfg.autoResponse && jobId === undefined, o.app) }
    },
    getCollection: (id, configId) => getOne<CollectionOutput>('collection', id, configId),
    takeProcessedCollections: (o) => take<CollectionOutput>('collection', o),
    cancelCollection: (id, configId) => cancel('collection', id, configId),
  }
}
