import { randomUUID } from 'node:crypto'
import { EngineError, fail, show } from '../errors.ts'
import type { CollectionOutput, DocumentOutput } from '../model/output.ts'
import { isStorageValueError, type CollectionInput, type DocumentInput, type ItemKind, type QueueItem, type Storage, type TakeFilter } from '../storage/types.ts'
import { checkStorable } from '../storage/values.ts'

/** The subscription limits the queue enforces (names as in `basic_settings` and `billing_settings`). */
export interface QueueLimits {
  readonly document_length: number
  readonly incoming_batch_limit: number
  readonly collection_limit: number
  readonly polling_batch_limit: number
  readonly auto_response_batch_limit: number
  readonly job_ids_permitted: number
}

/** Options of {@link createQueue}. */
export interface QueueOptions {
  readonly storage: Storage
  /** Account the queue belongs to. @defaultValue `"default"` */
  readonly account?: string
  /** Clock in epoch milliseconds (retention, job-id window, submission times). */
  readonly now: () => number
  readonly limits: QueueLimits
  /**
   * Next submission sequence number; must increase across every queue sharing the storage.
   * @defaultValue a counter per queue that never falls behind `now() * 1024`
   */
  readonly nextSeq?: () => number
  /** Id of a submitted item that has none. @defaultValue `randomUUID` */
  readonly newId?: () => string
  /** How long items are kept after submission. @defaultValue 24 hours */
  readonly retentionMs?: number
  /** Told of every item whose outcome was stored (statistics, callbacks). */
  readonly onFinished?: (item: QueueItem) => void | Promise<void>
  /**
   * Most unfinished (QUEUED or PROCESSING) items of the account; a submission that would pass it is refused whole
   * with ERR_QUEUE_FULL (429). 0 = no bound. @defaultValue 0
   */
  readonly maxQueued?: number
  /**
   * Seconds a refused submitter should wait, given how many items must finish first.
   * @defaultValue 5 whatever the number
   */
  readonly retryAfterSeconds?: (excess: number) => number
}

/** Where and how a submission goes; the facade resolves the configuration and its delivery switches. */
export interface QueueSubmitOptions {
  /** Resolved configuration id. */
  readonly configId: string
  /** Job id for items that carry none of their own (`job_id` query parameter). */
  readonly jobId?: string | undefined
  /** The configuration has `auto_response` on. */
  readonly autoResponse?: boolean | undefined
  /** The configuration delivers by callback. */
  readonly callback?: boolean | undefined
}

/** What a submission answers. */
export interface QueueSubmitResult<T> {
  readonly accepted: number
  /** Ids of the stored items, in request order. */
  readonly ids: string[]
  /** Already processed items of the configuration, retrieved by this call (auto_response only). */
  readonly autoResponse: T[]
}

/** Retrieval filter: a configuration or a job id (never both); `id` narrows to one item of the configuration. */
export interface QueueTakeOptions {
  readonly configId?: string | undefined
  readonly jobId?: string | undefined
  readonly id?: string | undefined
}

/** The submission queue of one account. */
export interface Queue {
  /** Validate a whole document request (one object, or an array when `batch`), then store it QUEUED. */
  submitDocuments(input: unknown, options: QueueSubmitOptions & { readonly batch: boolean }): Promise<QueueSubmitResult<DocumentOutput>>
  /** Validate a whole collection request, then store it QUEUED. */
  submitCollection(input: unknown, options: QueueSubmitOptions): Promise<QueueSubmitResult<CollectionOutput>>
  /** Status (`QUEUED` while queued or processing) or output of one item; does not dequeue. ERR_NOT_FOUND when unknown. */
  getDocument(id: string, configId: string): Promise<DocumentOutput>
  getCollection(id: string, configId: string): Promise<CollectionOutput>
  /** Remove and return up to `polling_batch_limit` finished items, by configuration or by job id. */
  takeDocuments(options: QueueTakeOptions): Promise<DocumentOutput[]>
  takeCollections(options: QueueTakeOptions): Promise<CollectionOutput[]>
  /** Cancel a queued item: `cancelled`, or `not-queued` when it is finished (it stays). ERR_NOT_FOUND when unknown. */
  cancel(kind: ItemKind, id: string, configId: string): Promise<'cancelled' | 'not-queued'>
  /** Take up to `auto_response_batch_limit` processed items of a configuration (items without job id). */
  autoRespond(kind: ItemKind, configId: string): Promise<Array<DocumentOutput | CollectionOutput>>
  /** Remove items older than the retention; every other method calls it first. Returns how many went. */
  purge(): Promise<number>
  /** Move up to `limit` queued items (any account) to PROCESSING for the background worker. */
  claim(limit: number): Promise<QueueItem[]>
  /**
   * Store the outcome of a claimed item: FAILED when `output.status` says so, PROCESSED otherwise.
   * False when the item was cancelled or replaced meanwhile (the outcome is dropped).
   */
  complete(item: QueueItem, output: DocumentOutput | CollectionOutput): Promise<boolean>
  /** Tell the `onFinished` listener of an outcome stored by other means (`storage.completeItem`). */
  onFinished(item: QueueItem): Promise<void>
}

/** Characters of an id, of a tag. */
export const ID_LIMIT = 36
export const TAG_LIMIT = 50
const DAY_MS = 24 * 3600 * 1000

/** Create the queue of one account over a storage. */
export function createQueue(options: QueueOptions): Queue {
  const { storage, now, limits } = options
  const account = options.account ?? 'default'
  const newId = options.newId ?? randomUUID
  const retentionMs = options.retentionMs ?? DAY_MS
  let lastSeq = 0
  const nextSeq =
    options.nextSeq ??
    ((): number => {
      lastSeq = Math.max(lastSeq + 1, Math.floor(now() * 1024))
      return lastSeq
    })

  /** An item is gone once it is `retentionMs` old (age >= retention). */
  async function purge(): Promise<number> {
    return storage.purgeBefore(now() - retentionMs + 1)
  }

  /** An optional short string field (numbers accepted as strings, null as absent). */
  function optionalString(v: unknown, path: string, limit: number): string | undefined {
    if (v === undefined || v === null) return undefined
    const s = typeof v === 'number' && Number.isFinite(v) ? String(v) : v
    if (typeof s !== 'string') fail('ERR_INVALID_FIELD', `${path} must be a string, found ${show(v)}`, path)
    if (s.length > limit) fail('ERR_INVALID_FIELD', `${path} has ${s.length} characters, more than the limit of ${limit}: ${show(s)}`, path)
    return s
  }

  function idOf(v: unknown, path: string): string {
    const id = optionalString(v, path, ID_LIMIT)
    if (id === undefined) return newId().slice(0, ID_LIMIT)
    if (id.trim() === '') fail('ERR_INVALID_FIELD', `${path} must not be empty`, path)
    return id
  }

  function jobIdOf(v: unknown, path: string, fallback: string | undefined): string | undefined {
    if (v === undefined || v === null || v === '') return fallback === '' ? undefined : fallback
    const s = typeof v === 'number' && Number.isFinite(v) ? String(v) : v
    if (typeof s !== 'string') fail('ERR_INVALID_FIELD', `${path} must be a string, found ${show(v)}`, path)
    return s
  }

  function textOf(v: unknown, path: string): string {
    if (v === undefined || v === null) fail('ERR_MISSING_FIELD', `${path} is required`, path)
    if (typeof v !== 'string') fail('ERR_INVALID_FIELD', `${path} must be a string, found ${show(v)}`, path)
    if (v.length > limits.document_length) {
      fail('ERR_DOCUMENT_TOO_LONG', `${path} has ${v.length} characters, more than the limit of ${limits.document_length} per document`, path)
    }
    return v
  }

  function objectOf(v: unknown, path: string, what: string): Record<string, unknown> {
    if (typeof v !== 'object' || v === null || Array.isArray(v)) fail('ERR_INVALID_FIELD', `${path} must be ${what} object, found ${show(v)}`, path)
    return v as Record<string, unknown>
  }

  /** Job-id rules (spec rule 10, Events 2, Limits): not with auto_response or callback; a bounded number per 24 h. */
  async function checkJobIds(jobIds: ReadonlySet<string>, o: QueueSubmitOptions): Promise<void> {
    if (jobIds.size === 0) return
    const [first] = jobIds
    if (o.autoResponse === true) fail('ERR_JOB_ID', `job_id ${show(first)} cannot be used with configuration ${o.configId}, which has auto_response on`, 'job_id')
    if (o.callback === true) fail('ERR_JOB_ID', `job_id ${show(first)} cannot be used with configuration ${o.configId}, which delivers by callback`, 'job_id')
    for (const jobId of jobIds) {
      const r = await storage.useJobId(account, jobId, now(), DAY_MS, limits.job_ids_permitted)
      if (!r.accepted) {
        fail('ERR_RESOURCE_LIMIT', `job_id ${show(jobId)}: at most ${limits.job_ids_permitted} distinct job ids per 24 hours, ${r.count} already used`, 'job_id')
      }
    }
  }

  /**
   * Back-pressure: refuse (ERR_QUEUE_FULL, nothing stored) a submission of `adding` items that would take the
   * account past `maxQueued` unfinished items. Checked before job ids are used and before anything is stored; two
   * submissions racing may together pass the bound by at most one request's size.
   */
  async function checkRoom(adding: number): Promise<void> {
    const max = options.maxQueued ?? 0
    if (max <= 0) return
    const queued = await storage.countQueued(account)
    if (queued + adding <= max) return
    const excess = queued + adding - max
    const retryAfterSeconds = Math.max(1, Math.ceil(options.retryAfterSeconds?.(excess) ?? 5))
    throw new EngineError(
      'ERR_QUEUE_FULL',
      `the queue of this account holds ${queued} unfinished item(s) of at most ${max}; this request adds ${adding}. ` +
        `Nothing was stored: retrieve processed items and retry after ${retryAfterSeconds} s`,
      undefined,
      { retryAfterSeconds },
    )
  }

  /** A value the storage could not keep (non-finite number, lone surrogate, ...): 400 naming the request path. */
  function storable(value: unknown, path: string): void {
    try {
      checkStorable(value, path)
    } catch (e) {
      if (isStorageValueError(e)) fail('ERR_INVALID_FIELD', `${e.message}; such a value cannot be stored or answered`, e.path)
      throw e
    }
  }

  async function store(kind: ItemKind, configId: string, list: ReadonlyArray<{ id: string; jobId: string | undefined; input: DocumentInput | CollectionInput }>): Promise<string[]> {
    const at = now()
    await putItems(
      list.map((x) => ({
        account,
        kind,
        configId,
        id: x.id,
        ...(x.jobId !== undefined ? { jobId: x.jobId } : {}),
        status: 'QUEUED' as const,
        seq: nextSeq(),
        submittedAt: at,
        input: x.input,
      })),
    )
    return list.map((x) => x.id)
  }

  /** `storage.putItems`, with a value it refuses reported as a 400 (the checks above make this a last resort). */
  async function putItems(items: readonly QueueItem[]): Promise<void> {
    try {
      await storage.putItems(items)
    } catch (e) {
      if (isStorageValueError(e)) fail('ERR_INVALID_FIELD', `${e.message}; such a value cannot be stored`, e.path)
      throw e
    }
  }

  async function autoRespond(kind: ItemKind, configId: string): Promise<Array<DocumentOutput | CollectionOutput>> {
    const items = await storage.takeProcessed(account, kind, { configId }, limits.auto_response_batch_limit)
    return items.map(wireOf)
  }

  async function get<T extends DocumentOutput | CollectionOutput>(kind: ItemKind, id: string, configId: string): Promise<T> {
    await purge()
    const item = await storage.getItem({ account, kind, configId, id })
    if (item === undefined) fail('ERR_NOT_FOUND', `no ${kind} with id ${show(id)} in configuration ${show(configId)}`, 'id')
    return wireOf(item) as T
  }

  async function take<T extends DocumentOutput | CollectionOutput>(kind: ItemKind, o: QueueTakeOptions): Promise<T[]> {
    await purge()
    const byConfig = o.configId !== undefined && o.configId !== ''
    const byJob = o.jobId !== undefined && o.jobId !== ''
    if (byConfig && byJob) fail('ERR_JOB_ID', `retrieve by config_id or by job_id, not both (config_id ${show(o.configId)}, job_id ${show(o.jobId)})`, 'job_id')
    if (!byConfig && !byJob) fail('ERR_MISSING_FIELD', 'retrieval needs a config_id or a job_id', 'config_id')
    const filter: TakeFilter = byJob ? { jobId: o.jobId! } : { configId: o.configId! }
    if (o.id !== undefined && o.id !== '') {
      if (byJob) fail('ERR_INVALID_FIELD', 'an id cannot be retrieved by job_id; give its config_id', 'id')
      const one = await storage.getItem({ account, kind, configId: o.configId!, id: o.id })
      // Job items are retrieved by their job id only (rule 10).
      if (one === undefined || one.jobId !== undefined) return []
      const taken = await storage.takeItem({ account, kind, configId: o.configId!, id: o.id })
      return taken === undefined ? [] : [wireOf(taken) as T]
    }
    const items = await storage.takeProcessed(account, kind, filter, limits.polling_batch_limit)
    return items.map((i) => wireOf(i) as T)
  }

  return {
    async submitDocuments(input, o) {
      await purge()
      const list: unknown[] = o.batch
        ? Array.isArray(input)
          ? input
          : fail('ERR_INVALID_FIELD', `a batch must be an array of documents, found ${show(input)}`, 'documents')
        : [input]
      if (list.length === 0) fail('ERR_INVALID_FIELD', 'the batch holds no document', 'documents')
      if (list.length > limits.incoming_batch_limit) {
        fail('ERR_BATCH_LIMIT', `the batch holds ${list.length} documents, more than the limit of ${limits.incoming_batch_limit}`, 'documents')
      }
      // A full queue refuses before the documents are validated: refusing under load costs next to nothing.
      await checkRoom(list.length)
      const docs = list.map((raw, i) => {
        const path = o.batch ? `documents[${i}]` : 'document'
        const r = objectOf(raw, path, 'a document')
        const doc: DocumentInput = { text: textOf(r['text'], `${path}.text`) }
        storable(doc.text, `${path}.text`)
        const tag = optionalString(r['tag'], `${path}.tag`, TAG_LIMIT)
        if (tag !== undefined) doc.tag = tag
        if (r['metadata'] !== undefined && r['metadata'] !== null) {
          storable(r['metadata'], `${path}.metadata`)
          doc.metadata = r['metadata']
        }
        return { id: idOf(r['id'], `${path}.id`), jobId: jobIdOf(r['job_id'], `${path}.job_id`, o.jobId), input: doc }
      })
      await checkJobIds(new Set(docs.flatMap((d) => (d.jobId === undefined ? [] : [d.jobId]))), o)
      const ids = await store('document', o.configId, docs)
      const autoResponse = o.autoResponse === true ? ((await autoRespond('document', o.configId)) as DocumentOutput[]) : []
      return { accepted: ids.length, ids, autoResponse }
    },

    async submitCollection(input, o) {
      await purge()
      const r = objectOf(input, 'collection', 'a collection')
      const raw = r['documents']
      if (raw === undefined || raw === null) fail('ERR_MISSING_FIELD', 'collection.documents is required', 'documents')
      if (!Array.isArray(raw)) fail('ERR_INVALID_FIELD', `collection.documents must be an array of strings, found ${show(raw)}`, 'documents')
      if (raw.length === 0) fail('ERR_INVALID_FIELD', 'collection.documents holds no text', 'documents')
      if (raw.length > limits.collection_limit) {
        fail('ERR_BATCH_LIMIT', `the collection holds ${raw.length} documents, more than the limit of ${limits.collection_limit}`, 'documents')
      }
      await checkRoom(1)
      const value: CollectionInput = {
        documents: raw.map((t, i) => {
          const text = textOf(t, `collection.documents[${i}]`)
          storable(text, `collection.documents[${i}]`)
          return text
        }),
      }
      const tag = optionalString(r['tag'], 'collection.tag', TAG_LIMIT)
      if (tag !== undefined) value.tag = tag
      if (r['metadata'] !== undefined && r['metadata'] !== null) {
        storable(r['metadata'], 'collection.metadata')
        value.metadata = r['metadata']
      }
      const id = idOf(r['id'], 'collection.id')
      const jobId = jobIdOf(r['job_id'], 'collection.job_id', o.jobId)
      await checkJobIds(new Set(jobId === undefined ? [] : [jobId]), o)
      const ids = await store('collection', o.configId, [{ id, jobId, input: value }])
      const autoResponse = o.autoResponse === true ? ((await autoRespond('collection', o.configId)) as CollectionOutput[]) : []
      return { accepted: 1, ids, autoResponse }
    },

    getDocument: (id, configId) => get<DocumentOutput>('document', id, configId),
    getCollection: (id, configId) => get<CollectionOutput>('collection', id, configId),
    takeDocuments: (o) => take<DocumentOutput>('document', o),
    takeCollections: (o) => take<CollectionOutput>('collection', o),

    async cancel(kind, id, configId) {
      await purge()
      const r = await storage.cancelQueued({ account, kind, configId, id })
      if (r === 'missing') fail('ERR_NOT_FOUND', `no ${kind} with id ${show(id)} in configuration ${show(configId)}`, 'id')
      return r
    },

    async autoRespond(kind, configId) {
      await purge()
      return autoRespond(kind, configId)
    },

    purge,

    claim: (limit) => storage.claimQueued(limit),

    async complete(item, output) {
      const done: QueueItem = { ...item, status: output.status === 'FAILED' ? 'FAILED' : 'PROCESSED', finishedAt: now(), output }
      const stored = await storage.completeItem(done)
      if (stored) await options.onFinished?.(done)
      return stored
    },

    async onFinished(item) {
      await options.onFinished?.(item)
    },
  }
}

/** The wire shape of an item: its output once finished, `{id, config_id, status: "QUEUED"}` (+ job_id, tag) before. */
export function wireOf(item: QueueItem): DocumentOutput | CollectionOutput {
  if ((item.status === 'PROCESSED' || item.status === 'FAILED') && item.output !== undefined) return item.output
  const out: DocumentOutput = { id: item.id, config_id: item.configId, status: 'QUEUED' }
  if (item.jobId !== undefined) out.job_id = item.jobId
  if (item.input.tag !== undefined) out.tag = item.input.tag
  if (item.status === 'FAILED') {
    out.status = 'FAILED'
    out.failure_reason = 'no output was stored'
  }
  return out
}
