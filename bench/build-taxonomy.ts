/**
 * Build `lexicons/en/iab-taxonomy.tsv`, the tree of `auto_categories`, from the IAB Tech Lab Content Taxonomy 3.1
 * (CC BY 3.0) and the engine's word vectors (`lexicons/en/vectors.bin`; build them first).
 *
 *   npx tsx bench/build-taxonomy.ts [taxonomy.tsv]     # default ../shared/data/taxonomy/iab-content-taxonomy-3.1.tsv
 *
 * Each node is described by words: its name's words, then its embedding neighbours (the words nearest to the
 * name's vector among words a person would know: those with a SUBTLEX count, not stop words, not the name's own
 * words). Parents are not copied in: the engine reads the tree and adds each node's parent itself. Two tier-1
 * branches are left out because they do not describe what a text is about: "Genres" (media formats: Drama,
 * Talk Show, ...) and "Sensitive Topics" (brand-safety flags). Output lists parents before children (depth first, siblings in source order) and is a pure
 * function of the inputs.
 */
import { readFileSync, writeFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { join, resolve } from 'node:path'
import { loadWordVectors } from '../src/semantic/vectors.ts'
import { phraseVector, phraseWords } from '../src/semantic/embed.ts'

const repo = fileURLToPath(new URL('..', import.meta.url))
const source = resolve(process.argv.slice(2).find((a, i, all) => !a.startsWith('--') && all[i - 1] !== '--neighbours') ?? join(repo, '../shared/data/taxonomy/iab-content-taxonomy-3.1.tsv'))
const out = join(repo, 'lexicons/en/iab-taxonomy.tsv')
const nAt = process.argv.indexOf('--neighbours')
const NEIGHBOURS = nAt >= 0 ? Number(process.argv[nAt + 1]) : 8
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

const rows = ['# IAB Tech Lab Content Taxonomy 3.1 (CC BY 3.0), as described by bench/build-taxonomy.ts', '# id\tparent\tname\twords']
for (const n of kept) {
  const nameWords = phraseWords(n.name).filter((w) => !STOP.has(w))
  const v = phraseVector(vectors, nameWords.join(' ')).vector
  const own = new Set(nameWords)
  const scored: Array<[number, number]> = []
  for (const id of candidates) {
    const w = vectors.word(id)
    if (own.has(w)) continue
    scored.push([vectors.dot(id, v), id])
  }
  scored.sort((a, b) => b[0] - a[0] || a[1] - b[1])
  const near = scored.slice(0, NEIGHBOURS).map(([, id]) => vectors.word(id))
  rows.push([n.id, n.parent, n.name, [...nameWords, ...near].join(' ')].join('\t'))
}
writeFileSync(out, rows.join('\n') + '\n')
console.log(`${out}: ${kept.length} of ${nodes.length} nodes`)
