/**
 * A per-document index that every query of a configuration shares: token positions by lower-case
 * form and by lemma, word ordinals for NEAR, and memo tables for term and blacklist results. Build
 * it once per document with {@link createDocumentIndex}; lookups then cost a Map access instead of
 * a scan of the tokens. The maps are built on first use.
 */
import type { AnnotatedDocument } from '../nlp/types.ts'

/** A run of tokens `[start, end)` (token indices) that a term matched. */
export interface TokenSpan {
  readonly start: number
  readonly end: number
}

/** Token kinds that do not count as words for NEAR distances. */
const nonWordKinds = new Set(['punctuation', 'tabCRLF'])

/** The index of one document. Holds memo tables, so it belongs to one document (and one thread). */
export interface DocumentIndex {
  readonly doc: AnnotatedDocument
  /** Lower-cased surface form per token (`text.toLowerCase()`, contractions not expanded). */
  readonly lower: readonly string[]
  /** Lower-cased lemma per token. */
  readonly lemma: readonly string[]
  /** Number of word tokens before each token (punctuation is not a word). */
  readonly wordOrdinal: readonly number[]
  /** Sentence index per token. */
  readonly sentence: readonly number[]
  /** Token positions (ascending) of each lower-case form. */
  positionsOfLower(form: string): readonly number[] | undefined
  /** Token positions (ascending) of each lemma. */
  positionsOfLemma(lemma: string): readonly number[] | undefined
  /** Token positions (ascending) whose lower-case form or lemma is `word` (one lookup, no merging). */
  positionsOfWord(word: string): readonly number[] | undefined
  /** Token positions (ascending) whose lower-case form starts with `prefix`. */
  positionsWithPrefix(prefix: string): readonly number[]
  /** Distinct lower-case forms of the document, sorted. */
  forms(): readonly string[]
  /** Distinct lower-case forms and lemmas of the document (no order promised). */
  wordKeys(): Iterable<string>
  /** Memo shared by matchers (keyed by matcher objects or strings); lives as long as the index. */
  readonly memo: Map<unknown, unknown>
}

function addTo(map: Map<string, number[]>, key: string, i: number): void {
  const list = map.get(key)
  if (list === undefined) map.set(key, [i])
  else list.push(i)
}

/**
 * The index of `doc`: one pass over its tokens, made when a member is first read (every document gets an index
 * object, since topics, user entities and sentiment phrases share it; a configuration without queries reads none,
 * and pays nothing).
 */
export function createDocumentIndex(doc: AnnotatedDocument): DocumentIndex {
  return new LazyDocumentIndex(doc)
}

/**
 * {@link createDocumentIndex}'s index: a class, so that its getters live once on the prototype. An object literal
 * with getters gets new accessor pairs per object, which V8 allocates in the old generation; they hold the getters'
 * closures, hence the document, so that every document outlived two scavenges and was promoted, garbage for the next
 * full collection (4.8 KiB of old space per document, `npm run bench:old-space`).
 */
class LazyDocumentIndex implements DocumentIndex {
  readonly memo = new Map<unknown, unknown>()
  private built: BuiltIndex | undefined

  constructor(readonly doc: AnnotatedDocument) {}

  private get index(): BuiltIndex {
    return (this.built ??= buildIndex(this.doc))
  }

  get lower(): readonly string[] {
    return this.index.lower
  }

  get lemma(): readonly string[] {
    return this.index.lemma
  }

  get wordOrdinal(): readonly number[] {
    return this.index.wordOrdinal
  }

  get sentence(): readonly number[] {
    return this.index.sentence
  }

  positionsOfLower(form: string): readonly number[] | undefined {
    return this.index.byLower().get(form)
  }

  positionsOfWord(word: string): readonly number[] | undefined {
    return this.index.byWord.get(word)
  }

  // A token whose lemma equals its form is filed under the form only; look in both.
  positionsOfLemma(l: string): readonly number[] | undefined {
    const index = this.index
    return mergeSorted(index.byLemma().get(l), index.byLower().get(l))
  }

  forms(): readonly string[] {
    return this.index.forms()
  }

  wordKeys(): Iterable<string> {
    return this.index.byWord.keys()
  }

  positionsWithPrefix(prefix: string): readonly number[] {
    const { prefixMemo, byLower, forms } = this.index
    let hit = prefixMemo.get(prefix)
    if (hit !== undefined) return hit
    const keys = forms()
    let lo = 0
    let hi = keys.length
    while (lo < hi) {
      const mid = (lo + hi) >> 1
      if ((keys[mid] as string) < prefix) lo = mid + 1
      else hi = mid
    }
    hit = []
    for (let k = lo; k < keys.length && (keys[k] as string).startsWith(prefix); k++) {
      for (const p of byLower().get(keys[k] as string) ?? []) hit.push(p)
    }
    hit.sort((a, b) => a - b)
    prefixMemo.set(prefix, hit)
    return hit
  }
}

interface BuiltIndex {
  readonly lower: string[]
  readonly lemma: string[]
  readonly wordOrdinal: number[]
  readonly sentence: number[]
  /** Positions by lower-case form, and by lemma where it differs from the form: made on first use (a query of plain words reads only `byWord`). */
  byLower(): Map<string, number[]>
  byLemma(): Map<string, number[]>
  readonly byWord: Map<string, number[]>
  readonly prefixMemo: Map<string, number[]>
  forms(): string[]
}

function buildIndex(doc: AnnotatedDocument): BuiltIndex {
  const n = doc.tokens.length
  const lower: string[] = new Array<string>(n)
  const lemma: string[] = new Array<string>(n)
  // Arrays of numbers, not typed arrays (allocated outside the heap: more costly for a document's few hundred tokens).
  const wordOrdinal = new Array<number>(n).fill(0)
  const sentence = new Array<number>(n).fill(0)
  const byWord = new Map<string, number[]>()
  let words = 0
  for (let i = 0; i < n; i++) {
    const t = doc.tokens[i]
    if (t === undefined) continue
    const lo = t.text.toLowerCase()
    const le = t.lemma.toLowerCase()
    lower[i] = lo
    lemma[i] = le
    wordOrdinal[i] = words
    sentence[i] = t.sentence
    if (!nonWordKinds.has(t.kind)) words++
    addTo(byWord, lo, i)
    if (le !== lo) addTo(byWord, le, i)
  }
  let lowerMap: Map<string, number[]> | undefined
  let lemmaMap: Map<string, number[]> | undefined
  // Filled in token order, as the one pass above fills byWord.
  const byLower = (): Map<string, number[]> => {
    if (lowerMap === undefined) {
      lowerMap = new Map()
      for (let i = 0; i < n; i++) if (lower[i] !== undefined) addTo(lowerMap, lower[i]!, i)
    }
    return lowerMap
  }
  const byLemma = (): Map<string, number[]> => {
    if (lemmaMap === undefined) {
      lemmaMap = new Map()
      for (let i = 0; i < n; i++) if (lower[i] !== undefined && lemma[i] !== lower[i]) addTo(lemmaMap, lemma[i]!, i)
    }
    return lemmaMap
  }
  let sortedForms: string[] | undefined
  const forms = (): string[] => (sortedForms ??= [...byLower().keys()].sort())
  return { lower, lemma, wordOrdinal, sentence, byLower, byLemma, byWord, prefixMemo: new Map(), forms }
}

/** Merge two ascending position lists (either may be missing) into one without duplicates. */
export function mergeSorted(a: readonly number[] | undefined, b: readonly number[] | undefined): readonly number[] | undefined {
  if (a === undefined || a.length === 0) return b
  if (b === undefined || b.length === 0) return a
  const out: number[] = []
  let i = 0
  let j = 0
  while (i < a.length || j < b.length) {
    const x = i < a.length ? (a[i] as number) : Infinity
    const y = j < b.length ? (b[j] as number) : Infinity
    if (x <= y) {
      out.push(x)
      i++
      if (x === y) j++
    } else {
      out.push(y)
      j++
    }
  }
  return out
}
