/**
 * CPU cost of theme extraction alone, as the pipeline asks for it per document: candidates and ranking for the
 * themes step (top `themes_limit`, here 5) and again for entity themes (no limit), on the annotated sample texts;
 * this tree against another copy of the sources (`--ab <src>`), in the same process, rounds alternating. Each round
 * ranks fresh copies of the documents (a ranking is kept per document object).
 * Run: `npx tsx bench/themes-micro.ts [data dir] --ab <src folder> [--rounds n]`
 */
import { pathToFileURL } from 'node:url'
import { resolve } from 'node:path'
import { createAnnotator } from '../src/nlp/annotate.ts'
import * as here from '../src/themes/index.ts'
import { dataDir, loadSamples } from './samples.ts'

const args = process.argv.slice(2)
const opt = (name: string): string | undefined => (args.includes(name) ? args[args.indexOf(name) + 1] : undefined)
const rounds = Number(opt('--rounds') ?? 6) || 6
const other = opt('--ab')
const sets = loadSamples(dataDir(args.find((a, i) => !a.startsWith('--') && !args[i - 1]?.startsWith('--'))))
const annotator = createAnnotator()
const docs = sets.flatMap((s) => s.texts.slice(0, 300).map((t) => annotator.annotate(t)))
type Themes = typeof here
const impls: { label: string; m: Themes }[] = [{ label: 'this tree', m: here }]
if (other !== undefined) impls.push({ label: other, m: (await import(`${pathToFileURL(resolve(other)).href}/themes/index.ts`)) as Themes })
const cpu = new Map<string, number>()
for (let r = 0; r < rounds; r++) {
  for (const { label, m } of r % 2 === 0 ? impls : [...impls].reverse()) {
    const bg = m.loadBackground()
    const prior = m.loadThemePrior()
    const copies = docs.map((d) => structuredClone(d))
    const c0 = process.cpuUsage()
    for (const d of copies) {
      m.keyThemes(d, bg, 5, undefined, m.extractCandidates(d), prior)
      m.keyThemes(d, bg, Infinity, undefined, m.extractCandidates(d), prior)
    }
    const u = process.cpuUsage(c0)
    if (r > 0) cpu.set(label, (cpu.get(label) ?? 0) + (u.user + u.system) / 1000)
  }
}
for (const [label, ms] of cpu) console.log(`${label}: ${(ms / (rounds - 1) / docs.length).toFixed(3)} CPU ms per document (${docs.length} sample texts, ${rounds - 1} timed rounds)`)
