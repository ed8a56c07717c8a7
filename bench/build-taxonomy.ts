/**
 * Build `lexicons/en/iab-taxonomy.tsv`, the tree of `auto_categories`, from the IAB Tech Lab Content Taxonomy 3.1
 * (CC BY 3.0) and the engine's word vectors (`lexicons/en/vectors.bin`; build them first).
 *
 *   npx tsx bench/build-taxonomy.ts [taxonomy.tsv] [--corpus News_Category_Dataset_v3.json] [--neighbours 8] [--context 1]
 *   (taxonomy default ../shared/data/taxonomy/iab-content-taxonomy-3.1.tsv)
 *
 * Each node is described by words: its name's words, then its embedding neighbours (the words nearest to the
 * name's vector among words a person would know: those with a SUBTLEX count, not stop words, not the name's own
 * words). With `--corpus`, nodes that a news section of the HuffPost News Category Dataset
 * (Misra 2022, CC BY 4.0; one JSON object a line with `category`, `headline`, `short_description`) maps to
 * ({@link SECTION_TO_IAB}, a table written from the section and node names alone) also get a fifth column: the
 * words most characteristic of that section's stories (see {@link corpusWords}). Parents are not copied in: the engine reads the tree and adds each node's parent itself. Two tier-1
 * branches are left out because they do not describe what a text is about: "Genres" (media formats: Drama,
 * Talk Show, ...) and "Sensitive Topics" (brand-safety flags). Output lists parents before children (depth first, siblings in source order) and is a pure
 * function of the inputs.
 */
import { readFileSync, writeFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { join, resolve } from 'node:path'
import { loadWordVectors } from '../src/semantic/vectors.ts'
import { phraseVector, phraseWords, tokenId } from '../src/semantic/embed.ts'
import { createAnnotator } from '../src/nlp/annotate.ts'
import { SECTION_TO_IAB } from './huffpost-sections.ts'

const repo = fileURLToPath(new URL('..', import.meta.url))
const source = resolve(process.argv.slice(2).find((a, i, all) => !a.startsWith('--') && !['--neighbours', '--corpus', '--context', '--corpus-words'].includes(all[i - 1] ?? '')) ?? join(repo, '../shared/data/taxonomy/iab-content-taxonomy-3.1.tsv'))
const corpusAt = process.argv.indexOf('--corpus')
const corpusPath = corpusAt >= 0 ? resolve(process.argv[corpusAt + 1]!) : undefined
const out = join(repo, 'lexicons/en/iab-taxonomy.tsv')
const nAt = process.argv.indexOf('--neighbours')
const NEIGHBOURS = nAt >= 0 ? Number(process.argv[nAt + 1]) : 8
const cAt = process.argv.indexOf('--context')
const CONTEXT = cAt >= 0 ? Number(process.argv[cAt + 1]) : 1
const LEFT_OUT = new Set(['Genres', 'Sensitive Topics'])
// Words that carry no subject (connectives of names such as "Bars & Restaurants", "Other").
const STOP = new Set(['and', 'or', 'the', 'of', 'for', 'in', 'other', 'a', 'an', 'to', 'with', 'general', 'types'])

const vectors = loadWordVectors(join(repo, 'lexicons/en/vectors.bin'))
const lines = readFileSync(source, 'utf8').split(/\r?\n/).slice(2).filter((l) => l.trim() !== '')
interface Node { id: string; parent: string; name: string; tier: number }
const nodes: Node[] = lines.map((l) => {
  const c = l.split('\t')
  const tiers = c.slice(3, 7)
  const tier = tiers.filter((x) => x !== undefined && x.trim() !== '').length
  return { id: c[0]!.trim(), parent: c[1]!.trim(), name: c[2]!.trim(), tier }
})
// Parents before children: depth first, roots and siblings in source order.
const kept: Node[] = []
const visit = (n: Node): void => {
  kept.push(n)
  for (const c of nodes) if (c.parent === n.id) visit(c)
}
for (const n of nodes) if (n.parent === '' && !LEFT_OUT.has(n.name)) visit(n)

// Candidate neighbours: known, content words.
const candidates: number[] = []
for (let id = 0; id < vectors.size; id++) {
  const w = vectors.word(id)
  if (vectors.probability(id) * 49_719_560 >= 2 && w.length > 2 && !STOP.has(w)) candidates.push(id)
}

/** Most corpus words per node, and the least number of a section's stories a word must occur in. */
const cwAt = process.argv.indexOf('--corpus-words')
const CORPUS_WORDS = cwAt >= 0 ? Number(process.argv[cwAt + 1]) : 24
const CORPUS_MIN_STORIES = 3
const SIF_A = 1e-4

/**
 * The words most characteristic of each mapped section: a word's score is p(w|s) log(p(w|s) / p(w|rest)) (its
 * share of the section's stories times the log-ratio against the other sections' stories; the term of the
 * Kullback-Leibler divergence it contributes) times its specificity a / (a + p) (p its probability in running
 * text, a = 1e-4, the engine's SIF weight), over words with a vector, not stop words (the engine's own
 * annotator reads the stories), found in at least {@link CORPUS_MIN_STORIES} stories of the section. Ties by word.
 */
function corpusWords(path: string): Map<string, string[]> {
  const annotator = createAnnotator()
  const stories: Array<{ node: string; words: Set<string> }> = []
  for (const line of readFileSync(path, 'utf8').split('\n')) {
    if (line.trim() === '') continue
    const r = JSON.parse(line) as { category?: string; headline?: string; short_description?: string }
    const node = SECTION_TO_IAB[r.category ?? '']
    const doc = annotator.annotate(`${r.headline ?? ''}. ${r.short_description ?? ''}`)
    const words = new Set<string>()
    for (const t of doc.tokens) {
      const id = tokenId(vectors, t)
      if (id >= 0 && !STOP.has(vectors.word(id)) && vectors.word(id).length > 2) words.add(vectors.word(id))
    }
    stories.push({ node: node ?? '', words })
  }
  const total = new Map<string, number>()
  const byNode = new Map<string, { n: number; df: Map<string, number> }>()
  for (const s of stories) {
    for (const w of s.words) total.set(w, (total.get(w) ?? 0) + 1)
    if (s.node === '') continue
    let e = byNode.get(s.node)
    if (e === undefined) byNode.set(s.node, (e = { n: 0, df: new Map() }))
    e.n++
    for (const w of s.words) e.df.set(w, (e.df.get(w) ?? 0) + 1)
  }
  const out = new Map<string, string[]>()
  for (const [node, e] of byNode) {
    const rest = stories.length - e.n
    const scored: Array<[string, number]> = []
    for (const [w, df] of e.df) {
      if (df < CORPUS_MIN_STORIES) continue
      const p = df / e.n
      const q = (total.get(w)! - df + 0.5) / (rest + 1)
      if (p <= q) continue
      // Specificity against running text (SIF, as the engine weighs a text's words): "week" and "new" fade.
      const id = vectors.id(w)
      scored.push([w, p * Math.log(p / q) * (SIF_A / (SIF_A + vectors.probability(id)))])
    }
    scored.sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
    if (scored.length === 0) continue
    out.set(node, scored.slice(0, CORPUS_WORDS).map(([w]) => w))
    console.log(`${node}: ${e.n} stories: ${out.get(node)!.join(' ')}`)
  }
  return out
}
const corpus = corpusPath === undefined ? new Map<string, string[]>() : corpusWords(corpusPath)

const rows = [
  '# IAB Tech Lab Content Taxonomy 3.1 (CC BY 3.0), as described by bench/build-taxonomy.ts',
  ...(corpusPath === undefined ? [] : ['# corpus words: HuffPost News Category Dataset (Misra 2022, CC BY 4.0), sections mapped to nodes in bench/build-taxonomy.ts']),
  '# id\tparent\tname\twords\tcorpus words',
]
/**
 * The vector a node's neighbours are sought around: its name's, plus its parent's (recursively) and its
 * children's names (mean) at {@link CONTEXT} weight each (1; 0.5 measured too), so that a name is read in its place in the tree
 * ("Bachelorette Party" under Personal Celebrations is a party with a bride, not a political party; "Politics"
 * with its children Elections, Civic affairs, Political Issues & Policy is about elections, not sociology).
 */
const nameVector = (n: Node): Float32Array => phraseVector(vectors, phraseWords(n.name).filter((w) => !STOP.has(w)).join(' ')).vector
const byId = new Map(kept.map((n) => [n.id, n]))
const queries = new Map<string, Float32Array>()
const query = (n: Node): Float32Array => {
  let q = queries.get(n.id)
  if (q !== undefined) return q
  q = Float32Array.from(nameVector(n))
  const parent = byId.get(n.parent)
  if (CONTEXT > 0 && parent !== undefined) {
    const p = query(parent)
    for (let d = 0; d < q.length; d++) q[d]! += CONTEXT * p[d]!
  }
  const children = kept.filter((c) => c.parent === n.id)
  if (CONTEXT > 0 && children.length > 0) {
    const mean = new Float32Array(q.length)
    for (const c of children) {
      const v = nameVector(c)
      for (let d = 0; d < q.length; d++) mean[d]! += v[d]! / children.length
    }
    for (let d = 0; d < q.length; d++) q[d]! += CONTEXT * mean[d]!
  }
  queries.set(n.id, q)
  return q
}
for (const n of kept) {
  const nameWords = phraseWords(n.name).filter((w) => !STOP.has(w))
  const v = query(n)
  const own = new Set(nameWords)
  const scored: Array<[number, number]> = []
  for (const id of candidates) {
    const w = vectors.word(id)
    if (own.has(w)) continue
    scored.push([vectors.dot(id, v), id])
  }
  scored.sort((a, b) => b[0] - a[0] || a[1] - b[1])
  const near = scored.slice(0, NEIGHBOURS).map(([, id]) => vectors.word(id))
  rows.push([n.id, n.parent, n.name, [...nameWords, ...near].join(' '), ...(corpus.has(n.id) ? [corpus.get(n.id)!.join(' ')] : [])].join('\t'))
}
writeFileSync(out, rows.join('\n') + '\n')
console.log(`${out}: ${kept.length} of ${nodes.length} nodes`)
