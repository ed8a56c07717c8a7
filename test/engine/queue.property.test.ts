import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { isEngineError } from '../../src/errors.ts'
import { createQueue, type Queue } from '../../src/engine/queue.ts'
import { createMemoryStorage } from '../../src/storage/memory.ts'
import type { CollectionOutput, DocumentOutput } from '../../src/model/output.ts'

const HOUR = 3600 * 1000
const DAY = 24 * HOUR
const POLL = 3
const JOBS = 2

/** The model: a Map of items by (kind, configId, id), a job-id window and a clock. */
interface ModelItem {
  kind: 'document' | 'collection'
  configId: string
  id: string
  jobId: string | undefined
  finished: 'PROCESSED' | 'FAILED' | undefined
  seq: number
  submittedAt: number
}
interface Model {
  items: Map<string, ModelItem>
  jobIds: Map<string, number>
  seq: number
}
interface Real {
  queue: Queue
  clock: { t: number }
}

const keyOf = (kind: string, configId: string, id: string): string => `${kind}/${configId}/${id}`

/** Retention in the model: an item goes once it is a day old. Returns how many went. */
function purgeModel(m: Model, now: number): number {
  let n = 0
  for (const [k, i] of m.items) {
    if (now - i.submittedAt >= DAY) {
      m.items.delete(k)
      n++
    }
  }
  return n
}

/** Run a real call, answering its value or the error code it threw. */
async function outcome<T>(p: Promise<T>): Promise<{ ok: T } | { code: string }> {
  try {
    return { ok: await p }
  } catch (e) {
    if (isEngineError(e)) return { code: e.code }
    throw e
  }
}

const kinds = fc.constantFrom('document' as const, 'collection' as const)
const ids = fc.constantFrom('a', 'b', 'c', 'd')
const configs = fc.constantFrom('c1', 'c2')
const jobs = fc.option(fc.constantFrom('j1', 'j2', 'j3'), { nil: undefined })

class Submit implements fc.AsyncCommand<Model, Real> {
  constructor(
    readonly kind: 'document' | 'collection',
    readonly id: string,
    readonly configId: string,
    readonly jobId: string | undefined,
  ) {}
  check = (): boolean => true
  async run(m: Model, r: Real): Promise<void> {
    const now = r.clock.t
    purgeModel(m, now)
    const res =
      this.kind === 'document'
        ? await outcome(r.queue.submitDocuments({ id: this.id, text: 'some text', job_id: this.jobId }, { configId: this.configId, batch: false }))
        : await outcome(r.queue.submitCollection({ id: this.id, documents: ['x', 'y'] }, { configId: this.configId, jobId: this.jobId }))
    if (this.jobId !== undefined) {
      for (const [j, at] of m.jobIds) if (at <= now - DAY) m.jobIds.delete(j)
      if (!m.jobIds.has(this.jobId) && m.jobIds.size >= JOBS) {
        expect(res).toEqual({ code: 'ERR_RESOURCE_LIMIT' })
        return
      }
      m.jobIds.set(this.jobId, now)
    }
    expect(res).toEqual({ ok: { accepted: 1, ids: [this.id], autoResponse: [] } })
    m.items.set(keyOf(this.kind, this.configId, this.id), {
      kind: this.kind,
      configId: this.configId,
      id: this.id,
      jobId: this.jobId,
      finished: undefined,
      seq: ++m.seq,
      submittedAt: now,
    })
  }
  toString = (): string => `submit(${this.kind}, ${this.id}, ${this.configId}, ${String(this.jobId)})`
}

/** The fake analysis step: claim every queued item and complete it (ids a and c fail). */
class Process implements fc.AsyncCommand<Model, Real> {
  check = (): boolean => true
  async run(m: Model, r: Real): Promise<void> {
    purgeModel(m, r.clock.t)
    await r.queue.purge()
    const claimed = await r.queue.claim(100)
    const queued = [...m.items.values()].filter((i) => i.finished === undefined)
    expect(claimed.map((i) => keyOf(i.kind, i.configId, i.id)).sort()).toEqual(queued.map((i) => keyOf(i.kind, i.configId, i.id)).sort())
    for (const item of claimed) {
      const status = item.id === 'a' || item.id === 'c' ? ('FAILED' as const) : ('PROCESSED' as const)
      expect(await r.queue.complete(item, { id: item.id, config_id: item.configId, status })).toBe(true)
      m.items.get(keyOf(item.kind, item.configId, item.id))!.finished = status
    }
  }
  toString = (): string => 'process'
}

class Get implements fc.AsyncCommand<Model, Real> {
  constructor(
    readonly kind: 'document' | 'collection',
    readonly id: string,
    readonly configId: string,
  ) {}
  check = (): boolean => true
  async run(m: Model, r: Real): Promise<void> {
    purgeModel(m, r.clock.t)
    const res = await outcome<DocumentOutput | CollectionOutput>(this.kind === 'document' ? r.queue.getDocument(this.id, this.configId) : r.queue.getCollection(this.id, this.configId))
    const item = m.items.get(keyOf(this.kind, this.configId, this.id))
    if (item === undefined) {
      expect(res).toEqual({ code: 'ERR_NOT_FOUND' })
      return
    }
    // Queued: the status shape (job id included); finished: the output the fake analysis stored.
    expect(res).toEqual({
      ok:
        item.finished === undefined
          ? { id: this.id, config_id: this.configId, ...(item.jobId !== undefined ? { job_id: item.jobId } : {}), status: 'QUEUED' }
          : { id: this.id, config_id: this.configId, status: item.finished },
    })
  }
  toString = (): string => `get(${this.kind}, ${this.id}, ${this.configId})`
}

class Take implements fc.AsyncCommand<Model, Real> {
  constructor(
    readonly kind: 'document' | 'collection',
    readonly configId: string | undefined,
    readonly jobId: string | undefined,
  ) {}
  check = (): boolean => true
  async run(m: Model, r: Real): Promise<void> {
    purgeModel(m, r.clock.t)
    const o = { configId: this.configId, jobId: this.jobId }
    const res = await outcome<Array<DocumentOutput | CollectionOutput>>(this.kind === 'document' ? r.queue.takeDocuments(o) : r.queue.takeCollections(o))
    if (this.configId !== undefined && this.jobId !== undefined) {
      expect(res).toEqual({ code: 'ERR_JOB_ID' })
      return
    }
    const expected = [...m.items.values()]
      .filter((i) => i.kind === this.kind && i.finished !== undefined)
      .filter((i) => (this.jobId !== undefined ? i.jobId === this.jobId : i.configId === this.configId && i.jobId === undefined))
      .sort((a, b) => a.seq - b.seq)
      .slice(0, POLL)
    for (const i of expected) m.items.delete(keyOf(i.kind, i.configId, i.id))
    expect('ok' in res ? res.ok.map((o) => `${o.config_id}/${o.id}/${o.status}`) : res).toEqual(expected.map((i) => `${i.configId}/${i.id}/${i.finished}`))
  }
  toString = (): string => `take(${this.kind}, ${String(this.configId)}, ${String(this.jobId)})`
}

class Cancel implements fc.AsyncCommand<Model, Real> {
  constructor(
    readonly kind: 'document' | 'collection',
    readonly id: string,
    readonly configId: string,
  ) {}
  check = (): boolean => true
  async run(m: Model, r: Real): Promise<void> {
    purgeModel(m, r.clock.t)
    const res = await outcome(r.queue.cancel(this.kind, this.id, this.configId))
    const k = keyOf(this.kind, this.configId, this.id)
    const item = m.items.get(k)
    if (item === undefined) expect(res).toEqual({ code: 'ERR_NOT_FOUND' })
    else if (item.finished !== undefined) expect(res).toEqual({ ok: 'not-queued' })
    else {
      expect(res).toEqual({ ok: 'cancelled' })
      m.items.delete(k)
    }
  }
  toString = (): string => `cancel(${this.kind}, ${this.id}, ${this.configId})`
}

class Advance implements fc.AsyncCommand<Model, Real> {
  constructor(readonly ms: number) {}
  check = (): boolean => true
  async run(m: Model, r: Real): Promise<void> {
    r.clock.t += this.ms
    expect(await r.queue.purge()).toBe(purgeModel(m, r.clock.t))
  }
  toString = (): string => `advance(${this.ms / HOUR} h)`
}

const commands = [
  fc.tuple(kinds, ids, configs, jobs).map(([k, i, c, j]) => new Submit(k, i, c, j)),
  fc.tuple(kinds, ids, configs, jobs).map(([k, i, c, j]) => new Submit(k, i, c, j)),
  fc.constant(new Process()),
  fc.tuple(kinds, ids, configs).map(([k, i, c]) => new Get(k, i, c)),
  fc.tuple(kinds, fc.option(configs, { nil: undefined }), jobs).map(([k, c, j]) => new Take(k, c ?? (j === undefined ? 'c1' : undefined), j)),
  fc.tuple(kinds, configs, jobs).map(([k, c, j]) => new Take(k, c, j)),
  fc.tuple(kinds, ids, configs).map(([k, i, c]) => new Cancel(k, i, c)),
  fc.constantFrom(HOUR, 6 * HOUR, 23 * HOUR, 24 * HOUR, 25 * HOUR).map((ms) => new Advance(ms)),
]

describe('queue model', () => {
  it('should behave like a Map of items under submit, process, get, take, cancel, job ids and retention', async () => {
    await fc.assert(
      fc.asyncProperty(fc.commands(commands, { maxCommands: 80, size: 'medium' }), async (cmds) => {
        const clock = { t: 1_700_000_000_000 }
        const queue = createQueue({
          storage: createMemoryStorage(),
          account: 'acc',
          now: () => clock.t,
          limits: {
            document_length: 100,
            incoming_batch_limit: 10,
            collection_limit: 10,
            polling_batch_limit: POLL,
            auto_response_batch_limit: 2,
            job_ids_permitted: JOBS,
          },
        })
        await fc.asyncModelRun(() => ({ model: { items: new Map(), jobIds: new Map(), seq: 0 }, real: { queue, clock } }), cmds)
      }),
      { seed: 20261122, numRuns: 120 },
    )
  })
})
