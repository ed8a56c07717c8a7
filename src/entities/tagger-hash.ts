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
  /**
   * `names[e]` is entry e's name, `rows[e]` its row, `hashes[e]` its hash. The same name twice keeps the later
   * entry's row (as `Map#set` in order would).
   */
  constructor(private readonly names: readonly string[], rows?: Int32Array, hashes?: Int32Array) {
    const n = names.length
    this.rows = rows ?? Int32Array.from({ length: n }, (_, i) => i)
    if (hashes === undefined) {
      hashes = new Int32Array(n)
      for (let e = 0; e < n; e++) hashes[e] = hashOf(names[e]!)
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
        if (hashes[s - 1] === h && names[s - 1] === names[e]) {
          this.slots[i] = e + 1
          break
        }
        i = (i + 1) & this.mask
      }
    }
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
        const name = this.names[s - 1]!
        if (name.length === length && name.startsWith(a)) {
          let o = a.length
          if (name.startsWith(b, o) && name.startsWith(c, (o += b.length)) && name.startsWith(d, (o += c.length)) && name.startsWith(e, (o += d.length)) && name.startsWith(f, o + e.length)) {
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
