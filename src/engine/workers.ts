/**
 * A pool of analysis worker threads (`node:worker_threads`): one analysis core per thread, its models loaded once
 * per thread on first use. The engine hands it documents and collections with the stored configuration they run
 * under; the configuration travels to a thread only the first time that thread sees its revision (a per-thread
 * cache keyed by `account/config_id`), so a task is otherwise its text and identity. Outputs come back by
 * structured clone, which keeps member order, so they serialise to the same JSON bytes as in-process analysis.
 *
 * The threads never keep the process alive on their own: a thread is `ref`'d only while it has work in flight.
 * A thread that dies (out of memory, a crash in native code) fails the tasks it held, each once retried on a new
 * thread, and is replaced. `close()` terminates every thread and rejects what was pending with
 * {@link PoolClosedError}.
 *
 * Entry: `workers-entry.js` beside this module when it runs from the build (`dist/src/engine/`); from the sources
 * (`.ts`, as under vitest or tsx) the thread first registers tsx's loader (`tsx/esm/api`, a development
 * dependency), then imports `workers-entry.ts`.
 */
import { existsSync } from 'node:fs'
import { createRequire } from 'node:module'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { Worker } from 'node:worker_threads'
import type { Subscription } from '../model/account.ts'
import type { CollectionOutput, DocumentOutput } from '../model/output.ts'
import type { StoredConfiguration } from '../storage/types.ts'
import type { DocumentMeta } from './analysis.ts'

/** What each thread is started with. */
export interface WorkerData {
  /** Folder of the models (undefined: the thread resolves it as the main thread does). */
  readonly dataDir: string | undefined
}

/** One task of a {@link WorkerRequest}. */
export type WorkerTask = {
  readonly id: number
  readonly cacheKey: string
  readonly revision: number
  readonly meta: DocumentMeta
  /** Present when the thread does not hold this configuration revision yet. */
  readonly config?: { readonly stored: StoredConfiguration; readonly subscription: Subscription }
} & ({ readonly kind: 'document'; readonly text: string } | { readonly kind: 'collection'; readonly texts: readonly string[] })

/**
 * A message to a thread: a batch of tasks, answered by one {@link WorkerReply} (one message each way for up to
 * {@link MAX_BATCH} documents: a message costs about 18 us of CPU across the two threads, 6% of a tweet's analysis).
 */
export type WorkerRequest = { readonly type: 'forget' } | { readonly type: 'tasks'; readonly tasks: readonly WorkerTask[] }

/**
 * A thread's answer to a batch, in the batch's order: `failed` holds the message of each task that failed, null for
 * those that succeeded; `outputs` is the JSON array of the successful tasks' outputs, in order. Outputs travel as JSON
 * text rather than by structured clone: V8 writes and reads JSON faster (11.7 and 10.1 us for a tweet's output
 * against 14.5 and 14.1), and what the engine computes is JSON values, so they parse back to the same JSON bytes. The
 * one part of an output the caller gives, `metadata` (any value, in `analyze` and `analyzeMany`), never goes to the
 * thread: the caller's own value takes the place of a null the thread leaves for it, as in-process. (A number that is
 * not finite, which only an engine bug could put in an output, would arrive as null: in-process the queue's storage
 * refuses such an output and stores the item FAILED.)
 */
export type WorkerReply = { readonly type: 'results'; readonly ids: readonly number[]; readonly failed: readonly (string | null)[]; readonly outputs: string }

/** Tasks sent to a thread in one message at most. */
export const MAX_BATCH = 8

/**
 * Characters of text one batch holds at most (a first text longer than this goes alone): eight tweets or a few reviews
 * share a message, a news story goes alone. At about 1 ms of analysis per 1,000 characters with every output on, no
 * answer waits more than a few ms for the others of its batch.
 */
export const MAX_BATCH_CHARS = 4000

/** Rejection of tasks still pending when the pool closes (the engine gives their items back to the queue). */
export class PoolClosedError extends Error {
  override readonly name = 'PoolClosedError'
  constructor() {
    super('the analysis pool is closed')
  }
}

/** Options of {@link createAnalysisPool}. */
export interface AnalysisPoolOptions {
  /** Number of threads (>= 1). */
  readonly size: number
  readonly dataDir: string | undefined
  /**
   * Batches posted to one thread before it answers (keeps it busy while an answer travels back); each holds up to
   * {@link MAX_BATCH} tasks, as many as the waiting tasks spread over the free places allow. @defaultValue 2
   */
  readonly inFlightPerThread?: number
  /** Per-thread V8 heap cap in MB (`resourceLimits.maxOldGenerationSizeMb`). @defaultValue Node's default */
  readonly maxHeapMb?: number
}

/** The pool: the same analysis calls as the in-process core, asynchronous. */
export interface AnalysisPool {
  readonly size: number
  analyzeDocument(text: string, meta: DocumentMeta, stored: StoredConfiguration, subscription: Subscription, cacheKey: string): Promise<DocumentOutput>
  analyzeCollection(texts: readonly string[], meta: DocumentMeta, stored: StoredConfiguration, subscription: Subscription, cacheKey: string): Promise<CollectionOutput>
  /** Tasks queued or in flight. */
  pending(): number
  /** Terminate every thread; pending tasks reject with {@link PoolClosedError}. */
  close(): Promise<void>
}

interface Task {
  readonly id: number
  readonly body: { readonly kind: 'document'; readonly text: string } | { readonly kind: 'collection'; readonly texts: readonly string[] }
  readonly meta: DocumentMeta
  readonly stored: StoredConfiguration
  readonly subscription: Subscription
  readonly cacheKey: string
  /** Threads that died holding this task. */
  crashes: number
  resolve(output: DocumentOutput | CollectionOutput): void
  reject(e: Error): void
}

interface Slot {
  worker: Worker
  readonly inFlight: Map<number, Task>
  /** Batches (messages) posted and not answered yet. */
  batches: number
  /** Configuration revisions this thread holds, by cache key. */
  readonly known: Map<string, number>
  dead: boolean
}

/** Configurations a thread may hold before the pool tells it to forget them all. */
const KNOWN_LIMIT = 2000

/** Where the thread code is, and whether it needs the TypeScript loader. */
export function workerEntry(): { readonly url: URL; readonly source: boolean } {
  const here = import.meta.url
  const source = here.endsWith('.ts')
  return { url: new URL(source ? './workers-entry.ts' : './workers-entry.js', here), source }
}

function spawn(data: WorkerData, maxHeapMb: number | undefined): Worker {
  const { url, source } = workerEntry()
  const resourceLimits = maxHeapMb === undefined ? {} : { resourceLimits: { maxOldGenerationSizeMb: maxHeapMb } }
  if (!source) return new Worker(url, { workerData: data, ...resourceLimits })
  // From the sources: register tsx's ESM loader inside the thread (Node 20 does not pass the parent's loader hooks
  // to worker threads), then load the entry.
  const api = pathToFileURL(createRequire(import.meta.url).resolve('tsx/esm/api').replace(/\.cjs$/, '.mjs')).href
  const code = `import(${JSON.stringify(api)}).then((m) => { m.register(); return import(${JSON.stringify(url.href)}) })`
  return new Worker(code, { eval: true, workerData: data, ...resourceLimits })
}

/**
 * Check that worker threads can be started from where this module runs: the entry file exists, and from the
 * sources tsx is installed. Returns why not, or undefined.
 */
export function workersUnavailable(): string | undefined {
  let entry: { url: URL; source: boolean }
  try {
    entry = workerEntry()
  } catch (e) {
    return `this module has no file URL (bundled?): ${e instanceof Error ? e.message : String(e)}`
  }
  let path: string
  try {
    path = fileURLToPath(entry.url)
  } catch {
    return `the worker entry ${entry.url.href} is not a file`
  }
  if (!existsSync(path)) return `the worker entry ${path} does not exist (a bundle must ship it beside this module, or use workers: 0)`
  if (entry.source) {
    try {
      createRequire(import.meta.url).resolve('tsx/esm/api')
    } catch {
      return 'running from the TypeScript sources needs the tsx package to start worker threads (or run the built dist/)'
    }
  }
  return undefined
}

/** Create a pool of `size` analysis threads, started now (their models load on their first task). */
export function createAnalysisPool(options: AnalysisPoolOptions): AnalysisPool {
  const perThread = Math.max(1, options.inFlightPerThread ?? 2)
  const data: WorkerData = { dataDir: options.dataDir }
  const slots: Slot[] = []
  const waiting: Task[] = []
  let nextId = 0
  let closed = false
  /** Threads that died since one last answered: replacements wait longer each time, and past a few the pool gives up. */
  let crashes = 0
  let respawn: ReturnType<typeof setTimeout> | undefined
  let lastDeath = ''

  /** Start threads up to `size`, at once or (after crashes) after a back-off. */
  const refill = (): void => {
    if (closed || slots.length >= options.size || respawn !== undefined) return
    const spawnAll = (): void => {
      respawn = undefined
      if (closed) return
      while (slots.length < options.size) slots.push(start())
      pump()
    }
    if (crashes === 0) return spawnAll()
    respawn = setTimeout(spawnAll, Math.min(5000, 50 * 2 ** crashes))
    // Only waiting work justifies keeping the process alive for a replacement.
    if (waiting.length === 0) respawn.unref()
  }

  const start = (): Slot => {
    const slot: Slot = { worker: spawn(data, options.maxHeapMb), inFlight: new Map(), known: new Map(), batches: 0, dead: false }
    slot.worker.unref()
    slot.worker.on('message', (m: WorkerReply) => {
      slot.batches = Math.max(0, slot.batches - 1)
      crashes = 0
      let outputs: readonly (DocumentOutput | CollectionOutput)[] = []
      let unreadable: string | undefined
      try {
        outputs = JSON.parse(m.outputs) as (DocumentOutput | CollectionOutput)[]
      } catch (e) {
        unreadable = `the analysis thread's answer could not be read: ${e instanceof Error ? e.message : String(e)}`
      }
      let k = 0
      m.ids.forEach((id, i) => {
        const failed = m.failed[i] ?? null
        const output = failed === null ? outputs[k++] : undefined
        const task = slot.inFlight.get(id)
        if (task === undefined) return
        slot.inFlight.delete(id)
        if (failed !== null) task.reject(new Error(failed))
        else if (output === undefined) task.reject(new Error(unreadable ?? 'the analysis thread answered without this output'))
        else {
          // Assigning to the key the thread wrote keeps its place among the output's keys, as in-process.
          if (task.meta.metadata !== undefined) (output as { metadata?: unknown }).metadata = task.meta.metadata
          task.resolve(output)
        }
      })
      if (slot.inFlight.size === 0) slot.worker.unref()
      pump()
    })
    const died = (why: string): void => {
      if (slot.dead) return
      slot.dead = true
      const held = [...slot.inFlight.values()]
      slot.inFlight.clear()
      const i = slots.indexOf(slot)
      if (i >= 0) slots.splice(i, 1)
      if (closed) {
        for (const t of held) t.reject(new PoolClosedError())
        return
      }
      // A thread that dies takes its tasks with it: each is retried once on another thread, then fails (so one
      // text that kills threads cannot take the pool down with it).
      for (const t of held) {
        t.crashes++
        if (t.crashes > 1) t.reject(new Error(`analysis worker thread stopped twice while analysing this item (${why})`))
        else waiting.unshift(t)
      }
      crashes++
      lastDeath = why
      if (crashes >= 5) {
        // Threads die before answering anything (a broken install, too little memory): fail what waits rather than
        // restart them in a loop; the next task tries again.
        for (const t of waiting.splice(0)) t.reject(new Error(`analysis worker threads keep stopping (${crashes} in a row, last: ${lastDeath})`))
        return
      }
      refill()
    }
    slot.worker.on('error', (e: Error) => died(e.message))
    slot.worker.on('exit', (code) => died(`exit code ${code}`))
    return slot
  }

  for (let i = 0; i < options.size; i++) slots.push(start())

  let pumpScheduled = false
  /**
   * Pump once the current turn of the event loop is over, so that the tasks handed over together (analyzeMany's
   * texts, the items of one claim of the queue) go out as batches rather than the first few one by one.
   */
  function schedulePump(): void {
    if (pumpScheduled) return
    pumpScheduled = true
    setImmediate(() => {
      pumpScheduled = false
      if (!closed) pump()
    })
  }

  /** Post `tasks` to `slot` as one batch. */
  function post(slot: Slot, tasks: readonly Task[]): void {
    // The thread forgets its configurations before a batch that could take it past the limit (never in the middle of
    // one: a task before the cut would then find its configuration gone).
    if (slot.known.size + tasks.length > KNOWN_LIMIT && tasks.some((t) => slot.known.get(t.cacheKey) !== t.stored.revision)) {
      slot.worker.postMessage({ type: 'forget' } satisfies WorkerRequest)
      slot.known.clear()
    }
    const requests: WorkerTask[] = []
    for (const task of tasks) {
      // A configuration goes with the first task of the batch that needs it; later ones find it on the thread.
      const sent = slot.known.get(task.cacheKey) === task.stored.revision
      requests.push({
        id: task.id,
        cacheKey: task.cacheKey,
        revision: task.stored.revision,
        // The caller's metadata stays on this thread (it may hold what JSON cannot carry: a Date, a BigInt, undefined):
        // the thread answers with a null in its place, which the output's own metadata replaces (see the answer).
        meta: task.meta.metadata === undefined ? task.meta : { ...task.meta, metadata: null },
        ...(sent ? {} : { config: { stored: task.stored, subscription: task.subscription } }),
        ...task.body,
      })
      slot.known.set(task.cacheKey, task.stored.revision)
    }
    if (slot.inFlight.size === 0) slot.worker.ref()
    for (const task of tasks) slot.inFlight.set(task.id, task)
    try {
      slot.worker.postMessage({ type: 'tasks', tasks: requests } satisfies WorkerRequest)
      slot.batches++
    } catch (e) {
      // A value that cannot be cloned (never the case for stored JSON values): fail this batch's tasks only.
      for (const task of tasks) {
        slot.inFlight.delete(task.id)
        slot.known.delete(task.cacheKey)
        task.reject(e instanceof Error ? e : new Error(String(e)))
      }
      if (slot.inFlight.size === 0) slot.worker.unref()
    }
  }

  /**
   * Hand waiting tasks to the least busy threads, oldest task first, in batches: the waiting tasks spread evenly over
   * the free places (a thread takes {@link AnalysisPoolOptions.inFlightPerThread} batches), at most
   * {@link MAX_BATCH} each, so one request alone still goes out at once, by itself. Only documents share a batch.
   */
  function pump(): void {
    while (waiting.length > 0) {
      let best: Slot | undefined
      let free = 0
      for (const s of slots) {
        if (s.dead || s.batches >= perThread) continue
        free += perThread - s.batches
        if (best === undefined || s.batches < best.batches || (s.batches === best.batches && s.inFlight.size < best.inFlight.size)) best = s
      }
      if (best === undefined) return
      // A batch answers when its last task is done, so a collection goes alone, and documents share a batch only while
      // their texts stay short (MAX_BATCH_CHARS): the message cost is worth saving only beside short texts, and a long
      // one would hold back the answers of the others.
      const size = Math.min(MAX_BATCH, Math.ceil(waiting.length / free))
      let take = 1
      const head = waiting[0]!.body
      if (head.kind === 'document') {
        let chars = head.text.length
        for (let next = waiting[take]?.body; take < size && next?.kind === 'document' && chars + next.text.length <= MAX_BATCH_CHARS; next = waiting[take]?.body) {
          chars += next.text.length
          take++
        }
      }
      post(best, waiting.splice(0, take))
    }
  }

  function run<T extends DocumentOutput | CollectionOutput>(
    body: Task['body'],
    meta: DocumentMeta,
    stored: StoredConfiguration,
    subscription: Subscription,
    cacheKey: string,
  ): Promise<T> {
    if (closed) return Promise.reject(new PoolClosedError())
    return new Promise<T>((resolve, reject) => {
      waiting.push({ id: ++nextId, body, meta, stored, subscription, cacheKey, crashes: 0, resolve: resolve as (o: DocumentOutput | CollectionOutput) => void, reject })
      if (crashes >= 5) crashes = 4
      refill()
      schedulePump()
    })
  }

  return {
    size: options.size,
    analyzeDocument: (text, meta, stored, subscription, cacheKey) => run<DocumentOutput>({ kind: 'document', text }, meta, stored, subscription, cacheKey),
    analyzeCollection: (texts, meta, stored, subscription, cacheKey) => run<CollectionOutput>({ kind: 'collection', texts }, meta, stored, subscription, cacheKey),
    pending: () => waiting.length + slots.reduce((n, s) => n + s.inFlight.size, 0),
    async close() {
      if (closed) return
      closed = true
      if (respawn !== undefined) clearTimeout(respawn)
      for (const t of waiting.splice(0)) t.reject(new PoolClosedError())
      const all = slots.splice(0)
      for (const s of all) {
        for (const t of s.inFlight.values()) t.reject(new PoolClosedError())
        s.inFlight.clear()
        s.dead = true
      }
      await Promise.all(all.map((s) => s.worker.terminate()))
    },
  }
}
