/**
 * The tagger's decoder (greedy, left to right, BIO-constrained; see `tagger.ts`) over integer ids instead of
 * feature strings. Gives exactly the spans and confidences of adding, for every token, the weight rows of the
 * feature strings of `features.ts` (`wordFeatures`, `staticFeatures`, `dynamicFeatures`) in their order:
 *
 * - every string a feature is built from is interned once: a token form ({@link TokenEntry}: its own features'
 *   summed weights, its rows as a neighbour), a lower-case form ({@link LowerEntry}) and a short shape
 *   ({@link ShapeEntry}), each holding the rows of the features that depend on it alone (filled on first use);
 * - rows of features over two or three parts (`l-1l=`, `ss3=`, ...) are memoised in an open-addressing table
 *   keyed by the ids of the parts, so no string is built for a combination seen before;
 * - the document context (capitalised in mid-sentence, written in lower case) and the document memory (the type
 *   a capitalised word got earlier) are stamps on the lower-case entries, not sets and maps built per document;
 * - rows are added to the nine scores in feature order, in double precision, as the strings' rows would be, so
 *   the floating-point sums are the same.
 *
 * All interned tables are cleared together, only between documents (the context and memory stamps of a document
 * must survive its sentences); a document too large for the id ranges even in empty tables is decoded from the
 * feature strings instead.
 */
import {
  LABELS,
  clusterOf,
  documentContext,
  dynamicFeatures,
  gazetteerMarks,
  isAllowedTransition,
  isMemorable,
  recall,
  rememberSentence,
  coarseCluster,
  fineCluster,
  shortShape,
  staticFeatures,
  TITLE_SMALL,
  typeOfLabel,
  wordFeatures,
  wordShape,
  type DocumentMemory,
  type EntityType,
  type Gazetteer,
  type WordClusters,
} from './features.ts'
import type { PerceptronWeights } from './model.ts'
import { featureTableOf, hashCat, hashOf } from './tagger-hash.ts'

/** One recognised entity: a token range of the input (`end` exclusive). */
export interface TaggedSpan {
  readonly type: EntityType
  /** Index of the first token. */
  readonly start: number
  /** Index one past the last token. */
  readonly end: number
  /**
   * Confidence in 0..1: the logistic of the mean, over the span's tokens, of the score margin between
   * the chosen label and the best other label (margin in units of the model's median margin scale).
   */
  readonly confidence: number
}

/** Sizes at which the decoder's interned tables are emptied (between documents). */
export interface DecoderLimits {
  /** Token forms cached. @defaultValue 50,000 */
  readonly tokens: number
  /** Lower-case forms interned (ids stay below 2^26 whatever the limit). @defaultValue 100,000 */
  readonly lowers: number
  /** Short shapes interned (ids stay below 2^15 whatever the limit). @defaultValue 16,384 */
  readonly shapes: number
  /** Memoised rows of feature combinations. @defaultValue 2^18 */
  readonly pairs: number
  /**
   * Distinct short shapes one document may bring (at most 2^15, which pair keys hold); a document with more is
   * decoded from the feature strings. @defaultValue 2^15
   */
  readonly shapeIds: number
}

// Bounds of the vocabulary the decoder keeps (each of the two taggers). They only cost a word's rows found again after
// a clearing: over 62k distinct SemEval and TweetEval tweets (147k distinct words) the process took the same CPU time
// with these bounds as with 4x larger ones (200k tokens, 400k forms, 2^20 pairs), and peaked at 445-476 MiB RSS
// instead of 646-716, with the annotator's and aspect features' bounds lowered alike.
const DEFAULT_LIMITS: DecoderLimits = { tokens: 50_000, lowers: 100_000, shapes: 1 << 14, pairs: 1 << 18, shapeIds: 1 << 15 }
/** Hard bounds of the ids: pair keys pack a lower id with a 3-bit template, and two shape ids in 30 bits. */
const LOWER_ID_BOUND = 1 << 26
const SHAPE_ID_BOUND = 1 << 15

// Logistic squashing of the margin: a margin of MARGIN_UNIT (in weight units) gives 0.73.
const MARGIN_UNIT = 8
/** "Not looked up yet" in the lazily filled row slots (a looked-up absent feature is -1). */
const UNSET = -2

/** The margin of the label {@link bestAllowed} chose last: its score minus the best other allowed score. */
let lastMargin = 0

/**
 * The label with the highest score among those allowed after the previous label (`allowed[from + k]`), the first on
 * ties; its margin over the runner-up is left in {@link lastMargin} (one function for the fast and string paths).
 */
function bestAllowed(scores: Float64Array, allowed: Uint8Array, from: number, labels: number): number {
  let best = -1
  let second = -Infinity
  for (let k = 0; k < labels; k++) {
    if (allowed[from + k] !== 1) continue
    const sc = scores[k]!
    if (best < 0 || sc > scores[best]!) {
      if (best >= 0) second = Math.max(second, scores[best]!)
      best = k
    } else if (sc > second) second = sc
  }
  lastMargin = scores[best]! - second
  return best
}

/** Previous label as a feature value: 0 before the sentence, else label + 1. */
const PREV_NAMES: readonly string[] = ['<s>', ...LABELS]
const P = PREV_NAMES.length
/** The document memory's value: 0 unseen, else the last type remembered (O, PER, ORG, LOC, MISC) + 1. */
const DOC_TYPES = ['-', 'O', 'PER', 'ORG', 'LOC', 'MISC']
const DC = ['--', '-L', 'C-', 'CL']
const POSITIONS = ['first', 'caps', 'mid']

// Offsets of the lazily filled rows of a lower-case entry.
const LX_Y1L = 0 // y-1l=<prev>|<lower>, by previous label (P slots)
const LX_FIRST = LX_Y1L + P
const LX_CAPS = LX_FIRST + 1
const LX_TITLE = LX_CAPS + 1
const LX_SIZE = LX_TITLE + 1
// Offsets of the lazily filled rows of a shape entry.
const SH_Y1SS = 0 // y-1ss=<prev>|<shape>, by previous label (P slots)
const SH_DTSS = SH_Y1SS + P // dt|ss=<docType>|<shape>, by doc type (6 slots)
const SH_DC = SH_DTSS + DOC_TYPES.length // dc=<d>|<shape>, by context (4 slots)
const SH_FIRST = SH_DC + DC.length
const SH_CAPS = SH_FIRST + 1
const SH_TITLE = SH_CAPS + 1
const SH_ALONE = SH_TITLE + 1
const SH_SIZE = SH_ALONE + 1

// Templates of the memoised combination rows (the low 3 bits of the first key).
const T_LL = 0 // l-1l=<prev lower>|<lower>
const T_LR = 1 // ll+1=<lower>|<next lower>
const T_SSM1 = 2 // ss-1=<prev shape>|<shape>
const T_SSP1 = 3 // ss+1=<shape>|<next shape>
const T_SS3 = 4 // ss3=<prev shape>|<shape>|<next shape>
const T_LSS = 5 // l-1ss+1=<prev lower>|<shape>|<next shape>

/** What the decoder keeps per lower-case form. */
interface LowerEntry {
  readonly id: number
  readonly text: string
  /** Hash of the text (tagger-hash.ts). */
  readonly h: number
  /** Rows of `l-1=`, `l+1=`, `l-2=`, `l+2=` with this form (as a neighbour). */
  readonly lm1: number
  readonly lp1: number
  readonly lm2: number
  readonly lp2: number
  /** Rows of `c-1=` and `c+1=` with this form's cluster (as a neighbour); -1 without clusters. */
  readonly cm1: number
  readonly cp1: number
  /** The form is a gazetteer phrase prefix (matching starts here). */
  readonly gzPrefix: boolean
  /** The form is one of the words a title-case headline leaves small. */
  readonly titleSmall: boolean
  /** Where this entry's rows filled on first use (UNSET until then) start in the decoder's lower-case slab, at the offsets `LX_*` from there. */
  readonly lazy: number
  /** Document number in which some token of this form was capitalised in mid-sentence. */
  capMidDoc: number
  /** Document number in which a token equal to this string started with a lower-case ASCII letter. */
  lowerCaseDoc: number
  /** Document number of the last memory entry, and the DOC_TYPES index remembered. */
  memDoc: number
  memType: number
}

/** What the decoder keeps per short shape. */
interface ShapeEntry {
  readonly id: number
  readonly text: string
  /** Hash of the text (tagger-hash.ts). */
  readonly h: number
  /** Where this entry's rows filled on first use (UNSET until then) start in the decoder's shape slab, at the offsets `SH_*` from there. */
  readonly lazy: number
}

/** What the decoder keeps per token form. */
interface TokenEntry {
  /** Where the sum of the weight rows of {@link wordFeatures} (in their order; one per label) starts in the decoder's token slab. */
  readonly vec: number
  readonly lower: LowerEntry
  readonly shape: ShapeEntry
  /** Entry of the token string itself when it starts with a lower-case ASCII letter (document context). */
  readonly asLower: LowerEntry | undefined
  /** Rows of `w-1=<token>` and `w+1=<token>` (the token as a neighbour). */
  readonly wPrev: number
  readonly wNext: number
  /** Starts with an ASCII letter (document-context features apply). */
  readonly alpha: boolean
  /** First character: 1 an ASCII capital, 2 an ASCII lower-case letter, 0 other. */
  readonly initial: number
  /** Has an ASCII letter somewhere (counts for a capitals headline). */
  readonly hasLetter: boolean
  /** Equals its upper case. */
  readonly upper: boolean
  readonly length: number
  /** A candidate for document memory ({@link isMemorable}). */
  readonly memorable: boolean
}

/** Rows of a gazetteer mark's features. */
interface MarkEntry {
  readonly gz: number
  readonly gzm1: number
  readonly gzp1: number
  /** `gz=<mark>|<shape>` by shape id. */
  readonly byShape: Map<number, number>
}

/**
 * Open-addressing hash table from a pair of non-negative int32 keys to a row (linear probing, no deletion;
 * emptied as a whole).
 */
class PairTable {
  private k1: Int32Array
  private k2: Int32Array
  private v: Int32Array
  private mask: number
  size = 0
  constructor(capacity = 1 << 14) {
    this.k1 = new Int32Array(capacity).fill(-1)
    this.k2 = new Int32Array(capacity)
    this.v = new Int32Array(capacity)
    this.mask = capacity - 1
  }
  private static hash(a: number, b: number): number {
    let h = Math.imul(a, 0x9e3779b1) ^ Math.imul(b ^ (b >>> 15), 0x85ebca77)
    h ^= h >>> 13
    return Math.imul(h, 0xc2b2ae3d) ^ (h >>> 16)
  }
  /** The row stored for (a, b), or UNSET. */
  get(a: number, b: number): number {
    const k1 = this.k1
    let i = PairTable.hash(a, b) & this.mask
    for (;;) {
      const x = k1[i]!
      if (x === a && this.k2[i] === b) return this.v[i]!
      if (x === -1) return UNSET
      i = (i + 1) & this.mask
    }
  }
  set(a: number, b: number, row: number): number {
    if ((this.size + 1) * 2 > this.k1.length) this.grow()
    let i = PairTable.hash(a, b) & this.mask
    while (this.k1[i] !== -1) i = (i + 1) & this.mask
    this.k1[i] = a
    this.k2[i] = b
    this.v[i] = row
    this.size++
    return row
  }
  private grow(): void {
    const { k1, k2, v } = this
    const cap = k1.length * 2
    this.k1 = new Int32Array(cap).fill(-1)
    this.k2 = new Int32Array(cap)
    this.v = new Int32Array(cap)
    this.mask = cap - 1
    this.size = 0
    for (let i = 0; i < k1.length; i++) if (k1[i] !== -1) this.set(k1[i]!, k2[i]!, v[i]!)
  }
  clear(): void {
    if (this.k1.length > 1 << 14) {
      this.k1 = new Int32Array(1 << 14).fill(-1)
      this.k2 = new Int32Array(1 << 14)
      this.v = new Int32Array(1 << 14)
      this.mask = (1 << 14) - 1
    } else this.k1.fill(-1)
    this.size = 0
  }
}

/**
 * Records of `size` numbers, each starting as `empty`, laid end to end in one typed array that doubles when full:
 * {@link Slab.take} gives the offset of a new record in `values` (read `values` again after a take: it may have been
 * replaced by a bigger array). {@link Slab.clear} forgets every record and gives the memory back.
 */
class Slab<A extends Int32Array | Float64Array> {
  values: A
  private used = 0
  constructor(
    private readonly size: number,
    private readonly empty: number,
    private readonly make: (length: number) => A,
  ) {
    this.values = this.fresh(size * SLAB_INITIAL_RECORDS)
  }

  private fresh(length: number): A {
    const a = this.make(length)
    if (this.empty !== 0) a.fill(this.empty)
    return a
  }

  take(): number {
    const at = this.used
    this.used += this.size
    if (this.used > this.values.length) {
      const bigger = this.fresh(Math.max(2 * this.values.length, this.used))
      bigger.set(this.values)
      this.values = bigger
    }
    return at
  }

  clear(): void {
    this.used = 0
    this.values = this.fresh(this.size * SLAB_INITIAL_RECORDS)
  }
}
/** Records a slab has room for before it first grows. */
const SLAB_INITIAL_RECORDS = 1024

/** A decoder of documents given as sentences of tokens (see the module comment). */
export type DocumentDecoder = (sentences: readonly (readonly string[])[]) => TaggedSpan[][]

/**
 * Create a decoder for `weights` (with the gazetteer and clusters they were trained with). `limits` bound the
 * interned tables (tests make them small to exercise the clearing and the string fallback).
 */
export function createDecoder(
  weights: PerceptronWeights,
  gazetteer: Gazetteer | undefined,
  clusters: WordClusters | undefined,
  limits: Partial<DecoderLimits> = {},
): DocumentDecoder {
  const lim: DecoderLimits = { ...DEFAULT_LIMITS, ...limits }
  const shapeBound = Math.min(lim.shapeIds, SHAPE_ID_BOUND)
  const w = weights.weights
  const L = LABELS.length
  if (L !== 9) throw new Error(`createDecoder: the score sums are written for 9 labels, instead found ${L}`)
  const table = featureTableOf(weights)
  const rowOf = (name: string): number => table.row(name)
  // Rows of names made of parts, found by the parts' hashes (no string built): t + x, t + x + '|' + y, and
  // t + x + '|' + y + '|' + z, where th is the hash of t and xh, yh, zh those of x, y, z.
  const PIPE = hashOf('|')
  const row1 = (t: string, th: number, x: string, xh: number): number => table.find(hashCat(th, xh, x.length), t, x)
  const row2 = (t: string, th: number, x: string, xh: number, y: string, yh: number): number =>
    table.find(hashCat(hashCat(hashCat(th, xh, x.length), PIPE, 1), yh, y.length), t, x, '|', y)
  const row3 = (t: string, th: number, x: string, xh: number, y: string, yh: number, z: string, zh: number): number =>
    table.find(hashCat(hashCat(hashCat(hashCat(hashCat(th, xh, x.length), PIPE, 1), yh, y.length), PIPE, 1), zh, z.length), t, x, '|', y, '|', z)
  const H_LM1 = hashOf('l-1=')
  const H_LP1 = hashOf('l+1=')
  const H_LM2 = hashOf('l-2=')
  const H_LP2 = hashOf('l+2=')
  const H_CM1 = hashOf('c-1=')
  const H_CP1 = hashOf('c+1=')
  const H_WM1 = hashOf('w-1=')
  const H_WP1 = hashOf('w+1=')
  const H_W = hashOf('w=')
  const H_L = hashOf('l=')
  const H_SH = hashOf('sh=')
  const H_SS = hashOf('ss=')
  const H_C = hashOf('c=')
  const H_CC = hashOf('cc=')
  const AFFIX = [1, 2, 3, 4].map((k) => ({ p: `p${k}=`, ph: hashOf(`p${k}=`), s: `s${k}=`, sh: hashOf(`s${k}=`) }))
  const H_LL = hashOf('l-1l=')
  const H_LR = hashOf('ll+1=')
  const H_SSM1 = hashOf('ss-1=')
  const H_SSP1 = hashOf('ss+1=')
  const H_SS3 = hashOf('ss3=')
  const H_LSS = hashOf('l-1ss+1=')
  const H_DC = hashOf('dc=')
  const H_FIRST = hashOf('first|')
  const H_CAPS = hashOf('caps|')
  const H_TITLE = hashOf('title|')
  const H_ALONE = hashOf('alone|')
  const H_Y1L = hashOf('y-1l=')
  const H_Y1SS = hashOf('y-1ss=')
  const H_DTSS = hashOf('dt|ss=')
  const PREV_H = PREV_NAMES.map(hashOf)
  const DT_H = DOC_TYPES.map(hashOf)
  const DC_H = DC.map(hashOf)
  const hasGazetteer = gazetteer !== undefined && gazetteer.phrases.size > 0

  let docNo = 0
  const lowerMap = new Map<string, LowerEntry>()
  const shapeMap = new Map<string, ShapeEntry>()
  const tokenMap = new Map<string, TokenEntry>()
  // The entries' fixed-size records, each in one growing typed array: one allocation per table instead of one typed
  // array per entry (a 10k-document run interned about 36,000 of them, each an object for the collector, and the
  // token sums, over V8's 64 bytes kept in the heap, each with a buffer of its own).
  const tokenSlab = new Slab(L, 0, (n) => new Float64Array(n))
  const lowerSlab = new Slab(LX_SIZE, UNSET, (n) => new Int32Array(n))
  const shapeSlab = new Slab(SH_SIZE, UNSET, (n) => new Int32Array(n))
  const pairs = new PairTable()
  const marks = new Map<string, MarkEntry>()

  const lowerEntry = (text: string): LowerEntry => {
    let e = lowerMap.get(text)
    if (e !== undefined) return e
    const cl = clusters === undefined ? '' : clusterOf(clusters, text)
    const h = hashOf(text)
    const clh = hashOf(cl)
    e = {
      id: lowerMap.size,
      text,
      h,
      lm1: row1('l-1=', H_LM1, text, h),
      lp1: row1('l+1=', H_LP1, text, h),
      lm2: row1('l-2=', H_LM2, text, h),
      lp2: row1('l+2=', H_LP2, text, h),
      cm1: clusters === undefined ? -1 : row1('c-1=', H_CM1, cl, clh),
      cp1: clusters === undefined ? -1 : row1('c+1=', H_CP1, cl, clh),
      gzPrefix: hasGazetteer && gazetteer.prefixes.has(text),
      titleSmall: TITLE_SMALL.has(text),
      lazy: lowerSlab.take(),
      capMidDoc: -1,
      lowerCaseDoc: -1,
      memDoc: -1,
      memType: 0,
    }
    lowerMap.set(text, e)
    return e
  }
  const shapeEntry = (text: string): ShapeEntry => {
    let e = shapeMap.get(text)
    if (e !== undefined) return e
    e = { id: shapeMap.size, text, h: hashOf(text), lazy: shapeSlab.take() }
    shapeMap.set(text, e)
    return e
  }
  const tokenEntry = (tok: string): TokenEntry => {
    let e = tokenMap.get(tok)
    if (e !== undefined) return e
    // The rows of wordFeatures(tok, clusters), in its order, found by hash.
    const lower = lowerEntry(tok.toLowerCase())
    const full = wordShape(tok)
    const shape = shapeEntry(shortShape(tok))
    const th = hashOf(tok)
    let nf = 0
    feat[nf++] = row1('w=', H_W, tok, th)
    feat[nf++] = row1('l=', H_L, lower.text, lower.h)
    feat[nf++] = row1('sh=', H_SH, full, hashOf(full))
    feat[nf++] = row1('ss=', H_SS, shape.text, shape.h)
    const l = lower.text
    const len = l.length
    let ph = 0
    for (let k = 1; k <= 4 && k < len; k++) {
      ph = hashCat(ph, l.charCodeAt(k - 1), 1)
      const a = AFFIX[k - 1]!
      feat[nf++] = row1(a.p, a.ph, l.slice(0, k), ph)
      const suffix = l.slice(len - k)
      feat[nf++] = row1(a.s, a.sh, suffix, hashOf(suffix))
    }
    if (clusters !== undefined) {
      const c = clusters.get(l)
      if (c === undefined) {
        feat[nf++] = rowCNone
        feat[nf++] = row2('c=', H_C, '-', hashOf('-'), shape.text, shape.h)
      } else {
        const fine = String(fineCluster(c))
        const coarse = String(coarseCluster(c))
        const fh = hashOf(fine)
        const ch = hashOf(coarse)
        feat[nf++] = row1('c=', H_C, fine, fh)
        feat[nf++] = row1('cc=', H_CC, coarse, ch)
        feat[nf++] = row2('c=', H_C, fine, fh, shape.text, shape.h)
        feat[nf++] = row2('cc=', H_CC, coarse, ch, shape.text, shape.h)
      }
    }
    const at = tokenSlab.take()
    const vec = tokenSlab.values
    for (let q = 0; q < nf; q++) {
      const row = feat[q]!
      if (row < 0) continue
      const base = row * L
      for (let k = 0; k < L; k++) vec[at + k] = vec[at + k]! + w[base + k]!
    }
    const c = tok.charCodeAt(0)
    const initial = c >= 65 && c <= 90 ? 1 : c >= 97 && c <= 122 ? 2 : 0
    e = {
      vec: at,
      lower,
      shape,
      asLower: initial === 2 ? lowerEntry(tok) : undefined,
      wPrev: row1('w-1=', H_WM1, tok, th),
      wNext: row1('w+1=', H_WP1, tok, th),
      alpha: initial !== 0,
      initial,
      hasLetter: /[A-Za-z]/.test(tok),
      upper: tok === tok.toUpperCase(),
      length: tok.length,
      memorable: isMemorable(tok),
    }
    tokenMap.set(tok, e)
    return e
  }
  const markEntry = (m: string): MarkEntry => {
    let e = marks.get(m)
    if (e === undefined) marks.set(m, (e = { gz: rowOf('gz=' + m), gzm1: rowOf('gz-1=' + m), gzp1: rowOf('gz+1=' + m), byShape: new Map() }))
    return e
  }

  /** Empty every interned table when one is full or the document's new entries could pass an id bound. */
  const makeRoom = (tokens: number): boolean => {
    const fits = (): boolean => lowerMap.size + 2 * tokens + 4 < LOWER_ID_BOUND && shapeMap.size + tokens + 4 < shapeBound
    if (fits() && tokenMap.size < lim.tokens && lowerMap.size < lim.lowers && shapeMap.size < lim.shapes && pairs.size < lim.pairs) return true
    tokenMap.clear()
    lowerMap.clear()
    shapeMap.clear()
    tokenSlab.clear()
    lowerSlab.clear()
    shapeSlab.clear()
    pairs.clear()
    marks.clear()
    boundaries = makeBoundaries()
    return fits()
  }
  const makeBoundaries = (): { ls: LowerEntry; le: LowerEntry; ss: ShapeEntry; se: ShapeEntry } => ({
    ls: lowerEntry('<s>'),
    le: lowerEntry('</s>'),
    ss: shapeEntry('<s>'),
    se: shapeEntry('</s>'),
  })
  let boundaries = makeBoundaries()

  const allowed = new Uint8Array(L * L)
  for (let p = 0; p < L; p++) for (let k = 0; k < L; k++) allowed[p * L + k] = isAllowedTransition(p, k) ? 1 : 0
  const feat = new Int32Array(32)
  const rowCNone = rowOf('c=-')
  const rowB = rowOf('b')
  const rowLm1Start = rowOf('l-1=<s>')
  const rowLp1End = rowOf('l+1=</s>')
  const rowLm2Start = rowOf('l-2=<s>')
  const rowLp2End = rowOf('l+2=</s>')
  const rowWStart = rowOf('w-1=<s>')
  const rowWEnd = rowOf('w+1=</s>')
  const rowCStart = rowOf('c-1=<s>')
  const rowCEnd = rowOf('c+1=</s>')
  // Rows of features over small fixed domains, filled on first use.
  const y1Rows = new Int32Array(P).fill(UNSET)
  const y2y1Rows = new Int32Array(P * P).fill(UNSET)
  const dtRows = new Int32Array(DOC_TYPES.length).fill(UNSET)
  const dty1Rows = new Int32Array(DOC_TYPES.length * P).fill(UNSET)
  const dcpRows = new Int32Array(DC.length * POSITIONS.length).fill(UNSET)

  // Buffers reused across sentences.
  let infos: TokenEntry[] = []
  let labels = new Int32Array(64)
  let margins = new Float64Array(64)
  let rows = new Int32Array(256)
  const scores = new Float64Array(L)

  const decodeSentence = (off: number, n: number, doc: number, out: TaggedSpan[][]): void => {
    if (labels.length < n) {
      labels = new Int32Array(n * 2)
      margins = new Float64Array(n * 2)
    }
    // Capitals headline and title-case headline (isCapsSentence, isTitleSentence), from the entries' flags.
    let alpha = 0
    let upperAlpha = 0
    let words = 0
    let capital = 0
    let upperWords = 0
    let gz = false
    for (let i = 0; i < n; i++) {
      const t = infos[off + i]!
      if (t.hasLetter) {
        alpha++
        if (t.upper) upperAlpha++
      }
      if (t.initial !== 0) {
        if (t.length > 1 && t.upper) upperWords++
        if (!t.lower.titleSmall) {
          words++
          if (t.initial === 1) capital++
        }
      }
      if (t.lower.gzPrefix) gz = true
    }
    const caps = alpha >= 2 && upperAlpha / alpha > 0.8
    const title = words >= 3 && capital / words >= 0.8 && upperWords / words < 0.8
    const sentenceMarks = gz ? gazetteerMarks(infos.slice(off, off + n).map((t) => t.lower.text), gazetteer) : undefined
    const { ls, le, ss, se } = boundaries
    let prev1 = 0
    let prev2 = -1
    for (let i = 0; i < n; i++) {
      const info = infos[off + i]!
      const lx = info.lower
      const sh = info.shape
      const lz = lowerSlab.values
      const lb = lx.lazy
      const sz = shapeSlab.values
      const sb = sh.lazy
      const pInfo = i >= 1 ? infos[off + i - 1]! : undefined
      const nInfo = i + 1 < n ? infos[off + i + 1]! : undefined
      const pl = pInfo === undefined ? ls : pInfo.lower
      const nl = nInfo === undefined ? le : nInfo.lower
      const ps = pInfo === undefined ? ss : pInfo.shape
      const ns = nInfo === undefined ? se : nInfo.shape
      let nr = 0
      // Static features, in the order of staticFeatures(tokens, gazetteer, context, false, clusters).
      rows[nr++] = rowB
      rows[nr++] = pInfo === undefined ? rowLm1Start : pl.lm1
      rows[nr++] = nInfo === undefined ? rowLp1End : nl.lp1
      rows[nr++] = i >= 2 ? infos[off + i - 2]!.lower.lm2 : rowLm2Start
      rows[nr++] = i + 2 < n ? infos[off + i + 2]!.lower.lp2 : rowLp2End
      let a = pl.id * 8 + T_LL
      let r = pairs.get(a, lx.id)
      rows[nr++] = r !== UNSET ? r : pairs.set(a, lx.id, row2('l-1l=', H_LL, pl.text, pl.h, lx.text, lx.h))
      a = lx.id * 8 + T_LR
      r = pairs.get(a, nl.id)
      rows[nr++] = r !== UNSET ? r : pairs.set(a, nl.id, row2('ll+1=', H_LR, lx.text, lx.h, nl.text, nl.h))
      a = ps.id * 8 + T_SSM1
      r = pairs.get(a, sh.id)
      rows[nr++] = r !== UNSET ? r : pairs.set(a, sh.id, row2('ss-1=', H_SSM1, ps.text, ps.h, sh.text, sh.h))
      a = sh.id * 8 + T_SSP1
      r = pairs.get(a, ns.id)
      rows[nr++] = r !== UNSET ? r : pairs.set(a, ns.id, row2('ss+1=', H_SSP1, sh.text, sh.h, ns.text, ns.h))
      const sn = sh.id * SHAPE_ID_BOUND + ns.id
      a = ps.id * 8 + T_SS3
      r = pairs.get(a, sn)
      rows[nr++] = r !== UNSET ? r : pairs.set(a, sn, row3('ss3=', H_SS3, ps.text, ps.h, sh.text, sh.h, ns.text, ns.h))
      a = pl.id * 8 + T_LSS
      r = pairs.get(a, sn)
      rows[nr++] = r !== UNSET ? r : pairs.set(a, sn, row3('l-1ss+1=', H_LSS, pl.text, pl.h, sh.text, sh.h, ns.text, ns.h))
      rows[nr++] = pInfo === undefined ? rowWStart : pInfo.wPrev
      rows[nr++] = nInfo === undefined ? rowWEnd : nInfo.wNext
      if (clusters !== undefined) {
        rows[nr++] = pInfo === undefined ? rowCStart : pl.cm1
        rows[nr++] = nInfo === undefined ? rowCEnd : nl.cp1
      }
      if (info.alpha) {
        const d = (lx.capMidDoc === doc ? 2 : 0) + (lx.lowerCaseDoc === doc ? 1 : 0)
        rows[nr++] = ((sz[sb + SH_DC + d]!) !== UNSET ? sz[sb + SH_DC + d]! : (sz[sb + SH_DC + d] = row2('dc=', H_DC, DC[d]!, DC_H[d]!, sh.text, sh.h)))
        const at = d * POSITIONS.length + (i === 0 ? 0 : caps ? 1 : 2)
        rows[nr++] = dcpRows[at] !== UNSET ? dcpRows[at]! : (dcpRows[at] = rowOf('dc=' + DC[d] + '|' + POSITIONS[i === 0 ? 0 : caps ? 1 : 2]))
      }
      if (i === 0) {
        rows[nr++] = ((sz[sb + SH_FIRST]!) !== UNSET ? sz[sb + SH_FIRST]! : (sz[sb + SH_FIRST] = row1('first|', H_FIRST, sh.text, sh.h)))
        rows[nr++] = ((lz[lb + LX_FIRST]!) !== UNSET ? lz[lb + LX_FIRST]! : (lz[lb + LX_FIRST] = row1('first|', H_FIRST, lx.text, lx.h)))
      }
      if (caps) {
        rows[nr++] = ((sz[sb + SH_CAPS]!) !== UNSET ? sz[sb + SH_CAPS]! : (sz[sb + SH_CAPS] = row1('caps|', H_CAPS, sh.text, sh.h)))
        rows[nr++] = ((lz[lb + LX_CAPS]!) !== UNSET ? lz[lb + LX_CAPS]! : (lz[lb + LX_CAPS] = row1('caps|', H_CAPS, lx.text, lx.h)))
      }
      if (title) {
        rows[nr++] = ((sz[sb + SH_TITLE]!) !== UNSET ? sz[sb + SH_TITLE]! : (sz[sb + SH_TITLE] = row1('title|', H_TITLE, sh.text, sh.h)))
        rows[nr++] = ((lz[lb + LX_TITLE]!) !== UNSET ? lz[lb + LX_TITLE]! : (lz[lb + LX_TITLE] = row1('title|', H_TITLE, lx.text, lx.h)))
      }
      if (n === 1) rows[nr++] = ((sz[sb + SH_ALONE]!) !== UNSET ? sz[sb + SH_ALONE]! : (sz[sb + SH_ALONE] = row1('alone|', H_ALONE, sh.text, sh.h)))
      if (sentenceMarks !== undefined) {
        const need = nr + 2 * ((sentenceMarks[i]?.length ?? 0) + (sentenceMarks[i - 1]?.length ?? 0) + (sentenceMarks[i + 1]?.length ?? 0)) + 16
        if (need > rows.length) {
          const bigger = new Int32Array(need * 2)
          bigger.set(rows.subarray(0, nr))
          rows = bigger
        }
        for (const m of sentenceMarks[i] ?? []) {
          const me = markEntry(m)
          rows[nr++] = me.gz
          let rs = me.byShape.get(sh.id)
          if (rs === undefined) me.byShape.set(sh.id, (rs = rowOf('gz=' + m + '|' + sh.text)))
          rows[nr++] = rs
        }
        const prevMarks = sentenceMarks[i - 1]
        if (prevMarks !== undefined) for (const m of prevMarks) rows[nr++] = markEntry(m).gzm1
        const nextMarks = sentenceMarks[i + 1]
        if (nextMarks !== undefined) for (const m of nextMarks) rows[nr++] = markEntry(m).gzp1
      }
      // Dynamic features, in the order of dynamicFeatures().
      const p1 = i === 0 ? 0 : prev1 + 1
      const p2 = i < 2 ? 0 : prev2 + 1
      const dt = info.memorable && lx.memDoc === doc ? lx.memType : 0
      rows[nr++] = y1Rows[p1] !== UNSET ? y1Rows[p1]! : (y1Rows[p1] = rowOf('y-1=' + PREV_NAMES[p1]))
      const at2 = p2 * P + p1
      rows[nr++] = y2y1Rows[at2] !== UNSET ? y2y1Rows[at2]! : (y2y1Rows[at2] = rowOf('y-2y-1=' + PREV_NAMES[p2] + '|' + PREV_NAMES[p1]))
      rows[nr++] = ((lz[lb + LX_Y1L + p1]!) !== UNSET ? lz[lb + LX_Y1L + p1]! : (lz[lb + LX_Y1L + p1] = row2('y-1l=', H_Y1L, PREV_NAMES[p1]!, PREV_H[p1]!, lx.text, lx.h)))
      rows[nr++] = ((sz[sb + SH_Y1SS + p1]!) !== UNSET ? sz[sb + SH_Y1SS + p1]! : (sz[sb + SH_Y1SS + p1] = row2('y-1ss=', H_Y1SS, PREV_NAMES[p1]!, PREV_H[p1]!, sh.text, sh.h)))
      rows[nr++] = dtRows[dt] !== UNSET ? dtRows[dt]! : (dtRows[dt] = rowOf('dt=' + DOC_TYPES[dt]))
      rows[nr++] = ((sz[sb + SH_DTSS + dt]!) !== UNSET ? sz[sb + SH_DTSS + dt]! : (sz[sb + SH_DTSS + dt] = row2('dt|ss=', H_DTSS, DOC_TYPES[dt]!, DT_H[dt]!, sh.text, sh.h)))
      const at3 = dt * P + p1
      rows[nr++] = dty1Rows[at3] !== UNSET ? dty1Rows[at3]! : (dty1Rows[at3] = rowOf('dt|y-1=' + DOC_TYPES[dt] + '|' + PREV_NAMES[p1]))

      // Scores: the word's own sum, then every row in order (double precision, as the strings' rows would add).
      // (Nine labels: the sums stay in locals, added in the same order as a loop over k would.)
      const v = tokenSlab.values
      const vo = info.vec
      let s0 = v[vo]!, s1 = v[vo + 1]!, s2 = v[vo + 2]!, s3 = v[vo + 3]!, s4 = v[vo + 4]!, s5 = v[vo + 5]!, s6 = v[vo + 6]!, s7 = v[vo + 7]!, s8 = v[vo + 8]!
      for (let q = 0; q < nr; q++) {
        const row = rows[q]!
        if (row < 0) continue
        const b = row * 9
        s0 += w[b]!
        s1 += w[b + 1]!
        s2 += w[b + 2]!
        s3 += w[b + 3]!
        s4 += w[b + 4]!
        s5 += w[b + 5]!
        s6 += w[b + 6]!
        s7 += w[b + 7]!
        s8 += w[b + 8]!
      }
      scores[0] = s0
      scores[1] = s1
      scores[2] = s2
      scores[3] = s3
      scores[4] = s4
      scores[5] = s5
      scores[6] = s6
      scores[7] = s7
      scores[8] = s8
      const best = bestAllowed(scores, allowed, (i === 0 ? 0 : prev1) * L, L)
      labels[i] = best
      margins[i] = lastMargin
      prev2 = i === 0 ? -1 : prev1
      prev1 = best
    }
    // Remember each capitalised word's type only after the sentence is decoded (rememberSentence).
    for (let i = 0; i < n; i++) {
      const info = infos[off + i]!
      if (!info.memorable) continue
      info.lower.memDoc = doc
      info.lower.memType = ((labels[i]! + 1) >> 1) + 1
    }
    out.push(spansOf(labels, margins, n))
  }

  const decodeWithStrings = (sentences: readonly (readonly string[])[]): TaggedSpan[][] => {
    const memory: DocumentMemory = new Map()
    const context = documentContext(sentences)
    const dyn: string[] = []
    const out: TaggedSpan[][] = []
    for (const tokens of sentences) {
      const n = tokens.length
      const feats = staticFeatures(tokens, gazetteer, context, false, clusters)
      const lab = new Int32Array(n)
      const mar = new Float64Array(n)
      let prev1 = 0
      let prev2 = -1
      for (let i = 0; i < n; i++) {
        const tok = tokens[i]!
        dynamicFeatures(i === 0 ? '<s>' : LABELS[prev1]!, i < 2 ? '<s>' : LABELS[prev2]!, tok.toLowerCase(), shortShape(tok), recall(memory, tok), dyn)
        scores.fill(0)
        for (const f of [...wordFeatures(tok, clusters), ...feats[i]!, ...dyn]) {
          const row = rowOf(f)
          if (row < 0) continue
          for (let k = 0; k < L; k++) scores[k] = scores[k]! + w[row * L + k]!
        }
        const best = bestAllowed(scores, allowed, (i === 0 ? 0 : prev1) * L, L)
        lab[i] = best
        mar[i] = lastMargin
        prev2 = i === 0 ? -1 : prev1
        prev1 = best
      }
      rememberSentence(memory, tokens, lab)
      out.push(spansOf(lab, mar, n))
    }
    return out
  }

  return (sentences) => {
    if (!Array.isArray(sentences)) throw new TypeError(`tagDocument: sentences should be an array of token arrays, instead found ${typeof sentences}`)
    let total = 0
    for (let si = 0; si < sentences.length; si++) {
      const tokens = sentences[si]
      if (!Array.isArray(tokens)) throw new TypeError(`tagDocument: sentence ${si} should be an array of strings, instead found ${typeof tokens}`)
      for (let ti = 0; ti < tokens.length; ti++) {
        if (typeof tokens[ti] !== 'string') throw new TypeError(`tagDocument: token ${ti} of sentence ${si} should be a string, instead found ${typeof tokens[ti]}`)
      }
      total += tokens.length
    }
    if (!makeRoom(total)) return decodeWithStrings(sentences)
    const doc = ++docNo
    if (infos.length < total) infos = new Array<TokenEntry>(total * 2)
    // Document context (documentContext): stamps on the lower-case entries.
    let off = 0
    for (const tokens of sentences) {
      const n = tokens.length
      let alpha = 0
      let upper = 0
      for (let i = 0; i < n; i++) {
        const t = (infos[off + i] = tokenEntry(tokens[i]!))
        if (t.hasLetter) {
          alpha++
          if (t.upper) upper++
        }
      }
      const caps = alpha >= 2 && upper / alpha > 0.8
      for (let i = 0; i < n; i++) {
        const t = infos[off + i]!
        if (t.initial === 2) t.asLower!.lowerCaseDoc = doc
        else if (t.initial === 1 && i > 0 && !caps && !t.upper) t.lower.capMidDoc = doc
      }
      off += n
    }
    const out: TaggedSpan[][] = []
    off = 0
    for (const tokens of sentences) {
      decodeSentence(off, tokens.length, doc, out)
      off += tokens.length
    }
    return out
  }
}

const TYPE_OF: readonly (EntityType | undefined)[] = LABELS.map((_, k) => typeOfLabel(k))

/** Turn the first `n` BIO label indices into spans (an `I-X` after another type starts a new span). */
function spansOf(labels: Int32Array, margins: Float64Array, n: number): TaggedSpan[] {
  const spans: TaggedSpan[] = []
  let start = -1
  let type: EntityType | undefined
  let sum = 0
  for (let i = 0; i <= n; i++) {
    const label = i < n ? labels[i]! : 0
    const t = TYPE_OF[label]
    // A span closes before an O, a B- label, a change of type, and at the end.
    if (t === undefined || (label & 1) === 1 || t !== type) {
      if (type !== undefined && start >= 0) {
        const mean = sum / (i - start)
        spans.push({ type, start, end: i, confidence: Math.round((1 / (1 + Math.exp(-mean / MARGIN_UNIT))) * 1e4) / 1e4 })
      }
      type = undefined
      start = -1
      sum = 0
      if (t === undefined) continue
      start = i
      type = t
    }
    sum += margins[i]!
  }
  return spans
}
