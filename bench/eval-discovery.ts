/**
 * Discovery facets and attributes (issue 19).
 *
 * 1. On the hotel reviews of `<data>/samples/hotel-reviews.txt`: the facets, their attributes and counts as the
 *    engine reports them for the whole collection (facets_limit 20, facet_atts_limit 10).
 * 2. On `test/fixtures/discovery-reviews.json` (reviews written for this evaluation, each with the facets and
 *    attributes a person would list): precision, recall and F1 of facet+attribute pairs and of facets, per review
 *    (micro-averaged), for ours and two peers computed in the same run over the same annotation:
 *    - "previous": the implementation this replaced (the head lemma of each common-noun phrase, with the phrase's
 *      adjectives and the predicative adjectives directly after it, as `git show 1bb81d1:src/pipeline/discovery.ts`
 *      read them from the theme candidates);
 *    - "adj-noun bigrams": every adjective directly before a noun, the usual bigram-counting baseline;
 *    and at the collection level, the facets and pairs (two occurrences or more) the engine outputs against the
 *    gold facets and pairs seen in two reviews or more.
 *
 * Run: `npm run eval:discovery -- [data dir]` (default ../shared/data).
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { createEngine } from '../src/engine/create-engine.ts'
import type { Analyzer } from '../src/pipeline/types.ts'
import type { AnnotatedDocument } from '../src/nlp/types.ts'
import { discoveryPart, facetOf, type DiscoveryPart } from '../src/pipeline/discovery.ts'
import type { ThemesSection } from '../src/pipeline/analyzers/themes.ts'
import { dataDir } from './samples.ts'

interface Labelled {
  readonly text: string
  readonly facets: Readonly<Record<string, readonly string[]>>
}

const dir = dataDir()
const fixture = JSON.parse(readFileSync(fileURLToPath(new URL('../test/fixtures/discovery-reviews.json', import.meta.url)), 'utf8')) as { reviews: Labelled[] }

/** Per analysed text: our plain part, and the peers' pairs from the same annotation. */
interface Captured {
  readonly ours: DiscoveryPart
  readonly previous: [string, string | null][]
  readonly bigrams: [string, string | null][]
}

function bigramPairs(doc: AnnotatedDocument): [string, string | null][] {
  const out: [string, string | null][] = []
  for (let i = 0; i < doc.tokens.length; i++) {
    const t = doc.tokens[i]!
    if (t.pos !== 'NOUN') continue
    const prev = doc.tokens[i - 1]
    out.push([t.lemma, prev !== undefined && prev.pos === 'ADJ' && prev.sentence === t.sentence ? prev.lemma : null])
  }
  return out
}

/** Analyse texts as one collection, capturing each text's facet data and the peers' pairs. */
async function analyse(texts: readonly string[], limits: Record<string, number>) {
  const captured: Captured[] = []
  const probe: Analyzer = {
    name: 'discovery_probe',
    needs: ['sentiment', 'themes'],
    enabled: (ctx) => ctx.mode === 'discovery',
    run(doc, sections, ctx) {
      const ours = discoveryPart({ index: captured.length, doc, sections }, ctx.configuration)
      const phrases = (sections['themes'] as ThemesSection | undefined)?.phrases ?? []
      const previous: [string, string | null][] = []
      for (const p of phrases) {
        if (p.isProper || p.isPart) continue
        previous.push([p.head, null])
        for (const a of p.attributes) previous.push([p.head, a])
      }
      captured.push({ ours, previous, bigrams: bigramPairs(doc) })
      return undefined
    },
  }
  const engine = createEngine({ background: false, analyzers: [probe] })
  await engine.account(engine.defaultAccount).updateConfigurations({ collection: { facets: true, attributes: true, ...limits } })
  const out = await engine.analyzeCollection([...texts], { id: 'eval' })
  await engine.close()
  return { out, captured }
}

const pct = (x: number): string => (Number.isFinite(x) ? (100 * x).toFixed(1) : '-').padStart(6)

class Score {
  tp = 0
  fp = 0
  fn = 0
  add(gold: ReadonlySet<string>, found: ReadonlySet<string>): void {
    for (const f of found) if (gold.has(f)) this.tp++
    else this.fp++
    for (const g of gold) if (!found.has(g)) this.fn++
  }
  get p(): number {
    return this.tp / (this.tp + this.fp)
  }
  get r(): number {
    return this.tp / (this.tp + this.fn)
  }
  get f1(): number {
    return (2 * this.p * this.r) / (this.p + this.r)
  }
  row(name: string): string {
    return `${name.padEnd(22)} ${pct(this.p)} ${pct(this.r)} ${pct(this.f1)}   (tp ${this.tp}, fp ${this.fp}, fn ${this.fn})`
  }
}

// 1. Hotel reviews.
const hotel = readFileSync(join(dir, 'samples', 'hotel-reviews.txt'), 'utf8').split(/\r?\n/).map((l) => l.trim()).filter((l) => l !== '')
{
  const t0 = performance.now()
  const { out } = await analyse(hotel, { facets_limit: 20, facet_atts_limit: 10 })
  const ms = performance.now() - t0
  console.log(`Hotel reviews (${hotel.length} texts, ${join(dir, 'samples', 'hotel-reviews.txt')}), ${ms.toFixed(0)} ms`)
  console.log('facet                count  pos  neg  neu  attributes (count)')
  for (const f of out.facets ?? []) {
    const atts = (f.attributes ?? []).map((a) => `${a.label}(${a.count})`).join(' ')
    console.log(`${f.label.padEnd(20)} ${String(f.count).padStart(5)} ${String(f.positive_count).padStart(4)} ${String(f.negative_count).padStart(4)} ${String(f.neutral_count).padStart(4)}  ${atts}`)
  }
  console.log()
}

// 2. Labelled reviews.
{
  const reviews = fixture.reviews
  const { out, captured } = await analyse(
    reviews.map((r) => r.text),
    { facets_limit: 20, facet_atts_limit: 20 },
  )
  if (captured.length !== reviews.length) throw new Error(`expected ${reviews.length} analysed reviews, captured ${captured.length}`)
  const pairKey = (f: string, a: string): string => `${f}\u0000${a}`
  const systems = ['ours', 'previous', 'adj-noun bigrams'] as const
  const pairs = Object.fromEntries(systems.map((s) => [s, new Score()])) as Record<(typeof systems)[number], Score>
  const facets = Object.fromEntries(systems.map((s) => [s, new Score()])) as Record<(typeof systems)[number], Score>
  const keyOf = facetOf(captured.map((c) => c.ours))
  const goldPairCount = new Map<string, number>()
  const goldFacetCount = new Map<string, number>()
  reviews.forEach((r, i) => {
    const goldPairs = new Set<string>()
    for (const [f, atts] of Object.entries(r.facets)) {
      goldFacetCount.set(f, (goldFacetCount.get(f) ?? 0) + 1)
      for (const a of atts) {
        goldPairs.add(pairKey(f, a))
        goldPairCount.set(pairKey(f, a), (goldPairCount.get(pairKey(f, a)) ?? 0) + 1)
      }
    }
    const goldFacets = new Set(Object.keys(r.facets))
    const c = captured[i]!
    const found: Record<(typeof systems)[number], [string, string | null][]> = {
      ours: c.ours.facets.flatMap((o): [string, string | null][] => [[keyOf(o), null], ...o.attributes.map((a): [string, string] => [keyOf(o), a.label])]),
      previous: c.previous,
      'adj-noun bigrams': c.bigrams,
    }
    for (const s of systems) {
      pairs[s].add(goldPairs, new Set(found[s].filter(([, a]) => a !== null).map(([f, a]) => pairKey(f, a!))))
      facets[s].add(goldFacets, new Set(found[s].map(([f]) => f)))
    }
  })
  console.log(`Labelled reviews (${reviews.length}, test/fixtures/discovery-reviews.json), per review, micro-averaged`)
  console.log(`${''.padEnd(22)} ${'P'.padStart(6)} ${'R'.padStart(6)} ${'F1'.padStart(6)}`)
  console.log('facet+attribute pairs')
  for (const s of systems) console.log(pairs[s].row(s))
  console.log('facets')
  for (const s of systems) console.log(facets[s].row(s))

  // Collection level: what the engine outputs against what a person would list for the collection.
  const goldCollectionFacets = new Set([...goldFacetCount].filter(([, n]) => n >= 2).map(([f]) => f))
  const goldCollectionPairs = new Set([...goldPairCount].filter(([, n]) => n >= 2).map(([k]) => k))
  const outFacets = new Set((out.facets ?? []).map((f) => f.label))
  const outPairs = new Set((out.facets ?? []).flatMap((f) => (f.attributes ?? []).map((a) => pairKey(f.label, a.label))))
  // Precision against every facet a review lists (a facet seen once is still right), recall against those seen twice.
  const listed = [...outFacets].filter((f) => goldFacetCount.has(f)).length
  const found = [...goldCollectionFacets].filter((f) => outFacets.has(f)).length
  const fp = outFacets.size - listed
  const p = listed / outFacets.size
  const r = found / goldCollectionFacets.size
  const facetsRow = `${'facets'.padEnd(22)} ${pct(p)} ${pct(r)} ${pct((2 * p * r) / (p + r))}   (${listed} of ${outFacets.size} output facets listed, fp ${fp}; ${found} of ${goldCollectionFacets.size} facets listed twice found)`
  const cp = new Score()
  cp.add(goldCollectionPairs, outPairs)
  console.log()
  console.log('Collection output (facets_limit 20, facet_atts_limit 20): facets, precision against every listed facet and recall')
  console.log('of those listed in two reviews or more; pairs against the pairs listed in two reviews or more')
  console.log(facetsRow)
  console.log(cp.row('pairs (count >= 2)'))
  for (const f of out.facets ?? []) {
    console.log(`  ${f.label} ${f.count} (+${f.positive_count} -${f.negative_count} =${f.neutral_count}) ${(f.attributes ?? []).map((a) => `${a.label}(${a.count})`).join(' ')}`)
  }
}
