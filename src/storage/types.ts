import type { Configuration } from '../model/configuration.ts'
import type { CollectionOutput, DocumentOutput } from '../model/output.ts'
import type { StatisticsCounters } from '../model/account.ts'
import type { Tuning } from '../model/tuning.ts'

/**
 * The storage behind an engine: small, async, and the same for every backend (memory by default,
 * Redis as an optional adapter). Every method is atomic on its own; the engine never relies on two
 * calls being atomic together. A contract suite (`test/helpers/storage-contract.ts`) must pass for
 * every implementation.
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

  /** Insert items; an item with the same key (account, kind, configId, id) replaces the earlier one. */
  putItems(items: readonly QueueItem[]): Promise<void>
  /** One item by key, whatever its status (does not dequeue). */
  getItem(key: ItemKey): Promise<QueueItem | undefined>
  /**
   * Move up to `limit` QUEUED items (oldest `seq` first, any account) to PROCESSING and return them.
   * Two concurrent claims never return the same item.
   */
  claimQueued(limit: number): Promise<QueueItem[]>
  /**
   * Store the outcome of a claimed item (status PROCESSED or FAILED with `output`), but only when the stored
   * item still has the same `seq` and is PROCESSING (it was not replaced or cancelled meanwhile).
   * Returns whether it was stored.
   */
  completeItem(item: QueueItem): Promise<boolean>
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
  /** Remove every item submitted before `beforeMs` (epoch ms); returns how many were removed. */
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
  /** Configuration revision at submission (informative). */
  input: DocumentInput | CollectionInput
  output?: DocumentOutput | CollectionOutput
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
