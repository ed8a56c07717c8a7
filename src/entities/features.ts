/**
 * Feature extraction for the named-entity tagger, shared by training (`src/entities/train.ts`) and
 * tagging (`src/entities/tagger.ts`) so that both see exactly the same strings.
 *
 * Features come in two kinds:
 * - static features of a token: computed once per sentence from the token strings alone (word, lower
 *   case, shape, affixes, context words within +-2 (and the neighbours as written), capitalisation of
 *   the sentence, sentence-initial, gazetteer membership, document context);
 * - dynamic features: depend on labels already decided (the two previous labels in the sentence, and
 *   the entity type the same word received earlier in the same document).
 */

/** Labels of the tagger, BIO over the four CoNLL types. Index 0 is `O`. */
export const LABELS = ['O', 'B-PER', 'I-PER', 'B-ORG', 'I-ORG', 'B-LOC', 'I-LOC', 'B-MISC', 'I-MISC'] as const

/** One of the tagger's labels. */
export type Label = (typeof LABELS)[number]

/** The four CoNLL entity types. */
export type EntityType = 'PER' | 'ORG' | 'LOC' | 'MISC'

/** Entity type of a label index, or `undefined` for `O`. */
export function typeOfLabel(label: number): EntityType | undefined {
  const name = LABELS[label]
  if (name === undefined || name === 'O') return undefined
  return name.slice(2) as EntityType
}

/** True when label index `next` may follow label index `prev` in BIO (`I-X` only after `B-X` or `I-X`). */
export function isAllowedTransition(prev: number, next: number): boolean {
  return ALLOWED[prev * LABELS.length + next] === 1
}

/** Transition table (prev x next), computed once: decoding asks it 9 times a token. */
const ALLOWED: Uint8Array = (() => {
  const L = LABELS.length
  const table = new Uint8Array(L * L)
  for (let p = 0; p < L; p++) {
    for (let n = 0; n < L; n++) {
      const nl = LABELS[n] ?? 'O'
      const pl = LABELS[p] ?? 'O'
      table[p * L + n] = !nl.startsWith('I-') || (pl !== 'O' && pl.slice(2) === nl.slice(2)) ? 1 : 0
    }
  }
  return table
})()

/**
 * A gazetteer: lower-cased phrases (tokens joined by one space) mapped to a class name such as
 * `country` or `city`. Phrases longer than `maxTokens` tokens are ignored.
 */
export interface Gazetteer {
  readonly phrases: ReadonlyMap<string, string>
  readonly maxTokens: number
  /** Every leading run of tokens of every phrase ("new", "new york" for "new york city"): matching stops early. */
  readonly prefixes: ReadonlySet<string>
}

/**
 * Word clusters: lower-cased word -> fine cluster x 65536 + coarse cluster, from a k-means over the engine's word
 * vectors (`lexicons/en/ner/clusters.bin.gz`, built by `bench/build-ner-clusters.ts`). A word without a
 * vector has no cluster.
 */
export type WordClusters = ReadonlyMap<string, number>

/** Fine cluster of a packed cluster value. */
export const fineCluster = (packed: number): number => Math.floor(packed / 65536)
/** Coarse cluster of a packed cluster value. */
export const coarseCluster = (packed: number): number => packed % 65536

/** Fine cluster of a word as a feature value: the id, or '-' when the word has no vector. */
export function clusterOf(clusters: WordClusters | undefined, lower: string): string {
  const c = clusters?.get(lower)
  return c === undefined ? '-' : String(fineCluster(c))
}

/** Words a title-case headline leaves in lower case (and that do not count against it when capitalised). */
export const TITLE_SMALL: ReadonlySet<string> = new Set([
  'a', 'an', 'the', 'and', 'but', 'or', 'nor', 'for', 'so', 'yet', 'as', 'at', 'by', 'in', 'of', 'off', 'on', 'per', 'to', 'up', 'via',
  'vs', 'vs.', 'with', 'from', 'into', 'onto', 'over', 'is', 'are', 'be', 'if', 'than',
])

/**
 * True when the sentence looks like a title-case headline ("Rory McIlroy Leads By Two Shots"): at least three
 * alphabetic words besides the small ones (articles, short prepositions and conjunctions), at least 80% of
 * them capitalised, and not a capitals headline ({@link isCapsSentence}).
 */
export function isTitleSentence(tokens: readonly string[]): boolean {
  let words = 0
  let capital = 0
  let upper = 0
  for (const t of tokens) {
    const c = t.charCodeAt(0)
    const isUpper = c >= 65 && c <= 90
    if (!isUpper && !(c >= 97 && c <= 122)) continue
    if (t.length > 1 && isUpperCase(t)) upper++
    // No small word is longer than TITLE_SMALL_MAX: longer tokens need no lower-cased copy to be told apart.
    if (t.length <= TITLE_SMALL_MAX && TITLE_SMALL.has(t.toLowerCase())) continue
    words++
    if (isUpper) capital++
  }
  return words >= 3 && capital / words >= 0.8 && upper / words < 0.8
}

/** Length of the longest word of {@link TITLE_SMALL}. */
const TITLE_SMALL_MAX = Math.max(...[...TITLE_SMALL].map((w) => w.length))

/** `t === t.toUpperCase()`, without the copy for ASCII tokens (only a-z change there). */
function isUpperCase(t: string): boolean {
  for (let i = 0; i < t.length; i++) {
    const c = t.charCodeAt(i)
    if (c >= 97 && c <= 122) return false
    if (c > 127) return t === t.toUpperCase()
  }
  return true
}

/** `/[A-Za-z]/.test(t)`, without the regular expression. */
function hasAsciiLetter(t: string): boolean {
  for (let i = 0; i < t.length; i++) {
    const c = t.charCodeAt(i) | 32
    if (c >= 97 && c <= 122) return true
  }
  return false
}

/** Word shape: A-Z -> X, a-z -> x, 0-9 -> d, other characters kept; runs longer than 3 cut to 3. */
export function wordShape(word: string): string {
  let out = ''
  let last = ''
  let run = 0
  for (let i = 0; i < word.length && i < 40; i++) {
    const c = word.charCodeAt(i)
    let s: string
    if (c >= 65 && c <= 90) s = 'X'
    else if (c >= 97 && c <= 122) s = 'x'
    else if (c >= 48 && c <= 57) s = 'd'
    else if (c > 127) s = word[i] === word[i]?.toLowerCase() ? (word[i] === word[i]?.toUpperCase() ? 'o' : 'x') : 'X'
    else s = word[i] ?? ''
    if (s === last) {
      run++
      if (run > 3) continue
    } else {
      run = 1
      last = s
    }
    out += s
  }
  return out
}

/** Short shape: like {@link wordShape} with every run collapsed to one character ("Xxxx-Xx" -> "Xx-Xx"). */
export function shortShape(word: string): string {
  return collapseShape(wordShape(word))
}

function collapseShape(shape: string): string {
  let out = ''
  for (const ch of shape) if (out[out.length - 1] !== ch) out += ch
  return out
}

/** True when the sentence looks like a headline in capitals (most of its alphabetic words are all upper case). */
export function isCapsSentence(tokens: readonly string[]): boolean {
  let alpha = 0
  let upper = 0
  for (const t of tokens) {
    if (!hasAsciiLetter(t)) continue
    alpha++
    if (isUpperCase(t)) upper++
  }
  return alpha >= 2 && upper / alpha > 0.8
}

/**
 * Gazetteer matches of a sentence: for each token, the list of `B-class`/`I-class` marks of every
 * gazetteer phrase that covers it (longest match first, all overlapping matches kept).
 */
export function gazetteerMarks(lowers: readonly string[], gazetteer: Gazetteer | undefined): string[][] {
  const marks: string[][] = lowers.map(() => [])
  if (gazetteer === undefined || gazetteer.phrases.size === 0) return marks
  for (let i = 0; i < lowers.length; i++) {
    let phrase = ''
    for (let n = 1; n <= gazetteer.maxTokens && i + n <= lowers.length; n++) {
      phrase = n === 1 ? (lowers[i] ?? '') : phrase + ' ' + (lowers[i + n - 1] ?? '')
      if (!gazetteer.prefixes.has(phrase)) break
      const cls = gazetteer.phrases.get(phrase)
      if (cls === undefined) continue
      for (let k = i; k < i + n; k++) {
        const m = (k === i ? 'B-' : 'I-') + cls + (n === 1 ? '1' : '')
        const list = marks[k]
        if (list !== undefined && !list.includes(m)) list.push(m)
      }
    }
  }
  return marks
}

/**
 * What the whole document says about its words, for features that look beyond the sentence: which
 * lower-cased words occur capitalised in mid-sentence (not first, not in a capitals headline), and
 * which occur in lower case.
 */
export interface DocumentContext {
  readonly capitalisedMid: ReadonlySet<string>
  readonly lowerCase: ReadonlySet<string>
}

/** Build the {@link DocumentContext} of a document given as sentences of tokens. */
export function documentContext(sentences: readonly (readonly string[])[]): DocumentContext {
  const capitalisedMid = new Set<string>()
  const lowerCase = new Set<string>()
  for (const tokens of sentences) {
    const caps = isCapsSentence(tokens)
    for (let i = 0; i < tokens.length; i++) {
      const t = tokens[i] ?? ''
      const c = t.charCodeAt(0)
      if (c >= 97 && c <= 122) lowerCase.add(t)
      else if (c >= 65 && c <= 90 && i > 0 && !caps && t !== t.toUpperCase()) capitalisedMid.add(t.toLowerCase())
    }
  }
  return { capitalisedMid, lowerCase }
}

/**
 * Features of a word on its own (word, lower case, shapes, affixes): the same wherever it stands, so
 * the tagger caches their weight rows per word. Part of {@link staticFeatures}.
 */
export function wordFeatures(w: string, clusters?: WordClusters): string[] {
  const l = w.toLowerCase()
  const shape = wordShape(w)
  const f = ['w=' + w, 'l=' + l, 'sh=' + shape, 'ss=' + collapseShape(shape)]
  const len = l.length
  for (let k = 1; k <= 4 && k < len; k++) f.push(`p${k}=` + l.slice(0, k), `s${k}=` + l.slice(len - k))
  if (clusters !== undefined) {
    const c = clusters.get(l)
    const ss = collapseShape(shape)
    if (c === undefined) f.push('c=-', 'c=-|' + ss)
    else {
      const fine = fineCluster(c)
      const coarse = coarseCluster(c)
      f.push('c=' + fine, 'cc=' + coarse, 'c=' + fine + '|' + ss, 'cc=' + coarse + '|' + ss)
    }
  }
  return f
}

/**
 * Static features of every token of one sentence (one string array per token). With `withWord` false
 * the {@link wordFeatures} are left out (the caller adds them from its cache).
 */
export function staticFeatures(
  tokens: readonly string[],
  gazetteer?: Gazetteer,
  context?: DocumentContext,
  withWord = true,
  clusters?: WordClusters,
): string[][] {
  const n = tokens.length
  const lowers = tokens.map((t) => t.toLowerCase())
  const fullShapes = tokens.map(wordShape)
  const shapes = fullShapes.map(collapseShape)
  const caps = isCapsSentence(tokens)
  const title = isTitleSentence(tokens)
  const marks = gazetteerMarks(lowers, gazetteer)
  const low = (i: number): string => (i < 0 ? '<s>' : i >= n ? '</s>' : (lowers[i] ?? ''))
  const shp = (i: number): string => (i < 0 ? '<s>' : i >= n ? '</s>' : (shapes[i] ?? ''))
  const out: string[][] = []
  for (let i = 0; i < n; i++) {
    const w = tokens[i] ?? ''
    const l = lowers[i] ?? ''
    const s = shapes[i] ?? ''
    const f: string[] = withWord ? ['b', ...wordFeatures(w, clusters)] : ['b']
    f.push(
      'l-1=' + low(i - 1),
      'l+1=' + low(i + 1),
      'l-2=' + low(i - 2),
      'l+2=' + low(i + 2),
      'l-1l=' + low(i - 1) + '|' + l,
      'll+1=' + l + '|' + low(i + 1),
      'ss-1=' + shp(i - 1) + '|' + s,
      'ss+1=' + s + '|' + shp(i + 1),
      'ss3=' + shp(i - 1) + '|' + s + '|' + shp(i + 1),
      'l-1ss+1=' + low(i - 1) + '|' + s + '|' + shp(i + 1),
      'w-1=' + (i > 0 ? (tokens[i - 1] ?? '') : '<s>'),
      'w+1=' + (i + 1 < n ? (tokens[i + 1] ?? '') : '</s>'),
    )
    if (clusters !== undefined) f.push('c-1=' + (i > 0 ? clusterOf(clusters, low(i - 1)) : '<s>'), 'c+1=' + (i + 1 < n ? clusterOf(clusters, low(i + 1)) : '</s>'))
    if (context !== undefined && /^[A-Za-z]/.test(w)) {
      const d = (context.capitalisedMid.has(l) ? 'C' : '-') + (context.lowerCase.has(l) ? 'L' : '-')
      f.push('dc=' + d + '|' + s, 'dc=' + d + '|' + (i === 0 ? 'first' : caps ? 'caps' : 'mid'))
    }
    if (i === 0) f.push('first|' + s, 'first|' + l)
    if (caps) f.push('caps|' + s, 'caps|' + l)
    if (title) f.push('title|' + s, 'title|' + l)
    if (n === 1) f.push('alone|' + s)
    for (const m of marks[i] ?? []) f.push('gz=' + m, 'gz=' + m + '|' + s)
    const prevMarks = marks[i - 1]
    if (prevMarks !== undefined) for (const m of prevMarks) f.push('gz-1=' + m)
    const nextMarks = marks[i + 1]
    if (nextMarks !== undefined) for (const m of nextMarks) f.push('gz+1=' + m)
    out.push(f)
  }
  return out
}

/**
 * Dynamic features of token `i`: the previous two labels (as label names) and the type the same word
 * (case-sensitive) received last earlier in the document (`docType`, `'-'` when unseen).
 */
export function dynamicFeatures(
  prev1: string,
  prev2: string,
  lower: string,
  shape: string,
  docType: string,
  out: string[],
): void {
  out.length = 0
  out.push('y-1=' + prev1, 'y-2y-1=' + prev2 + '|' + prev1, 'y-1l=' + prev1 + '|' + lower, 'y-1ss=' + prev1 + '|' + shape)
  out.push('dt=' + docType, 'dt|ss=' + docType + '|' + shape, 'dt|y-1=' + docType + '|' + prev1)
}

/**
 * Document memory: for each capitalised word (lower-cased), how often each type (O, PER, ORG, LOC,
 * MISC) was given to it in the sentences decoded so far (slots 0..4) and the last type's slot (slot 5).
 */
export type DocumentMemory = Map<string, Int32Array>

const MEMORY_TYPES = ['O', 'PER', 'ORG', 'LOC', 'MISC'] as const

/** Record the labels a decoded sentence gave its capitalised words. */
export function rememberSentence(memory: DocumentMemory, tokens: readonly string[], labels: ArrayLike<number>): void {
  for (let i = 0; i < tokens.length; i++) {
    const tok = tokens[i] ?? ''
    if (!isMemorable(tok)) continue
    const key = tok.toLowerCase()
    let counts = memory.get(key)
    if (counts === undefined) {
      counts = new Int32Array(MEMORY_TYPES.length + 1)
      memory.set(key, counts)
    }
    const t = typeOfLabel(labels[i] ?? 0) ?? 'O'
    const k = MEMORY_TYPES.indexOf(t)
    counts[k] = (counts[k] ?? 0) + 1
    counts[MEMORY_TYPES.length] = k
  }
}

/** The type (or 'O') a capitalised word was given last earlier in the document; '-' when unseen. */
export function recall(memory: DocumentMemory, token: string): string {
  if (!isMemorable(token)) return '-'
  const counts = memory.get(token.toLowerCase())
  if (counts === undefined) return '-'
  // Counts per type are kept too (slots 0..4): the last type scored better on testa than the majority.
  return MEMORY_TYPES[counts[MEMORY_TYPES.length] ?? 0] ?? 'O'
}

/** True when a token is a candidate for document memory: it has a letter and starts with a capital. */
export function isMemorable(token: string): boolean {
  return /^[A-Z]/.test(token) && token.length > 1
}
