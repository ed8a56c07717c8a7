/**
 * The background worker of an engine: it claims queued items from the storage (with a lease), analyses each under
 * the configuration it was submitted to (in-process or on the worker-thread pool, through an {@link Executor}),
 * and stores the outcome.
 *
 * - It polls: while nothing is claimable (or the storage is unreachable) it waits `pollMinMs`, doubling up to
 *   `pollMaxMs`; a submission wakes it at once. So an engine started over a storage that already holds work (a
 *   restart, or a surviving process whose peer died) drains it on its own, and leases that expired in any process
 *   are reclaimed by the next claim.
 * - Leases of held items are extended while they wait or are analysed, so a long collection is not taken over by
 *   another process; an item whose lease was lost anyway is not completed (its new holder does it).
 * - Nothing it starts can reject unhandled: storage errors are caught, logged once per outage (`warn`, then `info`
 *   when the storage answers again) and retried with back-off; an analysis error fails that item only.
 * - An item claimed more than {@link MAX_ATTEMPTS} times (every earlier holder died while analysing it) is stored
 *   FAILED instead of being analysed again: one text that kills its process cannot take down every process in turn.
 * - `stop()` ends polling, gives claimed items that were not finished back to the queue (`releaseItem`) and waits
 *   for the current step; no timer it leaves keeps the process alive.
 */
import type { CollectionOutput, DocumentOutput } from '../model/output.ts'
import type { Subscription } from '../model/account.ts'
import { isStorageUnavailable, type ClaimOptions, type CollectionInput, type DocumentInput, type QueueItem, type Storage, type StoredConfiguration } from '../storage/types.ts'
import { storableOutcome } from '../storage/values.ts'
import type { DocumentMeta } from './analysis.ts'
import type { ProcessedEvent } from './options.ts'

/** Claims of one item (each by a process that then died) after which it is failed rather than analysed again. */
export const MAX_ATTEMPTS = 3

/** Where analysis runs: in-process (one at a time, yielding between texts) or on the worker-thread pool. */
export interface Executor {
  /** Items worth holding at once (claimed and waiting or being analysed). */
  readonly capacity: number
  document(text: string, meta: DocumentMeta, stored: StoredConfiguration, subscription: Subscription, cacheKey: string): Promise<DocumentOutput>
  collection(texts: readonly string[], meta: DocumentMeta, stored: StoredConfiguration, subscription: Subscription, cacheKey: string): Promise<CollectionOutput>
  /** True for the rejection of a task the executor gave up because it is closing (the item goes back to the queue). */
  isStopped(e: unknown): boolean
}

/** What the background worker needs to know of an account. */
export interface WorkerAccount {
  readonly subscription: Subscription
  find(configId: string): Promise<StoredConfiguration | undefined>
  countOutcome(configId: string, language: string, processed: boolean): Promise<void>
}

/** Options of {@link createBackgroundWorker}. */
export interface BackgroundWorkerOptions {
  readonly storage: Storage
  readonly executor: Executor
  readonly accountOf: (key: string) => WorkerAccount | undefined
  readonly now: () => number
  /** Run the polling loop (false: work happens only in `drain()`). */
  readonly background: boolean
  readonly workerBatch: number
  readonly leaseMs: number
  readonly pollMinMs: number
  readonly pollMaxMs: number
  readonly warn: (message: string) => void
  readonly info: (message: string) => void
  readonly onCallback: ((event: ProcessedEvent) => void) | undefined
}

/** The background worker. */
export interface BackgroundWorker {
  /** Items were queued: look for work now. */
  notify(): void
  /** Process until nothing is claimable; retries while the storage is unreachable; resolves early on `stop()`. */
  drain(): Promise<void>
  /** Items finished per second over the last few seconds (for Retry-After estimates). */
  rate(): number
  stop(): Promise<void>
}

const errorText = (e: unknown): string => (e instanceof Error ? e.message : String(e))

/** Create the background worker; with `background` it starts polling now. */
export function createBackgroundWorker(o: BackgroundWorkerOptions): BackgroundWorker {
  const { storage, executor } = o
  const claimOptions: ClaimOptions = { leaseMs: o.leaseMs }
  let stopped = false

  // ---- outage reporting: one line when it starts, one when it ends ----
  let downSince: number | undefined
  const failed = (e: unknown, what: string): void => {
    if (downSince !== undefined) return
    downSince = Date.now()
    o.warn(
      isStorageUnavailable(e)
        ? `textengine: storage unavailable while ${what} (${errorText(e)}); background work paused, retrying every ${o.pollMaxMs} ms at most`
        : `textengine: background work failed while ${what} (${errorText(e)}); retrying every ${o.pollMaxMs} ms at most`,
    )
  }
  const recovered = (): void => {
    if (downSince === undefined) return
    o.info(`textengine: storage answers again after ${((Date.now() - downSince) / 1000).toFixed(1)} s; background work resumed`)
    downSince = undefined
  }

  // ---- throughput, per second, over the last 10 seconds ----
  const buckets = new Map<number, number>()
  const counted = (): void => {
    const sec = Math.floor(Date.now() / 1000)
    buckets.set(sec, (buckets.get(sec) ?? 0) + 1)
    for (const k of buckets.keys()) if (k < sec - 10) buckets.delete(k)
  }
  const rate = (): number => {
    const sec = Math.floor(Date.now() / 1000)
    let n = 0
    for (const [k, v] of buckets) if (k >= sec - 10 && k < sec) n += v
    return n / 10
  }

  // ---- waits that stop() cuts short and that never keep the process alive ----
  const pauses = new Set<() => void>()
  const pause = (ms: number): Promise<void> =>
    new Promise<void>((resolve) => {
      const done = (): void => {
        clearTimeout(timer)
        pauses.delete(done)
        resolve()
      }
      const timer = setTimeout(done, ms)
      timer.unref()
      pauses.add(done)
    })

  // ---- leases: held items are extended every third of the lease ----
  const held = new Set<QueueItem>()
  const lost = new Set<QueueItem>()
  let keeper: ReturnType<typeof setInterval> | undefined
  const keep = (): void => {
    if (held.size === 0 || keeper !== undefined) return
    keeper = setInterval(() => {
      if (held.size === 0) {
        clearInterval(keeper)
        keeper = undefined
        return
      }
      for (const item of held) {
        storage.extendLease(item, claimOptions).then(
          (until) => {
            // An item finished meanwhile has no lease left to extend; only one still held was lost.
            if (until === undefined) {
              if (held.has(item)) lost.add(item)
            } else item.leaseExpiresAt = until
          },
          (e: unknown) => failed(e, 'extending a lease'),
        )
      }
    }, Math.max(50, Math.floor(o.leaseMs / 3)))
    keeper.unref()
  }

  const release = async (item: QueueItem): Promise<void> => {
    try {
      await storage.releaseItem(item)
    } catch {
      // Unreachable storage: the lease expires and the item is claimed again then.
    }
  }

  /**
   * Store an outcome; while the storage is unreachable, keep it and try again with back-off (the analysis is not
   * redone, and the item does not wait for its lease to expire). Undefined when the engine stopped first: the item's
   * lease then expires and it is analysed again wherever it is claimed next.
   */
  async function complete(outcome: QueueItem, handOver: boolean): Promise<boolean | undefined> {
    let delay = o.pollMinMs
    for (;;) {
      try {
        return await storage.completeItem(outcome, { handOver })
      } catch (e) {
        if (!isStorageUnavailable(e)) throw e
        failed(e, `storing the outcome of ${outcome.kind} ${outcome.id}`)
        if (stopped) return undefined
        await pause(delay)
        delay = Math.min(o.pollMaxMs, delay * 2)
        if (stopped) return undefined
      }
    }
  }

  /** Analyse one claimed item and store its outcome. Never rejects. */
  async function handle(item: QueueItem): Promise<void> {
    held.add(item)
    keep()
    try {
      if (stopped) return await release(item)
      const account = o.accountOf(item.account)
      const fail = (reason: string): QueueItem => ({
        ...item,
        status: 'FAILED',
        finishedAt: o.now(),
        output: {
          id: item.id,
          config_id: item.configId,
          ...(item.jobId !== undefined ? { job_id: item.jobId } : {}),
          ...(item.input.tag !== undefined ? { tag: item.input.tag } : {}),
          status: 'FAILED',
          failure_reason: reason,
        },
      })
      let done: QueueItem
      let callback: string | undefined
      if ((item.attempts ?? 1) > MAX_ATTEMPTS) {
        done = fail(`analysis was interrupted ${MAX_ATTEMPTS} times (the process analysing it stopped each time); not retried`)
      } else {
        let stored: StoredConfiguration | undefined
        try {
          stored = account === undefined ? undefined : await account.find(item.configId)
        } catch (e) {
          if (isStorageUnavailable(e)) throw e
          stored = undefined
        }
        if (account === undefined || stored === undefined) done = fail(`configuration ${item.configId} no longer exists`)
        else {
          callback = stored.configuration.callback
          const meta: DocumentMeta = { id: item.id, jobId: item.jobId, tag: item.input.tag, metadata: item.input.metadata }
          const cacheKey = `${item.account}/${item.configId}`
          try {
            const output =
              item.kind === 'document'
                ? await executor.document((item.input as DocumentInput).text, meta, stored, account.subscription, cacheKey)
                : await executor.collection((item.input as CollectionInput).documents, meta, stored, account.subscription, cacheKey)
            done = { ...item, status: output.status === 'FAILED' ? 'FAILED' : 'PROCESSED', finishedAt: o.now(), output }
          } catch (e) {
            if (executor.isStopped(e)) return await release(item)
            done = fail(`analysis failed: ${errorText(e)}`)
          }
        }
      }
      // Another process holds it now (our lease ran out): its outcome is the one kept.
      if (lost.has(item)) return
      // What a callback sends must be exactly what was stored: an output the storage cannot keep (an engine bug such
      // as a NaN score) is stored FAILED, so check it first then. Without a callback the storage's own check (it
      // copies the output once) suffices; statistics then count such an item as processed.
      const delivers = callback !== undefined && callback !== '' && o.onCallback !== undefined
      const outcome = delivers ? storableOutcome(done) : done
      // The output is read below only for its language (before anything else runs), unless a callback sends it: it is
      // handed over to the storage then, which may keep the object itself for its taker.
      const language = outcome.output !== undefined && 'language' in outcome.output && typeof outcome.output.language === 'string' ? outcome.output.language : ''
      const storedOk = await complete(outcome, !delivers)
      if (storedOk === undefined) return
      counted()
      if (storedOk && outcome.output !== undefined) {
        const out = outcome.output
        await account?.countOutcome(item.configId, language, outcome.status === 'PROCESSED')
        if (delivers && callback !== undefined && o.onCallback !== undefined) {
          try {
            o.onCallback({ account: item.account, configId: item.configId, callback, kind: item.kind, output: out })
          } catch (e) {
            o.warn(`textengine: onCallback threw for ${item.kind} ${item.id}: ${errorText(e)}`)
          }
        }
      }
    } catch (e) {
      // The storage failed mid-way: the item keeps its lease and is claimed again once it expires.
      failed(e, `storing the outcome of ${item.kind} ${item.id}`)
    } finally {
      held.delete(item)
      lost.delete(item)
    }
  }

  /** Claim and process until nothing is claimable and nothing is in flight; returns how many items were handled. */
  async function pass(): Promise<number> {
    let handled = 0
    const inflight = new Set<Promise<void>>()
    const capacity = Math.max(1, executor.capacity)
    try {
      while (!stopped) {
        // Refill when half the capacity is free (fewer, larger claims), or when idle.
        if (inflight.size > 0 && inflight.size > capacity / 2) {
          await Promise.race(inflight)
          continue
        }
        const items = await storage.claimQueued(Math.min(capacity - inflight.size, o.workerBatch), claimOptions)
        recovered()
        if (items.length === 0) {
          if (inflight.size === 0) break
          await Promise.race(inflight)
          continue
        }
        for (const item of items) {
          if (stopped) {
            await release(item)
            continue
          }
          const p: Promise<void> = handle(item).then(() => {
            handled++
            inflight.delete(p)
          })
          inflight.add(p)
        }
      }
    } finally {
      await Promise.all(inflight)
    }
    return handled
  }

  // ---- one pass at a time ----
  let chain: Promise<unknown> = Promise.resolve()
  const serial = (): Promise<number> => {
    const p = chain.then(
      () => pass(),
      () => pass(),
    )
    chain = p.catch(() => {})
    return p
  }

  // ---- polling with back-off; notify() wakes it ----
  let poked = false
  let wake: (() => void) | undefined
  const sleep = (ms: number): Promise<void> =>
    new Promise<void>((resolve) => {
      if (poked || stopped) return resolve()
      const timer = setTimeout(done, ms)
      // A sleeping engine never keeps the process alive (a server's listener does that).
      timer.unref()
      wake = done
      function done(): void {
        clearTimeout(timer)
        wake = undefined
        resolve()
      }
    })

  let loopDone: Promise<void> = Promise.resolve()
  if (o.background) {
    loopDone = (async () => {
      let delay = o.pollMinMs
      while (!stopped) {
        poked = false
        try {
          const n = await serial()
          delay = n > 0 ? o.pollMinMs : Math.min(o.pollMaxMs, delay * 2)
        } catch (e) {
          failed(e, 'claiming queued items')
          delay = Math.min(o.pollMaxMs, delay * 2)
        }
        await sleep(delay)
      }
    })().catch((e: unknown) => {
      // Nothing above throws; should a bug make it, report it rather than leave an unhandled rejection.
      o.warn(`textengine: background worker stopped: ${errorText(e)}`)
    })
  }

  return {
    notify() {
      poked = true
      wake?.()
    },
    async drain() {
      let delay = o.pollMinMs
      while (!stopped) {
        try {
          await serial()
          return
        } catch (e) {
          if (!isStorageUnavailable(e)) throw e
          failed(e, 'draining the queue')
          await sleep(delay)
          poked = false
          delay = Math.min(o.pollMaxMs, delay * 2)
        }
      }
    },
    rate,
    async stop() {
      stopped = true
      wake?.()
      for (const p of [...pauses]) p()
      await loopDone
      await chain
      if (keeper !== undefined) clearInterval(keeper)
      keeper = undefined
    },
  }
}
