import type { StatisticsCounters } from '../model/account.ts'
import type { ItemKey, QueueItem, SettingsRecord, StatRow, Storage, TakeFilter } from './types.ts'

/** Every counter of a statistics row, all zero. */
export function zeroCounters(): StatisticsCounters {
  return {
    batches_queued: 0,
    calls_data: 0,
    calls_polling: 0,
    calls_settings: 0,
    docs_failed: 0,
    docs_queued: 0,
    docs_retrieved: 0,
    docs_successful: 0,
    total_api_calls: 0,
  }
}

const COUNTER_NAMES = Object.keys(zeroCounters()) as Array<keyof StatisticsCounters>

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
export function createMemoryStorage(): Storage {
  const settings = new Map<string, SettingsRecord>()
  const items = new Map<string, QueueItem>()
  /** account -> job id -> last time seen (epoch ms). */
  const jobIds = new Map<string, Map<string, number>>()
  /** account -> row key -> row. */
  const counters = new Map<string, Map<string, StatRow>>()

  const bySeq = (a: QueueItem, b: QueueItem): number => a.seq - b.seq

  return {
    async loadSettings(account) {
      const record = settings.get(account)
      return record === undefined ? undefined : structuredClone(record)
    },

    async settingsVersion(account) {
      return settings.get(account)?.version ?? 0
    },

    async saveSettings(account, record, expectedVersion) {
      const current = settings.get(account)?.version ?? 0
      if (current !== expectedVersion) return false
      settings.set(account, structuredClone(record))
      return true
    },

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

    async useJobId(account, jobId, nowMs, windowMs, limit) {
      let seen = jobIds.get(account)
      if (seen === undefined) {
        seen = new Map()
        jobIds.set(account, seen)
      }
      const since = nowMs - windowMs
      for (const [id, at] of seen) if (at <= since) seen.delete(id)
      if (seen.has(jobId) || seen.size < limit) {
        seen.set(jobId, Math.max(nowMs, seen.get(jobId) ?? nowMs))
        return { accepted: true, count: seen.size }
      }
      return { accepted: false, count: seen.size }
    },

    async addCounters(account, dims, bucketStartMs, add) {
      let rows = counters.get(account)
      if (rows === undefined) {
        rows = new Map()
        counters.set(account, rows)
      }
      const k = JSON.stringify([dims.configId, dims.app, dims.language, bucketStartMs])
      let row = rows.get(k)
      if (row === undefined) {
        row = { configId: dims.configId, app: dims.app, language: dims.language, bucketStart: bucketStartMs, counters: zeroCounters() }
        rows.set(k, row)
      }
      for (const name of COUNTER_NAMES) {
        const v = add[name]
        if (typeof v === 'number' && Number.isFinite(v)) row.counters[name] += v
      }
    },

    async readCounters(account, fromMs, toMs) {
      const rows = counters.get(account)
      if (rows === undefined) return []
      return [...rows.values()]
        .filter((r) => r.bucketStart >= fromMs && r.bucketStart < toMs)
        .sort(compareRows)
        .map((r) => structuredClone(r))
    },

    async close() {},
  }
}

/** Matches the retrieval filter: by configuration only items without a job id (spec rule 10), or by job id. */
export function filterMatcher(filter: TakeFilter): (item: QueueItem) => boolean {
  if ('jobId' in filter) return (i) => i.jobId === filter.jobId
  return (i) => i.configId === filter.configId && i.jobId === undefined
}

/** Stable order of statistics rows: bucket start, then configuration, app and language. */
export function compareRows(a: StatRow, b: StatRow): number {
  return (
    a.bucketStart - b.bucketStart ||
    cmp(a.configId, b.configId) ||
    cmp(a.app, b.app) ||
    cmp(a.language, b.language)
  )
}

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0
}
