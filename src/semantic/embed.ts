import type { AnnotatedDocument, Token } from '../nlp/types.ts'
import { BATCH_DOCUMENTS, RecentCache } from '../nlp/recent-cache.ts'
import type { WordVectors } from './vectors.ts'

/**
 * How much a word counts in a text vector, from its probability p in running text:
 * `sif` is a / (a + p) (Arora, Liang and Ma 2017, "smooth inverse frequency", a = 1e-4), `idf` is log(1 / p),
 * `uniform` is 1. `bench/eval-categories.ts` measures all three; `sif` is the default because it ranked first
 * there (frequent words fade smoothly instead of counting a third as much as rare ones, as with `idf`).
 */
export type TermWeighting = 'sif' | 'idf' | 'uniform'

/** Options of text vectors. */
export interface EmbedOptions {
  /** @defaultValue 'sif' */
  readonly weighting?: TermWeighting
  /**
   * Whether words in the scope of a negation count. A negated word still says what the text is about
   * ("no pool" is about the pool), so it counts; the negators themselves are stop words and never count.
   * @defaultValue true
   */
  readonly keepNegated?: boolean
  /** The `a` of the `sif` weight a / (a + p). @defaultValue 1e-4 */
  readonly sifA?: number
  /**
   * Token indices, ascending, whose words do not count (the sentiment model leaves out the lexicon words it read as
   * words of a name: "Fantastic Four"). @defaultValue none
   */
  readonly exclude?: readonly number[]
}

const SIF_A = 1e-4

/** Importance weight of a word id under a weighting. */
export function termWeight(vectors: WordVectors, id: number, weighting: TermWeighting = 'sif', a = SIF_A): number {
  if (weighting === 'uniform') return 1
  const p = vectors.probability(id)
  return weighting === 'idf' ? Math.log(1 / p) : a / (a + p)
}

/** Vector id of a token: its lower-case form, else its lemma; -1 for stop words, non-words and unknown words. */
export function tokenId(vectors: WordVectors, t: Token): number {
  if (t.kind !== 'word' || t.isStopWord) return -1
  const id = vectors.id(t.normal)
  return id >= 0 ? id : vectors.id(t.lemma)
}

/** A word that went into a text vector. */
export interface Term {
  /** Token index in the document (-1 for words of a sample phrase). */
  readonly token: number
  readonly id: number
  readonly weight: number
}

/** A text's vector (unit length, or all zero when no word had a vector) and the terms that made it. */
export interface TextVector {
  readonly vector: Float32Array
  readonly terms: readonly Term[]
}

/** Scale a vector to unit length in place (a zero vector stays zero); returns it. */
export function normalize(v: Float32Array): Float32Array {
  let n = 0
  for (let d = 0; d < v.length; d++) n += v[d]! * v[d]!
  if (n === 0) return v
  const s = 1 / Math.sqrt(n)
  for (let d = 0; d < v.length; d++) v[d]! *= s
  return v
}

/**
 * Dot product (a cosine for unit vectors). Unrolled by four, the products still summed one after the other in
 * order (the same number as the plain loop, in about two thirds of the time).
 */
export function dot(a: Float32Array, b: Float32Array): number {
  let s = 0
  const n = a.length
  let d = 0
  for (; d + 4 <= n; d += 4) {
    s += a[d]! * b[d]!
    s += a[d + 1]! * b[d + 1]!
    s += a[d + 2]! * b[d + 2]!
    s += a[d + 3]! * b[d + 3]!
  }
  for (; d < n; d++) s += a[d]! * b[d]!
  return s
}

/**
 * Dot products of `v` with each of `rows` rows of `matrix` (row-major, `stride` numbers a row, the first `v.length`
 * of them the row's weights) into `out`: each summed in order, d = 0, 1, ..., exactly as {@link dot} sums (so the
 * same number as `dot` with a Float32Array holding the row), from 0, or from the number after the row's weights
 * when `biased` (a bias, as a linear model's score starts). Four rows at a time: one row's sum is a chain of
 * dependent additions, bound by the adder's latency, and four independent chains keep it busy (about three times
 * the rate of one `dot` after another for the 35 tier-1 categories).
 */
export function rowDots(matrix: Float64Array, rows: number, stride: number, v: Float32Array, biased: boolean, out: number[]): number[] {
  const n = v.length
  let r = 0
  for (; r + 4 <= rows; r += 4) {
    const a = r * stride
    const b = a + stride
    const c = b + stride
    const e = c + stride
    let s0 = biased ? matrix[a + n]! : 0
    let s1 = biased ? matrix[b + n]! : 0
    let s2 = biased ? matrix[c + n]! : 0
    let s3 = biased ? matrix[e + n]! : 0
    for (let d = 0; d < n; d++) {
      const x = v[d]!
      s0 += matrix[a + d]! * x
      s1 += matrix[b + d]! * x
      s2 += matrix[c + d]! * x
      s3 += matrix[e + d]! * x
    }
    out[r] = s0
    out[r + 1] = s1
    out[r + 2] = s2
    out[r + 3] = s3
  }
  for (; r < rows; r++) {
    const a = r * stride
    let s = biased ? matrix[a + n]! : 0
    for (let d = 0; d < n; d++) s += matrix[a + d]! * v[d]!
    out[r] = s
  }
  return out
}

/** Each token's vector id ({@link tokenId}) and `sif` weight (default `a`), per document: looked up once. */
interface TokenTerms {
  readonly vectors: WordVectors
  readonly ids: readonly number[]
  readonly weights: readonly number[]
  /** The whole text's vector with the default options (categories and concept topics share it). */
  whole: TextVector | undefined
}
/** Those of the documents read last (categories and concept topics read them; a batch of documents goes through each). */
const recentTerms = new RecentCache<AnnotatedDocument, TokenTerms>(BATCH_DOCUMENTS)

function tokenTerms(vectors: WordVectors, doc: AnnotatedDocument): TokenTerms {
  let hit = recentTerms.get(doc)
  if (hit === undefined || hit.vectors !== vectors || hit.ids.length !== doc.tokens.length) {
    const n = doc.tokens.length
    // Arrays of numbers, not typed arrays (allocated outside the heap: more costly for a document's few hundred tokens).
    const ids = new Array<number>(n)
    const weights = new Array<number>(n).fill(0)
    for (let i = 0; i < n; i++) {
      const id = tokenId(vectors, doc.tokens[i]!)
      ids[i] = id
      if (id >= 0) weights[i] = termWeight(vectors, id, 'sif', SIF_A)
    }
    hit = { vectors, ids, weights, whole: undefined }
    recentTerms.set(doc, hit)
  }
  return hit
}

/**
 * The weighted mean of the word vectors of tokens [start, end) of a document, scaled to unit length. The
 * tokens' ids and weights are looked up once per document, and the whole text's vector with the default
 * options is computed once per document (the result is shared: do not change it). `into`, when given, is the
 * vector to fill (`dims` zeros; a view of a larger buffer saves an allocation per span).
 */
export function spanVector(vectors: WordVectors, doc: AnnotatedDocument, start = 0, end = doc.tokens.length, options: EmbedOptions = {}, into?: Float32Array): TextVector {
  const weighting = options.weighting ?? 'sif'
  const keepNegated = options.keepNegated ?? true
  const exclude = options.exclude ?? []
  const cached = weighting === 'sif' && (options.sifA ?? SIF_A) === SIF_A ? tokenTerms(vectors, doc) : undefined
  const all = keepNegated && exclude.length === 0
  const whole = cached !== undefined && all && start === 0 && end === doc.tokens.length
  if (whole && cached.whole !== undefined) return cached.whole
  const acc = into ?? new Float32Array(vectors.dims)
  if (cached !== undefined && all && cached.whole !== undefined) {
    // A part of the text (a sentence): its terms are a run of the whole text's, shared, added in the same order.
    const all = cached.whole.terms
    let lo = 0
    let hi = all.length
    while (lo < hi) {
      const mid = (lo + hi) >> 1
      if (all[mid]!.token < start) lo = mid + 1
      else hi = mid
    }
    let to = lo
    while (to < all.length && all[to]!.token < end) to++
    const terms = all.slice(lo, to)
    for (const t of terms) vectors.addTo(acc, t.id, t.weight)
    return { vector: normalize(acc), terms }
  }
  const terms: Term[] = []
  let skip = 0
  for (let i = start; i < end; i++) {
    const t = doc.tokens[i]!
    if (!keepNegated && t.negated) continue
    if (skip < exclude.length) {
      while (skip < exclude.length && exclude[skip]! < i) skip++
      if (exclude[skip] === i) continue
    }
    let id: number
    let w: number
    if (cached !== undefined) {
      id = cached.ids[i]!
      if (id < 0) continue
      w = cached.weights[i]!
    } else {
      id = tokenId(vectors, t)
      if (id < 0) continue
      w = termWeight(vectors, id, weighting, options.sifA)
    }
    vectors.addTo(acc, id, w)
    terms.push({ token: i, id, weight: w })
  }
  const v = { vector: normalize(acc), terms }
  if (whole) cached.whole = v
  return v
}

/**
 * The whole text's vector (as {@link spanVector} gives it, and cached as it caches it) and each sentence's, in one
 * pass over the tokens when the whole text's is not yet made: each vector adds its words in token order, as one
 * {@link spanVector} call each would. A sentence that is the whole text gets the whole text's vector.
 */
export function textAndSentenceVectors(vectors: WordVectors, doc: AnnotatedDocument): { document: TextVector; sentences: TextVector[] } {
  const cached = tokenTerms(vectors, doc)
  const n = doc.tokens.length
  const dims = vectors.dims
  // One buffer for the sentences' vectors (a typed array each would be allocated outside the heap).
  const buffer = new Float32Array(dims * doc.sentences.length)
  const into = (k: number): Float32Array => buffer.subarray(k * dims, (k + 1) * dims)
  if (cached.whole !== undefined) {
    return { document: cached.whole, sentences: doc.sentences.map((s, k) => spanVector(vectors, doc, s.tokenStart, s.tokenEnd, {}, into(k))) }
  }
  const acc = new Float32Array(dims)
  const terms: Term[] = []
  const sentenceTerms = doc.sentences.map((): Term[] => [])
  const views = doc.sentences.map((_, k) => into(k))
  for (let i = 0; i < n; i++) {
    const id = cached.ids[i]!
    if (id < 0) continue
    const w = cached.weights[i]!
    const term = { token: i, id, weight: w }
    terms.push(term)
    const k = doc.tokens[i]!.sentence
    const s = doc.sentences[k]
    if (s !== undefined && i >= s.tokenStart && i < s.tokenEnd) {
      // The text's and the sentence's vector in one pass over the word's vector.
      if (vectors.addToBoth !== undefined) vectors.addToBoth(acc, views[k]!, id, w)
      else {
        vectors.addTo(acc, id, w)
        vectors.addTo(views[k]!, id, w)
      }
      sentenceTerms[k]!.push(term)
    } else vectors.addTo(acc, id, w)
  }
  const document = { vector: normalize(acc), terms }
  cached.whole = document
  const sentences = doc.sentences.map((s, k): TextVector => {
    if (s.tokenStart === 0 && s.tokenEnd === n) return document
    return { vector: normalize(views[k]!), terms: sentenceTerms[k]! }
  })
  return { document, sentences }
}

/** Lower-case words of a phrase (letters, inner `'` and `-`), for phrases that are not annotated documents. */
export function phraseWords(phrase: string): string[] {
  return phrase.toLowerCase().match(/[\p{L}]+(?:['-][\p{L}]+)*/gu) ?? []
}

/**
 * Vector of a short phrase (a sample of a category, a taxonomy node's name): the weighted mean of its words'
 * vectors; a hyphenated word without a vector of its own counts as its parts. Every word counts (who wrote the
 * phrase chose its words).
 */
export function phraseVector(vectors: WordVectors, phrase: string, weighting: TermWeighting = 'sif'): TextVector {
  const acc = new Float32Array(vectors.dims)
  const terms: Term[] = []
  for (const w of phraseWords(phrase)) {
    const parts = vectors.id(w) >= 0 ? [w] : w.split(/['-]/)
    for (const p of parts) {
      const id = vectors.id(p)
      if (id < 0) continue
      const weight = termWeight(vectors, id, weighting)
      vectors.addTo(acc, id, weight)
      terms.push({ token: -1, id, weight })
    }
  }
  return { vector: normalize(acc), terms }
}

/**
 * The vector of a set of samples (words or phrases): the mean of the samples' unit vectors, so that each sample
 * counts once whatever its length, scaled to unit length. Samples without any known word are left out.
 */
export function samplesVector(vectors: WordVectors, samples: readonly string[], weighting: TermWeighting = 'sif'): Float32Array {
  const acc = new Float32Array(vectors.dims)
  for (const s of samples) {
    const v = phraseVector(vectors, s, weighting).vector
    for (let d = 0; d < acc.length; d++) acc[d]! += v[d]!
  }
  return normalize(acc)
}

/** Whether a vector is all zero (no known word went into it). */
export function isZero(v: Float32Array): boolean {
  for (let d = 0; d < v.length; d++) if (v[d] !== 0) return false
  return true
}
