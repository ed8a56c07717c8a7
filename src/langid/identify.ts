/**
 * createLanguageIdentifier: script prefilter, then naive-Bayes scoring of character n-grams and words
 * among the languages written in the text's dominant script, with softmax-normalised scores.
 */
import { compileLanguageModel, loadCompiledLanguageModel, type CompiledLanguageModel } from './compiled.ts'
import { MAX_WORD_FEATURE_LENGTH, MAX_WORDS, type ScriptCounts } from './features.ts'
import { findLanguageEntry, type LanguageEntry, type ScriptGroup } from './languages.ts'
import { COST_SCALE, type LanguageModelData } from './model.ts'

/** One ranked language. */
export interface LanguageScore {
  /** ISO 639-1 code ("en"). */
  readonly code: string
  /** English name ("English"). */
  readonly name: string
  /** Share of this language among the candidates, 0..1, rounded to 4 decimals. */
  readonly score: number
}

/** The identification of one text: the best language, its score, and every candidate ranked. */
export interface LanguageIdentification extends LanguageScore {
  /** Candidates best first (ties by code); the first entry is the answer itself. */
  readonly ranking: readonly LanguageScore[]
}

/** The own, hidden member where an identification keeps the function that sorts its ranking (see {@link RANKING}). */
const RANKED = Symbol('ranked')

/**
 * The `ranking` member of every identification: one getter function for all, reading the identification's own
 * {@link RANKED} function, so that the ranking is sorted only when first read. Not an object literal's getter: that is
 * a new closure per object, held by an accessor pair that V8 allocates in the old generation, which kept each text's
 * costs and candidates alive past two scavenges (promoted, then garbage for the next full collection).
 */
const RANKING: PropertyDescriptor = {
  get(this: { readonly [RANKED]: () => readonly LanguageScore[] }): readonly LanguageScore[] {
    return this[RANKED]()
  },
  enumerable: true,
}

/** A frozen identification: code, name, score, then `ranking` (read through {@link RANKING}). */
function identification(code: string, name: string, score: number, ranked: () => readonly LanguageScore[]): LanguageIdentification {
  const id = { code, name, score }
  Object.defineProperty(id, RANKED, { value: ranked })
  Object.defineProperty(id, 'ranking', RANKING)
  return Object.freeze(id) as LanguageIdentification
}

/** A language identifier holding one loaded model. */
export interface LanguageIdentifier {
  /** Identify the language of `text`; undefined when it has no letters. */
  identify(text: string): LanguageIdentification | undefined
  /** The ISO 639-1 codes the model knows. */
  readonly languages: readonly string[]
}

const SCRIPT_ORDER: readonly ScriptGroup[] = ['latin', 'cyrillic', 'greek', 'arabic', 'hebrew', 'devanagari', 'thai', 'hangul', 'cjk']

/** Round to 4 decimals (fixed rounding keeps output byte-stable). */
const round4 = (x: number): number => Math.round(x * 10000) / 10000

/**
 * The languages a text can be in, from the script holding most of its letters (ties by a fixed order).
 * Kana means Japanese, Han alone Chinese. Undefined when no letter is in a
 * script of `known`; an empty array when the text has no letters at all.
 */
function candidatesFor(counts: ScriptCounts, known: readonly LanguageEntry[]): LanguageEntry[] | undefined {
  const total = SCRIPT_ORDER.reduce((a, s) => a + counts[s], 0) + counts.kana + counts.other
  if (total === 0) return []
  let best: ScriptGroup | undefined
  let bestCount = 0
  for (const s of SCRIPT_ORDER) {
    const n = s === 'cjk' ? counts.cjk + counts.kana : counts[s]
    if (n > bestCount && known.some((l) => l.script === s)) {
      best = s
      bestCount = n
    }
  }
  if (best === undefined) return undefined
  const inScript = known.filter((l) => l.script === best)
  if (best === 'cjk') {
    // Japanese writing mixes kana into Han; Han alone is taken as Chinese (kanji-only Japanese is rare).
    const decided = inScript.filter((l) => l.code === (counts.kana > 0 ? 'ja' : 'zh'))
    if (decided.length > 0) return decided
  }
  return inScript
}

/** Script groups in the order of the prefilter's tests (`features.ts`), then `other`: group codes 1..11. */
const GROUP_NAMES = ['latin', 'cyrillic', 'greek', 'arabic', 'hebrew', 'devanagari', 'thai', 'hangul', 'kana', 'cjk', 'other'] as const
const SCRIPT_TESTS: readonly RegExp[] = [
  /\p{Script=Latin}/u, /\p{Script=Cyrillic}/u, /\p{Script=Greek}/u, /\p{Script=Arabic}/u, /\p{Script=Hebrew}/u,
  /\p{Script=Devanagari}/u, /\p{Script=Thai}/u, /\p{Script=Hangul}/u, /[\p{Script=Hiragana}\p{Script=Katakana}]/u, /\p{Script=Han}/u,
]
const LETTER = /\p{L}/u
const LETTER_OR_MARK = /[\p{L}\p{M}]/u
/** Class byte: KNOWN set once computed, WORD_CHAR for letters and marks, low 4 bits the script group code (0: not a letter). */
const KNOWN = 0x80
const WORD_CHAR = 0x40
const BOUNDARY_CP = 0x5f
/** Words up to this many code points have their summed costs cached (sums stay far inside int32). */
const MAX_CACHED_WORD = 64
/** The word cache is cleared when it holds this many words. */
const WORD_CACHE_LIMIT = 50_000

/** Size of the word cache's hash table, minus one (a power of two at least twice WORD_CACHE_LIMIT). */
const SLOT_MASK = 131_071

/** Whether `word` equals `s.slice(start, end)`. */
function sameText(word: string, s: string, start: number, end: number): boolean {
  if (word.length !== end - start) return false
  for (let k = 0; k < word.length; k++) if (word.charCodeAt(k) !== s.charCodeAt(start + k)) return false
  return true
}

/** The class byte of a code point (see {@link KNOWN}), computed from the Unicode regexps of `features.ts`. */
function classOf(cp: number): number {
  const ch = String.fromCodePoint(cp)
  let v = KNOWN | (LETTER_OR_MARK.test(ch) ? WORD_CHAR : 0)
  if (LETTER.test(ch)) {
    const g = SCRIPT_TESTS.findIndex((re) => re.test(ch))
    v |= g < 0 ? GROUP_NAMES.length : g + 1
  }
  return v
}

/**
 * Build an identifier from a model: the committed `lexicons/langid/model.tsv` when omitted (read straight
 * into the compiled layout), or model data as trained or parsed. `identify` is then a pure function of its
 * text: the class of each code point is computed on first sight and kept in a table that only caches a
 * pure function, so it changes no result.
 */
export function createLanguageIdentifier(model?: LanguageModelData | CompiledLanguageModel): LanguageIdentifier {
  const m: CompiledLanguageModel = model === undefined ? loadCompiledLanguageModel() : 'costs' in model ? model : compileLanguageModel(model)
  const entries: LanguageEntry[] = m.languages.map((code) => {
    const e = findLanguageEntry(code)
    if (e === undefined || e.code !== code) throw new Error(`createLanguageIdentifier: unknown language code "${code}" in the model`)
    return e
  })
  for (let o = 0; o <= m.maxOrder; o++) {
    if (m.floors[o]?.length !== entries.length) throw new Error(`createLanguageIdentifier: the model has no floor row of ${entries.length} costs for order ${o}`)
  }
  const indexOf = new Map(entries.map((e, i) => [e.code, i]))
  const knownScripts = new Set<ScriptGroup>(entries.map((e) => e.script))
  const { maxOrder, temperature, costs: table, words: wordIds, child, nodeFeature } = m
  const L = entries.length
  const classes = new Uint8Array(0x110000)
  for (let cp = 0; cp < 0x80; cp++) classes[cp] = classOf(cp)
  let buffer = new Int32Array(256)
  let scratch = new Float64Array(32)

  /** Letters per script group, as `countScripts` counts them (into `groups`, reused: identify is synchronous). */
  const groups = new Int32Array(GROUP_NAMES.length + 1)
  const countScripts = (text: string): ScriptCounts => {
    const g = groups
    g.fill(0)
    for (let i = 0; i < text.length; ) {
      const c = text.charCodeAt(i)
      if (c < 0x80) {
        g[classes[c]! & 0x0f]!++
        i++
        continue
      }
      const cp = text.codePointAt(i)!
      i += cp > 0xffff ? 2 : 1
      let v = classes[cp]!
      if (v === 0) classes[cp] = v = classOf(cp)
      g[v & 0x0f]!++
    }
    return {
      latin: g[1]!, cyrillic: g[2]!, greek: g[3]!, arabic: g[4]!, hebrew: g[5]!, devanagari: g[6]!, thai: g[7]!,
      hangul: g[8]!, kana: g[9]!, cjk: g[10]!, other: g[11]!,
    }
  }
  // The candidates of a script answer and their model columns, per answer (a pure function of the entries).
  const candidateColumns = new Map<readonly LanguageEntry[], Int32Array>()
  const candidateCache = new Map<string, LanguageEntry[] | undefined>()
  const candidatesOf = (counts: ScriptCounts): LanguageEntry[] | undefined => {
    const total = SCRIPT_ORDER.reduce((a, s) => a + counts[s], 0) + counts.kana + counts.other
    if (total === 0) return []
    // candidatesFor reads which script holds most letters (ties by a fixed order) and whether kana occur.
    let best = -1
    let bestCount = 0
    for (let k = 0; k < SCRIPT_ORDER.length; k++) {
      const sc = SCRIPT_ORDER[k]!
      const n = sc === 'cjk' ? counts.cjk + counts.kana : counts[sc]
      if (n > bestCount && knownScripts.has(sc)) {
        best = k
        bestCount = n
      }
    }
    const key = `${best}:${counts.kana > 0 ? 1 : 0}`
    let c = candidateCache.get(key)
    if (c === undefined && !candidateCache.has(key)) {
      c = candidatesFor(counts, entries)
      candidateCache.set(key, c)
    }
    return c
  }
  const columnsOf = (candidates: readonly LanguageEntry[]): Int32Array => {
    let cols = candidateColumns.get(candidates)
    if (cols === undefined) {
      cols = Int32Array.from(candidates, (c) => indexOf.get(c.code)!)
      candidateColumns.set(candidates, cols)
    }
    return cols
  }

  // Per word (lower-cased, at most MAX_CACHED_WORD code points): its feature count and summed cost per
  // language, as rows of `slab` ([count, cost of language 0, ...]); a pure function of the word and the
  // model, and sums of integers, so caching changes no result. Cleared when it holds WORD_CACHE_LIMIT words.
  const W = L + 1
  const ALL = Int32Array.from(entries, (_, i) => i)
  // Open addressing (hash -> slot + 1, 0 empty) over at most WORD_CACHE_LIMIT words, at most half full.
  const slotTable = new Int32Array(SLOT_MASK + 1)
  const slotHashes = new Int32Array(WORD_CACHE_LIMIT)
  const slotWords: string[] = []
  let slotCount = 0
  let slab = new Int32Array(W * 1024)

  /**
   * Add the costs of the features of one word (its code points in `buffer[1..len]`, padded with the
   * boundary) over columns `cols` to `into[at + j]`; returns the number of features counted.
   */
  const addWordCosts = (word: string, len: number, cols: Int32Array, K: number, into: Int32Array | Float64Array, at: number): number => {
    let n = 0
    const padded = len + 2
    buffer[0] = BOUNDARY_CP
    buffer[len + 1] = BOUNDARY_CP
    for (let p = 0; p < padded; p++) {
      let node = 0
      for (let o = 1; o <= maxOrder && p + o <= padded; o++) {
        node = child(node, buffer[p + o - 1]!)
        if (node < 0) break
        if (o === 1 && buffer[p] === BOUNDARY_CP) continue
        const f = nodeFeature[node]!
        if (f < 0) continue
        n++
        const base = f * L
        for (let j = 0; j < K; j++) into[at + j]! += table[base + cols[j]!]!
      }
    }
    if (len <= MAX_WORD_FEATURE_LENGTH) {
      const f = wordIds.get(word)
      if (f !== undefined) {
        n++
        const base = f * L
        for (let j = 0; j < K; j++) into[at + j]! += table[base + cols[j]!]!
      }
    }
    return n
  }

  /** Add the costs of the text's features to `costs` (columns `cols`); returns the number of features counted. */
  const score = (text: string, cols: Int32Array, costs: Float64Array): number => {
    let nfc = true
    for (let i = 0; i < text.length; i++) {
      if (text.charCodeAt(i) >= 0x300) {
        nfc = false
        break
      }
    }
    const s = (nfc ? text : text.normalize('NFC')).toLowerCase()
    const K = cols.length
    let n = 0
    let wordCount = 0
    let i = 0
    while (i < s.length && wordCount < MAX_WORDS) {
      // Find the next run of letters and marks.
      let cp = s.codePointAt(i)!
      let v = classes[cp]!
      if (v === 0) classes[cp] = v = classOf(cp)
      if ((v & WORD_CHAR) === 0) {
        i += cp > 0xffff ? 2 : 1
        continue
      }
      const start = i
      let len = 0
      // FNV-1a over the word's code points: the word cache is probed without cutting the word out of the text.
      let h = 0x811c9dc5
      for (;;) {
        if (len + 2 >= buffer.length) {
          const grown = new Int32Array(buffer.length * 2)
          grown.set(buffer)
          buffer = grown
        }
        buffer[++len] = cp
        h = Math.imul(h ^ cp, 0x01000193)
        i += cp > 0xffff ? 2 : 1
        if (i >= s.length) break
        cp = s.codePointAt(i)!
        v = classes[cp]!
        if (v === 0) classes[cp] = v = classOf(cp)
        if ((v & WORD_CHAR) === 0) break
      }
      wordCount++
      if (len > MAX_CACHED_WORD) {
        n += addWordCosts(s.slice(start, i), len, cols, K, costs, 0)
        continue
      }
      let slot = -1
      let at = h & SLOT_MASK
      for (;;) {
        const e = slotTable[at]!
        if (e === 0) break
        const k = e - 1
        if (slotHashes[k] === h && sameText(slotWords[k]!, s, start, i)) {
          slot = k
          break
        }
        at = (at + 1) & SLOT_MASK
      }
      if (slot < 0) {
        if (slotCount >= WORD_CACHE_LIMIT) {
          slotCount = 0
          slotTable.fill(0)
          at = h & SLOT_MASK
        }
        const word = s.slice(start, i)
        slot = slotCount++
        if ((slot + 1) * W > slab.length) {
          const grown = new Int32Array(Math.min(WORD_CACHE_LIMIT * W, slab.length * 2))
          grown.set(slab)
          slab = grown
        }
        slab.fill(0, slot * W, (slot + 1) * W)
        slab[slot * W] = addWordCosts(word, len, ALL, L, slab, slot * W + 1)
        slotTable[at] = slot + 1
        slotHashes[slot] = h
        slotWords[slot] = word
      }
      const row = slot * W
      n += slab[row]!
      for (let j = 0; j < K; j++) costs[j]! += slab[row + 1 + cols[j]!]!
    }
    return n
  }

  return Object.freeze({
    languages: Object.freeze([...m.languages]),
    identify(text: string): LanguageIdentification | undefined {
      if (typeof text !== 'string') throw new TypeError(`identify: text should be a string, found ${typeof text}`)
      const candidates = candidatesOf(countScripts(text)) ?? entries
      if (candidates.length === 0) return undefined
      const K = candidates.length
      // Costs are summed into a reused typed array (a new small Float64Array per call costs an off-heap buffer),
      // then kept in plain arrays for the ranking.
      if (scratch.length < K) scratch = new Float64Array(K)
      scratch.fill(0, 0, K)
      let n = 0
      if (K > 1) n = score(text, columnsOf(candidates), scratch)
      const costs: number[] = new Array<number>(K)
      let min = Infinity
      for (let j = 0; j < K; j++) {
        const c = (costs[j] = scratch[j]!)
        if (c < min) min = c
      }
      const scale = n === 0 ? 0 : temperature / (n * COST_SCALE)
      const weights: number[] = new Array<number>(K)
      let sum = 0
      for (let j = 0; j < K; j++) sum += weights[j] = Math.exp(-(costs[j]! - min) * scale)
      // Best first: by cost, ties by code. The answer is the first; the whole ranking is sorted when first read.
      const before = (a: number, b: number): number => {
        const d = costs[a]! - costs[b]!
        if (d !== 0) return d
        const ca = candidates[a]!.code
        const cb = candidates[b]!.code
        return ca < cb ? -1 : ca > cb ? 1 : 0
      }
      let best = 0
      for (let j = 1; j < K; j++) if (before(j, best) < 0) best = j
      let ranking: readonly LanguageScore[] | undefined
      const ranked = (): readonly LanguageScore[] =>
        (ranking ??= Object.freeze(
          Array.from({ length: K }, (_, j) => j)
            .sort(before)
            .map((j): LanguageScore => Object.freeze({ code: candidates[j]!.code, name: candidates[j]!.name, score: round4(weights[j]! / sum) })),
        ))
      const top = candidates[best]!
      return identification(top.code, top.name, round4(weights[best]! / sum), ranked)
    },
  })
}
