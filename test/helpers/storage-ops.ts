import fc from 'fast-check'
import type { ItemKey, ItemKind, QueueItem, QueueStatus, Storage, TakeFilter } from '../../src/storage/types.ts'

/*
 * Random and scripted sequences of queue operations, played on any storage (or on the scanning model below) so
 * that two implementations can be compared answer by answer: memory against the model
 * (test/storage/memory-model.test.ts), Redis against memory (test/storage/redis.test.ts).
 */

/** The queue part of a storage. */
export type QueueOps = Pick<
  Storage,
  'putItems' | 'getItem' | 'claimQueued' | 'completeItem' | 'extendLease' | 'releaseItem' | 'takeProcessed' | 'takeItem' | 'cancelQueued' | 'purgeBefore' | 'countQueued'
>

interface ModelEntry {
  item: QueueItem
  status: QueueStatus
  claim?: string
  leaseExpiresAt: number
  attempts: number
}

/** The storage's queue semantics, written as plainly as possible: every operation scans every item. */
function createModel(leaseMs: number) {
  const items = new Map<string, ModelEntry>()
  const keyOf = (k: ItemKey): string => JSON.stringify([k.account, k.kind, k.configId, k.id])
  const finished = (s: QueueStatus): boolean => s === 'PROCESSED' || s === 'FAILED'
  const view = (e: ModelEntry): QueueItem => ({ ...e.item, status: e.status })
  let claims = 0
  const holds = (i: QueueItem): ModelEntry | undefined => {
    const e = items.get(keyOf(i))
    return e !== undefined && e.status === 'PROCESSING' && e.item.seq === i.seq && i.claim !== undefined && e.claim === i.claim ? e : undefined
  }
  return {
    put(i: QueueItem): void {
      const { status, claim: _c, leaseExpiresAt: _l, attempts: _a, ...rest } = i
      items.set(keyOf(i), { item: structuredClone(rest) as QueueItem, status: finished(status) ? status : 'QUEUED', leaseExpiresAt: 0, attempts: 0 })
    },
    get: (k: ItemKey): QueueItem | undefined => {
      const e = items.get(keyOf(k))
      return e === undefined ? undefined : view(e)
    },
    claim(limit: number, now: number): QueueItem[] {
      const all = [...items.values()]
      const expired = all.filter((e) => e.status === 'PROCESSING' && e.leaseExpiresAt <= now).sort((a, b) => a.leaseExpiresAt - b.leaseExpiresAt || (keyOf(a.item) < keyOf(b.item) ? -1 : 1))
      const queued = all.filter((e) => e.status === 'QUEUED').sort((a, b) => a.item.seq - b.item.seq)
      const got = [...expired, ...queued].slice(0, Math.max(0, limit))
      const prefix = `m${++claims}:`
      return got.map((e, i) => {
        e.status = 'PROCESSING'
        e.claim = `${prefix}${i}`
        e.leaseExpiresAt = now + leaseMs
        e.attempts++
        return { ...view(e), claim: e.claim, leaseExpiresAt: e.leaseExpiresAt, attempts: e.attempts }
      })
    },
    complete(i: QueueItem): boolean {
      const e = holds(i)
      if (e === undefined || !finished(i.status)) return false
      e.status = i.status
      delete e.claim
      if (i.output !== undefined) e.item.output = structuredClone(i.output)
      if (i.finishedAt !== undefined) e.item.finishedAt = i.finishedAt
      return true
    },
    extend(i: QueueItem, now: number): number | undefined {
      const e = holds(i)
      if (e === undefined) return undefined
      e.leaseExpiresAt = now + leaseMs
      return e.leaseExpiresAt
    },
    release(i: QueueItem): boolean {
      const e = holds(i)
      if (e === undefined) return false
      e.status = 'QUEUED'
      delete e.claim
      return true
    },
    take(account: string, kind: ItemKind, f: TakeFilter, limit: number): QueueItem[] {
      const match = (i: QueueItem): boolean => ('jobId' in f ? i.jobId === f.jobId : i.configId === f.configId && i.jobId === undefined)
      const got = [...items.values()]
        .filter((e) => e.item.account === account && e.item.kind === kind && finished(e.status) && match(e.item))
        .sort((a, b) => a.item.seq - b.item.seq)
        .slice(0, Math.max(0, limit))
      for (const e of got) items.delete(keyOf(e.item))
      return got.map(view)
    },
    takeItem(k: ItemKey): QueueItem | undefined {
      const e = items.get(keyOf(k))
      if (e === undefined || !finished(e.status)) return undefined
      items.delete(keyOf(k))
      return view(e)
    },
    cancel(k: ItemKey): 'cancelled' | 'not-queued' | 'missing' {
      const e = items.get(keyOf(k))
      if (e === undefined) return 'missing'
      if (finished(e.status)) return 'not-queued'
      items.delete(keyOf(k))
      return 'cancelled'
    },
    purge(before: number): number {
      let n = 0
      for (const [k, e] of items) if (e.item.submittedAt < before) (items.delete(k), n++)
      return n
    },
    count: (account: string): number => [...items.values()].filter((e) => e.item.account === account && !finished(e.status)).length,
  }
}


/** The model as a {@link QueueOps}, on the clock `now` with leases of `leaseMs`. */
export function createStorageModel(leaseMs: number, now: () => number): QueueOps {
  const m = createModel(leaseMs)
  return {
    async putItems(list) {
      for (const i of list) m.put(i)
    },
    getItem: async (k) => m.get(k),
    claimQueued: async (limit) => m.claim(limit, now()),
    completeItem: async (i) => m.complete(i),
    extendLease: async (i) => m.extend(i, now()),
    releaseItem: async (i) => m.release(i),
    takeProcessed: async (account, kind, f, limit) => m.take(account, kind, f, limit),
    takeItem: async (k) => m.takeItem(k),
    cancelQueued: async (k) => m.cancel(k),
    purgeBefore: async (before) => m.purge(before),
    countQueued: async (account) => m.count(account),
  }
}

export type Op =
  | { op: 'put'; ids: number[]; account: string; configId: string; jobId: string | undefined; submittedAt: number }
  | { op: 'claim'; limit: number }
  | { op: 'complete' | 'release' | 'extend'; pick: number; failed: boolean }
  | { op: 'take'; account: string; by: 'config' | 'job'; value: string; limit: number }
  | { op: 'takeItem' | 'cancel' | 'get'; id: number; account: string; configId: string }
  | { op: 'purge'; before: number }
  | { op: 'tick'; ms: number }
  | { op: 'count'; account: string }
  | { op: 'cancelMany'; ids: number[]; account: string; configId: string }
  /** Complete, release or extend every item of the latest claim. */
  | { op: 'finishAll'; how: 'complete' | 'release' | 'extend' }

const account = fc.constantFrom('a', 'a', 'b')
const configId = fc.constantFrom('c1', 'c1', 'c2')
const id = fc.integer({ min: 1, max: 150 })
export const opArb: fc.Arbitrary<Op> = fc.oneof(
  { weight: 4, arbitrary: fc.record({ op: fc.constant('put' as const), ids: fc.array(id, { minLength: 1, maxLength: 100 }), account, configId, jobId: fc.constantFrom(undefined, undefined, 'j1'), submittedAt: fc.integer({ min: 0, max: 99 }) }) },
  { weight: 3, arbitrary: fc.record({ op: fc.constant('claim' as const), limit: fc.integer({ min: 0, max: 100 }) }) },
  { weight: 12, arbitrary: fc.record({ op: fc.constantFrom('complete' as const, 'complete' as const, 'release' as const, 'extend' as const), pick: fc.nat(), failed: fc.boolean() }) },
  { weight: 2, arbitrary: fc.record({ op: fc.constant('take' as const), account, by: fc.constantFrom('config' as const, 'job' as const), value: fc.constantFrom('c1', 'c2', 'j1'), limit: fc.integer({ min: 0, max: 40 }) }) },
  { weight: 2, arbitrary: fc.record({ op: fc.constantFrom('takeItem' as const, 'cancel' as const, 'get' as const), id, account, configId }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('purge' as const), before: fc.integer({ min: 0, max: 100 }) }) },
  { weight: 2, arbitrary: fc.record({ op: fc.constant('tick' as const), ms: fc.constantFrom(100, 500, 1_000) }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('count' as const), account }) },
  // Bulk changes leave many dead heap nodes behind, so heaps compact.
  { weight: 2, arbitrary: fc.record({ op: fc.constant('cancelMany' as const), ids: fc.array(id, { minLength: 1, maxLength: 100 }), account, configId }) },
  { weight: 2, arbitrary: fc.record({ op: fc.constant('finishAll' as const), how: fc.constantFrom('complete' as const, 'release' as const, 'extend' as const) }) },
)

/** Lease tokens differ (random per storage): name them by first appearance. */
export function normalizeClaims(answers: unknown[]): unknown[] {
  const names = new Map<string, string>()
  return JSON.parse(JSON.stringify(answers), (k, v: unknown) => {
    if (k !== 'claim' || typeof v !== 'string') return v
    if (!names.has(v)) names.set(v, `claim${names.size}`)
    return names.get(v)
  }) as unknown[]
}

/** A scripted sequence of bulk changes that leaves many dead heap nodes behind, so every heap compacts. */
export function churnOps(): Op[] {
  const ids = Array.from({ length: 150 }, (_, i) => i + 1)
  const ops: Op[] = []
  for (let round = 0; round < 12; round++) {
    const acct = round % 3 === 0 ? 'b' : 'a'
    ops.push({ op: 'put', ids, account: acct, configId: 'c1', jobId: round % 4 === 0 ? 'j1' : undefined, submittedAt: round * 8 })
    ops.push({ op: 'claim', limit: 100 }, { op: 'finishAll', how: 'release' }, { op: 'claim', limit: 120 }, { op: 'finishAll', how: 'extend' })
    ops.push({ op: 'tick', ms: 1_000 }, { op: 'claim', limit: 90 }, { op: 'count', account: 'a' }, { op: 'finishAll', how: 'complete' })
    ops.push({ op: 'put', ids: ids.slice(round * 7, round * 7 + 60), account: acct, configId: 'c2', jobId: undefined, submittedAt: round * 8 + 1 })
    ops.push({ op: 'cancelMany', ids: ids.filter((i) => i % 3 === round % 3), account: acct, configId: 'c2' })
    ops.push({ op: 'take', account: acct, by: 'config', value: 'c1', limit: 30 }, { op: 'take', account: 'a', by: 'job', value: 'j1', limit: 25 })
    ops.push({ op: 'tick', ms: 500 }, { op: 'claim', limit: 40 }, { op: 'count', account: 'b' })
    if (round % 4 === 3) ops.push({ op: 'purge', before: round * 8 - 10 })
  }
  return ops
}

/**
 * Plays `ops` on a storage whose clock reads `clock.now` (leases of 1 s expected), returning every answer with
 * lease tokens normalized.
 */
export async function play(s: QueueOps, ops: readonly Op[], clock: { now: number }): Promise<unknown[]> {
  const answers: unknown[] = []
  const held: QueueItem[] = []
  /** The items of the latest claim (what `finishAll` acts on). */
  let last: QueueItem[] = []
  let seq = 0
  const finish = (i: QueueItem, failed: boolean): QueueItem => {
    const status = failed ? 'FAILED' : 'PROCESSED'
    return { ...i, status, finishedAt: clock.now, output: { id: i.id, config_id: i.configId, status } }
  }
  const act = async (i: QueueItem, how: 'complete' | 'release' | 'extend', failed: boolean): Promise<unknown> =>
    how === 'complete' ? s.completeItem(finish(i, failed)) : how === 'release' ? s.releaseItem(i) : s.extendLease(i)
  for (const o of ops) {
    switch (o.op) {
      case 'put': {
        const list = [...new Set(o.ids)].map((n): QueueItem => ({
          account: o.account, kind: 'document', configId: o.configId, id: `d${n}`, status: 'QUEUED', seq: ++seq,
          submittedAt: o.submittedAt, input: { text: `t${n}` }, ...(o.jobId === undefined ? {} : { jobId: o.jobId }),
        }))
        await s.putItems(list)
        break
      }
      case 'claim': {
        const got = await s.claimQueued(o.limit)
        held.push(...got)
        last = got
        answers.push(got)
        break
      }
      case 'complete':
      case 'release':
      case 'extend':
        if (held.length > 0) answers.push(await act(held[o.pick % held.length]!, o.op, o.failed))
        break
      case 'finishAll':
        for (const h of last) answers.push(await act(h, o.how, false))
        break
      case 'take': {
        const f: TakeFilter = o.by === 'config' ? { configId: o.value } : { jobId: o.value }
        answers.push(await s.takeProcessed(o.account, 'document', f, o.limit))
        break
      }
      case 'takeItem':
      case 'cancel':
      case 'get': {
        const key: ItemKey = { account: o.account, kind: 'document', configId: o.configId, id: `d${o.id}` }
        answers.push(o.op === 'takeItem' ? await s.takeItem(key) : o.op === 'cancel' ? await s.cancelQueued(key) : await s.getItem(key))
        break
      }
      case 'cancelMany':
        for (const n of o.ids) answers.push(await s.cancelQueued({ account: o.account, kind: 'document', configId: o.configId, id: `d${n}` }))
        break
      case 'purge':
        answers.push(await s.purgeBefore(o.before))
        break
      case 'tick':
        clock.now += o.ms
        break
      case 'count':
        answers.push(await s.countQueued(o.account))
        break
    }
  }
  return normalizeClaims(answers)
}
