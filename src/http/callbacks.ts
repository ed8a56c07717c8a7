import { encodeJson } from '../codecs/json.ts'
import type { ProcessedEvent } from '../engine/options.ts'

/** One delivery attempt's outcome, for logging. */
export interface DeliveryLogEntry {
  readonly url: string
  readonly items: number
  readonly attempt: number
  /** HTTP status answered, when there was an answer. */
  readonly status: number | undefined
  readonly outcome: 'delivered' | 'retrying' | 'gave-up'
  readonly error: string | undefined
}

/** Options of {@link createCallbackDelivery}. Every field is optional. */
export interface CallbackDeliveryOptions {
  /** HTTP client used to POST. @defaultValue globalThis.fetch */
  readonly fetch?: typeof fetch
  /**
   * Items per POST for an account (the subscription's `callback_batch_limit`).
   * @defaultValue 100 for every account
   */
  readonly batchLimitOf?: (account: string) => number | Promise<number>
  /** Attempts per batch before it is dropped. @defaultValue 5 */
  readonly maxAttempts?: number
  /** Delay before the first retry; doubled each time. @defaultValue 500 ms */
  readonly baseDelayMs?: number
  /** Longest delay between retries. @defaultValue 30000 ms */
  readonly maxDelayMs?: number
  /** Time allowed for one POST. @defaultValue 10000 ms */
  readonly timeoutMs?: number
  /** Called after every attempt. @defaultValue none */
  readonly log?: (entry: DeliveryLogEntry) => void
}

/** The delivery queue of processed items to configurations' callback URLs. */
export interface CallbackDelivery {
  /** Queue one processed item (pass as the engine's `onCallback`); never blocks, never throws. */
  push(event: ProcessedEvent): void
  /** Resolves once every queued item has been delivered or given up on, retries included. */
  flush(): Promise<void>
  /** Items queued or in flight. */
  pending(): number
  /** Items given up on after `maxAttempts` since creation. */
  dropped(): number
  /** Stop retrying: waiting retries are dropped at once and `flush` resolves. */
  close(): void
}

interface Batch {
  readonly url: string
  readonly account: string
  readonly items: unknown[]
  attempt: number
}

/**
 * Create the callback delivery queue: processed items (engine `onCallback` events) are grouped by account,
 * configuration, kind and URL, and POSTed as a JSON array of at most `callback_batch_limit` items
 * (`Content-Type: application/json`). A failed POST (network error, timeout, or a status other than 2xx) is retried
 * with exponential backoff up to `maxAttempts`, then dropped and counted. All work runs off the request path on
 * timers; `flush()` lets tests and shutdown wait for it.
 */
export function createCallbackDelivery(options: CallbackDeliveryOptions = {}): CallbackDelivery {
  const doFetch = options.fetch ?? globalThis.fetch
  const maxAttempts = options.maxAttempts ?? 5
  const baseDelayMs = options.baseDelayMs ?? 500
  const maxDelayMs = options.maxDelayMs ?? 30_000
  const timeoutMs = options.timeoutMs ?? 10_000
  for (const [name, v] of [['maxAttempts', maxAttempts], ['baseDelayMs', baseDelayMs], ['maxDelayMs', maxDelayMs], ['timeoutMs', timeoutMs]] as const) {
    if (typeof v !== 'number' || !Number.isFinite(v) || v < (name === 'maxAttempts' ? 1 : 0)) {
      throw new TypeError(`createCallbackDelivery: options.${name} must be a number >= ${name === 'maxAttempts' ? 1 : 0}, found ${String(v)}`)
    }
  }
  // Items not yet grouped into a batch, in arrival order, keyed by account/config/kind/url.
  const waiting = new Map<string, { url: string; account: string; items: unknown[] }>()
  // Timers pending (dispatch or retry), with the number of items a retry timer holds.
  const timers = new Map<ReturnType<typeof setTimeout>, number>()
  let inFlight = 0
  let inFlightItems = 0
  let queued = 0
  let droppedCount = 0
  let scheduled = false
  let closed = false
  let idleWaiters: Array<() => void> = []

  const settleIfIdle = (): void => {
    if (queued === 0 && inFlight === 0 && timers.size === 0 && !scheduled) {
      const w = idleWaiters
      idleWaiters = []
      for (const f of w) f()
    }
  }

  async function attempt(batch: Batch): Promise<void> {
    batch.attempt++
    let status: number | undefined
    let error: string | undefined
    try {
      const response = await doFetch(batch.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json; charset=utf-8' },
        body: encodeJson(batch.items),
        signal: AbortSignal.timeout(timeoutMs),
      })
      status = response.status
      await response.arrayBuffer().catch(() => undefined)
      if (status >= 200 && status < 300) {
        options.log?.({ url: batch.url, items: batch.items.length, attempt: batch.attempt, status, outcome: 'delivered', error: undefined })
        return
      }
      error = `callback answered ${status}`
    } catch (e) {
      error = e instanceof Error ? e.message : String(e)
    }
    if (batch.attempt >= maxAttempts || closed) {
      droppedCount += batch.items.length
      options.log?.({ url: batch.url, items: batch.items.length, attempt: batch.attempt, status, outcome: 'gave-up', error })
      return
    }
    options.log?.({ url: batch.url, items: batch.items.length, attempt: batch.attempt, status, outcome: 'retrying', error })
    const delay = Math.min(maxDelayMs, baseDelayMs * 2 ** (batch.attempt - 1))
    const timer = setTimeout(() => {
      timers.delete(timer)
      send(batch)
    }, delay)
    timer.unref?.()
    timers.set(timer, batch.items.length)
  }

  function send(batch: Batch): void {
    inFlight++
    inFlightItems += batch.items.length
    void attempt(batch).finally(() => {
      inFlight--
      inFlightItems -= batch.items.length
      settleIfIdle()
    })
  }

  async function dispatch(): Promise<void> {
    scheduled = false
    const groups = [...waiting.values()]
    waiting.clear()
    for (const g of groups) {
      queued -= g.items.length
      let limit = 100
      try {
        const l = await (options.batchLimitOf?.(g.account) ?? 100)
        if (Number.isInteger(l) && l >= 1) limit = l
      } catch {
        // keep the default batch size when the limit cannot be read
      }
      for (let i = 0; i < g.items.length; i += limit) send({ url: g.url, account: g.account, items: g.items.slice(i, i + limit), attempt: 0 })
    }
    settleIfIdle()
  }

  return {
    push(event) {
      if (closed) {
        droppedCount++
        return
      }
      const key = `${event.account}\u0000${event.configId}\u0000${event.kind}\u0000${event.callback}`
      let group = waiting.get(key)
      if (group === undefined) {
        group = { url: event.callback, account: event.account, items: [] }
        waiting.set(key, group)
      }
      group.items.push(event.output)
      queued++
      if (!scheduled) {
        scheduled = true
        // Items processed in one worker pass arrive within a few turns of the event loop: group them.
        const timer = setTimeout(() => {
          timers.delete(timer)
          void dispatch()
        }, 10)
        timer.unref?.()
        timers.set(timer, 0)
      }
    },
    flush() {
      return new Promise<void>((resolve) => {
        idleWaiters.push(resolve)
        settleIfIdle()
      })
    },
    pending: () => queued + inFlightItems + [...timers.values()].reduce((a, b) => a + b, 0),
    dropped: () => droppedCount,
    close() {
      closed = true
      for (const [t, items] of timers) {
        clearTimeout(t)
        droppedCount += items
      }
      timers.clear()
      scheduled = false
      droppedCount += queued
      queued = 0
      waiting.clear()
      settleIfIdle()
    },
  }
}
