import { readFileSync } from 'node:fs'
import { createHash } from 'node:crypto'
import { ownString } from '../own-string.ts'
import type { WordVectors } from './vectors.ts'
import { normalize, phraseVector } from './embed.ts'

/** One node of the built-in taxonomy, with the vector it is matched by. */
export interface TaxonomyModelNode {
  /** Position in {@link TaxonomyModel.nodes}. */
  readonly index: number
  /** Position of its tier-1 ancestor (itself for a tier-1 node) in {@link TaxonomyModel.roots}. */
  readonly root: number
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
  /** {@link nearest}'s node as its index in {@link nodes}, kept in a typed array (no object per word to reach). */
  nearestIndex(id: number): number
  /** {@link nearest}'s cosine, kept in a typed array. */
  nearestSimilarity(id: number): number
  /**
   * For each tier-1 node (in `roots` order), the highest cosine between a word and a node of its branch (by word
   * id; computed once per word and kept, like {@link nearest}).
   */
  branchBest(id: number): Float32Array
  /** Whether {@link nearest} reads a precomputed table (see {@link TaxonomyOptions.nearestTable}). */
  readonly precomputed: boolean
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
  /**
   * The index of the nearest node (by own vector) of every word id, precomputed for these vectors, this
   * taxonomy and these options by {@link nearestTable} (`lexicons/en/iab-nearest.bin`). Without it each word's
   * nearest node is computed the first time the word is seen (661 dot products). The same answers either way.
   */
  readonly nearestTable?: Uint16Array
  /**
   * Every node's own and branch vector (row i: node i, `dims` floats each), precomputed for these vectors and
   * this taxonomy with the default options (what {@link encodeNearestTable} stores): read instead of computed
   * (the same float32 numbers). Ignored when `corpusWeight` or `balanced` are given.
   */
  readonly nodeVectors?: { readonly vectors: Float32Array; readonly branches: Float32Array }
}
export const CORPUS_WEIGHT = 2

/**
 * Parse `lexicons/en/iab-taxonomy.tsv` (`id<TAB>parent<TAB>name<TAB>words[<TAB>corpus words]`, parents before children, `#`
 * comments; written by `bench/build-taxonomy.ts`) and compute each node's vector once.
 */
export function parseTaxonomyModel(text: string, vectors: WordVectors, source = 'taxonomy', options: TaxonomyOptions = {}): TaxonomyModel {
  const corpusWeight = options.corpusWeight ?? CORPUS_WEIGHT
  const dims = vectors.dims
  const stored = options.corpusWeight === undefined && options.balanced === undefined ? options.nodeVectors : undefined
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
    // The node keeps copies of its strings (ownString): a long cut of the file text would keep the whole text alive.
    const list = words.split(' ').filter((w) => w !== '').map(ownString)
    const nameCount = name.toLowerCase().split(/[^\p{L}]+/u).filter((w) => list.includes(w)).length
    const corpus = corpusWords.split(' ').filter((w) => w !== '').map(ownString)
    let vector: Float32Array
    if (stored !== undefined) {
      if (stored.vectors.length < (nodes.length + 1) * dims) throw new Error(`${source}: the precomputed node vectors end before node ${nodes.length + 1}`)
      vector = stored.vectors.slice(nodes.length * dims, (nodes.length + 1) * dims)
    } else {
      const own = phraseVector(vectors, list.slice(0, nameCount).join(' ')).vector
      const near = phraseVector(vectors, list.slice(nameCount).join(' ')).vector
      const fromCorpus = phraseVector(vectors, corpus.join(' ')).vector
      const v = new Float32Array(dims)
      for (let d = 0; d < v.length; d++) v[d] = NAME_WEIGHT * own[d]! + near[d]! + corpusWeight * fromCorpus[d]!
      normalize(v)
      if (parent !== undefined) for (let d = 0; d < v.length; d++) v[d]! += PARENT_WEIGHT * parent.vector[d]!
      vector = normalize(v)
    }
    const node: TaxonomyModelNode = { index: nodes.length, root: parent === undefined ? roots.length : parent.root, id: ownString(id), name: ownString(name), parent, children: [], words: list, corpus, vector, branch: vector }
    byId.set(id, node)
    nodes.push(node)
    if (parent === undefined) roots.push(node)
    else parent.children.push(node)
  }
  if (stored !== undefined) {
    if (stored.vectors.length !== nodes.length * dims || stored.branches.length !== nodes.length * dims) throw new Error(`${source}: the precomputed node vectors are for another number of nodes than ${nodes.length}`)
    for (const n of nodes) if (n.children.length > 0) n.branch = stored.branches.slice(n.index * dims, (n.index + 1) * dims)
  } else if (options.balanced === true) {
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
  // Every node's own vector as a row of one matrix (float64 holding the float32 values exactly), scored against
  // a word in one pass (`dotRows`: the same numbers as `dot` node by node).
  const matrix = new Float64Array(nodes.length * dims)
  for (const n of nodes) matrix.set(n.vector, n.index * dims)
  const sims = new Float64Array(nodes.length)
  const scoreAll = (id: number): Float64Array => {
    if (vectors.dotRows !== undefined) vectors.dotRows(id, matrix, nodes.length, sims)
    else for (const n of nodes) sims[n.index] = vectors.dot(id, n.vector)
    return sims
  }
  const table = options.nearestTable
  if (table !== undefined && table.length !== vectors.size) throw new Error(`${source}: the nearest-node table has ${table.length} entries for ${vectors.size} words`)
  // Answers by word id, in typed arrays (ids are dense): the node's index (-1 until computed) and the cosine. The
  // analyzer reads these per word of every text; two flat arrays cost fewer cache misses than an object per word.
  const nearestIndexes = new Int32Array(vectors.size).fill(-1)
  const nearestSims = new Float64Array(vectors.size)
  const compute = (id: number): number => {
    let best = 0
    let sim = -Infinity
    if (table !== undefined) {
      best = table[id]!
      sim = vectors.dot(id, nodes[best]!.vector)
    } else {
      const x = scoreAll(id)
      for (let i = 0; i < x.length; i++) {
        if (x[i]! > sim) {
          sim = x[i]!
          best = i
        }
      }
    }
    nearestSims[id] = sim
    nearestIndexes[id] = best
    return best
  }
  const nearestIndex = (id: number): number => {
    const i = nearestIndexes[id]!
    return i >= 0 ? i : compute(id)
  }
  const nearestSimilarity = (id: number): number => {
    if (nearestIndexes[id]! < 0) compute(id)
    return nearestSims[id]!
  }
  const nearest = (id: number): { node: TaxonomyModelNode; sim: number } => ({ node: nodes[nearestIndex(id)]!, sim: nearestSims[id]! })
  const bestCache = Array.from({ length: vectors.size }, (): Float32Array | undefined => undefined)
  const branchBest = (id: number): Float32Array => {
    let hit = bestCache[id]
    if (hit === undefined) {
      hit = new Float32Array(roots.length).fill(-1)
      const x = scoreAll(id)
      for (const n of nodes) if (x[n.index]! > hit[n.root]!) hit[n.root] = x[n.index]!
      bestCache[id] = hit
    }
    return hit
  }
  return { roots, nodes, nearest, nearestIndex, nearestSimilarity, branchBest, precomputed: table !== undefined }
}

/**
 * The nearest node of every word of `vectors` (see {@link TaxonomyOptions.nearestTable}), computed without a
 * table: what `bench/build-semantic-index.ts` writes.
 */
export function nearestTable(taxonomy: TaxonomyModel, vectors: WordVectors): Uint16Array {
  if (taxonomy.nodes.length > 0xffff) throw new Error(`a nearest-node table holds at most 65,535 nodes, not ${taxonomy.nodes.length}`)
  const out = new Uint16Array(vectors.size)
  for (let id = 0; id < vectors.size; id++) out[id] = taxonomy.nearest(id).node.index
  return out

}

/** Load the taxonomy model from a file (see {@link parseTaxonomyModel}). */
export function loadTaxonomyModel(path: string, vectors: WordVectors, options: TaxonomyOptions = {}): TaxonomyModel {
  return parseTaxonomyModel(readFileSync(path, 'utf8'), vectors, path, options)
}

const TABLE_MAGIC = 'TXNEAR2\n'
const TABLE_HEADER = 40

/** What `lexicons/en/iab-nearest.bin` holds: the nearest node of every word, and every node's vectors. */
export interface SemanticIndex {
  /** Nearest node (by own vector) of each word id. */
  readonly nearest: Uint16Array
  /** Own vector of each node, row by row (`dims` floats). */
  readonly vectors: Float32Array
  /** Branch vector of each node, row by row (a leaf's is its own vector). */
  readonly branches: Float32Array
}

/** The index of a taxonomy model computed without one (what `bench/build-semantic-index.ts` writes). */
export function semanticIndex(taxonomy: TaxonomyModel, vectors: WordVectors): SemanticIndex {
  const dims = vectors.dims
  const own = new Float32Array(taxonomy.nodes.length * dims)
  const branches = new Float32Array(taxonomy.nodes.length * dims)
  for (const n of taxonomy.nodes) {
    own.set(n.vector, n.index * dims)
    branches.set(n.branch, n.index * dims)
  }
  return { nearest: nearestTable(taxonomy, vectors), vectors: own, branches }
}

/**
 * The binary form of a {@link SemanticIndex} (`lexicons/en/iab-nearest.bin`), little-endian: magic "TXNEAR2\n",
 * uint32 words, uint32 nodes, 20 bytes `inputs` (the SHA-1 of the vectors file and the taxonomy file it was
 * computed from, see {@link semanticInputsDigest}), uint32 dims, uint16 node index per word id (padded to 4
 * bytes), float32 own vectors (nodes x dims), float32 branch vectors (nodes x dims).
 */
export function encodeNearestTable(index: SemanticIndex, nodes: number, dims: number, inputs: Uint8Array): Uint8Array {
  if (inputs.length !== 20) throw new Error(`expected a 20-byte digest of the inputs, instead found ${inputs.length} bytes`)
  const table = index.nearest
  const at = TABLE_HEADER + Math.ceil((table.length * 2) / 4) * 4
  const bytes = new Uint8Array(at + nodes * dims * 8)
  const view = new DataView(bytes.buffer)
  bytes.set(new TextEncoder().encode(TABLE_MAGIC), 0)
  view.setUint32(8, table.length, true)
  view.setUint32(12, nodes, true)
  bytes.set(inputs, 16)
  view.setUint32(36, dims, true)
  for (let i = 0; i < table.length; i++) view.setUint16(TABLE_HEADER + i * 2, table[i]!, true)
  for (let i = 0; i < nodes * dims; i++) {
    view.setFloat32(at + i * 4, index.vectors[i]!, true)
    view.setFloat32(at + (nodes * dims + i) * 4, index.branches[i]!, true)
  }
  return bytes
}

/**
 * Read a {@link SemanticIndex} written by {@link encodeNearestTable}: undefined when it was computed from other
 * inputs than `inputs`, for another number of nodes or of dimensions (the vectors or the taxonomy changed since:
 * the model is then computed without it), an error naming `source` when the bytes are not such an index.
 */
export function decodeNearestTable(bytes: Uint8Array, inputs: Uint8Array, nodes: number, dims: number, source = 'nearest-node table'): SemanticIndex | undefined {
  if (bytes.length < TABLE_HEADER || new TextDecoder().decode(bytes.subarray(0, 8)) !== TABLE_MAGIC) throw new Error(`${source}: expected the magic "TXNEAR2", instead found a different header`)
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  const n = view.getUint32(8, true)
  const fileNodes = view.getUint32(12, true)
  const fileDims = view.getUint32(36, true)
  const at = TABLE_HEADER + Math.ceil((n * 2) / 4) * 4
  if (bytes.length !== at + fileNodes * fileDims * 8) throw new Error(`${source}: expected ${at + fileNodes * fileDims * 8} bytes for ${n} words and ${fileNodes} nodes of ${fileDims} dimensions, instead found ${bytes.length}`)
  const same = fileNodes === nodes && fileDims === dims && bytes.subarray(16, 36).every((b, i) => b === inputs[i])
  if (!same) return undefined
  const nearest = new Uint16Array(n)
  for (let i = 0; i < n; i++) {
    const x = view.getUint16(TABLE_HEADER + i * 2, true)
    if (x >= nodes) throw new Error(`${source}: word ${i} points at node ${x} of ${nodes}`)
    nearest[i] = x
  }
  const vectors = new Float32Array(nodes * dims)
  const branches = new Float32Array(nodes * dims)
  for (let i = 0; i < nodes * dims; i++) {
    vectors[i] = view.getFloat32(at + i * 4, true)
    branches[i] = view.getFloat32(at + (nodes * dims + i) * 4, true)
  }
  return { nearest, vectors, branches }
}

/** SHA-1 of the vectors file's digest followed by the taxonomy file's text: what a nearest-node table was computed from. */
export function semanticInputsDigest(vectorsDigest: Uint8Array, taxonomyText: string): Uint8Array {
  return new Uint8Array(createHash('sha1').update(vectorsDigest).update(taxonomyText).digest())
}
