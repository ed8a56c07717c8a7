import { describe, expect, it } from 'vitest'
import { isEngineError, type ErrorCode } from '../../src/errors.ts'
import { createQueue, type QueueLimits, type QueueOptions } from '../../src/engine/queue.ts'
import { createMemoryStorage } from '../../src/storage/memory.ts'
import type { DocumentOutput } from '../../src/model/output.ts'
import type { QueueItem } from '../../src/storage/types.ts'

const HOUR = 3600 * 1000
const LIMITS: QueueLimits = {
  document_length: 20,
  incoming_batch_limit: 3,
  collection_limit: 4,
  polling_batch_limit: 2,
  auto_response_batch_limit: 2,
  job_ids_permitted: 2,
}

function setup(over: Partial<QueueOptions> = {}) {
  const clock = { t: 1_700_000_000_000 }
  const storage = createMemoryStorage()
  let n = 0
  const finished: QueueItem[] = []
  const queue = createQueue({
    storage,
    account: 'acc',
    now: () => clock.t,
    limits: LIMITS,
    newId: () => `gen-${++n}`,
    onFinished: (i) => {
      finished.push(i)
    },
    ...over,
  })
  /** The fake analysis step: process every queued item. */
  const processAll = async (status: 'PROCESSED' | 'FAILED' = 'PROCESSED'): Promise<void> => {
    for (const item of await queue.claim(100)) {
      await queue.complete(item, { id: item.id, config_id: item.configId, ...(item.jobId ? { job_id: item.jobId } : {}), status })
    }
  }
  return { clock, storage, queue, processAll, finished }
}

async function rejects(p: Promise<unknown>, code: ErrorCode, status: number, includes?: string): Promise<void> {
  const e = await p.then(
    () => undefined,
    (err: unknown) => err,
  )
  expect(isEngineError(e), `expected ${code}, got ${String(e)}`).toBe(true)
  if (!isEngineError(e)) return
  expect(e.code).toBe(code)
  expect(e.status).toBe(status)
  if (includes !== undefined) expect(e.message).toContain(includes)
}

const C = { configId: 'c1' }

describe('queue: submission', () => {
  it('should store a document QUEUED and show it as {id, config_id, status} with tag and job id', async () => {
    const { queue } = setup()
    const r = await queue.submitDocuments({ id: 'd1', text: 'hello', tag: 'x', job_id: 'j' }, { ...C, batch: false })
    expect(r).toEqual({ accepted: 1, ids: ['d1'], autoResponse: [] })
    expect(await queue.getDocument('d1', 'c1')).toEqual({ id: 'd1', config_id: 'c1', job_id: 'j', tag: 'x', status: 'QUEUED' })
    expect(await queue.getDocument('d1', 'c1')).toEqual({ id: 'd1', config_id: 'c1', job_id: 'j', tag: 'x', status: 'QUEUED' })
  })

  it('should generate an id when none is given and accept numbers as ids and tags', async () => {
    const { queue, storage } = setup()
    const r = await queue.submitDocuments([{ text: 'a' }, { id: 7, text: 'b', tag: 3 }], { ...C, batch: true })
    expect(r.ids).toEqual(['gen-1', '7'])
    expect((await storage.getItem({ account: 'acc', kind: 'document', configId: 'c1', id: '7' }))?.input).toEqual({ text: 'b', tag: '3' })
  })

  it('should keep metadata with its JSON type', async () => {
    const { queue, storage } = setup()
    const metas = [{ a: 1 }, [1, 'x'], 'text', 5, true]
    await queue.submitDocuments(metas.map((metadata, i) => ({ id: `m${i}`, text: 't', metadata })).slice(0, 3), { ...C, batch: true })
    await queue.submitDocuments(metas.map((metadata, i) => ({ id: `m${i}`, text: 't', metadata })).slice(3), { ...C, batch: true })
    for (const [i, m] of metas.entries()) {
      expect((await storage.getItem({ account: 'acc', kind: 'document', configId: 'c1', id: `m${i}` }))?.input.metadata).toEqual(m)
    }
  })

  it('should refuse a text over document_length with 413 naming the index and the length', async () => {
    const { queue, storage } = setup()
    const batch = [{ id: 'ok', text: 'short' }, { id: 'long', text: 'x'.repeat(21) }]
    await rejects(queue.submitDocuments(batch, { ...C, batch: true }), 'ERR_DOCUMENT_TOO_LONG', 413, 'documents[1].text has 21 characters, more than the limit of 20')
    // The whole request is validated before anything is stored.
    expect(await storage.getItem({ account: 'acc', kind: 'document', configId: 'c1', id: 'ok' })).toBeUndefined()
  })

  it('should refuse a batch over incoming_batch_limit with 406 and an empty or non-array batch with 400', async () => {
    const { queue } = setup()
    const docs = Array.from({ length: 4 }, (_, i) => ({ text: `t${i}` }))
    await rejects(queue.submitDocuments(docs, { ...C, batch: true }), 'ERR_BATCH_LIMIT', 406, 'limit of 3')
    await rejects(queue.submitDocuments([], { ...C, batch: true }), 'ERR_INVALID_FIELD', 400)
    await rejects(queue.submitDocuments({ text: 'x' }, { ...C, batch: true }), 'ERR_INVALID_FIELD', 400)
  })

  it('should name the field of every bad document value', async () => {
    const { queue } = setup()
    await rejects(queue.submitDocuments({}, { ...C, batch: false }), 'ERR_MISSING_FIELD', 400, 'document.text')
    await rejects(queue.submitDocuments({ text: 5 }, { ...C, batch: false }), 'ERR_INVALID_FIELD', 400, 'document.text')
    await rejects(queue.submitDocuments({ text: 'a', id: 'i'.repeat(37) }, { ...C, batch: false }), 'ERR_INVALID_FIELD', 400, 'limit of 36')
    await rejects(queue.submitDocuments({ text: 'a', tag: 't'.repeat(51) }, { ...C, batch: false }), 'ERR_INVALID_FIELD', 400, 'limit of 50')
    await rejects(queue.submitDocuments([{ text: 'a' }, 'x'], { ...C, batch: true }), 'ERR_INVALID_FIELD', 400, 'documents[1]')
    await rejects(queue.submitDocuments({ text: 'a', job_id: {} }, { ...C, batch: false }), 'ERR_INVALID_FIELD', 400, 'job_id')
  })

  it('should accept a 36-character id, a 50-character tag and a text of exactly document_length', async () => {
    const { queue } = setup()
    const r = await queue.submitDocuments({ id: 'i'.repeat(36), tag: 't'.repeat(50), text: 'x'.repeat(20) }, { ...C, batch: false })
    expect(r.accepted).toBe(1)
  })

  it('should replace an earlier item re-sent with the same id', async () => {
    const { queue, processAll, storage } = setup()
    await queue.submitDocuments({ id: 'd', text: 'first' }, { ...C, batch: false })
    await processAll()
    await queue.submitDocuments({ id: 'd', text: 'second' }, { ...C, batch: false })
    expect(await queue.getDocument('d', 'c1')).toEqual({ id: 'd', config_id: 'c1', status: 'QUEUED' })
    expect((await storage.getItem({ account: 'acc', kind: 'document', configId: 'c1', id: 'd' }))?.input).toEqual({ text: 'second' })
  })

  it('should drop the outcome of an item replaced while it was processing', async () => {
    const { queue, finished } = setup()
    await queue.submitDocuments({ id: 'd', text: 'first' }, { ...C, batch: false })
    const [claimed] = await queue.claim(1)
    await queue.submitDocuments({ id: 'd', text: 'second' }, { ...C, batch: false })
    expect(await queue.complete(claimed!, { id: 'd', config_id: 'c1', status: 'PROCESSED' })).toBe(false)
    expect(finished).toEqual([])
    expect((await queue.getDocument('d', 'c1')).status).toBe('QUEUED')
  })

  it('should validate collections: array of strings, collection_limit, text length', async () => {
    const { queue } = setup()
    const r = await queue.submitCollection({ id: 'col', documents: ['a', 'b'], tag: 'g', metadata: [1] }, C)
    expect(r).toEqual({ accepted: 1, ids: ['col'], autoResponse: [] })
    expect(await queue.getCollection('col', 'c1')).toEqual({ id: 'col', config_id: 'c1', tag: 'g', status: 'QUEUED' })
    await rejects(queue.submitCollection({ documents: ['a', 'b', 'c', 'd', 'e'] }, C), 'ERR_BATCH_LIMIT', 406, 'limit of 4')
    await rejects(queue.submitCollection({ documents: ['a', 'y'.repeat(21)] }, C), 'ERR_DOCUMENT_TOO_LONG', 413, 'collection.documents[1]')
    await rejects(queue.submitCollection({ documents: ['a', 3] }, C), 'ERR_INVALID_FIELD', 400, 'collection.documents[1]')
    await rejects(queue.submitCollection({ documents: 'a' }, C), 'ERR_INVALID_FIELD', 400)
    await rejects(queue.submitCollection({}, C), 'ERR_MISSING_FIELD', 400)
    await rejects(queue.submitCollection([], C), 'ERR_INVALID_FIELD', 400)
  })
})

describe('queue: retrieval', () => {
  it('should answer ERR_NOT_FOUND (404) for an unknown id, also in another configuration', async () => {
    const { queue } = setup()
    await queue.submitDocuments({ id: 'd', text: 'x' }, { ...C, batch: false })
    await rejects(queue.getDocument('nope', 'c1'), 'ERR_NOT_FOUND', 404, '"nope"')
    await rejects(queue.getDocument('d', 'c2'), 'ERR_NOT_FOUND', 404)
    await rejects(queue.getCollection('d', 'c1'), 'ERR_NOT_FOUND', 404)
  })

  it('should serve the output by id without dequeuing it, then take it once', async () => {
    const { queue, processAll, finished } = setup()
    await queue.submitDocuments({ id: 'd', text: 'x' }, { ...C, batch: false })
    await processAll()
    expect(finished.map((i) => i.id)).toEqual(['d'])
    expect(await queue.getDocument('d', 'c1')).toEqual({ id: 'd', config_id: 'c1', status: 'PROCESSED' })
    expect(await queue.takeDocuments({ configId: 'c1' })).toEqual([{ id: 'd', config_id: 'c1', status: 'PROCESSED' }])
    expect(await queue.takeDocuments({ configId: 'c1' })).toEqual([])
    await rejects(queue.getDocument('d', 'c1'), 'ERR_NOT_FOUND', 404)
  })

  it('should take at most polling_batch_limit items, oldest first, FAILED ones included', async () => {
    const { queue, processAll } = setup()
    await queue.submitDocuments([{ id: 'a', text: 'x' }, { id: 'b', text: 'x' }, { id: 'c', text: 'x' }], { ...C, batch: true })
    await processAll('FAILED')
    expect((await queue.takeDocuments({ configId: 'c1' })).map((d) => [d.id, d.status])).toEqual([
      ['a', 'FAILED'],
      ['b', 'FAILED'],
    ])
    expect((await queue.takeDocuments({ configId: 'c1' })).map((d) => d.id)).toEqual(['c'])
  })

  it('should refuse retrieval by both config_id and job_id (ERR_JOB_ID 400) and by neither', async () => {
    const { queue } = setup()
    await rejects(queue.takeDocuments({ configId: 'c1', jobId: 'j' }), 'ERR_JOB_ID', 400)
    await rejects(queue.takeCollections({}), 'ERR_MISSING_FIELD', 400)
  })

  it('should retrieve job items only by their job id (rule 10)', async () => {
    const { queue, processAll } = setup()
    await queue.submitDocuments([{ id: 'a', text: 'x', job_id: 'j1' }, { id: 'b', text: 'x' }], { ...C, batch: true })
    await queue.submitDocuments([{ id: 'c', text: 'x' }], { configId: 'c2', jobId: 'j1', batch: true })
    await processAll()
    expect((await queue.takeDocuments({ configId: 'c1' })).map((d) => d.id)).toEqual(['b'])
    expect((await queue.takeDocuments({ configId: 'c2' })).map((d) => d.id)).toEqual([])
    expect((await queue.takeDocuments({ jobId: 'j1' })).map((d) => d.id)).toEqual(['a', 'c'])
  })

  it('should apply the job_id option to documents that carry none of their own', async () => {
    const { queue } = setup()
    await queue.submitDocuments([{ id: 'a', text: 'x', job_id: 'own' }, { id: 'b', text: 'x' }], { ...C, jobId: 'q', batch: true })
    expect((await queue.getDocument('a', 'c1')).job_id).toBe('own')
    expect((await queue.getDocument('b', 'c1')).job_id).toBe('q')
  })

  it('should take one collection by id only once it is finished', async () => {
    const { queue, processAll } = setup()
    await queue.submitCollection({ id: 'x', documents: ['a'] }, C)
    await queue.submitCollection({ id: 'y', documents: ['a'] }, C)
    expect(await queue.takeCollections({ configId: 'c1', id: 'x' })).toEqual([])
    await processAll()
    expect((await queue.takeCollections({ configId: 'c1', id: 'x' })).map((c) => c.id)).toEqual(['x'])
    expect((await queue.takeCollections({ configId: 'c1' })).map((c) => c.id)).toEqual(['y'])
  })
})

describe('queue: cancel', () => {
  it('should remove a queued item, leave a processed one and refuse an unknown id', async () => {
    const { queue, processAll } = setup()
    await queue.submitDocuments({ id: 'p', text: 'x' }, { ...C, batch: false })
    await processAll()
    await queue.submitDocuments({ id: 'q', text: 'x' }, { ...C, batch: false })
    expect(await queue.cancel('document', 'q', 'c1')).toBe('cancelled')
    await rejects(queue.getDocument('q', 'c1'), 'ERR_NOT_FOUND', 404)
    expect(await queue.cancel('document', 'p', 'c1')).toBe('not-queued')
    expect((await queue.getDocument('p', 'c1')).status).toBe('PROCESSED')
    await rejects(queue.cancel('document', 'q', 'c1'), 'ERR_NOT_FOUND', 404)
    await rejects(queue.cancel('collection', 'p', 'c1'), 'ERR_NOT_FOUND', 404)
  })

  it('should drop the outcome of an item cancelled while processing', async () => {
    const { queue } = setup()
    await queue.submitDocuments({ id: 'q', text: 'x' }, { ...C, batch: false })
    const [claimed] = await queue.claim(5)
    expect(await queue.cancel('document', 'q', 'c1')).toBe('cancelled')
    expect(await queue.complete(claimed!, { id: 'q', config_id: 'c1', status: 'PROCESSED' })).toBe(false)
    await rejects(queue.getDocument('q', 'c1'), 'ERR_NOT_FOUND', 404)
  })
})

describe('queue: job ids', () => {
  it('should allow job_ids_permitted distinct job ids per 24 hours (406 beyond), re-use always', async () => {
    const { queue, clock } = setup()
    await queue.submitDocuments({ text: 'x', job_id: 'j1' }, { ...C, batch: false })
    await queue.submitDocuments({ text: 'x', job_id: 'j2' }, { ...C, batch: false })
    await rejects(queue.submitDocuments({ text: 'x', job_id: 'j3' }, { ...C, batch: false }), 'ERR_RESOURCE_LIMIT', 406, 'at most 2 distinct job ids per 24 hours')
    await queue.submitDocuments({ text: 'x', job_id: 'j1' }, { ...C, batch: false })
    clock.t += 24 * HOUR
    await queue.submitDocuments({ text: 'x', job_id: 'j3' }, { ...C, batch: false })
  })

  it('should refuse job_id with auto_response or callback (ERR_JOB_ID), storing nothing', async () => {
    const { queue, storage } = setup()
    await rejects(queue.submitDocuments({ id: 'a', text: 'x', job_id: 'j' }, { ...C, autoResponse: true, batch: false }), 'ERR_JOB_ID', 400, 'auto_response')
    await rejects(queue.submitCollection({ id: 'a', documents: ['x'] }, { ...C, jobId: 'j', callback: true }), 'ERR_JOB_ID', 400, 'callback')
    expect(await storage.getItem({ account: 'acc', kind: 'document', configId: 'c1', id: 'a' })).toBeUndefined()
  })
})

describe('queue: auto response', () => {
  it('should answer up to auto_response_batch_limit processed items of the configuration right after a submit', async () => {
    const { queue, processAll } = setup()
    await queue.submitDocuments([{ id: 'a', text: 'x' }, { id: 'b', text: 'x' }, { id: 'c', text: 'x' }], { ...C, batch: true })
    await queue.submitDocuments({ id: 'other', text: 'x' }, { configId: 'c2', batch: false })
    await processAll()
    const r = await queue.submitDocuments({ id: 'd', text: 'x' }, { ...C, autoResponse: true, batch: false })
    expect(r.autoResponse.map((d: DocumentOutput) => d.id)).toEqual(['a', 'b'])
    expect((await queue.submitDocuments({ id: 'e', text: 'x' }, { ...C, autoResponse: true, batch: false })).autoResponse.map((d) => d.id)).toEqual(['c'])
    expect((await queue.submitDocuments({ id: 'f', text: 'x' }, { ...C, autoResponse: true, batch: false })).autoResponse).toEqual([])
    expect((await queue.takeDocuments({ configId: 'c2' })).map((d) => d.id)).toEqual(['other'])
  })
})

describe('queue: retention', () => {
  it('should remove items 24 hours after submission, whatever their state', async () => {
    const { queue, clock, processAll, storage } = setup()
    await queue.submitDocuments({ id: 'p', text: 'x' }, { ...C, batch: false })
    await processAll()
    await queue.submitDocuments({ id: 'q', text: 'x' }, { ...C, batch: false })
    clock.t += 24 * HOUR - 1
    expect((await queue.getDocument('p', 'c1')).status).toBe('PROCESSED')
    clock.t += 1
    await rejects(queue.getDocument('p', 'c1'), 'ERR_NOT_FOUND', 404)
    expect(await storage.getItem({ account: 'acc', kind: 'document', configId: 'c1', id: 'q' })).toBeUndefined()
  })

  it('should honour a shorter retention and report how many items purge removed', async () => {
    const { queue, clock } = setup({ retentionMs: HOUR })
    await queue.submitDocuments([{ text: 'a' }, { text: 'b' }], { ...C, batch: true })
    clock.t += HOUR
    expect(await queue.purge()).toBe(2)
  })
})
