import { readFileSync } from 'node:fs'
import { sortedWords } from '../sorted-words.ts'
import { rowDots } from './embed.ts'

/**
 * Word vectors in the engine's compact binary form (`lexicons/en/vectors.bin`, written by
 * `bench/build-vectors.ts`). Little-endian layout:
 *
 * ```
 * 0   8 bytes  magic "TXVEC01\n"
 * 8   uint32   dims
 * 12  uint32   count (words)
 * 16  uint32   vocabulary bytes
 * 20  uint32   0 (reserved)
 * 24  float32  scale[count]          int8 value x scale = component of the unit vector
 * ..  float32  probability[count]    the word's probability in running text (SUBTLEX-US)
 * ..  int8     vector[count * dims]
 * ..  UTF-8    vocabulary: the words, sorted, joined by "\n"
 * ```
 *
 * Vectors are unit length before quantisation, so a dot product is a cosine (to about 1%).
 */
export interface WordVectors {
  readonly dims: number
  readonly size: number
  /** Index of a lower-case word, or -1 when it has no vector. */
  id(word: string): number
  word(id: number): string
  /** The word's probability in running text (for importance weights). */
  probability(id: number): number
  /** `acc += w * vector(id)`. */
  addTo(acc: Float32Array, id: number, w: number): void
  /** `a += w * vector(id)` and `b += w * vector(id)` in one pass (the same numbers as two {@link WordVectors.addTo} calls). */
  addToBoth?(a: Float32Array, b: Float32Array, id: number, w: number): void
  /** Dot product of a word's vector with `v`. */
  dot(id: number, v: Float32Array): number
  /**
   * `out[r]` = the dot product of the word's vector with row r of `rows` (row-major, `dims` columns, `count`
   * rows), each exactly as {@link WordVectors.dot} computes it (same order of summation, so the same number),
   * several rows at a time.
   */
  dotRows?(id: number, rows: Float64Array, count: number, out: Float64Array): void
  /**
   * `out[i]` = {@link WordVectors.dot} of word `ids[i]` with `v`, for each of `ids` (the same numbers), several
   * words at a time.
   */
  dotWords?(ids: readonly number[], v: Float32Array, out: number[]): void
}

const MAGIC = 'TXVEC01\n'
const HEADER = 24

/** Whether typed arrays read this machine's memory little-endian (the file's byte order). */
const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1

/** What {@link encodeWordVectors} writes. `words` must be sorted and unique. */
export interface WordVectorSource {
  readonly dims: number
  readonly words: readonly string[]
  readonly vectors: readonly Float32Array[]
  readonly probabilities: readonly number[]
}

/** Encode word vectors in the binary layout above (unit-normalised, int8 with a per-vector scale). */
export function encodeWordVectors(src: WordVectorSource): Uint8Array {
  const { dims, words } = src
  const n = words.length
  const vocab = new TextEncoder().encode(words.join('\n'))
  const size = HEADER + n * 8 + n * dims + vocab.length
  const bytes = new Uint8Array(size)
  const view = new DataView(bytes.buffer)
  bytes.set(new TextEncoder().encode(MAGIC), 0)
  view.setUint32(8, dims, true)
  view.setUint32(12, n, true)
  view.setUint32(16, vocab.length, true)
  view.setUint32(20, 0, true)
  const vecAt = HEADER + n * 8
  for (let i = 0; i < n; i++) {
    const v = src.vectors[i]!
    let norm = 0
    for (let d = 0; d < dims; d++) norm += v[d]! * v[d]!
    norm = Math.sqrt(norm) || 1
    let max = 0
    for (let d = 0; d < dims; d++) max = Math.max(max, Math.abs(v[d]! / norm))
    const scale = Math.fround(max / 127 || 1)
    view.setFloat32(HEADER + i * 4, scale, true)
    view.setFloat32(HEADER + n * 4 + i * 4, src.probabilities[i]!, true)
    for (let d = 0; d < dims; d++) view.setInt8(vecAt + i * dims + d, Math.max(-127, Math.min(127, Math.round(v[d]! / norm / scale))))
  }
  bytes.set(vocab, vecAt + n * dims)
  return bytes
}

/**
 * Read word vectors from bytes in the layout above; an error naming `source` when they are not. The vectors read
 * `bytes` in place: the caller must not change them afterwards.
 */
export function decodeWordVectors(bytes: Uint8Array, source = 'word vectors'): WordVectors {
  const bad = (why: string): never => {
    throw new Error(`${source}: ${why}`)
  }
  if (bytes.length < HEADER || new TextDecoder().decode(bytes.subarray(0, 8)) !== MAGIC) bad(`expected the magic "TXVEC01", instead found a different header`)
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  const dims = view.getUint32(8, true)
  const n = view.getUint32(12, true)
  const vocabBytes = view.getUint32(16, true)
  const vecAt = HEADER + n * 8
  if (dims === 0 || bytes.length !== vecAt + n * dims + vocabBytes) bad(`expected ${vecAt + n * dims + vocabBytes} bytes for ${n} words of ${dims} dimensions, instead found ${bytes.length}`)
  // Read in place (views over the file's bytes, which the vectors then keep alive): copying the 5 MB of vectors
  // touched as many fresh pages, a visible share of the engine's cold start. The scales and probabilities are read
  // in place too on a little-endian machine when aligned, else copied through the DataView.
  let scales: Float32Array
  let probs: Float32Array
  if (LITTLE_ENDIAN && (bytes.byteOffset + HEADER) % 4 === 0) {
    scales = new Float32Array(bytes.buffer, bytes.byteOffset + HEADER, n)
    probs = new Float32Array(bytes.buffer, bytes.byteOffset + HEADER + n * 4, n)
  } else {
    scales = new Float32Array(n)
    probs = new Float32Array(n)
    for (let i = 0; i < n; i++) {
      scales[i] = view.getFloat32(HEADER + i * 4, true)
      probs[i] = view.getFloat32(HEADER + n * 4 + i * 4, true)
    }
  }
  const q = new Int8Array(bytes.buffer, bytes.byteOffset + vecAt, n * dims)
  // The vocabulary is sorted: read in place when it is ASCII (see sorted-words.ts), else split into a Map.
  const vocabulary = bytes.subarray(vecAt + n * dims)
  let id: (word: string) => number
  let word: (id: number) => string
  const sorted = sortedWords(vocabulary, n)
  if (sorted !== undefined) {
    id = (w) => sorted.indexOf(w)
    word = (i) => sorted.word(i)
  } else {
    const words = new TextDecoder().decode(vocabulary).split('\n')
    if (words.length !== n) bad(`expected ${n} words in the vocabulary, instead found ${words.length}`)
    const ids = new Map<string, number>()
    for (let i = 0; i < n; i++) ids.set(words[i]!, i)
    id = (w) => ids.get(w) ?? -1
    word = (i) => words[i]!
  }
  return {
    dims,
    size: n,
    id,
    word,
    probability: (id) => probs[id]!,
    addTo(acc, id, w) {
      const s = scales[id]! * w
      const o = id * dims
      for (let d = 0; d < dims; d++) acc[d]! += q[o + d]! * s
    },
    addToBoth(a, b, id, w) {
      const s = scales[id]! * w
      const o = id * dims
      for (let d = 0; d < dims; d++) {
        const x = q[o + d]! * s
        a[d]! += x
        b[d]! += x
      }
    },
    dot(id, v) {
      const o = id * dims
      let sum = 0
      let d = 0
      // Unrolled by four, summed in order (the same number as one product per step).
      for (; d + 4 <= dims; d += 4) {
        sum += q[o + d]! * v[d]!
        sum += q[o + d + 1]! * v[d + 1]!
        sum += q[o + d + 2]! * v[d + 2]!
        sum += q[o + d + 3]! * v[d + 3]!
      }
      for (; d < dims; d++) sum += q[o + d]! * v[d]!
      return sum * scales[id]!
    },
    dotWords(ids, v, out) {
      const count = ids.length
      let i = 0
      // Four words at once: four independent sums (each in the order of `dot`), as in dotRows.
      for (; i + 4 <= count; i += 4) {
        const a = ids[i]!
        const b = ids[i + 1]!
        const c = ids[i + 2]!
        const e = ids[i + 3]!
        const oa = a * dims
        const ob = b * dims
        const oc = c * dims
        const oe = e * dims
        let s0 = 0
        let s1 = 0
        let s2 = 0
        let s3 = 0
        for (let d = 0; d < dims; d++) {
          const x = v[d]!
          s0 += q[oa + d]! * x
          s1 += q[ob + d]! * x
          s2 += q[oc + d]! * x
          s3 += q[oe + d]! * x
        }
        out[i] = s0 * scales[a]!
        out[i + 1] = s1 * scales[b]!
        out[i + 2] = s2 * scales[c]!
        out[i + 3] = s3 * scales[e]!
      }
      for (; i < count; i++) {
        const id = ids[i]!
        const o = id * dims
        let sum = 0
        for (let d = 0; d < dims; d++) sum += q[o + d]! * v[d]!
        out[i] = sum * scales[id]!
      }
    },
    dotRows(id, rows, count, out) {
      // The word's int8 components as float32 (exactly), times each row four rows at a time (rowDots: the products
      // and the order of summation of `dot`, so the same numbers), then scaled.
      const o = id * dims
      const sums = rowDots(rows, count, dims, Float32Array.from(q.subarray(o, o + dims)), false, new Array<number>(count))
      const s = scales[id]!
      for (let r = 0; r < count; r++) out[r] = sums[r]! * s
    },
  }
}

/** Load word vectors from a file (see {@link decodeWordVectors}). */
export function loadWordVectors(path: string): WordVectors {
  let bytes: Uint8Array
  try {
    bytes = readFileSync(path)
  } catch (e) {
    throw new Error(`cannot read word vectors ${path}: ${(e as Error).message}`)
  }
  return decodeWordVectors(bytes, path)
}
