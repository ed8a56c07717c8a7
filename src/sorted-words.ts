/**
 * A sorted word list read in place from a data file's bytes (the word vectors' vocabulary, the NER word clusters:
 * 50,000 words each), instead of split into 50,000 strings and filed in a `Map` when the file is loaded: building
 * those two tables was about a tenth of the engine's cold start. A word is found by binary search over the bytes
 * the first time it is asked for, then remembered, so a word seen before costs one `Map` lookup as it did.
 *
 * Only for ASCII words in strictly increasing byte order (then byte order is the order of JavaScript strings and a
 * word is found exactly when `Map#get` found it); {@link sortedWords} answers undefined for anything else and the
 * caller builds its `Map` as before.
 */
import { isAscii } from 'node:buffer'

/** Words by index, and the index of a word (also the shape {@link WordIndexMap} reads). */
export interface SortedWords {
  readonly size: number
  /** Index of `word`, or -1 when the list lacks it. */
  indexOf(word: string): number
  /** The word at index `i` (0 <= i < size). */
  word(i: number): string
}

/** Answers remembered before the memo starts again (it holds the words the texts used, not the whole list). */
const MEMO_LIMIT = 200_000

/**
 * Index the `count` words of `bytes` (the words joined by "\n", nothing after the last), or undefined when they
 * are not ASCII, not that many, or not in strictly increasing byte order. `bytes` is read in place: the caller must
 * not change it afterwards.
 */
export function sortedWords(bytes: Uint8Array, count: number): SortedWords | undefined {
  if (count <= 0 || !isAscii(bytes)) return undefined
  // starts[k]: first byte of word k; starts[count]: one past the end plus one (as if a newline followed).
  const starts = new Int32Array(count + 1)
  let k = 0
  for (let i = 0; i < bytes.length; i++) {
    if (bytes[i] === 10) {
      if (++k >= count) return undefined
      starts[k] = i + 1
    }
  }
  if (k !== count - 1) return undefined
  starts[count] = bytes.length + 1
  for (let w = 1; w < count; w++) {
    const a = starts[w - 1]!
    const aEnd = starts[w]! - 1
    const b = starts[w]!
    const bEnd = starts[w + 1]! - 1
    let d = 0
    for (let i = 0; d === 0 && a + i < aEnd && b + i < bEnd; i++) d = bytes[a + i]! - bytes[b + i]!
    if (d === 0) d = aEnd - a - (bEnd - b)
    if (d >= 0) return undefined
  }
  const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  // Words asked for by index (iterating a WordIndexMap: tools, not analysis), made when first asked for: allocated up
  // front, the array's 50,000 empty slots took 0.4 MB of heap per list for the life of the engine.
  let names: (string | undefined)[] | undefined
  let memo = new Map<string, number>()
  /** `word` against word `w`: negative when `word` sorts first. */
  const compare = (word: string, w: number): number => {
    const a = starts[w]!
    const n = starts[w + 1]! - 1 - a
    const m = Math.min(word.length, n)
    for (let i = 0; i < m; i++) {
      const d = word.charCodeAt(i) - bytes[a + i]!
      if (d !== 0) return d
    }
    return word.length - n
  }
  return {
    size: count,
    indexOf(word) {
      const known = memo.get(word)
      if (known !== undefined) return known
      let lo = 0
      let hi = count - 1
      let found = -1
      while (lo <= hi) {
        const mid = (lo + hi) >>> 1
        const d = compare(word, mid)
        if (d === 0) {
          found = mid
          break
        }
        if (d < 0) hi = mid - 1
        else lo = mid + 1
      }
      if (memo.size >= MEMO_LIMIT) memo = new Map()
      memo.set(word, found)
      return found
    },
    word(i) {
      names ??= new Array<string | undefined>(count)
      let s = names[i]
      if (s === undefined) {
        if (!(i >= 0 && i < count)) return undefined as unknown as string
        s = text.toString('latin1', starts[i]!, starts[i + 1]! - 1)
        names[i] = s
      }
      return s
    },
  }
}

/**
 * A read-only map word -> value over a word index ({@link SortedWords}, or any table that numbers its words
 * 0..size-1: the theme background list's): `value(i)` is the value of word i, entries in index order.
 */
export class WordIndexMap<V> implements ReadonlyMap<string, V> {
  constructor(
    private readonly words: SortedWords,
    private readonly value: (i: number) => V,
  ) {}

  get size(): number {
    return this.words.size
  }

  get(word: string): V | undefined {
    const i = this.words.indexOf(word)
    return i < 0 ? undefined : this.value(i)
  }

  has(word: string): boolean {
    return this.words.indexOf(word) >= 0
  }

  forEach(f: (value: V, key: string, map: ReadonlyMap<string, V>) => void, thisArg?: unknown): void {
    for (let i = 0; i < this.words.size; i++) f.call(thisArg, this.value(i), this.words.word(i), this)
  }

  *entries(): MapIterator<[string, V]> {
    for (let i = 0; i < this.words.size; i++) yield [this.words.word(i), this.value(i)]
  }

  *keys(): MapIterator<string> {
    for (let i = 0; i < this.words.size; i++) yield this.words.word(i)
  }

  *values(): MapIterator<V> {
    for (let i = 0; i < this.words.size; i++) yield this.value(i)
  }

  [Symbol.iterator](): MapIterator<[string, V]> {
    return this.entries()
  }
}
