/**
 * The tagger's feature-name table: feature name -> weight row, looked up by a polynomial hash of the name's UTF-16
 * code units (mod 2^32), so that the hash of a name made of parts (`'l-1l=' + prev + '|' + word`) is computed from
 * the parts' hashes, which the decoder keeps per word, without building the string; a hit is confirmed by comparing
 * the stored name with the parts in place. Building it is cheaper than the `Map` of `PerceptronWeights.index`
 * (which `decodeModel` therefore builds only when asked for).
 */
import type { PerceptronWeights } from './model.ts'

const B = 0x01000193
const POW_CACHE = 1024
const POW: Int32Array = (() => {
  const p = new Int32Array(POW_CACHE)
  p[0] = 1
  for (let i = 1; i < POW_CACHE; i++) p[i] = Math.imul(p[i - 1]!, B)
  return p
})()

/** B^n mod 2^32 (as an int32). */
export function hashPow(n: number): number {
  if (n < POW_CACHE) return POW[n]!
  let r = 1
  let b = B
  while (n > 0) {
    if ((n & 1) === 1) r = Math.imul(r, b)
    b = Math.imul(b, b)
    n >>>= 1
  }
  return r
}

/** Hash of a string: sum of code units x B^(position from the end), mod 2^32. */
export function hashOf(s: string): number {
  let h = 0
  for (let i = 0; i < s.length; i++) h = (Math.imul(h, B) + s.charCodeAt(i)) | 0
  return h
}

/** Hash of x + y from the hash of x, and the hash and length of y. */
export function hashCat(hx: number, hy: number, lengthY: number): number {
  return (Math.imul(hx, hashPow(lengthY)) + hy) | 0
}

/** Spread of a hash over the table's slots (murmur3's finaliser). */
function mix(h: number): number {
  h ^= h >>> 16
  h = Math.imul(h, 0x85ebca6b)
  h ^= h >>> 13
  h = Math.imul(h, 0xc2b2ae35)
  return h ^ (h >>> 16)
}

/** Feature name -> row, by hash (see the module comment). */
export class FeatureTable {
  /** Slot -> entry + 1 (0: empty). */
  private readonly slots: Int32Array
  /** Slot -> hash of its entry's name (beside the slot: a miss reads no entry). */
  private readonly slotHashes: Int32Array
  private readonly mask: number
  private readonly rows: Int32Array
  /** Every name, each followed by a line feed, in entry order. */
  private readonly text: string
  /** Entry e's name is `text` from `starts[e]` up to `starts[e + 1] - 1`. */
  private readonly starts: Int32Array

  /**
   * `names` are the entries' names (an array, or one string of names each ending in a line feed, as a model file
   * holds them: no string per name is kept, about 10 MB of heap and 250k strings less for the two taggers), `rows[e]`
   * entry e's row (default e), `hashes[e]` its hash. The same name twice keeps the later entry's row (as `Map#set` in
   * order would).
   */
  constructor(names: readonly string[] | string, rows?: Int32Array, hashes?: Int32Array) {
    const text = typeof names === 'string' ? names : names.map((x) => x + '\n').join('')
    let n = 0
    for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) n++
    if (typeof names !== 'string' && n !== names.length) {
      // (The model file separates names by line feeds too, so no saved model holds such a name.)
      throw new Error(`FeatureTable: feature name ${JSON.stringify(names.find((x) => x.includes('\n')))} holds a line feed`)
    }
    const starts = new Int32Array(n + 1)
    for (let e = 0, at = 0; e < n; e++) {
      at = text.indexOf('\n', at) + 1
      starts[e + 1] = at
    }
    this.text = text
    this.starts = starts
    this.rows = rows ?? Int32Array.from({ length: n }, (_, i) => i)
    if (hashes === undefined) {
      hashes = new Int32Array(n)
      for (let e = 0; e < n; e++) {
        let h = 0
        for (let i = starts[e]!, end = starts[e + 1]! - 1; i < end; i++) h = (Math.imul(h, B) + text.charCodeAt(i)) | 0
        hashes[e] = h
      }
    }
    let cap = 1024
    while (cap < n * 2) cap *= 2
    this.slots = new Int32Array(cap)
    this.slotHashes = new Int32Array(cap)
    this.mask = cap - 1
    for (let e = 0; e < n; e++) {
      const h = hashes[e]!
      let i = mix(h) & this.mask
      for (;;) {
        const s = this.slots[i]!
        if (s === 0) {
          this.slots[i] = e + 1
          this.slotHashes[i] = h
          break
        }
        if (hashes[s - 1] === h && this.sameName(s - 1, e)) {
          this.slots[i] = e + 1
          break
        }
        i = (i + 1) & this.mask
      }
    }
  }

  /** Whether entries a and b have the same name. */
  private sameName(a: number, b: number): boolean {
    const { text, starts } = this
    const length = starts[a + 1]! - starts[a]!
    return length === starts[b + 1]! - starts[b]! && text.startsWith(text.slice(starts[a]!, starts[a + 1]!), starts[b]!)
  }

  /** Number of entries. */
  get size(): number {
    return this.starts.length - 1
  }

  /** Entry e's name. */
  name(e: number): string {
    return this.text.slice(this.starts[e]!, this.starts[e + 1]! - 1)
  }

  /** Row of `name`, or -1. */
  row(name: string): number {
    return this.find(hashOf(name), name)
  }

  /**
   * Row of the name `a + b + c + d + e + f` whose hash is `h` (see {@link hashCat}), or -1; the parts are compared in
   * place, no string is built.
   */
  find(h: number, a: string, b = '', c = '', d = '', e = '', f = ''): number {
    const slots = this.slots
    const mask = this.mask
    const length = a.length + b.length + c.length + d.length + e.length + f.length
    let i = mix(h) & mask
    for (;;) {
      const s = slots[i]!
      if (s === 0) return -1
      if (this.slotHashes[i] === h) {
        const text = this.text
        let o = this.starts[s - 1]!
        if (this.starts[s]! - 1 - o === length && text.startsWith(a, o)) {
          o += a.length
          if (text.startsWith(b, o) && text.startsWith(c, (o += b.length)) && text.startsWith(d, (o += c.length)) && text.startsWith(e, (o += d.length)) && text.startsWith(f, o + e.length)) {
            return this.rows[s - 1]!
          }
        }
      }
      i = (i + 1) & mask
    }
  }
}

const tables = new WeakMap<PerceptronWeights, FeatureTable>()

/** Remember the table of `weights` (`decodeModel` builds it with the weights). */
export function attachFeatureTable(weights: PerceptronWeights, table: FeatureTable): void {
  tables.set(weights, table)
}

/** The table of `weights`: the one built with them, else one built now from `weights.index` (and remembered). */
export function featureTableOf(weights: PerceptronWeights): FeatureTable {
  let t = tables.get(weights)
  if (t === undefined) {
    const names: string[] = []
    const rows: number[] = []
    for (const [name, row] of weights.index) {
      names.push(name)
      rows.push(row)
    }
    t = new FeatureTable(names, Int32Array.from(rows))
    tables.set(weights, t)
  }
  return t
}
