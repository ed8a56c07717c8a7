import type { Configuration } from '../model/configuration.ts'
import type { CollectionOutput, DocumentOutput } from '../model/output.ts'
import type { StatisticsCounters } from '../model/account.ts'
import type { Tuning } from '../model/tuning.ts'

export { StorageUnavailableError, StorageValueError, isStorageUnavailable, isStorageValueError } from './errors.ts'

/**
 * The storage behind an engine: small, async, and the same for every backend (memory by default,
 * Redis as an optional adapter). Every method is atomic on its own; the engine never relies on two
 * calls being atomic together. A contract suite (`test/helpers/storage-contract.ts`) must pass for
 * every implementation.
 *
 * Values: items hold JSON values only (plain objects, arrays, well-formed strings, finite numbers,
 * booleans, null; properties holding `undefined` are dropped, as JSON drops them). Every backend stores
 * exactly what Redis can keep, so memory and Redis answer alike.
 *
 * Returned items are the caller's to read, not to change: the memory storage hands out its stored `input`
 * objects deeply frozen (no copy per read), so changing them throws a TypeError in strict code (every ES
 * module) and can never alter what is stored, and a fresh `output` parsed from the encoded form it keeps;
 * other backends may hand out fresh copies of both.
 * The item object itself (status, seq, ...) is always a fresh shallow object the caller may change.
 *
 * Errors: a backend that cannot be reached throws {@link StorageUnavailableError} quickly (answer 503 with
 * Retry-After); a value that cannot be stored throws {@link StorageValueError} (answer 400).
 *
 * Cost: every queue operation costs O(items it touches) (plus a logarithm), never O(items stored).
 */
export interface Storage {
  /** Read the settings record of an account (all configurations with their tuning). */
  loadSettings(account: string): Promise<SettingsRecord | undefined>
  /**
   * The `version` of an account's stored settings record, 0 when none is stored: a cheap probe, so that a
   * reader holding a copy of that version need not read the whole record again.
   */
  settingsVersion(account: string): Promise<number>
  /**
   * Replace the settings record if its stored `version` still equals `expectedVersion` (0 when none is
   * stored yet); the stored version becomes `record.version`. Returns false, storing nothing, on a conflict.
   */
  saveSettings(account: string, record: SettingsRecord, expectedVersion: number): Promise<boolean>

  /**
   * Insert items; an item with the same key (account, kind, configId, id) replaces the earlier one (and
   * loses any lease it had). All or nothing: when one item holds a value the storage cannot keep, throws
   * {@link StorageValueError} naming it (`items[2].input.metadata.x`) and stores none of them. The stored
   * values are copies: the caller may change its objects afterwards. `claim`/`leaseExpiresAt`/`attempts` of
   * the given items are ignored (a put item has no lease: one put as PROCESSING is stored QUEUED).
   */
  putItems(items: readonly QueueItem[]): Promise<void>
  /** One item by key, whatever its status (does not dequeue). */
  getItem(key: ItemKey): Promise<QueueItem | undefined>
  /**
   * Claim up to `limit` items for processing, oldest first, any account, and return them (status PROCESSING).
   * Claimable are PROCESSING items whose lease expired (claimed by a worker, in any process, that died or
   * stalled: they come first, earliest expiry first, ties in the order of the item key JSON
   * `[account, kind, configId, id]`) and then QUEUED items (lowest `seq` first).
   * Every returned item carries a new lease: `claim` (a token unique to this claim, across processes),
   * `leaseExpiresAt` (`nowMs + leaseMs`) and `attempts` (claims of this item so far, this one included: a
   * value above 1 means an earlier claim was lost, e.g. its process crashed; the caller may fail items
   * that keep coming back). Two concurrent claims never return the same item; a reclaimed item's earlier
   * holder can no longer complete, extend or release it.
   * `limit` as `Array#slice` reads it: below 1 claims nothing, `Infinity` everything claimable.
   */
  claimQueued(limit: number, options?: ClaimOptions): Promise<QueueItem[]>
  /**
   * Extend the lease of a claimed item (long collections): the new expiry is `nowMs + leaseMs`. Only the
   * current holder (same key, `seq` and `claim` as returned by `claimQueued`) can do so, and only while the
   * item is PROCESSING under that claim. Returns the new `leaseExpiresAt`, or undefined when the lease was
   * lost (reclaimed by another worker, cancelled, replaced or purged): stop work on it then.
   */
  extendLease(item: QueueItem, options?: ClaimOptions): Promise<number | undefined>
  /**
   * Give a claimed item back (e.g. on shutdown, before processing it): it becomes QUEUED again at its
   * `seq` position, claimable at once. Only the current holder can; returns whether it was released.
   */
  releaseItem(item: QueueItem): Promise<boolean>
  /**
   * Store the outcome of a claimed item (status PROCESSED or FAILED with `output`), but only for the
   * current lease holder: the stored item must still be PROCESSING with the same `seq` and `claim` (it was
   * not replaced, cancelled, purged or reclaimed after its lease expired). A holder whose lease expired but
   * whose item nobody reclaimed yet still completes it. Returns whether it was stored.
   *
   * An outcome the storage cannot keep (see {@link StorageValueError}: a non-finite number, a lone
   * surrogate, ... in `output`) is not refused and does not throw: the item is stored FAILED with a
   * `failure_reason` naming the value, so it never poisons a later retrieval. Call
   * `storableOutcome` (src/storage/values.ts) first to know exactly what will be stored (e.g. to
   * send the same output to a callback). `claim`, `leaseExpiresAt` are not kept on the finished item.
   *
   * `handOver`: the caller gives up `item.output` (it keeps no reference and will not read or change it again), so
   * a storage in the same process may keep the object itself instead of a copy, and give it as it is to whoever
   * takes the item (`takeProcessed`, `takeItem`; other reads still get copies). A storage may ignore it.
   */
  completeItem(item: QueueItem, options?: { readonly handOver?: boolean }): Promise<boolean>
  /**
   * How many items of an account are QUEUED or PROCESSING (not yet finished): a cheap counter kept
   * incrementally (O(1)), for back-pressure (a bounded queue per account).
   */
  countQueued(account: string): Promise<number>
  /**
   * Remove and return up to `limit` finished (PROCESSED or FAILED) items of an account and kind, oldest
   * first (by `seq`), filtered by configuration or by job id (exactly one of the two). By configuration
   * means that configuration's items submitted without a job id (spec rule 10: content with a job id is
   * retrieved by that job id only).
   */
  takeProcessed(account: string, kind: ItemKind, filter: TakeFilter, limit: number): Promise<QueueItem[]>
  /** Remove and return one finished (PROCESSED or FAILED) item; undefined (nothing removed) otherwise. */
  takeItem(key: ItemKey): Promise<QueueItem | undefined>
  /**
   * Remove a QUEUED (or PROCESSING: it still shows as queued, and its late `completeItem` is then refused)
   * item. Says what it found: removed, a finished item (left as it is), or nothing.
   */
  cancelQueued(key: ItemKey): Promise<'cancelled' | 'not-queued' | 'missing'>
  /**
   * Remove every item submitted before `beforeMs` (epoch ms), whatever its state; returns how many were
   * removed. Costs O(removed) (a time-ordered index), so calling it on every request is cheap.
   */
  purgeBefore(beforeMs: number): Promise<number>

  /**
   * Record the use of `jobId` at `nowMs`. A job id already seen within `windowMs` is always accepted;
   * a new one is accepted only while fewer than `limit` distinct job ids were seen within the window.
   * Returns whether it is accepted, and how many distinct job ids the window holds afterwards.
   */
  useJobId(account: string, jobId: string, nowMs: number, windowMs: number, limit: number): Promise<{ accepted: boolean; count: number }>

  /** Add counters to the bucket of (account, dimensions, bucketStartMs). */
  addCounters(account: string, dims: StatDimensions, bucketStartMs: number, counters: Partial<StatisticsCounters>): Promise<void>
  /** Every counter row of an account whose bucket starts within [fromMs, toMs). */
  readCounters(account: string, fromMs: number, toMs: number): Promise<StatRow[]>

  /** Release connections. */
  close(): Promise<void>
}

/** One configuration with its tuning resources, as stored. */
export interface StoredConfiguration {
  configuration: Configuration
  tuning: Tuning
  /** Increases on every change of the configuration or its tuning (used to cache compiled resources). */
  revision: number
}

/** Everything settings-like of one account. */
export interface SettingsRecord {
  version: number
  configurations: StoredConfiguration[]
}

/** Documents (Detailed) or collections (Discovery). */
export type ItemKind = 'document' | 'collection'

/** The identity of a queued item. */
export interface ItemKey {
  account: string
  kind: ItemKind
  configId: string
  id: string
}

/** Queue states; PROCESSING is internal and shows as QUEUED on the wire. */
export type QueueStatus = 'QUEUED' | 'PROCESSING' | 'PROCESSED' | 'FAILED'

/** A submitted document as kept in the queue. */
export interface DocumentInput {
  text: string
  tag?: string
  metadata?: unknown
}

/** A submitted collection as kept in the queue. */
export interface CollectionInput {
  documents: string[]
  tag?: string
  metadata?: unknown
}

/** An item in the queue: input, state and (once finished) output. */
export interface QueueItem extends ItemKey {
  jobId?: string
  status: QueueStatus
  /** Monotonic submission order, unique per engine (ties broken by nothing else). */
  seq: number
  submittedAt: number
  finishedAt?: number
  input: DocumentInput | CollectionInput
  output?: DocumentOutput | CollectionOutput
  /**
   * Lease token, set on items returned by `claimQueued` (and kept by `{...item}` copies): proves the
   * caller holds the item for `completeItem`, `extendLease` and `releaseItem`. Unique across processes.
   */
  claim?: string
  /** When the lease of `claim` expires (epoch ms, the clock of the claim's `nowMs`); set with `claim`. */
  leaseExpiresAt?: number
  /** How many times the item was claimed, this claim included; set by `claimQueued`. */
  attempts?: number
}

/** Options of `claimQueued` and `extendLease`. */
export interface ClaimOptions {
  /**
   * The time of the claim (epoch ms): leases that expire at or before it are reclaimable.
   * @defaultValue the storage's clock (its `now` option, else `Date.now()`)
   */
  nowMs?: number
  /**
   * How long the lease lasts (ms, > 0). Choose it well above the time one item takes to analyse, or
   * extend the lease while working on long items.
   * @defaultValue the storage's `leaseMs` option, else {@link DEFAULT_LEASE_MS}
   */
  leaseMs?: number
}

/** Default lease (visibility timeout) of a claimed item: 60 s. */
export const DEFAULT_LEASE_MS = 60_000

/** Options shared by every storage backend's factory. */
export interface StorageOptions {
  /** Default lease of `claimQueued` (ms, > 0). @defaultValue {@link DEFAULT_LEASE_MS} */
  leaseMs?: number
  /** Clock for leases when a call gives no `nowMs` (epoch ms). @defaultValue `Date.now` */
  now?: () => number
}

/** Retrieval filter: by configuration or by job id, never both. */
export type TakeFilter = { configId: string } | { jobId: string }

/** Dimensions a statistics counter is kept by. */
export interface StatDimensions {
  configId: string
  app: string
  language: string
}

/** One stored statistics bucket. */
export interface StatRow extends StatDimensions {
  bucketStart: number
  counters: StatisticsCounters
}
