/**
 * What entity extraction costs the pipeline against an earlier tree (issue 16: the pipeline's rate may drop by 10%
 * at most). Two checkouts in one process: this one and an earlier one (a `git worktree`, with `node_modules` linked
 * to this checkout's), each with its own code and lexicons, on the sample sets (tweets, hotel reviews, news):
 * 1. the analysis core with the default configuration, per step, alternating chunks of 10 texts between the trees
 *    (so a load spike on the shared machine hits both), three rounds after a warm-up;
 * 2. entity extraction alone (tagger, lexicons and rules over an annotated document; no sentiment), the same way,
 *    twice (before and after the pipeline rounds).
 * Printed: each tree's milliseconds, and the extraction's growth as a share of the earlier tree's pipeline time (the
 * rate drop the extraction alone would cause if nothing else had changed).
 *
 *   git worktree add /tmp/before dd67f35^ && ln -s "$PWD/node_modules" /tmp/before/node_modules
 *   npx tsx bench/entities-cost-ab.ts /tmp/before [dataDir]          (npm run bench:entities-ab -- /tmp/before)
 *
 * `dd67f35^` is the tree before issue 16's first commit. The earlier tree must have `src/engine/analysis.ts`
 * (`createAnalysisCore` with `timings`), `src/engine/features.ts`, `src/entities/extract.ts` and `src/nlp/annotate.ts`.
 */
import { existsSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { resolve } from 'node:path'
import { benchSets, dataDir } from './samples.ts'

const args = process.argv.slice(2)
const before = args[0]
if (before === undefined || !existsSync(resolve(before, 'src/entities/extract.ts'))) {
  console.error('usage: npx tsx bench/entities-cost-ab.ts <earlier checkout> [dataDir]; the earlier checkout needs src/entities/extract.ts')
  process.exit(1)
}
const here = fileURLToPath(new URL('..', import.meta.url))
const sets = benchSets(dataDir(args[1] ?? resolve(fileURLToPath(new URL('../..', import.meta.url)), 'shared', 'data')))
const texts = sets.flatMap((s) => s.texts)

interface Tree {
  readonly label: string
  readonly timings: Map<string, number>
  analyze(text: string): void
  annotate(text: string): unknown
  extract(doc: unknown): void
}
async function load(root: string, label: string): Promise<Tree> {
  const { createAnalysisCore } = await import(resolve(root, 'src/engine/analysis.ts'))
  const { builtinAnalyzers } = await import(resolve(root, 'src/engine/features.ts'))
  const { buildSubscription } = await import(resolve(root, 'src/engine/account.ts'))
  const { defaultConfigurationSettings } = await import(resolve(root, 'src/engine/settings.ts'))
  const { emptyTuning } = await import(resolve(root, 'src/engine/templates.ts'))
  const { createAnnotator } = await import(resolve(root, 'src/nlp/annotate.ts'))
  const { createEntityExtractor } = await import(resolve(root, 'src/entities/extract.ts'))
  const timings = new Map<string, number>()
  const core = createAnalysisCore(builtinAnalyzers(), { timings })
  const settings = defaultConfigurationSettings('English')
  const stored = { configuration: { ...settings, id: 'bench', config_id: 'bench', is_primary: true, modified: 0 }, tuning: emptyTuning(), revision: 1 }
  const subscription = buildSubscription(undefined, 'bench')
  const annotator = createAnnotator()
  const extractor = createEntityExtractor()
  return {
    label,
    timings,
    analyze: (text) => core.analyzeDocument(text, { id: 'b' }, stored, subscription, 'bench'),
    annotate: (text) => annotator.annotate(text),
    extract: (doc) => extractor.extract(doc),
  }
}

const trees = [await load(resolve(before), 'earlier'), await load(here, 'this')]
/** Milliseconds of `work` per tree over every text, three rounds of alternating chunks of 10. */
function alternate(work: (tree: Tree, k: number, i: number) => void): number[] {
  const ms = [0, 0]
  for (let r = 0; r < 3; r++) {
    for (let i = 0; i < texts.length; i += 10) {
      for (const k of (i / 10 + r) % 2 === 0 ? [0, 1] : [1, 0]) {
        const t0 = performance.now()
        for (let j = i; j < Math.min(i + 10, texts.length); j++) work(trees[k]!, k, j)
        ms[k]! += performance.now() - t0
      }
    }
  }
  return ms
}
const docs = trees.map((t) => texts.map((x) => t.annotate(x)))
const extraction = (): number[] => alternate((t, k, j) => t.extract(docs[k]![j]))
for (let k = 0; k < 2; k++) for (const x of texts.slice(0, 300)) trees[k]!.analyze(x)
const first = extraction()
for (const t of trees) t.timings.clear()
const pipeline = alternate((t, _k, j) => t.analyze(texts[j]!))
const second = extraction()

console.log(`${texts.length} texts (tweets, reviews, news) x 3 rounds; earlier tree ${resolve(before)}`)
console.log(`\npipeline, default configuration: earlier ${pipeline[0]!.toFixed(0)} ms, this ${pipeline[1]!.toFixed(0)} ms (rate this / earlier ${(pipeline[0]! / pipeline[1]!).toFixed(3)})`)
const steps = [...new Set([...trees[0]!.timings.keys(), ...trees[1]!.timings.keys()])].sort()
for (const s of steps) console.log(`  ${s.padEnd(18)} earlier ${(trees[0]!.timings.get(s) ?? 0).toFixed(0).padStart(7)} ms   this ${(trees[1]!.timings.get(s) ?? 0).toFixed(0).padStart(7)} ms`)
for (const [name, ms] of [['before the pipeline rounds', first], ['after them', second]] as const) {
  const grew = ms[1]! - ms[0]!
  console.log(`\nentity extraction alone (${name}): earlier ${ms[0]!.toFixed(0)} ms, this ${ms[1]!.toFixed(0)} ms; growth ${grew.toFixed(0)} ms = ${((100 * grew) / pipeline[0]!).toFixed(1)}% of the earlier pipeline -> rate ${(pipeline[0]! / (pipeline[0]! + grew)).toFixed(3)} of it from extraction alone`)
}
