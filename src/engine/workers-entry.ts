/**
 * The code of one analysis worker thread (see `workers.ts`): one analysis core (annotator, pipeline, models loaded
 * once, on first use, for the life of the thread) answering the tasks its pool posts. The configuration a task
 * runs under comes with the first task of each revision and is kept here, so later tasks carry only their text.
 */
import { setPriority } from 'node:os'
import { parentPort, workerData } from 'node:worker_threads'
import { createAnalysisCore, type AnalysisCore } from './analysis.ts'
import { builtinAnalyzers } from './features.ts'
import { createQueryGrammar } from '../query/index.ts'
import type { StoredConfiguration } from '../storage/types.ts'
import type { Subscription } from '../model/account.ts'
import type { CollectionOutput, DocumentOutput } from '../model/output.ts'
import type { DocumentMeta } from './analysis.ts'
import type { WorkerData, WorkerReply, WorkerRequest, WorkerTask } from './workers.ts'

/** The nice value of an analysis thread on Linux (0 is the default priority, 19 the lowest). */
const ANALYSIS_THREAD_NICE = 10

const port = parentPort
if (port === null) throw new Error('workers-entry runs as a worker thread of the engine pool only')

const data = workerData as WorkerData

// Analysis threads run at a lower scheduling priority (nice 10) than the thread that answers requests, so that with
// every core busy a status call or a poll is not queued behind analysis (issue 18: p99 of a status call under load).
// On Linux a thread's nice value is its own; elsewhere setPriority(0, ...) would lower the whole process, so it is
// left alone there. Throughput is unchanged when the main thread is idle: the lower priority only yields to it.
if (process.platform === 'linux') {
  try {
    setPriority(ANALYSIS_THREAD_NICE)
  } catch {
    // Not permitted in this environment: the thread keeps the default priority.
  }
}
let core: AnalysisCore | undefined
/** Configurations by cache key (`account/config_id`), at the revision last sent. */
const configs = new Map<string, { revision: number; stored: StoredConfiguration; subscription: Subscription }>()

const coreOf = (): AnalysisCore => (core ??= createAnalysisCore(builtinAnalyzers(data.dataDir, createQueryGrammar()), { dataDir: data.dataDir }))

/** The configuration a task runs under (sent with it, or kept from an earlier task of the same revision). */
function configOf(m: WorkerTask): { stored: StoredConfiguration; subscription: Subscription } {
  if (m.config !== undefined) configs.set(m.cacheKey, { revision: m.revision, stored: m.config.stored, subscription: m.config.subscription })
  const c = configs.get(m.cacheKey)
  if (c === undefined || c.revision !== m.revision) throw new Error(`configuration ${m.cacheKey} revision ${m.revision} was not sent to this worker`)
  return c
}

/**
 * Analyse a batch's tasks in order: consecutive documents of one configuration together (`analyzeDocuments`, each
 * with the output it would get alone), a collection alone. Per task: its output, or the error it failed with.
 */
function runAll(tasks: readonly WorkerTask[]): ({ output: DocumentOutput | CollectionOutput } | { error: unknown })[] {
  const results: ({ output: DocumentOutput | CollectionOutput } | { error: unknown })[] = []
  for (let i = 0; i < tasks.length; ) {
    const m = tasks[i]!
    let c: { stored: StoredConfiguration; subscription: Subscription }
    try {
      c = configOf(m)
    } catch (e) {
      results.push({ error: e })
      i++
      continue
    }
    if (m.kind === 'collection') {
      try {
        results.push({ output: coreOf().analyzeCollection(m.texts, m.meta, c.stored, c.subscription, m.cacheKey) })
      } catch (e) {
        results.push({ error: e })
      }
      i++
      continue
    }
    const jobs: { text: string; meta: DocumentMeta }[] = [{ text: m.text, meta: m.meta }]
    let j = i + 1
    for (; j < tasks.length; j++) {
      const n = tasks[j]!
      if (n.kind !== 'document' || n.cacheKey !== m.cacheKey || n.revision !== m.revision) break
      if (n.config !== undefined) configOf(n)
      jobs.push({ text: n.text, meta: n.meta })
    }
    try {
      for (const r of coreOf().analyzeDocuments(jobs, c.stored, c.subscription, m.cacheKey)) results.push(r.output !== undefined ? { output: r.output } : { error: r.error })
    } catch (e) {
      for (let k = i; k < j; k++) results.push({ error: e })
    }
    i = j
  }
  return results
}

port.on('message', (m: WorkerRequest) => {
  if (m.type === 'forget') {
    configs.clear()
    return
  }
  // Each task succeeds or fails on its own; the outputs go back as one JSON array (see WorkerReply).
  const ids: number[] = []
  const failed: (string | null)[] = []
  const outputs: string[] = []
  const results = runAll(m.tasks)
  m.tasks.forEach((task, i) => {
    ids.push(task.id)
    const r = results[i]!
    if ('output' in r) {
      try {
        outputs.push(JSON.stringify(r.output))
        failed.push(null)
        return
      } catch (e) {
        failed.push(e instanceof Error ? e.message : String(e))
        return
      }
    }
    failed.push(r.error instanceof Error ? r.error.message : String(r.error))
  })
  port.postMessage({ type: 'results', ids, failed, outputs: `[${outputs.join(',')}]` } satisfies WorkerReply)
})
