import { readFileSync } from 'node:fs'
import { dataPath, missingDataHint } from '../resources.ts'
import { LexiconError } from '../sentiment/lexicon.ts'
import { WordIndexMap } from '../sorted-words.ts'

/**
 * Background word frequencies (`en/word-frequency.tsv`, compiled by `bench/build-theme-background.ts` from
 * SUBTLEXus): lower-cased word -> zipf (log10 per billion words, 1.0 to 7.6). A word the list lacks is rarer
 * than any listed one.
 */
export type Background = ReadonlyMap<string, number>

/** Zipf of a word the background list does not hold: rarer than the rarest listed word. */
export const UNSEEN_ZIPF = 1.5

/**
 * Parse the background list; throws {@link LexiconError} naming the line of a malformed entry. A list of plain lines
 * (`word<TAB>digits[.digits]`, `#` comments, blank lines: the committed one) is read in place into a
 * word index over the text ({@link WordIndexMap}), anything else line by line into a Map; both give the same lookups and order.
 */
export function parseBackground(text: string, name = 'word-frequency.tsv'): Background {
  return plainBackground(text) ?? parseBackgroundLines(text, name)
}

/** The general reader (trimmed lines, any number `Number` reads): the first zipf listed for a word wins. */
function parseBackgroundLines(text: string, name: string): Background {
  const out = new Map<string, number>()
  const lines = text.split('\n')
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!.trim()
    if (line === '' || line.startsWith('#')) continue
    // indexOf instead of split: no array per line (36k lines read on a cold start); same checks as split's columns.
    const tab = line.indexOf('\t')
    const word = tab < 0 ? line : line.slice(0, tab)
    const zipf = tab < 0 ? undefined : line.slice(tab + 1)
    const extra = zipf !== undefined && zipf.includes('\t') ? '' : undefined
    const z = Number(zipf)
    if (word === '' || extra !== undefined || zipf === undefined || !Number.isFinite(z)) {
      throw new LexiconError(`${name} line ${i + 1}: expected word<TAB>zipf, instead found ${JSON.stringify(line.slice(0, 60))}`)
    }
    if (!out.has(word)) out.set(word, z)
  }
  return out
}

/** Polynomial hash of a word's UTF-16 code units, spread over the table (murmur3's finaliser). */
function hashWord(text: string, from: number, to: number): number {
  let h = 0
  for (let i = from; i < to; i++) h = (Math.imul(h, 0x01000193) + text.charCodeAt(i)) | 0
  h ^= h >>> 16
  h = Math.imul(h, 0x85ebca6b)
  h ^= h >>> 13
  h = Math.imul(h, 0xc2b2ae35)
  return h ^ (h >>> 16)
}

/** Largest number of digits read by hand: their integer and 10^digits stay exact doubles. */
const MAX_DIGITS = 15

/**
 * The list read in place when every line is plain (see {@link parseBackground}): no string and no Map entry per
 * word at load (36k words: the general reader's line strings, slices and Map were a visible share of the cold
 * start), words found through an open-addressing table of their positions in `text`. Undefined when a line is not
 * plain (the general reader then reads it, and reports what is wrong). A zipf `d.dd` is read as the integer of its
 * digits over a power of ten, both exact, so the quotient is the double `Number` gives.
 */
function plainBackground(text: string): Background | undefined {
  let lines = 1
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) lines++
  const starts = new Int32Array(lines)
  const ends = new Int32Array(lines)
  const zipfs = new Float64Array(lines)
  const hashes = new Int32Array(lines)
  let cap = 1024
  while (cap < lines * 2) cap *= 2
  const slots = new Int32Array(cap)
  const mask = cap - 1
  let count = 0
  for (let at = 0; at <= text.length; ) {
    let nl = text.indexOf('\n', at)
    if (nl < 0) nl = text.length
    const lineStart = at
    at = nl + 1
    if (nl === lineStart) continue
    const c0 = text.charCodeAt(lineStart)
    if (c0 === 35 /* # */) continue
    // A first character trim() would remove, or a control character: not plain.
    if (c0 <= 32 || (c0 >= 127 && /^\s/.test(text.slice(lineStart, lineStart + 1)))) return undefined
    const tab = text.indexOf('\t', lineStart)
    if (tab < 0 || tab >= nl) return undefined
    let digits = 0
    let fraction = -1
    let n = 0
    for (let i = tab + 1; i < nl; i++) {
      const c = text.charCodeAt(i)
      if (c === 46 /* . */ && fraction < 0 && digits > 0) {
        fraction = 0
        continue
      }
      if (c < 48 || c > 57) return undefined
      n = n * 10 + (c - 48)
      digits++
      if (fraction >= 0) fraction++
    }
    if (digits === 0 || fraction === 0 || digits > MAX_DIGITS) return undefined
    const h = hashWord(text, lineStart, tab)
    const length = tab - lineStart
    let i = h & mask
    let seen = false
    for (;;) {
      const e = slots[i]! - 1
      if (e < 0) break
      if (hashes[e] === h && ends[e]! - starts[e]! === length && text.startsWith(text.slice(lineStart, tab), starts[e])) {
        seen = true
        break
      }
      i = (i + 1) & mask
    }
    if (seen) continue // the first zipf listed wins
    starts[count] = lineStart
    ends[count] = tab
    zipfs[count] = fraction > 0 ? n / 10 ** fraction : n
    hashes[count] = h
    slots[i] = ++count
  }
  const find = (word: string): number => {
    const h = hashWord(word, 0, word.length)
    let i = h & mask
    for (;;) {
      const e = slots[i]! - 1
      if (e < 0) return -1
      if (hashes[e] === h && ends[e]! - starts[e]! === word.length && text.startsWith(word, starts[e])) return e
      i = (i + 1) & mask
    }
  }
  // Word -> zipf over the list's text, entries in the order of the list.
  return new WordIndexMap({ size: count, indexOf: find, word: (e) => text.slice(starts[e], ends[e]) }, (e) => zipfs[e]!)
}

/** Load `en/word-frequency.tsv` from the data folder (see `resolveDataDir`). */
export function loadBackground(dataDir?: string): Background {
  const path = dataPath(dataDir, 'en', 'word-frequency.tsv')
  let text: string
  try {
    text = readFileSync(path, 'utf8')
  } catch (e) {
    throw new LexiconError(`cannot read lexicon file ${path}: ${(e as Error).message} (${missingDataHint(dataDir)})`)
  }
  return parseBackground(text)
}
