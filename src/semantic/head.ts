import type { TaxonomyModel } from './taxonomy.ts'
import { rowDots } from './embed.ts'

/**
 * A learned head over the text vector: multinomial logistic regression from a text's unit vector (the
 * importance-weighted mean of its word vectors, what `auto_categories` scores by) to the tier-1 categories a
 * labelled news corpus covers (`lexicons/en/category-model.json`, trained by `bench/train-categories.ts` on the
 * HuffPost News Category Dataset, Misra 2022, CC BY 4.0). Categories the corpus does not cover get no score
 * from it; the embedding similarity ranks them as before.
 */
export interface CategoryHead {
  /** Per tier-1 node (in `TaxonomyModel.roots` order): its weights (`dims` floats then the bias), or undefined when not covered. */
  readonly rows: ReadonlyArray<Float64Array | undefined>
  readonly dims: number
  /** The rows packed one after the other (`dims + 1` numbers each; zeros for a node not covered), for {@link headProbabilities}. */
  readonly matrix: Float64Array
}

/** What `bench/train-categories.ts` writes. */
export interface CategoryModelFile {
  readonly about: string
  /** SHA-1 (hex) of the `vectors.bin` the text vectors were made with: the head is not used with other vectors. */
  readonly vectors_sha1: string
  readonly dims: number
  readonly classes: ReadonlyArray<{ readonly id: string; readonly name: string; readonly examples: number; readonly weights: readonly number[] }>
}

/**
 * Read a head for a taxonomy: undefined when it was trained on other vectors (`vectorsSha1` differs) or for
 * another number of dimensions; an error naming `source` when a class names no tier-1 node or has the wrong
 * number of weights.
 */
export function parseCategoryHead(text: string, taxonomy: TaxonomyModel, dims: number, vectorsSha1: string, source = 'category model'): CategoryHead | undefined {
  const file = JSON.parse(text) as CategoryModelFile
  if (file.vectors_sha1 !== vectorsSha1 || file.dims !== dims) return undefined
  const rows: Array<Float64Array | undefined> = taxonomy.roots.map(() => undefined)
  for (const c of file.classes) {
    const root = taxonomy.roots.find((r) => r.id === c.id)
    if (root === undefined) throw new Error(`${source}: class "${c.id}" (${c.name}) is not a tier-1 node of the taxonomy`)
    if (c.weights.length !== dims + 1) throw new Error(`${source}: class "${c.id}" has ${c.weights.length} weights, expected ${dims + 1}`)
    rows[root.root] = Float64Array.from(c.weights)
  }
  const matrix = new Float64Array(rows.length * (dims + 1))
  rows.forEach((w, i) => {
    if (w !== undefined) matrix.set(w, i * (dims + 1))
  })
  return { rows, dims, matrix }
}

/**
 * The head's probabilities for a unit text vector, per tier-1 node (softmax over the covered nodes; 0 for the
 * others).
 */
export function headProbabilities(head: CategoryHead, vector: Float32Array): number[] {
  const n = head.rows.length
  // Plain arrays of numbers: a typed array of 35 doubles is allocated outside the heap, which costs more than this.
  // Each node's score is its bias plus its weights times the vector, summed in order (rowDots: four rows at a time).
  const z = rowDots(head.matrix, n, head.dims + 1, vector, true, new Array<number>(n))
  const out = new Array<number>(n).fill(0)
  let max = -Infinity
  for (let i = 0; i < n; i++) {
    if (head.rows[i] === undefined) continue
    if (z[i]! > max) max = z[i]!
  }
  if (max === -Infinity) return out
  let sum = 0
  for (let i = 0; i < n; i++) if (head.rows[i] !== undefined) sum += out[i] = Math.exp(z[i]! - max)
  for (let i = 0; i < n; i++) out[i]! /= sum
  return out
}

/**
 * A training example of a head: its class `k` (an index into the classes), or a set of classes learned as one
 * (`set`: the loss is -log of their summed probability, so that a story filed under a class that several
 * categories fit teaches the head that one of them is right, not which), its unit vector and its weight.
 */
export interface HeadExample {
  readonly k: number
  readonly set?: readonly number[]
  readonly v: Float32Array
  readonly w: number
}

/** How a head is trained (`bench/train-categories.ts`). */
export interface HeadTraining {
  readonly steps: number
  readonly rate: number
  readonly l2: number
  /** Called after each step with the loss of that step's weights (before the update). */
  readonly onStep?: (step: number, loss: number) => void
}

/**
 * Multinomial logistic regression over `classes` classes by full-batch gradient descent from zero weights: each
 * example's loss weighs its weight over the sum of all weights, the L2 penalty is on the weights but not the
 * bias. Deterministic: the same examples in the same order give the same numbers. Returns per class its `dims`
 * weights then the bias.
 */
export function trainHead(examples: readonly HeadExample[], classes: number, dims: number, training: HeadTraining): Float64Array[] {
  const K = classes
  const totalWeight = examples.reduce((a, e) => a + e.w, 0)
  const W = Array.from({ length: K }, () => new Float64Array(dims + 1))
  const z = new Float64Array(K)
  for (let step = 0; step < training.steps; step++) {
    const G = Array.from({ length: K }, () => new Float64Array(dims + 1))
    let loss = 0
    for (const e of examples) {
      let max = -Infinity
      for (let k = 0; k < K; k++) {
        const w = W[k]!
        let s = w[dims]!
        for (let d = 0; d < dims; d++) s += w[d]! * e.v[d]!
        z[k] = s
        if (s > max) max = s
      }
      let sum = 0
      for (let k = 0; k < K; k++) sum += z[k] = Math.exp(z[k]! - max)
      const weight = e.w / totalWeight
      // The target: all on the class, or over the set in proportion to the classes' probabilities (the
      // gradient of -log of their summed probability).
      let inSet = z[e.k]!
      if (e.set !== undefined) {
        inSet = 0
        for (const k of e.set) inSet += z[k]!
      }
      loss -= weight * Math.log(inSet / sum)
      for (let k = 0; k < K; k++) {
        const target = e.set === undefined ? (k === e.k ? 1 : 0) : e.set.includes(k) ? z[k]! / inSet : 0
        const g = weight * (z[k]! / sum - target)
        const row = G[k]!
        for (let d = 0; d < dims; d++) row[d]! += g * e.v[d]!
        row[dims]! += g
      }
    }
    for (let k = 0; k < K; k++) for (let d = 0; d <= dims; d++) W[k]![d]! -= training.rate * (G[k]![d]! + (d < dims ? training.l2 * W[k]![d]! : 0))
    training.onStep?.(step, loss)
  }
  return W
}
