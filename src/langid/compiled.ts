/**
 * The language model in the layout scoring wants: every feature interned to an integer id once, n-grams
 * found by walking a code-point trie (no substring per n-gram), and costs in one dense typed array
 * laid out `[feature][language]` (unlisted costs hold the floor of the feature's order), so scoring a
 * text is a few integer adds per feature. Built from a {@link LanguageModelData} or straight from the
 * model file text (no intermediate map of feature strings).
 */
import { ownString } from '../own-string.ts'
import { WORD_PREFIX } from './features.ts'
import { defaultLanguageModelPath, readLanguageModelFile, readLanguageModelText, type LanguageModelData, type ModelHeader } from './model.ts'

/** A model compiled for scoring. Read-only after construction. */
export interface CompiledLanguageModel {
  /** ISO 639-1 codes, one per column. */
  readonly languages: readonly string[]
  /** Highest character n-gram order. */
  readonly maxOrder: number
  /** Softmax temperature. */
  readonly temperature: number
  /** `floors[order][language]`, as in the model. */
  readonly floors: readonly (readonly number[])[]
  /** Number of interned features. */
  readonly featureCount: number
  /**
   * `costs[feature * languages.length + language]`: the cost of the feature, the floor when unlisted. A `Uint8Array`
   * when every cost is 0..255 (the committed model's are 27..204: a quarter of the memory, and of the pages touched
   * while loading, 2 MB instead of 8), else an `Int32Array`.
   */
  readonly costs: Int32Array | Uint8Array
  /** Feature id of a whole word (without the `#` prefix), if the model lists it. */
  readonly words: ReadonlyMap<string, number>
  /** Trie node reached from `node` by code point `cp` (the root is 0), or -1. */
  child(node: number, cp: number): number
  /** Feature id of the n-gram spelled by the path to `node`, or -1. */
  readonly nodeFeature: Int32Array
}

/** Open-addressing hash table of trie edges (parent node, code point) -> child node, growing as needed. */
function createTrie(expectedNodes: number): {
  child(node: number, cp: number): number
  insert(node: number, cp: number): number
  frozen(): (node: number, cp: number) => number
  nodeCount(): number
} {
  let cap = 1024
  while (cap < expectedNodes * 2) cap *= 2
  let mask = cap - 1
  let parents = new Int32Array(cap).fill(-1)
  let cps = new Int32Array(cap)
  let children = new Int32Array(cap)
  let nodes = 1
  let edges = 0
  const slot = (node: number, cp: number): number => {
    let h = (Math.imul(node, 0x9e3779b1) + cp) | 0
    h = Math.imul(h ^ (h >>> 16), 0x85ebca6b)
    h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35)
    return (h ^ (h >>> 16)) & mask
  }
  const child = (node: number, cp: number): number => {
    let i = slot(node, cp)
    for (;;) {
      const p = parents[i]!
      if (p === -1) return -1
      if (p === node && cps[i] === cp) return children[i]!
      i = (i + 1) & mask
    }
  }
  const put = (node: number, cp: number, c: number): void => {
    let i = slot(node, cp)
    while (parents[i] !== -1) i = (i + 1) & mask
    parents[i] = node
    cps[i] = cp
    children[i] = c
  }
  const insert = (node: number, cp: number): number => {
    let i = slot(node, cp)
    for (;;) {
      const p = parents[i]!
      if (p === -1) break
      if (p === node && cps[i] === cp) return children[i]!
      i = (i + 1) & mask
    }
    if ((edges + 1) * 2 > cap) {
      const [op, oc, och] = [parents, cps, children]
      cap *= 2
      mask = cap - 1
      parents = new Int32Array(cap).fill(-1)
      cps = new Int32Array(cap)
      children = new Int32Array(cap)
      for (let i = 0; i < op.length; i++) if (op[i] !== -1) put(op[i]!, oc[i]!, och[i]!)
    }
    const c = nodes++
    put(node, cp, c)
    edges++
    return c
  }
  /** A lookup over the finished table (constant bindings: the hot path of scoring). */
  const frozen = (): ((node: number, cp: number) => number) => {
    const p = parents
    const c = cps
    const ch = children
    const m = mask
    const f = (node: number, cp: number): number => {
      let h = (Math.imul(node, 0x9e3779b1) + cp) | 0
      h = Math.imul(h ^ (h >>> 16), 0x85ebca6b)
      h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35)
      let i = (h ^ (h >>> 16)) & m
      for (;;) {
        const q = p[i]!
        if (q === -1) return -1
        if (q === node && c[i] === cp) return ch[i]!
        i = (i + 1) & m
      }
    }
    return f
  }
  return { child, insert, frozen, nodeCount: () => nodes }
}

/** Builds a compiled model feature by feature. */
function createBuilder(languageCount: number, expectedFeatures: number, expectedEntries: number) {
  const trie = createTrie(expectedFeatures)
  const words = new Map<string, number>()
  let nodeFeature = new Int32Array(Math.max(16, expectedFeatures)).fill(-1)
  let orders = new Uint8Array(Math.max(16, expectedFeatures))
  let entries = new Int32Array(Math.max(48, expectedEntries))
  let entryCount = 0
  let featureCount = 0
  let lastOrder = 0
  let prevKey = ''
  let prevOrder = 0
  const path = new Int32Array(16)
  /** Intern a feature; undefined when it is already known (a duplicate). Its order is left in `lastOrder`. */
  const intern = (f: string): number | undefined => {
    let id: number
    let order: number
    if (f.startsWith(WORD_PREFIX)) {
      const w = f.slice(WORD_PREFIX.length)
      if (words.has(w)) return undefined
      id = featureCount++
      // A copy: the key is cut from the model file's text, which it would otherwise keep alive (2.2 MB).
      words.set(ownString(w), id)
      order = 0
    } else {
      // Features usually come sorted, so a key shares a prefix with the one before: reuse its path.
      let node = 0
      order = 0
      let same = true
      for (let i = 0; i < f.length; ) {
        const cp = f.codePointAt(i)!
        const w = cp > 0xffff ? 2 : 1
        if (same && order < prevOrder && prevKey.codePointAt(i) === cp) {
          node = path[order]!
        } else {
          same = false
          node = trie.insert(node, cp)
        }
        if (order < path.length) path[order] = node
        order++
        i += w
      }
      prevKey = f
      prevOrder = Math.min(order, path.length)
      if (node >= nodeFeature.length) {
        const grown = new Int32Array(Math.max(node + 1, nodeFeature.length * 2)).fill(-1)
        grown.set(nodeFeature)
        nodeFeature = grown
      }
      if (nodeFeature[node] !== -1) return undefined
      id = featureCount++
      nodeFeature[node] = id
    }
    if (id >= orders.length) {
      const grown = new Uint8Array(orders.length * 2)
      grown.set(orders)
      orders = grown
    }
    orders[id] = Math.min(order, 255)
    lastOrder = order
    return id
  }
  /**
   * Fill `costs`: each feature's floor row, then cost = floor + sum of (listed cost - floor), as the sparse scorer
   * added it. Undefined when a cost leaves 0..`max` (the caller then fills an Int32Array; `Infinity`: never).
   */
  const fillCosts = <T extends Int32Array | Uint8Array>(costs: T, max: number, floors: readonly (readonly number[])[]): T | undefined => {
    const L = languageCount
    const floorRows = floors.map((r) => (max === Infinity ? Int32Array.from(r) : Uint8Array.from(r)))
    for (let f = 0; f < featureCount; f++) {
      const floor = floorRows[orders[f]!]
      if (floor === undefined) continue // longer than maxOrder: text never yields it
      costs.set(floor, f * L)
    }
    for (let e = 0; e < entryCount; e += 3) {
      const f = entries[e]!
      const li = entries[e + 1]!
      const floor = floors[orders[f]!]
      if (floor === undefined) continue
      const v = costs[f * L + li]! + entries[e + 2]! - floor[li]!
      if (max !== Infinity && (v < 0 || v > max)) return undefined
      costs[f * L + li] = v
    }
    return costs
  }
  /** Record the sparse costs `[language, cost, ...]` (first `n` numbers of `row`) of feature `id`. */
  const addCosts = (id: number, row: ArrayLike<number>, n: number): void => {
    if (entryCount + (n / 2) * 3 > entries.length) {
      const grown = new Int32Array(Math.max(entries.length * 2, entryCount + n * 2))
      grown.set(entries)
      entries = grown
    }
    for (let e = 0; e + 1 < n; e += 2) {
      entries[entryCount++] = id
      entries[entryCount++] = row[e]!
      entries[entryCount++] = row[e + 1]!
    }
  }
  const finish = (header: { languages: readonly string[]; maxOrder: number; temperature: number; floors: readonly (readonly number[])[] }): CompiledLanguageModel => {
    const size = featureCount * languageCount
    const floorsFitBytes = header.floors.every((r) => r.every((v) => v >= 0 && v <= 255))
    const costs = (floorsFitBytes ? fillCosts(new Uint8Array(size), 255, header.floors) : undefined) ?? fillCosts(new Int32Array(size), Infinity, header.floors)!
    const finalFeature = nodeFeature.length >= trie.nodeCount() ? nodeFeature : (() => {
      const grown = new Int32Array(trie.nodeCount()).fill(-1)
      grown.set(nodeFeature)
      return grown
    })()
    return Object.freeze({
      languages: header.languages,
      maxOrder: header.maxOrder,
      temperature: header.temperature,
      floors: header.floors,
      featureCount,
      costs,
      words,
      child: trie.frozen(),
      nodeFeature: finalFeature,
    })
  }
  return { intern, addCosts, finish, order: () => lastOrder }
}

/** Compile model data (as trained or parsed) for scoring. */
export function compileLanguageModel(model: LanguageModelData): CompiledLanguageModel {
  let entryCount = 0
  for (const row of model.features.values()) entryCount += (row.length / 2) * 3
  const b = createBuilder(model.languages.length, model.features.size, entryCount)
  for (const [f, row] of model.features) {
    const id = b.intern(f)
    if (id === undefined) continue // cannot happen with a Map; kept for safety
    b.addCosts(id, row, row.length)
  }
  return b.finish(model)
}

/**
 * Parse model file text straight into the compiled layout (the fast path of loading). Same checks and
 * error messages as `parseLanguageModel`.
 */
export function compileLanguageModelText(text: string, source = 'language model'): CompiledLanguageModel {
  let lines = 1
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) lines++
  let b: ReturnType<typeof createBuilder> | undefined
  const header: ModelHeader = readLanguageModelText(text, source, {
    onLanguages: (languages) => {
      // Each cost item ("en5 ") takes at least 4 characters and 3 numbers.
      b = createBuilder(languages.length, lines, Math.ceil(text.length / 4) * 3)
    },
    onFeature: (key, row, n) => {
      const id = b!.intern(key)
      if (id === undefined) return -1
      b!.addCosts(id, row, n)
      return b!.order()
    },
  })
  return b!.finish(header)
}

/** Read and compile a model file (the committed one by default). Throws naming the file when missing or malformed. */
export function loadCompiledLanguageModel(path?: string, dataDir?: string): CompiledLanguageModel {
  return compileLanguageModelText(readLanguageModelFile(path, dataDir), path ?? defaultLanguageModelPath(dataDir))
}
