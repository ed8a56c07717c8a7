import { EngineError } from '../errors.ts'
import type { AnnotatedDocument } from '../nlp/types.ts'
import type { DocumentOutput } from '../model/output.ts'
import type { AnalyzeContext, Analyzer, SectionName, Sections } from './types.ts'

/** An ordered, checked list of analyzers. */
export interface Pipeline {
  readonly order: readonly string[]
  /**
   * Run every enabled analyzer (and, first, every analyzer an enabled one needs) and fill `out`. When
   * `timings` is given, each analyzer's milliseconds (run and mapping) are added to it by name.
   */
  run(doc: AnnotatedDocument, ctx: AnalyzeContext, out: DocumentOutput, timings?: Map<string, number>): Partial<Sections>
  /**
   * {@link run} over several documents under one context, step by step: each analyzer runs on every document before
   * the next analyzer starts, then each document's output is filled. Each document gets exactly what `run` gives it
   * (analyzers are pure functions of a document and the context), but one analyzer's models and lexicons stay in the
   * processor's caches across the batch instead of being evicted by the other analyzers' between two documents: on
   * tweets, batches of 8 take 13-25% less CPU than the same documents one at a time (`bench/batch.ts`).
   * Returns each document's sections and, in `errors`, `{ error }` with what an analyzer (or output mapping) threw
   * for it, or undefined; a document whose analyzer threw is left out of the later steps, the others go on.
   */
  runMany(
    docs: readonly AnnotatedDocument[],
    ctx: AnalyzeContext,
    outs: readonly DocumentOutput[],
    timings?: Map<string, number>,
  ): { sections: Partial<Sections>[]; errors: ({ error: unknown } | undefined)[] }
}

/**
 * Order analyzers by their `needs` (stable: among analyzers whose needs are met, the one listed first
 * runs first). A need that no analyzer writes, a duplicate writer or a cycle throws ERR_INVALID_OPTIONS,
 * so a broken pipeline fails at `createEngine`, never during analysis.
 */
export function createPipeline(analyzers: readonly Analyzer[]): Pipeline {
  const byName = new Map<string, Analyzer>()
  for (const a of analyzers) {
    if (byName.has(a.name)) throw new EngineError('ERR_INVALID_OPTIONS', `two analyzers write the section "${a.name}"`)
    byName.set(a.name, a)
  }
  for (const a of analyzers) {
    for (const n of a.needs) {
      if (!byName.has(n)) {
        throw new EngineError('ERR_INVALID_OPTIONS', `analyzer "${a.name}" needs the section "${n}", which no analyzer writes`)
      }
    }
  }
  const ordered: Analyzer[] = []
  const done = new Set<string>()
  while (ordered.length < analyzers.length) {
    const next = analyzers.find((a) => !done.has(a.name) && a.needs.every((n) => done.has(n)))
    if (next === undefined) {
      const left = analyzers.filter((a) => !done.has(a.name)).map((a) => a.name)
      throw new EngineError('ERR_INVALID_OPTIONS', `analyzers form a cycle through their needs: ${left.join(', ')}`)
    }
    ordered.push(next)
    done.add(next.name)
  }

  return {
    order: ordered.map((a) => a.name),
    run(doc, ctx, out, timings) {
      const { sections, errors } = runAll([doc], ctx, [out], timings)
      if (errors[0] !== undefined) throw errors[0].error
      return sections[0]!
    },
    runMany: runAll,
  }

  function runAll(
    docs: readonly AnnotatedDocument[],
    ctx: AnalyzeContext,
    outs: readonly DocumentOutput[],
    timings: Map<string, number> | undefined,
  ): { sections: Partial<Sections>[]; errors: ({ error: unknown } | undefined)[] } {
    const sections: Partial<Sections>[] = docs.map(() => ({}))
    let wanted: Set<SectionName>
    try {
      wanted = wantedBy(ctx)
    } catch (e) {
      // An analyzer that cannot say whether it runs (its model is missing) fails every document.
      return { sections, errors: docs.map(() => ({ error: e })) }
    }
    const errors = new Array<{ error: unknown } | undefined>(docs.length).fill(undefined)
    for (const a of ordered) {
      if (!wanted.has(a.name)) continue
      const t0 = timings === undefined ? 0 : performance.now()
      for (let i = 0; i < docs.length; i++) {
        if (errors[i] !== undefined) continue
        try {
          ;(sections[i] as Record<string, unknown>)[a.name] = a.run(docs[i]!, sections[i]!, ctx)
        } catch (e) {
          errors[i] = { error: e }
        }
      }
      if (timings !== undefined) timings.set(a.name, (timings.get(a.name) ?? 0) + performance.now() - t0)
    }
    for (let i = 0; i < docs.length; i++) {
      if (errors[i] !== undefined) continue
      try {
        for (const a of ordered) {
          if (a.toWire === undefined || !a.enabled(ctx)) continue
          const t0 = timings === undefined ? 0 : performance.now()
          const value = (sections[i] as Record<string, unknown>)[a.name]
          ;(a.toWire as (v: unknown, o: DocumentOutput, c: AnalyzeContext, d: AnnotatedDocument) => void)(value, outs[i]!, ctx, docs[i]!)
          if (timings !== undefined) timings.set(a.name, (timings.get(a.name) ?? 0) + performance.now() - t0)
        }
      } catch (e) {
        errors[i] = { error: e }
      }
    }
    return { sections, errors }
  }

  /** The analyzers that run under `ctx`: the enabled ones and, transitively, those they need. */
  function wantedBy(ctx: AnalyzeContext): Set<SectionName> {
    const wanted = new Set<SectionName>()
    for (let i = ordered.length - 1; i >= 0; i--) {
      const a = ordered[i]!
      if (wanted.has(a.name) || a.enabled(ctx)) {
        wanted.add(a.name)
        for (const n of a.needs) wanted.add(n)
      }
    }
    return wanted
  }
}

/** Read a section an analyzer declared in its `needs` (throws if the pipeline failed to provide it). */
export function need<K extends SectionName>(sections: Partial<Sections>, name: K): Sections[K] {
  const v = sections[name]
  if (v === undefined) throw new EngineError('ERR_INTERNAL', `section "${name}" was not computed before it was read`)
  return v as Sections[K]
}
