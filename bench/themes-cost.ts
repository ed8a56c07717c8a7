/**
 * Cost of the themes work in the pipeline: per sample set (`<data>/samples`), CPU ms per document of the `themes`
 * and `entities` steps (entities rank the document's themes for entity themes) and of the whole analysis (CPU time), on one
 * analysis core with every output on (the golden tests' settings), after a warm-up pass. `--passes n` timed passes (default 3).
 * Run: `npx tsx bench/themes-cost.ts [data dir] [--passes n]`; profile with `node --cpu-prof --import tsx bench/themes-cost.ts`.
 * `--ab <src folder>`: also a second core built from another copy of the sources (a checkout's `src`, e.g. of the
 * previous commit), timed in the same process, passes alternating, so that the load of a shared machine hits both alike.
 */
import { pathToFileURL } from 'node:url'
import { resolve } from 'node:path'
import { createAnalysisCore } from '../src/engine/analysis.ts'
import { builtinAnalyzers } from '../src/engine/features.ts'
import { dataDir, loadSamples } from './samples.ts'
import { benchConfiguration } from './configuration.ts'
import { EVERY_OUTPUT_ON } from '../test/fixtures/golden/golden.ts'

const args = process.argv.slice(2)
const opt = (name: string): string | undefined => (args.includes(name) ? args[args.indexOf(name) + 1] : undefined)
const passes = Number(opt('--passes') ?? 3) || 3
const other = opt('--ab')
const sets = loadSamples(dataDir(args.find((a, i) => !a.startsWith('--') && !args[i - 1]?.startsWith('--'))))
const { stored: config, subscription } = benchConfiguration(EVERY_OUTPUT_ON.document)
type Core = ReturnType<typeof createAnalysisCore>
const cores: { label: string; core: Core; timings: Map<string, number> }[] = []
{
  const timings = new Map<string, number>()
  cores.push({ label: 'this tree', core: createAnalysisCore(builtinAnalyzers(), { timings }), timings })
}
if (other !== undefined) {
  const base = pathToFileURL(resolve(other)).href
  const a = (await import(`${base}/engine/analysis.ts`)) as { createAnalysisCore: typeof createAnalysisCore }
  const f = (await import(`${base}/engine/features.ts`)) as { builtinAnalyzers: typeof builtinAnalyzers }
  const timings = new Map<string, number>()
  cores.push({ label: other, core: a.createAnalysisCore(f.builtinAnalyzers(), { timings }), timings })
}
const texts = sets.flatMap((s) => s.texts.slice(0, 300))
// Warm-up pass; with two cores it also compares their outputs text by text (and collections of ten, for Discovery).
const outputs = cores.map((c) => texts.map((t) => JSON.stringify(c.core.analyzeDocument(t, { id: 'x' }, config, subscription, 'b'))))
if (cores.length === 2) {
  const differ = texts.filter((_, i) => outputs[0]![i] !== outputs[1]![i]).length
  const col = cores.map((c) => JSON.stringify(sets.map((s) => c.core.analyzeCollection(s.texts.slice(0, 10), { id: 'x' }, config, subscription, 'b'))))
  console.log(`outputs: ${differ} of ${texts.length} texts differ between the two cores; Discovery collections ${col[0] === col[1] ? 'equal' : 'differ'}`)
}
const total = new Map<string, Map<string, number>>()
const n = new Map<string, number>()
for (let p = 0; p < passes; p++) {
  for (const s of sets) {
    const list = s.texts.slice(0, 300)
    // Alternate which core goes first.
    for (const c of p % 2 === 0 ? cores : [...cores].reverse()) {
      c.timings.clear()
      const w0 = performance.now()
      const c0 = process.cpuUsage()
      for (const t of list) c.core.analyzeDocument(t, { id: 'x' }, config, subscription, 'b')
      const used = process.cpuUsage(c0)
      const wall = performance.now() - w0
      // CPU time, not wall time (a shared machine's load stretches the wall clock); steps are timed by the wall clock,
      // so each step gets its share of the pass's wall time applied to the pass's CPU time.
      const cpu = (used.user + used.system) / 1000
      const key = `${c.label} | ${s.name}`
      const m = total.get(key) ?? new Map<string, number>()
      m.set('whole', (m.get('whole') ?? 0) + cpu)
      for (const [k, v] of c.timings) m.set(k, (m.get(k) ?? 0) + (v / wall) * cpu)
      total.set(key, m)
      n.set(key, (n.get(key) ?? 0) + list.length)
    }
  }
}
console.log('| core | set (texts x passes) | themes CPU ms/doc | entities CPU ms/doc | whole CPU ms/doc | themes share |')
for (const [key, m] of [...total].sort((a, b) => (a[0] < b[0] ? -1 : 1))) {
  const k = n.get(key)!
  const ms = (x: string): string => ((m.get(x) ?? 0) / k).toFixed(3)
  console.log(`| ${key} (${k}) | ${ms('themes')} | ${ms('entities')} | ${ms('whole')} | ${((100 * (m.get('themes') ?? 0)) / m.get('whole')!).toFixed(1)}% |`)
}
