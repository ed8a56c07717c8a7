import { readFileSync } from 'node:fs'
import type { WordVectors } from './vectors.ts'
import { normalize, phraseVector } from './embed.ts'

/** One node of the built-in taxonomy, with the vector it is matched by. */
export interface TaxonomyModelNode {
  readonly id: string
  readonly name: string
  readonly parent: TaxonomyModelNode | undefined
  readonly children: TaxonomyModelNode[]
  /** The words that describe it (its name's words first, then its embedding neighbours). */
  readonly words: readonly string[]
  /** Words characteristic of the news section mapped to it in a labelled corpus (often none). */
  readonly corpus: readonly string[]
  /** Unit vector: its own words (name, neighbours, corpus words), plus its parent's vector at half weight. */
  readonly vector: Float32Array
  /**
   * Unit vector a text is scored against: its own vector plus the mean of its subtree's vectors, so that a
   * branch is described by everything under it ("Sports" by its 60 sports as well as by its name).
   */
  branch: Float32Array
}

/** The built-in taxonomy of `auto_categories`: its tier-1 nodes and every node in file order. */
export interface TaxonomyModel {
  readonly roots: readonly TaxonomyModelNode[]
  readonly nodes: readonly TaxonomyModelNode[]
  /**
   * The node whose own vector is nearest a word's (by word id), and the cosine. Computed once per word and kept
   * with the model (at most one entry per word of the vectors).
   */
  nearest(id: number): { readonly node: TaxonomyModelNode; readonly sim: number }
  /**
   * For each tier-1 node (in `roots` order), the highest cosine between a word and a node of its branch (by word
   * id; computed once per word and kept, like {@link nearest}).
   */
  branchBest(id: number): Float32Array
}

/** Weight of a node's name words against its neighbour words, and of its parent's vector. */
const NAME_WEIGHT = 2
const PARENT_WEIGHT = 0.5

/** Choices of how node vectors are made (the evaluation compares them; the engine uses the defaults). */
export interface TaxonomyOptions {
  /** Weight of the corpus words' vector beside the name's (2) and the neighbours' (1). @defaultValue 2 */
  readonly corpusWeight?: number
  /**
   * A branch vector as its own vector plus the mean of its children's branch vectors (each child's subtree
   * counts once), instead of the mean over every node of the subtree. @defaultValue false
   */
  readonly balanced?: boolean
}
export const CORPUS_WEIGHT = 2

/**
 * Parse `lexicons/en/iab-taxonomy.tsv` (`id<TAB>parent<TAB>name<TAB>words[<TAB>corpus words]`, parents before children, `#`
 * comments; written by `bench/build-taxonomy.ts`) and compute each node's vector once.
 */
export function parseTaxonomyModel(text: string, vectors: WordVectors, source = 'taxonomy', options: TaxonomyOptions = {}): TaxonomyModel {
  const corpusWeight = options.corpusWeight ?? CORPUS_WEIGHT
  const byId = new Map<string, TaxonomyModelNode>()
  const nodes: TaxonomyModelNode[] = []
  const roots: TaxonomyModelNode[] = []
  const lines = text.split('\n')
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!
    if (line.trim() === '' || line.startsWith('#')) continue
    const [id, parentId, name, words, corpusWords = ''] = line.split('\t')
    if (id === undefined || parentId === undefined || name === undefined || words === undefined) {
      throw new Error(`${source}:${i + 1}: expected id, parent, name and words separated by TABs, instead found "${line}"`)
    }
    const parent = parentId === '' ? undefined : byId.get(parentId)
    if (parentId !== '' && parent === undefined) throw new Error(`${source}:${i + 1}: parent "${parentId}" should come before its child "${id}"`)
    const list = words.split(' ').filter((w) => w !== '')
    const nameCount = name.toLowerCase().split(/[^\p{L}]+/u).filter((w) => list.includes(w)).length
    const own = phraseVector(vectors, list.slice(0, nameCount).join(' ')).vector
    const near = phraseVector(vectors, list.slice(nameCount).join(' ')).vector
    const corpus = corpusWords.split(' ').filter((w) => w !== '')
    const fromCorpus = phraseVector(vectors, corpus.join(' ')).vector
    const v = new Float32Array(vectors.dims)
    for (let d = 0; d < v.length; d++) v[d] = NAME_WEIGHT * own[d]! + near[d]! + corpusWeight * fromCorpus[d]!
    normalize(v)
    if (parent !== undefined) for (let d = 0; d < v.length; d++) v[d]! += PARENT_WEIGHT * parent.vector[d]!
    const vector = normalize(v)
    const node: TaxonomyModelNode = { id, name, parent, children: [], words: list, corpus, vector, branch: vector }
    byId.set(id, node)
    nodes.push(node)
    if (parent === undefined) roots.push(node)
    else parent.children.push(node)
  }
  if (options.balanced === true) {
    // Children before parents: each child's branch counts once, whatever the size of its subtree.
    for (let i = nodes.length - 1; i >= 0; i--) {
      const n = nodes[i]!
      if (n.children.length === 0) continue
      const b = Float32Array.from(n.vector)
      for (const c of n.children) for (let d = 0; d < b.length; d++) b[d]! += c.branch[d]! / n.children.length
      n.branch = normalize(b)
    }
  } else {
    const subtree = (n: TaxonomyModelNode): Float32Array[] => [n.vector, ...n.children.flatMap(subtree)]
    for (const n of nodes) {
      if (n.children.length === 0) continue
      const all = subtree(n)
      const b = Float32Array.from(n.vector)
      for (const v of all) for (let d = 0; d < b.length; d++) b[d]! += v[d]! / all.length
      n.branch = normalize(b)
    }
  }
  const cache = new Map<number, { node: TaxonomyModelNode; sim: number }>()
  const nearest = (id: number): { node: TaxonomyModelNode; sim: number } => {
    let hit = cache.get(id)
    if (hit === undefined) {
      let best = nodes[0]!
      let sim = -Infinity
      for (const n of nodes) {
        const x = vectors.dot(id, n.vector)
        if (x > sim) {
          sim = x
          best = n
        }
      }
      hit = { node: best, sim }
      cache.set(id, hit)
    }
    return hit
  }
  const rootOf = new Map<TaxonomyModelNode, number>()
  for (const n of nodes) {
    let r = n
    while (r.parent !== undefined) r = r.parent
    rootOf.set(n, roots.indexOf(r))
  }
  const bestCache = new Map<number, Float32Array>()
  const branchBest = (id: number): Float32Array => {
    let hit = bestCache.get(id)
    if (hit === undefined) {
      hit = new Float32Array(roots.length).fill(-1)
      for (const n of nodes) {
        const i = rootOf.get(n)!
        const x = vectors.dot(id, n.vector)
        if (x > hit[i]!) hit[i] = x
      }
      bestCache.set(id, hit)
    }
    return hit
  }
  return { roots, nodes, nearest, branchBest }
}

/** Load the taxonomy model from a file (see {@link parseTaxonomyModel}). */
export function loadTaxonomyModel(path: string, vectors: WordVectors, options: TaxonomyOptions = {}): TaxonomyModel {
  return parseTaxonomyModel(readFileSync(path, 'utf8'), vectors, path, options)
}
