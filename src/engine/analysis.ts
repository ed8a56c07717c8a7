import { createAnnotator, type Annotator } from '../nlp/annotate.ts'
import type { Configuration } from '../model/configuration.ts'
import type { Subscription } from '../model/account.ts'
import type { CollectionOutput, DocumentOutput, Polarity } from '../model/output.ts'
import type { AnnotatedDocument } from '../nlp/types.ts'
import { BATCH_DOCUMENTS } from '../nlp/recent-cache.ts'
import type { StoredConfiguration } from '../storage/types.ts'
import { createPipeline, type Pipeline } from '../pipeline/pipeline.ts'
import type { AnalyzeContext, Analyzer, SentimentSection } from '../pipeline/types.ts'
import { contentProblem } from '../pipeline/content.ts'
import { refineTags, tagLowerCaseReadings } from '../pipeline/pos.ts'
import { readLowerWords } from '../entities/tagger.ts'
import { aggregateParts, discoveryConfiguration, discoveryPart, type DiscoveryPart } from '../pipeline/discovery.ts'

/** Identity and pass-through fields of a document being analysed. */
export interface DocumentMeta {
  readonly id: string
  readonly jobId?: string | undefined
  readonly tag?: string | undefined
  readonly metadata?: unknown
}

/** One text to analyse, with its identity. */
export interface AnalysisJob {
  readonly text: string
  readonly meta: DocumentMeta
}

/** What {@link AnalysisCore.analyzeDocuments} gives for one text: its output, or what analysing it threw. */
export type AnalysisOutcome = { readonly output: DocumentOutput; readonly error?: undefined } | { readonly output?: undefined; readonly error: unknown }

/**
 * Most texts analysed together in one batch (`analyzeDocuments`) by `analyzeMany`, the queue's in-process worker and a
 * worker thread. On the sample tweets (default configuration, one thread, CPU time, this 2-core machine, one run each)
 * batches of 4, 8, 16 and 32 took 17%, 18%, 20% and 25% less CPU per text than one text at a time (`bench/batch.ts`
 * reads 13-25% for 8 from run to run); 8 keeps a batch's latency small.
 */
export const ANALYSIS_BATCH = BATCH_DOCUMENTS

/**
 * Most characters of the texts of one batch (a single longer text makes a batch of its own): long texts gain less
 * from sharing the caches (news stories: 1-15% less CPU), and a batch runs without a turn of the event loop. At 4,000,
 * four texts of 1,000 characters held the event loop about 45 ms on this machine, and the queue's timers test
 * (test/engine/queue-background.test.ts: a tick per 40 ms) failed 2 runs in 3; 2,000 still batches 8 tweets.
 */
export const ANALYSIS_BATCH_CHARS = 2000

/**
 * How many of `jobs`, from `from` on, make the next batch: at most {@link ANALYSIS_BATCH} texts and
 * {@link ANALYSIS_BATCH_CHARS} characters (a longer text alone), each of them one that `joins` the first.
 */
export function batchLength<T extends { readonly text: string }>(jobs: readonly T[], from = 0, joins: (first: T, next: T) => boolean = () => true): number {
  const first = jobs[from]
  if (first === undefined) return 0
  let n = 1
  let chars = first.text.length
  while (from + n < jobs.length && n < ANALYSIS_BATCH) {
    const next = jobs[from + n]!
    if (chars + next.text.length > ANALYSIS_BATCH_CHARS || !joins(first, next)) break
    chars += next.text.length
    n++
  }
  return n
}

/** Cut `jobs` into consecutive batches of {@link batchLength}, in order. */
export function analysisBatches<T extends { readonly text: string }>(jobs: readonly T[]): T[][] {
  const out: T[][] = []
  for (let i = 0; i < jobs.length; ) {
    const n = batchLength(jobs, i)
    out.push(jobs.slice(i, i + n))
    i += n
  }
  return out
}

/** The analysis half of an engine: annotator, ordered pipeline and compiled-resource cache. */
export interface AnalysisCore {
  readonly pipeline: Pipeline
  readonly annotator: Annotator
  /** Analyze one text under a stored configuration; never throws for content problems (FAILED instead). */
  analyzeDocument(text: string, meta: DocumentMeta, stored: StoredConfiguration, subscription: Subscription, cacheKey: string): DocumentOutput
  /**
   * Analyze several texts under one stored configuration: per text, exactly the output {@link analyzeDocument}
   * gives (`{ output }`), or `{ error }` with what it would have thrown. The texts go through the pipeline together,
   * one analyzer over every text before the next (`Pipeline.runMany`): a model or lexicon is read for a batch while
   * it is in the processor's caches. Keep batches small ({@link ANALYSIS_BATCH} texts, {@link ANALYSIS_BATCH_CHARS}
   * characters): a batch holds its annotated texts until its last step, and nothing else runs meanwhile.
   */
  analyzeDocuments(jobs: readonly AnalysisJob[], stored: StoredConfiguration, subscription: Subscription, cacheKey: string): AnalysisOutcome[]
  /** Analyze a collection together (Discovery mode). */
  analyzeCollection(texts: readonly string[], meta: DocumentMeta, stored: StoredConfiguration, subscription: Subscription, cacheKey: string): CollectionOutput
  /**
   * {@link analyzeCollection} in slices: it yields to the event loop (`setImmediate`) whenever it has run for
   * `sliceMs` since the last yield, so a large collection analysed on the main thread never holds other work
   * back for longer than about one slice plus one text. Same output as `analyzeCollection`. When `stop()` turns
   * true at a yield, rejects with {@link AnalysisStopped} (the engine is closing).
   */
  analyzeCollectionSliced(
    texts: readonly string[],
    meta: DocumentMeta,
    stored: StoredConfiguration,
    subscription: Subscription,
    cacheKey: string,
    options?: SliceOptions,
  ): Promise<CollectionOutput>
}

/** Options of {@link AnalysisCore.analyzeCollectionSliced}. */
export interface SliceOptions {
  /** Longest run between two yields to the event loop, in milliseconds. @defaultValue 10 */
  readonly sliceMs?: number
  /** Checked at each yield: true stops the analysis with {@link AnalysisStopped}. @defaultValue never */
  readonly stop?: () => boolean
}

/** Thrown by a sliced analysis stopped at a yield (its engine is closing); nothing was produced. */
export class AnalysisStopped extends Error {
  override readonly name = 'AnalysisStopped'
  constructor() {
    super('analysis stopped: the engine is closing')
  }
}

const yieldToEventLoop = (): Promise<void> => new Promise((resolve) => setImmediate(resolve))

/** An analyzer that may compile tuning resources once per configuration revision. */
export interface PreparingAnalyzer extends Analyzer {
  /** Compile what this analyzer needs from a configuration's tuning; cached per revision. */
  prepare?(stored: StoredConfiguration, subscription: Subscription): unknown
}

/** The Detailed output's members in the order client-compat §7 lists them (stable byte-identical JSON). */
const DOCUMENT_ORDER: readonly (keyof DocumentOutput)[] = [
  'id', 'config_id', 'job_id', 'tag', 'metadata', 'status', 'failure_reason', 'source_text', 'summary', 'language',
  'language_score', 'sentiment_score', 'sentiment_polarity', 'model_sentiment', 'intentions', 'entities', 'themes',
  'phrases', 'topics', 'taxonomy', 'auto_categories', 'relations', 'opinions', 'details',
]

/** Options of {@link createAnalysisCore}. */
export interface AnalysisCoreOptions {
  /** Accumulate milliseconds per step ('annotate' and each analyzer) here (benchmarks). @defaultValue none */
  readonly timings?: Map<string, number>
  /** Folder of the models (see `resolveDataDir`), for the word list of title-case headlines. @defaultValue the package's */
  readonly dataDir?: string | undefined
}

/** Create the analysis core. `analyzers` are ordered by their needs (ERR_INVALID_OPTIONS when they cannot be). */
export function createAnalysisCore(analyzers: readonly PreparingAnalyzer[], options: AnalysisCoreOptions = {}): AnalysisCore {
  const timings = options.timings
  const pipeline = createPipeline(analyzers)
  const annotator = createAnnotator()
  // Words running text writes in lower case: capitalised ones read as names for their capital are re-read in lower case (tagLowerCaseReadings).
  let lowerWords: ReadonlySet<string> | undefined
  // Without the list (a data folder that lacks it) no headline is re-read: the entities analyzer, which reads the same
  // file, fails each document naming it, inside the pipeline, as an analyzer error should.
  const lowerWordsOrNone = (): ReadonlySet<string> => {
    try {
      return readLowerWords(options.dataDir)
    } catch {
      return new Set()
    }
  }
  // Compiled resources per account/configuration; replaced when the configuration's revision changes.
  const cache = new Map<string, { revision: number; resources: Record<string, unknown> }>()

  const resourcesFor = (stored: StoredConfiguration, subscription: Subscription, cacheKey: string): Record<string, unknown> => {
    const hit = cache.get(cacheKey)
    if (hit !== undefined && hit.revision === stored.revision) return hit.resources
    const resources: Record<string, unknown> = {}
    for (const a of analyzers) if (a.prepare !== undefined) resources[a.name] = a.prepare(stored, subscription)
    if (cache.size > 10_000) cache.clear()
    cache.set(cacheKey, { revision: stored.revision, resources })
    return resources
  }

  const base = (meta: DocumentMeta, config: Configuration): DocumentOutput => {
    const out: DocumentOutput = { id: meta.id, config_id: config.config_id, status: 'PROCESSED' }
    if (meta.jobId !== undefined) out.job_id = meta.jobId
    if (meta.tag !== undefined) out.tag = meta.tag
    if (meta.metadata !== undefined) out.metadata = meta.metadata
    return out
  }

  /** A text annotated under a configuration, its part-of-speech tags refined (timed as 'annotate'). */
  function annotate(text: string, config: Configuration): AnnotatedDocument {
    const t0 = timings === undefined ? 0 : performance.now()
    const doc = annotator.annotate(text, { html: config.process_html, oneSentence: config.one_sentence_mode })
    refineTags(doc)
    tagLowerCaseReadings(doc, (copy) => annotator.annotate(copy), (lowerWords ??= lowerWordsOrNone()))
    if (timings !== undefined) timings.set('annotate', (timings.get('annotate') ?? 0) + performance.now() - t0)
    return doc
  }

  function analyzeDocuments(jobs: readonly AnalysisJob[], stored: StoredConfiguration, subscription: Subscription, cacheKey: string): AnalysisOutcome[] {
    // The per-document caches that several analyzers read (RecentCache) remember BATCH_DOCUMENTS documents: a longer
    // list goes through the pipeline in slices of that many, so that no analyzer's work is done twice.
    if (jobs.length > ANALYSIS_BATCH) {
      const all: AnalysisOutcome[] = []
      for (let i = 0; i < jobs.length; i += ANALYSIS_BATCH) all.push(...analyzeDocuments(jobs.slice(i, i + ANALYSIS_BATCH), stored, subscription, cacheKey))
      return all
    }
    const config = stored.configuration
    const results = new Array<AnalysisOutcome>(jobs.length)
    const docs: AnnotatedDocument[] = []
    const outs: DocumentOutput[] = []
    const at: number[] = []
    let ctx: AnalyzeContext | undefined
    for (let i = 0; i < jobs.length; i++) {
      const { text, meta } = jobs[i]!
      const out = base(meta, config)
      if (subscription.basic_settings.return_source_text) out.source_text = text
      const problem = contentProblem(text, config.alphanumeric_threshold)
      if (problem !== undefined) {
        results[i] = { output: ordered({ ...out, status: 'FAILED', failure_reason: problem }) }
        continue
      }
      try {
        ctx ??= { configuration: config, subscription, resources: resourcesFor(stored, subscription, cacheKey) }
        docs.push(annotate(text, config))
        outs.push(out)
        at.push(i)
      } catch (e) {
        results[i] = { error: e }
      }
    }
    if (ctx === undefined || docs.length === 0) return results
    const { errors } = pipeline.runMany(docs, ctx, outs, timings)
    for (let k = 0; k < docs.length; k++) {
      const i = at[k]!
      const meta = jobs[i]!.meta
      const out = outs[k]!
      const thrown = errors[k]
      if (thrown !== undefined) {
        // An analyzer error fails this document, never the process or the batch.
        const reason = thrown.error instanceof Error ? thrown.error.message : String(thrown.error)
        results[i] = { output: ordered({ ...base(meta, config), status: 'FAILED', failure_reason: `analysis failed: ${reason}` }) }
      } else if (out.status === 'FAILED') {
        // A failed document carries its identity, language and reason, not half an analysis.
        const failed: DocumentOutput = { ...base(meta, config), status: 'FAILED' }
        if (out.failure_reason !== undefined) failed.failure_reason = out.failure_reason
        if (out.language !== undefined) failed.language = out.language
        if (out.language_score !== undefined) failed.language_score = out.language_score
        results[i] = { output: ordered(failed) }
      } else results[i] = { output: ordered(out) }
    }
    return results
  }

  return {
    pipeline,
    annotator,
    analyzeDocument(text, meta, stored, subscription, cacheKey) {
      const [r] = analyzeDocuments([{ text, meta }], stored, subscription, cacheKey)
      if (r!.output === undefined) throw r!.error
      return r!.output
    },
    analyzeDocuments,
    analyzeCollection(texts, meta, stored, subscription, cacheKey) {
      const c = collection(meta, stored, subscription, cacheKey)
      for (const batch of analysisBatches(texts.map((text, index) => ({ text, index })))) c.add(batch)
      return c.finish(texts.length)
    },
    async analyzeCollectionSliced(texts, meta, stored, subscription, cacheKey, options = {}) {
      const sliceMs = options.sliceMs ?? 10
      const c = collection(meta, stored, subscription, cacheKey)
      let since = performance.now()
      for (const batch of analysisBatches(texts.map((text, index) => ({ text, index })))) {
        if (performance.now() - since >= sliceMs) {
          await yieldToEventLoop()
          if (options.stop?.() === true) throw new AnalysisStopped()
          since = performance.now()
        }
        c.add(batch)
      }
      if (texts.length > 0) {
        // The aggregation is one more slice of work: let waiting callers in first.
        await yieldToEventLoop()
        if (options.stop?.() === true) throw new AnalysisStopped()
      }
      return c.finish(texts.length)
    },
  }

  /** A collection being analysed batch by batch (the same steps whether sliced or not). */
  function collection(meta: DocumentMeta, stored: StoredConfiguration, subscription: Subscription, cacheKey: string) {
    const config = stored.configuration
    const head: CollectionOutput = { id: meta.id, config_id: config.config_id, status: 'PROCESSED' }
    if (meta.jobId !== undefined) head.job_id = meta.jobId
    if (meta.tag !== undefined) head.tag = meta.tag
    if (meta.metadata !== undefined) head.metadata = meta.metadata
    const dconfig = discoveryConfiguration(config)
    const ctx: AnalyzeContext = { configuration: dconfig, subscription, resources: resourcesFor(stored, subscription, cacheKey), mode: 'discovery' }
    // Each text is reduced to the plain data aggregation needs as soon as its batch is analysed (within its slice of
    // work, and no annotated document is held beyond its batch); scores get their polarity from the first text's
    // scorer, as aggregateCollection does.
    const parts: DiscoveryPart[] = []
    let sentiment: SentimentSection | undefined
    return {
      /** Analyse a batch of the collection's texts together (see analyzeDocuments), in order. */
      add(batch: readonly { readonly text: string; readonly index: number }[]): void {
        const docs: AnnotatedDocument[] = []
        const indices: number[] = []
        for (const { text, index } of batch) {
          if (contentProblem(text, config.alphanumeric_threshold) !== undefined) continue
          docs.push(annotate(text, config))
          indices.push(index)
        }
        const scratch = docs.map((): DocumentOutput => ({ id: '', config_id: '', status: 'PROCESSED' }))
        const { sections, errors } = pipeline.runMany(docs, ctx, scratch)
        for (let k = 0; k < docs.length; k++) {
          // An analyzer error on one text leaves that text out, never the collection; so does a failed language check.
          if (errors[k] !== undefined || scratch[k]!.status === 'FAILED') continue
          parts.push(discoveryPart({ index: indices[k]!, doc: docs[k]!, sections: sections[k]! }, config))
          sentiment ??= sections[k]!.sentiment
        }
      },
      finish(count: number): CollectionOutput {
        if (parts.length === 0) return orderedCollection({ ...head, status: 'FAILED', failure_reason: 'no text of the collection could be analysed' })
        const s = sentiment
        const polarityOf = (score: number): Polarity => s?.polarityOf(score) ?? 'neutral'
        return orderedCollection(aggregateParts(parts, config, { ...head, docs_count: count }, polarityOf))
      },
    }
  }
}

const COLLECTION_ORDER: readonly (keyof CollectionOutput)[] = [
  'id', 'config_id', 'job_id', 'tag', 'metadata', 'status', 'failure_reason', 'docs_count', 'facets', 'themes', 'entities', 'topics', 'taxonomy',
]

function orderedCollection(out: CollectionOutput): CollectionOutput {
  const o: Record<string, unknown> = {}
  for (const k of COLLECTION_ORDER) if (out[k] !== undefined) o[k] = out[k]
  return o as unknown as CollectionOutput
}

function ordered(out: DocumentOutput): DocumentOutput {
  const o: Record<string, unknown> = {}
  for (const k of DOCUMENT_ORDER) if (out[k] !== undefined) o[k] = out[k]
  return o as unknown as DocumentOutput
}
