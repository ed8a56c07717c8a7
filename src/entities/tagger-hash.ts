/**
 * The tagger's feature-name table: feature name -> weight row, looked up by a polynomial hash of the name's UTF-16
 * code units (mod 2^32), so that the hash of a name made of parts (`'l-1l=' + prev + '|' + word`) is computed from
 * the parts' hashes, which the decoder keeps per word, without building the string; a hit is confirmed by comparing
 * the stored name with the parts in place. Building it is cheaper than the `Map` of `PerceptronWeights.index`
 * (which `decodeModel` therefore builds only when asked for).
 */
import { ownString } from '../own-string.ts'
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

/** Whether the `nameLength` code units of `s` from `at` on are the parts `a + b + c + d + e + f` (of total `length`). */
function partsAt(s: string, at: number, nameLength: number, length: number, a: string, b: string, c: string, d: string, e: string, f: string): boolean {
  if (nameLength !== length || !s.startsWith(a, at)) return false
  let o = at + a.length
  return s.startsWith(b, o) && s.startsWith(c, (o += b.length)) && s.startsWith(d, (o += c.length)) && s.startsWith(e, (o += d.length)) && s.startsWith(f, o + e.length)
}

/** Feature name -> row, by hash (see the module comment). */
export class FeatureTable {
  /** Slot -> entry + 1 for a name of `text`, -(entry + 1) for a name of `wide` (0: empty). */
  private readonly slots: Int32Array
  /** Slot -> hash of its entry's name (beside the slot: a miss reads no entry). */
  private readonly slotHashes: Int32Array
  private readonly mask: number
  /** Entry -> row; undefined when every entry's row is its own number (a model file's table: no array of 0, 1, 2, ...). */
  private readonly rows: Int32Array | undefined
  /**
   * Every name, each followed by a line feed, in entry order, as one string of one byte a character: the few names
   * with a character beyond Latin-1 are read from `wide` instead, their place here holds the low bytes of their
   * characters. (One such character makes V8 store the whole string with two bytes a character: each tagger's 1.7M
   * characters of names hold about 530 in about 140 names, which took 3.3 MB of heap instead of 1.7.)
   */
  private readonly text: string
  /** Entry e's name is `text` from `starts[e]` up to `starts[e + 1] - 1`, unless `wide` holds it. */
  private readonly starts: Int32Array
  /** Entry -> name, for the names with a character beyond Latin-1 (undefined when there are none). */
  private readonly wide: ReadonlyMap<number, string> | undefined

  /**
   * `names` are the entries' names (an array, or one string of names each ending in a line feed, as a model file
   * holds them: no string per name is kept, about 10 MB of heap and 250k strings less for the two taggers), `rows[e]`
   * entry e's row (default e), `hashes[e]` its hash. The same name twice keeps the later entry's row (as `Map#set` in
   * order would). `maxLoad`: the most entries per slot (the slots are a power of two, at least 1024); the default,
   * 0.5, suits a table that most lookups miss (the taggers'), a table looked up once per word can hold more.
   */
  constructor(names: readonly string[] | string, rows?: Int32Array, hashes?: Int32Array, maxLoad = 0.5) {
    const all = typeof names === 'string' ? names : names.map((x) => x + '\n').join('')
    let n = 0
    for (let i = all.indexOf('\n'); i >= 0; i = all.indexOf('\n', i + 1)) n++
    if (typeof names !== 'string' && n !== names.length) {
      // (The model file separates names by line feeds too, so no saved model holds such a name.)
      throw new Error(`FeatureTable: feature name ${JSON.stringify(names.find((x) => x.includes('\n')))} holds a line feed`)
    }
    const starts = new Int32Array(n + 1)
    for (let e = 0, at = 0; e < n; e++) {
      at = all.indexOf('\n', at) + 1
      starts[e + 1] = at
    }
    if (hashes === undefined) {
      hashes = new Int32Array(n)
      for (let e = 0; e < n; e++) {
        let h = 0
        for (let i = starts[e]!, end = starts[e + 1]! - 1; i < end; i++) h = (Math.imul(h, B) + all.charCodeAt(i)) | 0
        hashes[e] = h
      }
    }
    // The entries whose names hold a character beyond Latin-1, in entry order (see `text`).
    const wideEntries: number[] = []
    const beyondLatin1 = /[^\u0000-\u00ff]/g
    for (let m = beyondLatin1.exec(all); m !== null; m = beyondLatin1.exec(all)) {
      let lo = 0
      let hi = n - 1
      while (lo < hi) {
        const mid = (lo + hi + 1) >>> 1
        if (starts[mid]! <= m.index) lo = mid
        else hi = mid - 1
      }
      if (wideEntries[wideEntries.length - 1] !== lo) wideEntries.push(lo)
      beyondLatin1.lastIndex = starts[lo + 1]!
    }
    let text = all
    let wide: Map<number, string> | undefined
    if (wideEntries.length > 0) {
      wide = new Map()
      // A copy (ownString's reason): a slice would keep the whole two-byte text alive.
      for (const e of wideEntries) wide.set(e, ownString(all.slice(starts[e], starts[e + 1]! - 1)))
      // The text as Latin-1 bytes, one per UTF-16 code unit (a wide name's units cut to their low byte: that part of
      // the text is never read, so every start stays as it is), decoded to a one-byte string. (From 1 MB on, Node
      // makes that an external string: its bytes live outside the JS heap, and read as fast.)
      const bytes = Buffer.allocUnsafe(all.length)
      bytes.write(all, 0, 'latin1')
      text = bytes.toString('latin1')
    }
    this.text = text
    this.starts = starts
    this.wide = wide
    this.rows = rows
    let cap = 1024
    while (cap * maxLoad < n) cap *= 2
    this.slots = new Int32Array(cap)
    this.slotHashes = new Int32Array(cap)
    this.mask = cap - 1
    for (let e = 0, k = 0; e < n; e++) {
      const h: number = hashes[e]!
      const isWide = wideEntries[k] === e
      if (isWide) k++
      const value = isWide ? -(e + 1) : e + 1
      let i: number = mix(h) & this.mask
      for (;;) {
        const s: number = this.slots[i]!
        if (s === 0) {
          this.slots[i] = value
          this.slotHashes[i] = h
          break
        }
        const other = s > 0 ? s - 1 : -s - 1
        if (hashes[other] === h && this.name(other) === this.name(e)) {
          this.slots[i] = value
          break
        }
        i = (i + 1) & this.mask
      }
    }
  }

  /** Number of entries. */
  get size(): number {
    return this.starts.length - 1
  }

  /** Entry e's name. */
  name(e: number): string {
    return this.wide?.get(e) ?? this.text.slice(this.starts[e], this.starts[e + 1]! - 1)
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
        // A name of `text` (s > 0) is compared in place there, a name of `wide` (s < 0) in its own string.
        const entry = s > 0 ? s - 1 : -s - 1
        const wide = s > 0 ? undefined : this.wide!.get(entry)!
        const at = wide === undefined ? this.starts[entry]! : 0
        const nameLength = wide === undefined ? this.starts[s]! - 1 - at : wide.length
        if (partsAt(wide ?? this.text, at, nameLength, length, a, b, c, d, e, f)) return this.rows === undefined ? entry : this.rows[entry]!
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
