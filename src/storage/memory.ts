import { randomUUID } from 'node:crypto'
import { deflateRawSync, inflateRawSync } from 'node:zlib'
import type { StatisticsCounters } from '../model/account.ts'
import { StorageValueError } from './errors.ts'
import { Heap } from './heap.ts'
import type { HeapNode } from './heap.ts'
import { DEFAULT_LEASE_MS } from './types.ts'
import type { ClaimOptions, ItemKey, ItemKind, QueueItem, QueueStatus, SettingsRecord, StatRow, Storage, StorageOptions, TakeFilter } from './types.ts'
import { checkStorable, failedOutcome, storableCopy } from './values.ts'

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

function isFinished(status: QueueStatus): boolean {
  return status === 'PROCESSED' || status === 'FAILED'
}

/** Name of the finished-items index an item belongs to: its job id when it has one, else its configuration. */
function groupKey(account: string, kind: ItemKind, filter: TakeFilter): string {
  return 'jobId' in filter ? JSON.stringify([account, kind, 'job', filter.jobId]) : JSON.stringify([account, kind, 'config', filter.configId])
}

/** A stored item. A new entry per put; `gen` changes on every state change, which kills its older heap nodes. */
interface Entry {
  readonly key: string
  /** The item as put (deeply frozen, without status, output, finishedAt or lease fields). */
  readonly base: Readonly<Stored>
  status: QueueStatus
  gen: number
  claim: string | undefined
  leaseExpiresAt: number
  attempts: number
  finishedAt: number | undefined
  /** The output as UTF-8 JSON (encoded once when stored; a fresh object is parsed on each read). */
  output: Buffer | undefined
  /** `output` is deflated (stored while the held outputs passed {@link MemoryStorageOptions.compressOutputsAbove}). */
  packed: boolean
  /** Bytes of the output's UTF-8 JSON (the inflated size of a packed one). */
  rawLength: number
  /**
   * The output object itself, handed over by the one who completed the item (`completeItem(item, { handOver: true })`)
   * and not encoded: the first taker receives it as it is; any other read gets a copy.
   */
  live: NonNullable<QueueItem['output']> | undefined
  group: Group | undefined
}

/** Finished items of one (account, kind, configuration or job id), by seq. */
interface Group {
  readonly key: string
  readonly heap: Heap<Entry>
  live: number
}

/** Lease fields never stored with an item. */
type Stored = Omit<QueueItem, 'status' | 'claim' | 'leaseExpiresAt' | 'attempts' | 'output' | 'finishedAt'>

/** Options of {@link createMemoryStorage}. */
export interface MemoryStorageOptions extends StorageOptions {
  /**
   * Bytes of stored outputs (UTF-8 JSON) past which further outputs are kept deflated (raw deflate, level 1: a quarter
   * of the bytes for tweets, a ninth for news, for about 5% of an analysis' CPU to pack and less to unpack). A short queue keeps the fastest
   * form; a long backlog of finished items, the compact one. 0 packs every output, Infinity none.
   * @defaultValue {@link COMPRESS_OUTPUTS_ABOVE}
   */
  compressOutputsAbove?: number
}

/** Default of {@link MemoryStorageOptions.compressOutputsAbove}: 8 MiB (about 2,000 typical document outputs). */
export const COMPRESS_OUTPUTS_ABOVE = 8 * 1024 * 1024

/**
 * Outputs handed over (see {@link Storage.completeItem}) kept as objects at most; past them, handed-over outputs are
 * encoded as any other. A consumer that keeps up takes objects without an encoding and a parse each (about a tenth
 * of a tweet's analysis); a backlog stays compact.
 */
export const LIVE_OUTPUTS = 1000

/** Checks a lease length in ms. */
export function checkLeaseMs(v: unknown, where: string): number {
  if (typeof v !== 'number' || !(v > 0) || !Number.isFinite(v)) {
    throw new TypeError(`${where} should be a finite number of milliseconds above 0, instead found ${typeof v === 'number' ? String(v) : typeof v}`)
  }
  return v
}

/**
 * The default storage: everything in memory, lost when the process ends. Each method runs to completion
 * without awaiting anything in between, so each is atomic.
 *
 * Inputs are copied once when stored (`putItems`: a walk that also refuses what Redis could not keep) and
 * deeply frozen; reads hand out those frozen objects without copying, inside a fresh shallow item object.
 * Outputs (`completeItem`, finished items put) are checked by the same walk and kept encoded, as UTF-8 JSON
 * bytes ({@link encodeOutput}), deflated once the outputs held pass `compressOutputsAbove` bytes; each read parses a fresh
 * output object. Callers can therefore never change
 * stored state through a reference they passed (it was copied or encoded) or received (a frozen input, whose
 * writes throw in strict code, or a fresh output).
 *
 * Indexes keep every queue operation at O(items touched · log n): a heap of QUEUED items by seq, a heap of
 * leases by expiry (ties by item key, as Redis orders a sorted set), a heap of finished items by seq per (account, kind, configuration or job id), a heap of
 * every item by submission time (purge), and a count of unfinished items per account. Heaps delete lazily
 * and compact themselves when dead nodes outnumber live ones.
 */
export function createMemoryStorage(options: MemoryStorageOptions = {}): Storage {
  const defaultLeaseMs = options.leaseMs === undefined ? DEFAULT_LEASE_MS : checkLeaseMs(options.leaseMs, 'createMemoryStorage: options.leaseMs')
  const clock = options.now ?? Date.now
  const packAbove = options.compressOutputsAbove ?? COMPRESS_OUTPUTS_ABOVE
  if (typeof packAbove !== 'number' || !(packAbove >= 0)) {
    throw new TypeError(`createMemoryStorage: options.compressOutputsAbove should be a number of bytes >= 0, instead found ${String(packAbove)}`)
  }
  /** Bytes of every stored output as kept (packed or not). */
  let outputBytes = 0
  /** Entries holding a handed-over output object. */
  let liveOutputs = 0
  const settings = new Map<string, SettingsRecord>()
  const items = new Map<string, Entry>()
  /** QUEUED entries by seq. */
  const queued = new Heap<Entry>()
  let queuedLive = 0
  /** PROCESSING entries by lease expiry, then item key (as Redis orders its lease sorted set). */
  const leases = new Heap<Entry>()
  let processingLive = 0
  /** Every entry by submittedAt, then seq. */
  const bySubmission = new Heap<Entry>()
  const groups = new Map<string, Group>()
  /** account -> QUEUED + PROCESSING items. */
  const pending = new Map<string, number>()
  /** account -> job id -> last time seen (epoch ms). */
  const jobIds = new Map<string, Map<string, number>>()
  /** account -> row key -> row. */
  const counters = new Map<string, Map<string, StatRow>>()
  const claimPrefix = randomUUID()
  let claims = 0
  let nextGen = 0

  const isCurrent = (e: Entry): boolean => items.get(e.key) === e
  const liveQueued = (n: HeapNode<Entry>): boolean => n.gen === n.entry.gen && n.entry.status === 'QUEUED' && isCurrent(n.entry)
  const liveLease = (n: HeapNode<Entry>): boolean => n.gen === n.entry.gen && n.entry.status === 'PROCESSING' && isCurrent(n.entry)
  const liveDone = (n: HeapNode<Entry>): boolean => n.gen === n.entry.gen && isFinished(n.entry.status) && isCurrent(n.entry)
  const liveEntry = (n: HeapNode<Entry>): boolean => isCurrent(n.entry)

  /** Compact a heap whose dead nodes outnumber its live ones (amortised O(1) per operation). */
  function tidy(heap: Heap<Entry>, live: number, isLive: (n: HeapNode<Entry>) => boolean): void {
    if (heap.size > 64 && heap.size > 2 * live) heap.compact(isLive)
  }

  function addPending(account: string, delta: number): void {
    const n = (pending.get(account) ?? 0) + delta
    if (n === 0) pending.delete(account)
    else pending.set(account, n)
  }

  /** Leave the current state (its counters; its heap nodes die with the new gen). */
  function leave(e: Entry): void {
    e.gen = ++nextGen
    if (e.status === 'QUEUED') {
      queuedLive--
      addPending(e.base.account, -1)
    } else if (e.status === 'PROCESSING') {
      processingLive--
      addPending(e.base.account, -1)
    } else if (e.group !== undefined) {
      const g = e.group
      e.group = undefined
      if (--g.live === 0) groups.delete(g.key)
    }
    e.claim = undefined
  }

  function enterQueued(e: Entry): void {
    e.status = 'QUEUED'
    queuedLive++
    addPending(e.base.account, 1)
    queued.push({ a: e.base.seq, b: 0, c: e.key, entry: e, gen: e.gen })
    tidy(queued, queuedLive, liveQueued)
  }

  function enterProcessing(e: Entry, claim: string, expiresAt: number): void {
    e.status = 'PROCESSING'
    e.claim = claim
    e.leaseExpiresAt = expiresAt
    processingLive++
    addPending(e.base.account, 1)
    leases.push({ a: expiresAt, b: 0, c: e.key, entry: e, gen: e.gen })
    tidy(leases, processingLive, liveLease)
  }

  function enterFinished(e: Entry, status: QueueStatus): void {
    e.status = status
    const b = e.base
    const k = groupKey(b.account, b.kind, b.jobId === undefined ? { configId: b.configId } : { jobId: b.jobId })
    let g = groups.get(k)
    if (g === undefined) {
      g = { key: k, heap: new Heap<Entry>(), live: 0 }
      groups.set(k, g)
    }
    g.live++
    e.group = g
    g.heap.push({ a: b.seq, b: 0, c: e.key, entry: e, gen: e.gen })
    tidy(g.heap, g.live, liveDone)
  }

  /** Keep `encoded` as the output of `e` (packed once the held outputs passed the bound), or none. */
  function setOutput(e: Entry, encoded: Buffer | undefined): void {
    if (e.live !== undefined) {
      e.live = undefined
      liveOutputs--
    }
    const pack = encoded !== undefined && outputBytes >= packAbove
    const kept = pack ? pack1(encoded) : encoded
    if (e.output !== undefined) outputBytes -= e.output.length
    e.packed = pack
    e.rawLength = encoded === undefined ? 0 : encoded.length
    e.output = kept
    if (kept !== undefined) outputBytes += kept.length
  }

  function remove(e: Entry): void {
    leave(e)
    setOutput(e, undefined)
    items.delete(e.key)
    tidy(bySubmission, items.size, liveEntry)
  }

  /**
   * The item as callers see it: a fresh shallow object over the frozen stored input, and a fresh output. `taking`: the
   * entry is removed right after, so a handed-over output object goes to the caller as it is.
   */
  function view(e: Entry, taking = false): QueueItem {
    const out: QueueItem = { ...e.base, status: e.status }
    if (e.finishedAt !== undefined) out.finishedAt = e.finishedAt
    if (e.live !== undefined) out.output = taking ? e.live : (JSON.parse(JSON.stringify(e.live)) as NonNullable<QueueItem['output']>)
    else if (e.output !== undefined) out.output = decodeOutput(e.packed ? inflateRawSync(e.output, { chunkSize: Math.max(64, e.rawLength) }) : e.output)
    return out
  }

  /** The stored part of an item: a frozen copy without state, output or lease fields. */
  function storedPart(item: QueueItem, path: string): Readonly<Stored> {
    const { status: _s, claim: _c, leaseExpiresAt: _l, attempts: _a, output: _o, finishedAt: _f, ...rest } = item
    checkKey(item, path)
    return storableCopy(rest, path, true)
  }

  function claimOptions(o: ClaimOptions | undefined, where: string): { nowMs: number; leaseMs: number } {
    const nowMs = o?.nowMs ?? clock()
    if (typeof nowMs !== 'number' || !Number.isFinite(nowMs)) throw new TypeError(`${where}: nowMs should be a finite number, instead found ${String(nowMs)}`)
    const leaseMs = o?.leaseMs === undefined ? defaultLeaseMs : checkLeaseMs(o.leaseMs, `${where}: leaseMs`)
    return { nowMs, leaseMs }
  }

  /** The current entry when `item` holds its lease. */
  function holder(item: QueueItem): Entry | undefined {
    const e = items.get(itemKey(item))
    if (e === undefined || e.status !== 'PROCESSING' || e.base.seq !== item.seq || item.claim === undefined || e.claim !== item.claim) return undefined
    return e
  }

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
      // Copy (and check) everything first so a value that cannot be stored stores nothing.
      const prepared = list.map((item, i) => {
        const path = `items[${i}]`
        const base = storedPart(item, path)
        const finished = isFinished(item.status)
        if (!finished && item.status !== 'QUEUED' && item.status !== 'PROCESSING') throw new StorageValueError(`${path}.status`, `is ${JSON.stringify(item.status)}, not a queue status`)
        const output = finished && item.output !== undefined ? encodeOutput(item.output, `${path}.output`) : undefined
        const finishedAt = finished && item.finishedAt !== undefined ? storableCopy(item.finishedAt, `${path}.finishedAt`, false) : undefined
        return { base, status: item.status, output, finishedAt }
      })
      for (const p of prepared) {
        const key = itemKey(p.base)
        const old = items.get(key)
        if (old !== undefined) remove(old)
        const e: Entry = { key, base: p.base, status: 'QUEUED', gen: ++nextGen, claim: undefined, leaseExpiresAt: 0, attempts: 0, finishedAt: p.finishedAt, output: undefined, packed: false, rawLength: 0, live: undefined, group: undefined }
        setOutput(e, p.output)
        items.set(key, e)
        bySubmission.push({ a: p.base.submittedAt, b: p.base.seq, c: '', entry: e, gen: e.gen })
        // A put item has no lease: PROCESSING is put as QUEUED (claimable at once).
        if (isFinished(p.status)) enterFinished(e, p.status)
        else enterQueued(e)
      }
    },

    async getItem(key) {
      const e = items.get(itemKey(key))
      return e === undefined ? undefined : view(e)
    },

    async claimQueued(limit, o) {
      const { nowMs, leaseMs } = claimOptions(o, 'claimQueued')
      const n = limit === Infinity ? Infinity : Math.trunc(limit)
      if (!(n > 0)) return []
      const got: Entry[] = []
      // Expired leases first (their holder died or stalled), then QUEUED items by seq.
      for (let top = leases.peek(); got.length < n && top !== undefined && top.a <= nowMs; top = leases.peek()) {
        leases.pop()
        if (liveLease(top)) got.push(top.entry)
      }
      while (got.length < n) {
        const top = queued.pop()
        if (top === undefined) break
        if (liveQueued(top)) got.push(top.entry)
      }
      const base = `${claimPrefix}:${++claims}:`
      const expiresAt = nowMs + leaseMs
      const out: QueueItem[] = []
      for (let i = 0; i < got.length; i++) {
        const e = got[i]!
        // QUEUED -> PROCESSING, or PROCESSING -> PROCESSING under a new lease: the pending count does not change.
        e.gen = ++nextGen
        if (e.status === 'QUEUED') {
          queuedLive--
          processingLive++
        }
        e.status = 'PROCESSING'
        e.claim = `${base}${i}`
        e.leaseExpiresAt = expiresAt
        e.attempts++
        leases.push({ a: expiresAt, b: 0, c: e.key, entry: e, gen: e.gen })
        const item = view(e)
        item.claim = e.claim
        item.leaseExpiresAt = expiresAt
        item.attempts = e.attempts
        out.push(item)
      }
      tidy(leases, processingLive, liveLease)
      return out
    },

    async extendLease(item, o) {
      const { nowMs, leaseMs } = claimOptions(o, 'extendLease')
      const e = holder(item)
      if (e === undefined) return undefined
      const claim = e.claim!
      leave(e)
      enterProcessing(e, claim, nowMs + leaseMs)
      return e.leaseExpiresAt
    },

    async releaseItem(item) {
      const e = holder(item)
      if (e === undefined) return false
      leave(e)
      enterQueued(e)
      return true
    },

    async completeItem(item, options) {
      if (!isFinished(item.status)) return false
      const e = holder(item)
      if (e === undefined) return false
      let done = item
      let output: Buffer | undefined
      let live: NonNullable<QueueItem['output']> | undefined
      try {
        if (item.output !== undefined && options?.handOver === true && liveOutputs < LIVE_OUTPUTS) {
          // Checked as an encoded one is, then kept as it is.
          checkStorable(item.output, 'output')
          live = liveCopyOf(item.output)
        } else output = item.output === undefined ? undefined : encodeOutput(item.output, 'output')
      } catch (err) {
        if (!(err instanceof StorageValueError)) throw err
        done = failedOutcome(item, `the output could not be stored: ${err.message}`)
        live = undefined
        output = encodeOutput(done.output!, 'output')
      }
      const finishedAt = done.finishedAt === undefined || !Number.isFinite(done.finishedAt) ? undefined : done.finishedAt
      setOutput(e, output)
      if (live !== undefined) {
        e.live = live
        liveOutputs++
      }
      leave(e)
      e.finishedAt = finishedAt
      enterFinished(e, done.status)
      return true
    },

    async countQueued(account) {
      return pending.get(account) ?? 0
    },

    async takeProcessed(account, kind, filter, limit) {
      const n = limit === Infinity ? Infinity : Math.trunc(limit)
      if (!(n > 0)) return []
      const g = groups.get(groupKey(account, kind, filter))
      const out: QueueItem[] = []
      while (g !== undefined && out.length < n) {
        const top = g.heap.pop()
        if (top === undefined) break
        if (!liveDone(top)) continue
        out.push(view(top.entry, true))
        remove(top.entry)
      }
      return out
    },

    async takeItem(key) {
      const e = items.get(itemKey(key))
      if (e === undefined || !isFinished(e.status)) return undefined
      const out = view(e, true)
      remove(e)
      return out
    },

    async cancelQueued(key) {
      const e = items.get(itemKey(key))
      if (e === undefined) return 'missing'
      if (isFinished(e.status)) return 'not-queued'
      remove(e)
      return 'cancelled'
    },

    async purgeBefore(beforeMs) {
      let removed = 0
      for (let top = bySubmission.peek(); top !== undefined && top.a < beforeMs; top = bySubmission.peek()) {
        bySubmission.pop()
        if (!liveEntry(top)) continue
        remove(top.entry)
        removed++
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

/**
 * An output as stored: checked as {@link storableCopy} checks it (the same values refused, with the same
 * {@link StorageValueError}), then written once as UTF-8 JSON. `JSON.stringify` drops what the copy drops (members
 * holding `undefined`), writes `undefined` array elements and holes as null and -0 as 0, so
 * {@link decodeOutput} gives back the value the copy would have been. A 10k-document backlog holds about a fifth of
 * the memory its outputs take as objects, off the JS heap (the garbage collector never walks it).
 */
export function encodeOutput(output: NonNullable<QueueItem['output']>, path: string): Buffer {
  checkStorable(output, path)
  return Buffer.from(JSON.stringify(output), 'utf8')
}

/**
 * `encoded` deflated into a buffer of its own. Both of zlib's answer and a small `Buffer.from` copy share a larger
 * block (zlib's output chunk, Node's 8 KiB pool) with other, short-lived buffers: a kept slice would hold the whole
 * block, so that packing saved nothing (measured: a 10k backlog held the same array-buffer memory packed or not).
 */
function pack1(encoded: Buffer): Buffer {
  const z = deflateRawSync(encoded, { level: 1, chunkSize: Math.max(64, encoded.length) })
  const own = Buffer.allocUnsafeSlow(z.length)
  z.copy(own)
  return own
}

/**
 * A handed-over output as it will be given out: the object itself, with a shallow copy of its `metadata` (the
 * submitted input's, deeply frozen in the store) so that its taker may change every part of it, as of a decoded one.
 */
function liveCopyOf(output: NonNullable<QueueItem['output']>): NonNullable<QueueItem['output']> {
  const metadata = (output as { metadata?: unknown }).metadata
  if (metadata === undefined || metadata === null || typeof metadata !== 'object' || !Object.isFrozen(metadata)) return output
  ;(output as { metadata?: unknown }).metadata = JSON.parse(JSON.stringify(metadata)) as unknown
  return output
}

/** A fresh output object from its stored form ({@link encodeOutput}). */
export function decodeOutput(stored: Buffer): NonNullable<QueueItem['output']> {
  return JSON.parse(stored.toString('utf8')) as NonNullable<QueueItem['output']>
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

/** Throws StorageValueError unless the key fields of an item are strings and seq, submittedAt finite numbers. */
export function checkKey(item: QueueItem, where: string): void {
  for (const f of ['account', 'kind', 'configId', 'id'] as const) {
    if (typeof item[f] !== 'string') throw new StorageValueError(`${where}.${f}`, `should be a string, instead found ${typeof item[f]}`)
  }
  if (item.kind !== 'document' && item.kind !== 'collection') throw new StorageValueError(`${where}.kind`, `should be "document" or "collection", instead found ${JSON.stringify(item.kind)}`)
  if (item.jobId !== undefined && typeof item.jobId !== 'string') throw new StorageValueError(`${where}.jobId`, `should be a string, instead found ${typeof item.jobId}`)
  if (typeof item.seq !== 'number' || !Number.isFinite(item.seq)) throw new StorageValueError(`${where}.seq`, `should be a finite number, instead found ${String(item.seq)}`)
  if (typeof item.submittedAt !== 'number' || !Number.isFinite(item.submittedAt)) {
    throw new StorageValueError(`${where}.submittedAt`, `should be a finite number, instead found ${String(item.submittedAt)}`)
  }
}

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0
}
