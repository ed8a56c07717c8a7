/*
 * Baseline peer for bench/storage.ts: the memory storage's queue as it was before issues 17/18
 * (git show 1bb81d1:src/storage/memory.ts, queue methods only): every claim, take and purge scans and sorts
 * every stored item, and values are deep-copied (structuredClone) in and out. Kept only to be measured against.
 */
import type { ItemKey, QueueItem, TakeFilter } from '../src/storage/types.ts'

/** A string key of an item (a JSON array, so no two different keys collide). */
function itemKey(key: ItemKey): string {
  return JSON.stringify([key.account, key.kind, key.configId, key.id])
}

function isFinished(item: QueueItem): boolean {
  return item.status === 'PROCESSED' || item.status === 'FAILED'
}

/**
 * The default storage: everything in memory, lost when the process ends. Each method runs to completion
 * without awaiting anything in between, so each is atomic; values are deep-copied in and out, so callers
 * can never change stored state through a reference they passed or received.
 */
export function createBaselineMemoryStorage(): BaselineQueue {
  const items = new Map<string, QueueItem>()
  const bySeq = (a: QueueItem, b: QueueItem): number => a.seq - b.seq

  return {
    async putItems(list) {
      // Copy everything first so a value that cannot be cloned stores nothing.
      const copies = list.map((item) => structuredClone(item))
      for (const item of copies) items.set(itemKey(item), item)
    },

    async getItem(key) {
      const item = items.get(itemKey(key))
      return item === undefined ? undefined : structuredClone(item)
    },

    async claimQueued(limit) {
      if (!(limit > 0)) return []
      const queued = [...items.values()].filter((i) => i.status === 'QUEUED').sort(bySeq).slice(0, limit)
      for (const item of queued) item.status = 'PROCESSING'
      return queued.map((i) => structuredClone(i))
    },

    async completeItem(item) {
      const k = itemKey(item)
      const stored = items.get(k)
      if (stored === undefined || stored.seq !== item.seq || stored.status !== 'PROCESSING') return false
      if (!isFinished(item)) return false
      items.set(k, structuredClone(item))
      return true
    },

    async takeProcessed(account, kind, filter, limit) {
      if (!(limit > 0)) return []
      const match = filterMatcher(filter)
      const found = [...items.values()]
        .filter((i) => i.account === account && i.kind === kind && isFinished(i) && match(i))
        .sort(bySeq)
        .slice(0, limit)
      for (const item of found) items.delete(itemKey(item))
      return found.map((i) => structuredClone(i))
    },

    async takeItem(key) {
      const k = itemKey(key)
      const stored = items.get(k)
      if (stored === undefined || !isFinished(stored)) return undefined
      items.delete(k)
      return structuredClone(stored)
    },

    async cancelQueued(key) {
      const k = itemKey(key)
      const stored = items.get(k)
      if (stored === undefined) return 'missing'
      if (isFinished(stored)) return 'not-queued'
      items.delete(k)
      return 'cancelled'
    },

    async purgeBefore(beforeMs) {
      let removed = 0
      for (const [k, item] of items) {
        if (item.submittedAt < beforeMs) {
          items.delete(k)
          removed++
        }
      }
      return removed
    },

  }
}

/** Matches the retrieval filter: by configuration only items without a job id (spec rule 10), or by job id. */
function filterMatcher(filter: TakeFilter): (item: QueueItem) => boolean {
  if ('jobId' in filter) return (i) => i.jobId === filter.jobId
  return (i) => i.configId === filter.configId && i.jobId === undefined
}

/** The queue methods of the old storage. */
export interface BaselineQueue {
  putItems(items: readonly QueueItem[]): Promise<void>
  getItem(key: ItemKey): Promise<QueueItem | undefined>
  claimQueued(limit: number): Promise<QueueItem[]>
  completeItem(item: QueueItem): Promise<boolean>
  takeProcessed(account: string, kind: QueueItem['kind'], filter: TakeFilter, limit: number): Promise<QueueItem[]>
  takeItem(key: ItemKey): Promise<QueueItem | undefined>
  cancelQueued(key: ItemKey): Promise<'cancelled' | 'not-queued' | 'missing'>
  purgeBefore(beforeMs: number): Promise<number>
}
