/**
 * The language model in the layout scoring wants: every feature interned to an integer id once, n-grams
 * found by walking a code-point trie (no substring per n-gram), and costs in one dense typed array
 * laid out `[feature][language]` (unlisted costs hold the floor of the feature's order), so scoring a
 * text is a few integer adds per feature. Built from a {@link LanguageModelData} or straight from the
 * model file text (no intermediate map of feature strings).
 */
import { createHash } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { ownString } from '../own-string.ts'
import { WORD_PREFIX } from './features.ts'
import { findLanguageEntry } from './languages.ts'
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
  edges(): { parents: Int32Array; cps: Int32Array }
  load(count: number, parents: Int32Array, cps: Int32Array): void
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
  /** Every edge by its child: `parents[c - 1]` and `cps[c - 1]` lead to node c (what {@link encodeCompiledLanguageModel} stores). */
  const listEdges = (): { parents: Int32Array; cps: Int32Array } => {
    const ps = new Int32Array(nodes - 1)
    const cs = new Int32Array(nodes - 1)
    for (let i = 0; i < parents.length; i++) {
      if (parents[i] === -1) continue
      ps[children[i]! - 1] = parents[i]!
      cs[children[i]! - 1] = cps[i]!
    }
    return { parents: ps, cps: cs }
  }
  /** Fill an empty trie with stored edges (see `edges`), child by child: no probing for existing edges, no growth. */
  const load = (count: number, ps: Int32Array, cs: Int32Array): void => {
    for (let c = 1; c < count; c++) put(ps[c - 1]!, cs[c - 1]!, c)
    nodes = count
    edges = count - 1
  }
  return { child, insert, frozen, load, nodeCount: () => nodes, edges: listEdges }
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
  return { intern, addCosts, finish, edges: () => ({ count: trie.nodeCount(), ...trie.edges() }), order: () => lastOrder }
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

/** Model file text compiled into a builder (the text path of loading, and what the binary form is written from). */
function buildFromText(text: string, source: string): { builder: ReturnType<typeof createBuilder>; header: ModelHeader } {
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
  return { builder: b!, header }
}

/**
 * Parse model file text straight into the compiled layout (the text path of loading). Same checks and error
 * messages as `parseLanguageModel`.
 */
export function compileLanguageModelText(text: string, source = 'language model'): CompiledLanguageModel {
  const { builder, header } = buildFromText(text, source)
  return builder.finish(header)
}

/*
 * The compiled form on disk (`lexicons/langid/model.bin` beside `model.tsv`): the compiled model's tables as
 * little-endian typed arrays, so that loading skips parsing 70k lines, interning their n-grams into the trie one code
 * point at a time and filling the cost table (about 90 ms of a cold start; reading this form takes a few). It is
 * derived from the text file, which stays the model's source: the header holds the SHA-256 of the text it was compiled
 * from, and the loader reads it only beside that very text (anything else, or a damaged form, and the text is compiled
 * as before). Layout:
 *
 *   bytes 0..7   magic "TELID001"
 *   uint32 LE    length J of the JSON header
 *   J bytes      UTF-8 JSON header (COMPILED_FORMAT, the text's SHA-256, the model header, the table sizes)
 *   then, each from a multiple of 4 bytes: costs (u8 or i32, features x languages, `costBytes` wide), the trie's edges
 *   by child node (parents i32[nodes - 1], code points i32[nodes - 1]), node features i32[nodeFeatureLength], word
 *   features i32[words], the words as UTF-8, each ended by a line feed.
 */
const COMPILED_MAGIC = 'TELID001'
const COMPILED_FORMAT = 'textengine-langid-compiled/1'

interface CompiledHeader extends ModelHeader {
  readonly format: string
  readonly sourceSha256: string
  readonly featureCount: number
  readonly costBytes: number
  readonly nodeCount: number
  readonly nodeFeatureLength: number
  readonly wordCount: number
  readonly wordBytes: number
}

const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1
const align4 = (n: number): number => (n + 3) & ~3

/** SHA-256 (hex) of a model text, as the compiled form records it. */
export function languageModelTextSha256(text: string | Uint8Array): string {
  return createHash('sha256').update(text).digest('hex')
}

/** The compiled form's path beside a model file: `model.tsv` -> `model.bin`. */
export function compiledLanguageModelPath(modelFile: string): string {
  return modelFile.endsWith('.tsv') ? modelFile.slice(0, -4) + '.bin' : modelFile + '.bin'
}

/**
 * Compile model file text and write its compiled form (deterministic: the same text gives the same bytes). Throws as
 * {@link compileLanguageModelText} does, and on a big-endian machine.
 */
export function encodeCompiledLanguageModel(text: string, source = 'language model'): Buffer {
  if (!LITTLE_ENDIAN) throw new Error('the compiled form is written on little-endian machines only')
  const { builder, header } = buildFromText(text, source)
  const model = builder.finish(header)
  const edges = builder.edges()
  const words = [...model.words]
  const wordText = Buffer.from(words.map(([w]) => w + '\n').join(''), 'utf8')
  const meta: CompiledHeader = {
    format: COMPILED_FORMAT,
    sourceSha256: languageModelTextSha256(text),
    languages: model.languages,
    maxOrder: model.maxOrder,
    temperature: model.temperature,
    floors: model.floors,
    featureCount: model.featureCount,
    costBytes: model.costs.BYTES_PER_ELEMENT,
    nodeCount: edges.count,
    nodeFeatureLength: model.nodeFeature.length,
    wordCount: words.length,
    wordBytes: wordText.length,
  }
  const json = Buffer.from(JSON.stringify(meta), 'utf8')
  const parts = [model.costs, edges.parents, edges.cps, model.nodeFeature, Int32Array.from(words, ([, id]) => id), wordText]
  let size = align4(12 + json.length)
  for (const p of parts) size = align4(size + p.byteLength)
  const out = Buffer.alloc(size)
  out.write(COMPILED_MAGIC, 0, 'latin1')
  out.writeUInt32LE(json.length, 8)
  json.copy(out, 12)
  let at = align4(12 + json.length)
  for (const p of parts) {
    out.set(new Uint8Array(p.buffer, p.byteOffset, p.byteLength), at)
    at = align4(at + p.byteLength)
  }
  return out
}

/**
 * Read a compiled form. Throws naming `source` and what is wrong when the bytes are not one, or, when
 * `expectedSha256` is given, when it was compiled from another text. Little-endian machines only (others compile the
 * text). The tables are checked so that no lookup reads past them.
 */
export function decodeCompiledLanguageModel(bytes: Uint8Array, source = 'compiled language model', expectedSha256?: string): CompiledLanguageModel {
  const bad = (what: string): never => {
    throw new Error(`${source}: ${what}`)
  }
  if (!LITTLE_ENDIAN) bad('the compiled form is read on little-endian machines only')
  if (bytes.length < 12 || Buffer.from(bytes.buffer, bytes.byteOffset, 8).toString('latin1') !== COMPILED_MAGIC) bad(`expected the magic "${COMPILED_MAGIC}" at byte 0`)
  // Typed arrays need their offsets aligned: a copy when the bytes start off a multiple of 4.
  const buf = bytes.byteOffset % 4 === 0 ? bytes : bytes.slice()
  const jsonLength = new DataView(buf.buffer, buf.byteOffset, buf.byteLength).getUint32(8, true)
  if (12 + jsonLength > buf.length) bad(`header of ${jsonLength} bytes runs past the end of the file (${buf.length} bytes)`)
  let h: CompiledHeader
  try {
    h = JSON.parse(Buffer.from(buf.buffer, buf.byteOffset + 12, jsonLength).toString('utf8')) as CompiledHeader
  } catch (e) {
    return bad(`header is not JSON (${(e as Error).message})`)
  }
  if (h === null || typeof h !== 'object' || h.format !== COMPILED_FORMAT) bad(`expected format ${JSON.stringify(COMPILED_FORMAT)}, instead found ${JSON.stringify(h?.format)}`)
  if (expectedSha256 !== undefined && h.sourceSha256 !== expectedSha256) {
    bad(`compiled from another model text (SHA-256 ${String(h.sourceSha256).slice(0, 12)}..., the text's is ${expectedSha256.slice(0, 12)}...)`)
  }
  const count = (name: keyof CompiledHeader, atLeast = 0): number => {
    const v = h[name]
    if (typeof v !== 'number' || !Number.isInteger(v) || v < atLeast) bad(`header field ${name} should be an integer >= ${atLeast}, instead found ${JSON.stringify(v)}`)
    return v as number
  }
  const F = count('featureCount')
  const N = count('nodeCount', 1)
  const NF = count('nodeFeatureLength', N)
  const W = count('wordCount')
  const WB = count('wordBytes', W)
  if (h.costBytes !== 1 && h.costBytes !== 4) bad(`header field costBytes should be 1 or 4, instead found ${JSON.stringify(h.costBytes)}`)
  if (!Array.isArray(h.languages) || h.languages.some((c) => findLanguageEntry(c)?.code !== c)) bad('header field languages should list known language codes')
  const L = h.languages.length
  const orders = count('maxOrder', 1) + 1
  if (!Array.isArray(h.floors) || h.floors.length !== orders || h.floors.some((r) => !Array.isArray(r) || r.length !== L || r.some((v) => !Number.isInteger(v) || v < 0))) {
    bad(`header field floors should hold maxOrder + 1 rows of ${L} non-negative integers`)
  }
  if (typeof h.temperature !== 'number' || !(h.temperature > 0)) bad('header field temperature should be a positive number')
  let at = align4(12 + jsonLength)
  const take = <T>(n: number, width: number, make: (b: ArrayBufferLike, o: number, n: number) => T, name: string): T => {
    if (at + n * width > buf.length) bad(`${name} (${n} items) run past the end of the file (${buf.length} bytes)`)
    const a = make(buf.buffer, buf.byteOffset + at, n)
    at = align4(at + n * width)
    return a
  }
  const i32 = (b: ArrayBufferLike, o: number, n: number): Int32Array => new Int32Array(b, o, n)
  const costs = h.costBytes === 1 ? take(F * L, 1, (b, o, n) => new Uint8Array(b, o, n), 'costs') : take(F * L, 4, i32, 'costs')
  const parents = take(N - 1, 4, i32, 'edge parents')
  const cps = take(N - 1, 4, i32, 'edge code points')
  const nodeFeature = take(NF, 4, i32, 'node features')
  const wordIds = take(W, 4, i32, 'word features')
  const wordText = take(WB, 1, (b, o, n) => Buffer.from(b, o, n), 'words')
  if (at !== align4(buf.length)) bad(`${buf.length - at} bytes after the last table`)
  for (let c = 1; c < N; c++) if (parents[c - 1]! < 0 || parents[c - 1]! >= c) bad(`trie edge to node ${c} comes from node ${parents[c - 1]}`)
  for (let i = 0; i < NF; i++) if (nodeFeature[i]! < -1 || nodeFeature[i]! >= F) bad(`node ${i}'s feature ${nodeFeature[i]} is not one of the ${F} features`)
  const words = new Map<string, number>()
  const text = wordText.toString('utf8')
  for (let w = 0, from = 0; w < W; w++) {
    const end = text.indexOf('\n', from)
    if (end < 0) bad(`${W} words announced, ${w} found`)
    const id = wordIds[w]!
    if (id < 0 || id >= F) bad(`word ${w}'s feature ${id} is not one of the ${F} features`)
    words.set(text.slice(from, end), id)
    from = end + 1
  }
  const trie = createTrie(N)
  trie.load(N, parents, cps)
  return Object.freeze({
    languages: h.languages,
    maxOrder: h.maxOrder,
    temperature: h.temperature,
    floors: h.floors,
    featureCount: F,
    // Copies: the file's other tables (edges, words) are not kept alive by views of it.
    costs: costs.slice(),
    words,
    child: trie.frozen(),
    nodeFeature: nodeFeature.slice(),
  })
}

/**
 * Read and compile a model file (the committed one by default). Its compiled form beside it (`model.bin`) is read
 * instead when it was compiled from that very text; otherwise the text is compiled. Throws naming the file when
 * missing or malformed.
 */
export function loadCompiledLanguageModel(path?: string, dataDir?: string): CompiledLanguageModel {
  const file = path ?? defaultLanguageModelPath(dataDir)
  let text: Buffer | undefined
  try {
    text = readFileSync(file)
    const compiled = readFileSync(compiledLanguageModelPath(file))
    return decodeCompiledLanguageModel(compiled, compiledLanguageModelPath(file), languageModelTextSha256(text))
  } catch {
    // No compiled form, or one of another text (or damaged): compile the text (which names a missing file).
  }
  return compileLanguageModelText(text?.toString('utf8') ?? readLanguageModelFile(path, dataDir), file)
}
