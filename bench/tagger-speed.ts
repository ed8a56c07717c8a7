/**
 * Speed of the entity tagger alone and of the whole entity step (`extract`), on the inputs the pipeline gives
 * them: each sample text (tweets, hotel reviews, news) is annotated once, and the token sentences the extractor
 * hands the tagger are recorded. With `--alt <module>` (a module exporting `createEntityTagger`, such as an older
 * copy of src/entities/tagger.ts), the two taggers are timed in the same process, alternated round by round, and
 * their outputs compared document by document (spans, confidences and extracted entities must be identical).
 *
 *   node --import tsx bench/tagger-speed.ts [--data DIR] [--alt MODULE] [--rounds N] [--docs N] [--only tagger|entities]
 *
 * Prints per set the median over rounds of the process's CPU time (user + system, less sensitive than wall time to
 * other processes on a shared machine) in us per document, with the spread (min..max of the rounds): `tagger`
 * decodes every document with taggers whose caches are warm (the same documents were tagged before), `cold` with
 * fresh taggers (every word is new to them; created outside the timing), `entities` runs the whole extraction
 * with warm taggers. Then the load time of `createEntityTagger()` (wall ms, median of alternated loads).
 */
import { resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import { benchSets, dataDir } from './samples.ts'
import { createAnnotator } from '../src/nlp/annotate.ts'
import { createEntityExtractor, loadEntityLexicons } from '../src/entities/extract.ts'
import { createEntityTagger, loadDefaultModel, type EntityTagger } from '../src/entities/tagger.ts'
import type { AnnotatedDocument } from '../src/nlp/types.ts'

const args = process.argv.slice(2)
const opt = (name: string): string | undefined => {
  const i = args.indexOf(name)
  return i >= 0 ? args[i + 1] : undefined
}
const rounds = Number(opt('--rounds') ?? 7)
const maxDocs = Number(opt('--docs') ?? 1500)
const only = opt('--only')
const altPath = opt('--alt')
type Factory = typeof createEntityTagger
const alt: Factory | undefined = altPath === undefined ? undefined : ((await import(pathToFileURL(resolve(altPath)).href)) as { createEntityTagger: Factory }).createEntityTagger

const sets = benchSets(dataDir(opt('--data') ?? resolve('..', 'shared', 'data')))
const annotator = createAnnotator()
const lexicons = loadEntityLexicons()

const taggers: { name: string; tagger: EntityTagger }[] = [{ name: 'current', tagger: createEntityTagger() }]
if (alt !== undefined) taggers.push({ name: 'alt', tagger: alt() })

// Record the sentences the extractor gives the tagger.
interface Input { readonly docs: AnnotatedDocument[]; readonly sentences: (readonly (readonly string[])[])[]; readonly tokens: number }
const inputs = new Map<string, Input>()
for (const set of sets) {
  const docs: AnnotatedDocument[] = []
  const sentences: (readonly (readonly string[])[])[] = []
  let tokens = 0
  const base = taggers[0]!.tagger
  const recorder: EntityTagger = {
    trained: base.trained,
    tag: base.tag,
    tagDocument(s) {
      sentences.push(s.map((x) => [...x]))
      for (const x of s) tokens += x.length
      return base.tagDocument(s)
    },
  }
  const ex = createEntityExtractor({ ...lexicons, tagger: recorder })
  for (const text of set.texts.slice(0, maxDocs)) {
    const doc = annotator.annotate(text)
    docs.push(doc)
    ex.extract(doc)
  }
  inputs.set(set.name, { docs, sentences, tokens })
}

// Outputs must be identical.
if (taggers.length > 1) {
  for (const set of sets) {
    const input = inputs.get(set.name)!
    const [a, b] = taggers.map(({ tagger }) => createEntityExtractor({ ...lexicons, tagger }))
    let diffs = 0
    input.sentences.forEach((s, i) => {
      if (JSON.stringify(taggers[0]!.tagger.tagDocument(s)) !== JSON.stringify(taggers[1]!.tagger.tagDocument(s))) diffs++
      if (JSON.stringify(a!.extract(input.docs[i]!)) !== JSON.stringify(b!.extract(input.docs[i]!))) diffs++
    })
    console.log(`${set.name}: ${input.docs.length} docs, ${input.sentences.reduce((n, s) => n + s.length, 0)} sentences, ${input.tokens} tokens; output differences: ${diffs}`)
    if (diffs > 0) process.exitCode = 1
  }
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!
const fmt = (xs: number[]): string => `${median(xs).toFixed(1)} (${Math.min(...xs).toFixed(1)}..${Math.max(...xs).toFixed(1)})`

const model = loadDefaultModel()
const cpu = (): number => {
  const u = process.cpuUsage()
  return (u.user + u.system) / 1000
}
for (const what of ['tagger', 'cold', 'entities'] as const) {
  if (only !== undefined && only !== what) continue
  for (const set of sets) {
    const input = inputs.get(set.name)!
    const makers: Factory[] = [createEntityTagger, ...(alt === undefined ? [] : [alt])]
    let fresh: EntityTagger[] = []
    const runs = taggers.map(({ tagger }, i) => {
      const ex = createEntityExtractor({ ...lexicons, tagger })
      return what === 'tagger'
        ? (): void => { for (const s of input.sentences) tagger.tagDocument(s) }
        : what === 'cold'
          ? (): void => { const t = fresh[i]!; for (const s of input.sentences) t.tagDocument(s) }
          : (): void => { for (const d of input.docs) ex.extract(d) }
    })
    const refresh = (): void => { fresh = makers.map((make) => make(model)) }
    refresh()
    for (const run of runs) run() // warm up
    const times: number[][] = taggers.map(() => [])
    for (let r = 0; r < rounds; r++) {
      const order = r % 2 === 0 ? taggers.map((_, i) => i) : taggers.map((_, i) => i).reverse()
      if (what === 'cold') refresh()
      for (const i of order) {
        const t0 = cpu()
        runs[i]!()
        times[i]!.push(((cpu() - t0) / input.docs.length) * 1000)
      }
    }
    const cols = taggers.map((t, i) => `${t.name} ${fmt(times[i]!)}`).join('   ')
    const ratio = taggers.length > 1 ? `   ratio current/alt ${(median(times[0]!) / median(times[1]!)).toFixed(3)}` : ''
    console.log(`${what.padEnd(8)} ${set.name.padEnd(8)} us/doc: ${cols}${ratio}`)
  }
}

// Load time of the default tagger (weights, gazetteer and clusters read and decoded).
const factories: { name: string; make: Factory }[] = [{ name: 'current', make: createEntityTagger }]
if (alt !== undefined) factories.push({ name: 'alt', make: alt })
const loads: number[][] = factories.map(() => [])
for (let r = 0; r < 5; r++) {
  for (const i of r % 2 === 0 ? factories.map((_, k) => k) : factories.map((_, k) => k).reverse()) {
    const t0 = performance.now()
    factories[i]!.make()
    loads[i]!.push(performance.now() - t0)
  }
}
console.log(`load ms: ${factories.map((f, i) => `${f.name} ${fmt(loads[i]!)}`).join('   ')}`)
