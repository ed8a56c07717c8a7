/**
 * The code of one analysis worker thread (see `workers.ts`): one analysis core (annotator, pipeline, models loaded
 * once, on first use, for the life of the thread) answering the tasks its pool posts. The configuration a task
 * runs under comes with the first task of each revision and is kept here, so later tasks carry only their text.
 */
import { parentPort, workerData } from 'node:worker_threads'
import { createAnalysisCore, type AnalysisCore } from './analysis.ts'
import { builtinAnalyzers } from './features.ts'
import { createQueryGrammar } from '../query/index.ts'
import type { StoredConfiguration } from '../storage/types.ts'
import type { Subscription } from '../model/account.ts'
import type { WorkerData, WorkerReply, WorkerRequest } from './workers.ts'

const port = parentPort
if (port === null) throw new Error('workers-entry runs as a worker thread of the engine pool only')

const data = workerData as WorkerData
let core: AnalysisCore | undefined
/** Configurations by cache key (`account/config_id`), at the revision last sent. */
const configs = new Map<string, { revision: number; stored: StoredConfiguration; subscription: Subscription }>()

const coreOf = (): AnalysisCore => (core ??= createAnalysisCore(builtinAnalyzers(data.dataDir, createQueryGrammar())))

port.on('message', (m: WorkerRequest) => {
  if (m.type === 'forget') {
    configs.clear()
    return
  }
  let reply: WorkerReply
  try {
    if (m.config !== undefined) configs.set(m.cacheKey, { revision: m.revision, stored: m.config.stored, subscription: m.config.subscription })
    const c = configs.get(m.cacheKey)
    if (c === undefined || c.revision !== m.revision) throw new Error(`configuration ${m.cacheKey} revision ${m.revision} was not sent to this worker`)
    const output =
      m.kind === 'document'
        ? coreOf().analyzeDocument(m.text, m.meta, c.stored, c.subscription, m.cacheKey)
        : coreOf().analyzeCollection(m.texts, m.meta, c.stored, c.subscription, m.cacheKey)
    reply = { type: 'done', id: m.id, output }
  } catch (e) {
    reply = { type: 'failed', id: m.id, message: e instanceof Error ? e.message : String(e) }
  }
  port.postMessage(reply)
})
