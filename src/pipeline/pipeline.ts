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
      // An analyzer runs when it is enabled or when an enabled analyzer (transitively) needs it.
      const wanted = new Set<SectionName>()
      for (let i = ordered.length - 1; i >= 0; i--) {
        const a = ordered[i]!
        if (wanted.has(a.name) || a.enabled(ctx)) {
          wanted.add(a.name)
          for (const n of a.needs) wanted.add(n)
        }
      }
      const sections: Partial<Sections> = {}
      for (const a of ordered) {
        if (!wanted.has(a.name)) continue
        const t0 = timings === undefined ? 0 : performance.now()
        const value = a.run(doc, sections, ctx)
        ;(sections as Record<string, unknown>)[a.name] = value
        if (timings !== undefined) timings.set(a.name, (timings.get(a.name) ?? 0) + performance.now() - t0)
      }
      for (const a of ordered) {
        if (a.toWire === undefined || !a.enabled(ctx)) continue
        const t0 = timings === undefined ? 0 : performance.now()
        const value = (sections as Record<string, unknown>)[a.name]
        ;(a.toWire as (v: unknown, o: DocumentOutput, c: AnalyzeContext, d: AnnotatedDocument) => void)(value, out, ctx, doc)
        if (timings !== undefined) timings.set(a.name, (timings.get(a.name) ?? 0) + performance.now() - t0)
      }
      return sections
    },
  }
}

/** Read a section an analyzer declared in its `needs` (throws if the pipeline failed to provide it). */
export function need<K extends SectionName>(sections: Partial<Sections>, name: K): Sections[K] {
  const v = sections[name]
  if (v === undefined) throw new EngineError('ERR_INTERNAL', `section "${name}" was not computed before it was read`)
  return v as Sections[K]
}
