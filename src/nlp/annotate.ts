import winkNLP from 'wink-nlp'
import type { Model } from 'wink-nlp'
import model from 'wink-eng-lite-web-model'
import { stemmer } from 'stemmer'
import { decodeHTMLStrict } from 'entities'
import type { AnnotatedDocument, PatternSpan, Sentence, Token } from './types.ts'
import { joinBrokenSentences } from './sentences.ts'
// A static import (not a runtime require) so that bundlers include the model as they include wink's own loader,
// which requires the same file when the package loads (test/package/pack.test.ts bundles a consumer with esbuild).
import winkCoreJson from 'wink-eng-lite-web-model/dist/languages/cur/models/eng-core-web-model.json' with { type: 'json' }

/** The annotator one engine owns: wink-nlp instance plus its caches. Never shared between engines. */
export interface Annotator {
  /**
   * Annotate `text`, its character references ("&amp;", "&#39;") read as the characters they stand for (see
   * {@link readReferences}); when `html` is true, tags are blanked first. Byte offsets refer to `text` as given.
   */
  annotate(text: string, options?: AnnotateOptions): AnnotatedDocument
  /** wink-nlp's raw `readDoc`, exposed for the benchmark's ceiling figure. */
  readRaw(text: string): number
}

/** Per-call annotation switches. */
export interface AnnotateOptions {
  /** Blank HTML tags (comments, scripts and styles) before tokenising. @defaultValue false */
  readonly html?: boolean
  /** Treat the whole text as one sentence. @defaultValue false */
  readonly oneSentence?: boolean
}

// wink-nlp 2.4 internals this module reads (src/wink-nlp.js, src/cache.js, src/its.js, src/constants.js). The
// package is pinned; test/nlp/annotate-equivalence.test.ts compares this reader with wink's public `.out()` API.
/** wink's per-instance lexeme cache (`rdd.cache`). */
interface WinkCache {
  value(index: number): string
  property(index: number, name: string): number | string
  normal(index: number): number
  nox(binaryWord: number): number
  mappedSpelling(index: number): number
  valueOf(feature: string, index: number): string
}
/** wink's raw document data (`rdd`): 4 numbers per token, sentences and entities as inclusive token ranges. */
interface WinkRawDocument {
  readonly tokens: readonly number[]
  readonly cache: WinkCache
  readonly numOfTokens: number
  readonly sentences: ReadonlyArray<readonly [number, number, ...unknown[]]>
  readonly entities: ReadonlyArray<readonly [number, number, string, ...unknown[]]>
  readonly nonBreakingSpaces: Record<number, string>
}
/** The cache methods the tokenizer calls through the cache object (so a wrapper takes effect). */
interface WinkCacheUpdates {
  lookup(text: string): number[] | null
  add(text: string, category: number): number
}
/** The mutable vocabulary of wink's core model (`model.features.lexeme`). */
interface WinkLexemes {
  readonly hash: Record<string, number>
  readonly list: string[]
  readonly intrinsicSize: number
}
/** `its.lemma` and `its.precedingSpaces`, called with the raw document. */
type WinkIts = (index: number, rdd: WinkRawDocument, addons?: unknown) => string

const TK = 4 // numbers per token in rdd.tokens
const PS_MASK = 0xffff
const POS_MASK = 0x3f00000
const BITS_LEMMA = 20
const LEMMA_MASK = 0xfffff
const NEGATION_FLAG = 2 ** 31
/**
 * Words wink may learn (out-of-vocabulary lexemes) before the instance is rebuilt from the model (memory bound: with
 * the caches below and the taggers' and aspect features' bounds, a stream of new words levels off instead of growing
 * the heap by about 1 KB per word for hundreds of thousands of words; see DEFAULT_LIMITS in tagger-decoder.ts).
 */
const LEARNED_LIMIT = 30_000
/** Entries of the annotator's text-keyed caches before they are cleared (they cache pure functions). */
const CACHE_LIMIT = 50_000
/** The lookup cache's mark for a text outside wink's vocabulary. */
const NOT_VOCABULARY: readonly number[] = Object.freeze([])

/** What a lexeme of wink's own vocabulary always gives, whatever its context. */
interface LexemeFacts {
  readonly value: string
  readonly lower: string
  readonly stem: string
  readonly type: string
  readonly shape: string
  /** Lower-cased normal and stop-word flag of the lexeme outside a contraction. */
  readonly normal: string
  readonly stop: boolean
}

/** The core model's JSON as wink-eng-lite-web-model ships it (only what the loader touches is typed). */
interface CoreModelJson {
  readonly packing: { readonly layout: Record<string, readonly number[]> } & Record<string, unknown>
  readonly features: Record<string, { readonly list: readonly string[] } & Record<string, unknown>>
  readonly pos: { readonly hash: Record<string, number> }
  readonly lexicon: string
  readonly xpansions: string
}

let coreJson: CoreModelJson | undefined

/** A base64 string as 32-bit words (little-endian, as the model's loader reads them through a Uint8Array). */
function words32(base64: string): Uint32Array {
  const bytes = Buffer.from(base64, 'base64')
  const copy = new Uint8Array(bytes.length)
  copy.set(bytes)
  return new Uint32Array(copy.buffer, 0, copy.length >>> 2)
}

/**
 * wink-eng-lite-web-model 1.8.1's core model, built as its `core()` builds it (read-core-model.js and
 * load-core-model.js) but without its two costs: a JSON.stringify/parse copy of the whole 3 MB model per instance
 * (here only what an instance changes is copied: the feature lists it learns into, and the hashes built over
 * them; strings and the rest are shared read-only) and base64 decoded one character at a time (here by Buffer).
 * test/nlp/annotate-equivalence.test.ts checks the result equals `model.core()`.
 */
export function loadCoreModel(): Record<string, unknown> {
  coreJson ??= winkCoreJson as unknown as CoreModelJson
  const json = coreJson
  const layout = json.packing.layout
  const features: Record<string, Record<string, unknown>> = {}
  for (const [name, f] of Object.entries(json.features)) features[name] = { ...f, list: [...f.list] }
  const efList: string[] = []
  for (const f of Object.keys(layout)) {
    const l = layout[f]!
    if (l[3] === 0) {
      const feature = features[f]!
      const list = feature['list'] as string[]
      const hash: Record<string, number> = Object.create(null) as Record<string, number>
      for (let k = 0; k < list.length; k++) hash[list[k]!] = k
      feature['hash'] = hash
      feature['intrinsicSize'] = list.length
      feature['index'] = list.length
      feature['maxIndex'] = l[1]! >>> l[2]!
    }
    if (l[4] === 1) efList.push(f)
  }
  const lexeme = features['lexeme']!
  const lexemes = lexeme['list'] as string[]
  const lexemeHash: Record<string, number> = Object.create(null) as Record<string, number>
  for (let k = 0; k < lexemes.length; k++) lexemeHash[lexemes[k]!] = k
  lexeme['hash'] = lexemeHash
  lexeme['intrinsicSize'] = lexemes.length
  lexeme['index'] = lexemes.length
  const clusters = features['posClusters']!['list'] as unknown[]
  for (let k = 0; k < clusters.length; k++) clusters[k] = new Set((clusters[k] as string).split('_').map((e) => json.pos.hash[e] || 0))
  const { lexicon, xpansions, features: _shared, packing, ...rest } = json as CoreModelJson & Record<string, unknown>
  return { ...structuredClone(rest), packing: { ...structuredClone(packing), efList }, lexicon: words32(lexicon), features, xpansions: words32(xpansions) }
}

let metaCer: unknown
/**
 * The model's custom-entity meta model, made once per process: wink-eng-lite-web-model 1.8.1's loader assigns
 * `JSON.stringify(machines)` back to its module variable, so each wink instance built from the model stringifies
 * the previous string again (a longer string every time: about 16 instances fail with "Invalid string length", and
 * memory grows long before).
 */
export function metaCerModel(): unknown {
  if (metaCer === undefined) metaCer = (model.metaCER as () => unknown)()
  return metaCer
}

/**
 * Create an annotator. Each call builds its own wink-nlp instance so that two engines never share
 * mutable NLP state (custom entities, for instance, are per instance).
 *
 * Output depends on the text alone, never on what the instance read before. wink adds every out-of-vocabulary
 * word it meets to its model's vocabulary, its tokenizer keeps a word whole once the vocabulary holds it (so
 * "Hillary's" is split into "Hillary" + "'s" in a fresh process, and kept whole once a text such as "(Hillary's)"
 * made wink learn it), and such a word keeps the token type it had when first learned. The instance's cache is
 * wrapped so that the tokenizer treats a learned word as unknown (it goes through the same steps as the first
 * time) and a learned word met with another token type is learned again; the learned entries themselves stay, so
 * their features are computed once. The instance is rebuilt once they take memory.
 *
 * Columns are read in one pass over wink's raw token array (the same functions as wink's `its` helpers),
 * with what depends on the lexeme alone (value, type, shape, normal, stem, stop-word flag, lemma by POS)
 * computed once per vocabulary word.
 */
export function createAnnotator(): Annotator {
  let core: { features: { lexeme: WinkLexemes }; tcat: { list: string[] } } | undefined
  // The raw document of the last `readDoc`, handed out by the readabilityStats addon (see `rawOf`).
  const addons = { ...model.addons, readabilityStats: (rdd: WinkRawDocument) => rdd }
  const wrapped = {
    ...model,
    core: () => (core = loadCoreModel() as unknown as NonNullable<typeof core>),
    metaCER: metaCerModel,
    addons,
  } as unknown as Model
  let nlp = winkNLP(wrapped, ['sbd', 'negation', 'pos', 'ner'])
  const its = nlp.its
  const lemmaOf = its.lemma as unknown as WinkIts
  const rawOf = (doc: ReturnType<typeof nlp.readDoc>): WinkRawDocument => doc.out(its.readabilityStats as never) as unknown as WinkRawDocument
  const lexemes = (): WinkLexemes => core!.features.lexeme
  const intrinsic = lexemes().intrinsicSize
  // Facts per lexeme id: vocabulary lexemes (id < intrinsic) are the same in every instance built from the model;
  // a learned lexeme keeps its value, token type and normal for the life of the instance (wink's lists only grow),
  // and equal words give equal facts whatever id they got, so these caches change no output. Reset with the instance.
  let facts: Array<LexemeFacts | undefined> = []
  // Lower-cased lemma of a lexeme by POS (key id * 64 + POS index), filled as met.
  let lemmas = new Map<number, string>()
  // The token type of a learned lexeme (index id - intrinsic): fixed when wink adds it.
  let learnedTypes: Array<string | undefined> = []
  /** Make the instance's cache treat every word it learned as unknown (see above). */
  const forgetful = (): void => {
    const cache = rawOf(nlp.readDoc('')).cache as WinkCache & WinkCacheUpdates
    const typeNames = core!.tcat.list
    const lookup = cache.lookup
    const add = cache.add
    const hash = lexemes().hash
    facts = []
    lemmas = new Map()
    learnedTypes = []
    const typeOf = (id: number): string => {
      const k = id - intrinsic
      return learnedTypes[k] ?? (learnedTypes[k] = String(cache.property(id, 'tokenType')))
    }
    // What wink's lookup gives for a vocabulary word, and NOT_VOCABULARY for any other text: a pure function of the
    // text (the vocabulary and its expansions never change), kept per text so that a token costs one Map lookup (a
    // keyed lookup into wink's 100k-key dictionary object interns the string first). Callers only read the arrays.
    const known = new Map<string, readonly number[]>()
    // wink's lexeme hash (text -> id, or -1 when absent), as last read; refreshed where it changes (wink's add and
    // the deletions below), so it always agrees with the hash.
    const ids = new Map<string, number>()
    const idOf = (text: string): number => {
      let id = ids.get(text)
      if (id === undefined) {
        id = hash[text] ?? -1
        if (ids.size >= CACHE_LIMIT) ids.clear()
        ids.set(text, id)
      }
      return id
    }
    // The model's feature functions look up the word being added (`feature.pos`): they see everything.
    let adding = false
    cache.lookup = (text) => {
      const hit = known.get(text)
      if (hit === NOT_VOCABULARY) return adding ? lookup(text) : null
      if (hit !== undefined) return hit as number[]
      const found = lookup(text)
      if (known.size >= CACHE_LIMIT) known.clear()
      if (found !== null && (found.length !== 1 || found[0]! < intrinsic)) {
        known.set(text, found)
        return found
      }
      known.set(text, NOT_VOCABULARY)
      return found === null || adding ? found : null
    }
    const unlearnOther = (text: string, category: number): void => {
      const id = idOf(text)
      if (id >= intrinsic && typeOf(id) !== typeNames[category]) {
        delete hash[text]
        ids.set(text, -1)
      }
    }
    /** The id of `text` when wink's add would change nothing (the word and its lower case are known with this type). */
    const unchanged = (text: string, category: number, lower: string): number | undefined => {
      const id = idOf(text)
      if (id < 0 || (id >= intrinsic && typeOf(id) !== typeNames[category])) return undefined
      if (lower === text) return id
      const lid = idOf(lower)
      if (lid < 0 || (lid >= intrinsic && typeOf(lid) !== typeNames[category])) return undefined
      return id
    }
    cache.add = (text, category) => {
      const lower = text.toLowerCase()
      // Both known with this type: wink would find both and add nothing.
      const same = unchanged(text, category, lower)
      if (same !== undefined) return same
      unlearnOther(text, category)
      if (lower !== text) unlearnOther(lower, category)
      adding = true
      try {
        return add(text, category)
      } finally {
        adding = false
        // wink's add files the text and its lower case in the hash.
        ids.delete(text)
        ids.delete(lower)
      }
    }
  }
  forgetful()
  /** Rebuild the instance once the words it learned take memory. */
  const bound = (): void => {
    if (lexemes().list.length - intrinsic > LEARNED_LIMIT) {
      nlp = winkNLP(wrapped, ['sbd', 'negation', 'pos', 'ner'])
      forgetful()
    }
  }
  const read = (text: string): WinkRawDocument => {
    bound()
    return rawOf(nlp.readDoc(text))
  }

  const stemCache = new Map<string, string>()
  const stemOf = (word: string): string => {
    let s = stemCache.get(word)
    if (s === undefined) {
      s = /^[a-z]+$/.test(word) ? stemmer(word) : word
      if (stemCache.size > CACHE_LIMIT) stemCache.clear()
      stemCache.set(word, s)
    }
    return s
  }
  const factsOf = (id: number, cache: WinkCache): LexemeFacts => {
    const value = cache.value(id)
    const lower = value.toLowerCase()
    const norm = cache.normal(id)
    return {
      value,
      lower,
      stem: stemOf(lower),
      type: String(cache.property(id, 'tokenType')),
      shape: String(cache.property(id, 'shape')),
      normal: cache.value(norm).toLowerCase(),
      stop: cache.property(norm, 'isStopWord') === 1,
    }
  }
  const posNames: string[] = []

  return {
    readRaw(text) {
      return read(text).numOfTokens
    },
    annotate(source, options = {}) {
      const decoded = readReferences(options.html === true ? blankTags(source) : source)
      const clean = webAddressesForWink(decoded.text)
      return build(source, decoded, clean, read(clean), options)
    },
  }

  /**
   * The document of `source` from wink's reading of `clean`: the text as read (`decoded.text`, the same length as
   * `clean`; with `html`, its tags blanked, so that a title or label sliced from it across a tag reads "H&M Profit",
   * not "H&M <b>Profit</b>") is the document's text and holds its UTF-16 offsets; byte offsets are those of `source`.
   */
  function build(source: string, decoded: ReadText, clean: string, rdd: WinkRawDocument, options: AnnotateOptions): AnnotatedDocument {
    const text = decoded.text
    const raw = rdd.tokens
    const cache = rdd.cache
    const n = rdd.numOfTokens
    // Where a position of the text as read stands in `source` (the same position without decoded references).
    const shifts = decoded.shifts
    const sourceAt = (k: number): number => (shifts.length === 0 ? k : sourcePosition(shifts, k))
    /** Bytes of `source` between positions a <= b of the text as read. */
    const bytesBetween = (a: number, b: number): number => utf8Length(source, sourceAt(a), sourceAt(b))

    const tokens: Token[] = []
    // Our index of each wink token (a web address's trailing punctuation becomes tokens of its own, see below).
    let at: Int32Array | undefined
    // Tokens of split-off punctuation that ended a sentence wink did not end (it read the mark as the address's).
    let splitEnds: number[] | undefined
    let pos = 0 // UTF-16 cursor into clean (same positions as `text`)
    let bytePos = 0 // byte cursor into `source`
    let byteAt = 0 // UTF-16 position of `source` bytePos corresponds to
    const advanceBytes = (to: number): number => {
      bytePos += utf8Length(source, byteAt, to)
      byteAt = to
      return bytePos
    }
    // In an ASCII text a UTF-16 offset is a byte offset (while both cursors agree, inside the text).
    let ascii = true
    for (let k = 0; k < source.length; k++) {
      if (source.charCodeAt(k) >= 0x80) {
        ascii = false
        break
      }
    }
    // Without HTML blanking a token found where wink put it is its lexeme's value: no new string.
    const same = clean === text
    for (let i = 0; i < n; i++) {
      const id = raw[i * TK]!
      const w1 = raw[i * TK + 1]!
      const w2 = raw[i * TK + 2]!
      const w3 = raw[i * TK + 3]!
      let f = facts[id]
      if (f === undefined) f = facts[id] = factsOf(id, cache)
      const contraction = w1 > 65535
      const posIndex = (w2 & POS_MASK) >>> BITS_LEMMA
      const posName = posNames[posIndex] ?? (posNames[posIndex] = cache.valueOf('pos', posIndex))
      let normal = f.normal
      let stop = f.stop
      let lemma: string
      if (contraction) {
        const nox = cache.nox(w1)
        normal = cache.value(nox).toLowerCase()
        stop = cache.property(nox, 'isStopWord') === 1
        lemma = ((cache.value(w2 & LEMMA_MASK) as string | undefined) ?? normal).toLowerCase()
      } else {
        const key = id * 64 + posIndex
        const known = lemmas.get(key)
        if (known !== undefined) lemma = known
        else {
          // wink has no lemma for some tokens ("cannot" before punctuation): the normal form stands in, as before.
          lemma = ((lemmaOf(i, rdd, addons) as string | null | undefined) ?? normal).toLowerCase()
          lemmas.set(key, lemma)
        }
      }
      const spaces = w1 & PS_MASK
      const pre = spaces < 0xffff ? spaces : (rdd.nonBreakingSpaces[i] ?? '').length
      const value = f.value
      let start = pos + pre
      const inPlace = clean.startsWith(value, start)
      if (!inPlace) {
        // wink occasionally normalises spacing; fall back to searching forward.
        const found = clean.indexOf(value, pos)
        start = found >= 0 ? found : start
      }
      const end = Math.min(start + value.length, clean.length)
      pos = end
      const sourceStart = sourceAt(start)
      const sourceEnd = sourceAt(end)
      let byteOffset: number
      let byteEnd: number
      if (ascii && bytePos === byteAt && sourceStart <= source.length) {
        byteOffset = sourceStart
        byteEnd = sourceEnd
        bytePos = byteAt = sourceEnd
      } else {
        byteOffset = advanceBytes(sourceStart)
        byteEnd = advanceBytes(sourceEnd)
      }
      const token: Token = {
        index: tokens.length,
        text: inPlace && same ? value : text.slice(start, end),
        normal,
        lemma,
        stem: f.stem,
        pos: posName,
        kind: f.type,
        shape: f.shape,
        start,
        end,
        byteOffset,
        byteLength: byteEnd - byteOffset,
        sentence: 0,
        negated: w3 >= NEGATION_FLAG,
        isStopWord: stop,
        spaceBefore: pre > 0,
      }
      if (at !== undefined) at[i] = tokens.length
      if (f.type !== 'url' || (same && !TRAILING_MARKS.test(value))) {
        tokens.push(token)
        continue
      }
      // A web address: wink reads the marks that end a sentence or clause after it as part of it
      // ("see https://example.com/a." gives "https://example.com/a."), and a placeholder stands in the text it read
      // for the addresses it does not recognise (see webAddressesForWink). The address keeps its own text; the
      // marks become punctuation tokens, one per run of one mark.
      const marks = trailingMarks(token.text)
      const core = token.text.slice(0, token.text.length - marks.length)
      const lower = core.toLowerCase()
      // The marks' bytes in the source: one each, unless a decoded reference stands among them ("&quot;").
      const ownEnd = token.end - marks.length
      const own = token.text !== value || marks !== ''
        ? { ...token, text: core, end: ownEnd, byteLength: token.byteLength - bytesBetween(ownEnd, token.end), normal: lower, lemma: lower, stem: stemOf(lower), isStopWord: false }
        : token
      if (marks === '') {
        tokens.push(own)
        continue
      }
      if (at === undefined) {
        at = new Int32Array(n + 1)
        for (let k = 0; k <= i; k++) at[k] = k
      }
      tokens.push(own)
      let from = own.end
      let byteFrom = own.byteOffset + own.byteLength
      for (const run of marks.match(/(.)\1*/gu) ?? []) {
        const byteLength = bytesBetween(from, from + run.length)
        tokens.push({
          index: tokens.length, text: run, normal: run, lemma: run, stem: run, pos: 'PUNCT', kind: 'punctuation', shape: run,
          start: from, end: from + run.length, byteOffset: byteFrom, byteLength, sentence: 0, negated: false,
          isStopWord: false, spaceBefore: false,
        })
        from += run.length
        byteFrom += byteLength
      }
      if (/[.!?]/.test(marks)) (splitEnds ??= []).push(tokens.length - 1)
    }
    if (at !== undefined) at[n] = tokens.length

    // wink's sentences are contiguous, inclusive token ranges; it has none for a text without tokens.
    const ours = (k: number): number => (at === undefined ? k : at[k]!)
    let ranges: Array<readonly [number, number]> = n > 0 ? rdd.sentences.map((s) => [ours(s[0]), ours(s[1] + 1)] as const) : []
    if (splitEnds !== undefined) ranges = splitAfter(tokens, ranges, splitEnds)
    if (options.oneSentence === true || ranges.length === 0) ranges = [[0, tokens.length]]
    else ranges = joinBrokenSentences(tokens, ranges)
    const sentences: Sentence[] = []
    for (const [ts, te] of ranges) {
      // Skip leading/trailing whitespace tokens (tabCRLF) when computing the span.
      let a = ts
      let b = te
      while (a < b && tokens[a]?.kind === 'tabCRLF') a++
      while (b > a && tokens[b - 1]?.kind === 'tabCRLF') b--
      const first = tokens[a]
      const last = tokens[b - 1]
      const index = sentences.length
      for (let k = ts; k < te; k++) {
        const t = tokens[k]
        if (t !== undefined) (t as { sentence: number }).sentence = index
      }
      const start = first?.start ?? 0
      const end = last?.end ?? start
      const byteOffset = first?.byteOffset ?? 0
      const byteEnd = last !== undefined ? last.byteOffset + last.byteLength : byteOffset
      sentences.push({ index, tokenStart: ts, tokenEnd: te, start, end, byteOffset, byteLength: byteEnd - byteOffset, text: text.slice(start, end) })
    }

    const patterns: PatternSpan[] = []
    if (n > 0) {
      for (const e of rdd.entities) {
        const tokenStart = ours(e[0])
        const tokenEnd = ours(e[1]) + 1
        const a = tokens[tokenStart]
        const b = tokens[tokenEnd - 1]
        if (a === undefined || b === undefined) continue
        patterns.push({ type: String(e[2]), tokenStart, tokenEnd, text: text.slice(a.start, b.end) })
      }
    }
    return { text, tokens, sentences, patterns }
  }
}

/** Bytes of UTF-8 needed for text[from, to). Surrogate pairs count 4 bytes. */
export function utf8Length(text: string, from = 0, to = text.length): number {
  let n = 0
  for (let i = from; i < to; i++) {
    const c = text.charCodeAt(i)
    if (c < 0x80) n += 1
    else if (c < 0x800) n += 2
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < to) {
      n += 4
      i++
    } else n += 3
  }
  return n
}

/**
 * Replace every HTML tag, comment, script and style block by spaces of the same UTF-16 length (a block-level tag
 * by a newline and spaces), so that every offset in the blanked text is the same offset in the original. Character
 * references are left to {@link readReferences}.
 */
export function blankTags(text: string): string {
  const pad = (m: string): string => (m.includes('\n') ? m.replace(/[^\n]/g, ' ') : ' '.repeat(m.length))
  return text
    .replace(/<(script|style)\b[\s\S]*?<\/\1\s*>/gi, pad)
    .replace(/<!--[\s\S]*?-->/g, pad)
    .replace(/<\/?[a-zA-Z][^<>]*>/g, (m) => {
      // Block-level tags end a sentence: keep a newline in the padding so wink splits there.
      const block = /^<\/?(p|div|br|li|ul|ol|h[1-6]|tr|td|th|table|section|article|blockquote)\b/i.test(m)
      return block ? '\n' + ' '.repeat(m.length - 1) : ' '.repeat(m.length)
    })
}

/** A text with its character references read as the characters they stand for (see {@link readReferences}). */
export interface ReadText {
  /** The text as read. */
  readonly text: string
  /**
   * Per reference read, in text order, two numbers: where its character ends in the text as read, and how many
   * characters longer the text as written is up to there (the references' lengths less their characters'). Empty
   * when none was read: the text as read is then the text itself.
   */
  readonly shifts: readonly number[]
}

const NO_SHIFTS: readonly number[] = Object.freeze([])

/**
 * The character(s) a character reference stands for, as HTML5 reads a reference with its semicolon (the `entities`
 * package): every name of HTML's table ("&hellip;", "&eacute;", "&AMP;"), and numbers, 128-159 as windows-1252
 * ("it&#146;s" is "it’s"); a non-breaking space reads as a space. Undefined, so that the reference stays as written,
 * for a name HTML does not have ("&notaname;") and for what no text should hold: NUL, a surrogate or a number past
 * Unicode (which HTML reads as U+FFFD, so "&#xFFFD;" itself stays too), another control character but tab and line
 * breaks, and noncharacters.
 */
function referenceCharacter(written: string): string | undefined {
  const read = decodeHTMLStrict(written)
  if (read === written) return undefined
  const cp = read.codePointAt(0) ?? 0
  if (cp === 0xfffd || (cp < 0x20 && cp !== 9 && cp !== 10 && cp !== 13) || (cp >= 0x7f && cp <= 0x9f)) return undefined
  if ((cp >= 0xfdd0 && cp <= 0xfdef) || (cp & 0xfffe) === 0xfffe) return undefined
  return read === '\u00a0' ? ' ' : read
}

/** A character reference, numeric (decimal or hexadecimal) or named, with its semicolon (see {@link referenceCharacter}). */
const REFERENCE = /&(?:#[xX][0-9a-fA-F]{1,6}|#[0-9]{1,7}|[a-zA-Z][a-zA-Z0-9]{1,31});/g

/** Characters that cannot stand in a web address as {@link webAddressesForWink} reads one: a reference to one ends it. */
const ENDS_ADDRESS = /[\s<>"`]/

/** Characters a run of non-space characters holding a web address cannot run back past (see {@link insideWebAddress}). */
const BREAKS_RUN = /[\s<>"'`(\[{]/

/**
 * The text with its character references read as the characters they stand for (see {@link referenceCharacter}); any
 * other stays as written, and so does one inside a web address ("https://example.com/?q=1&amp;page=2": it is the
 * address's own text), unless its character would end the address ("&quot;", "&lt;", a space). In HTML, `text` is
 * the text with its tags blanked ({@link blankTags}), so that "&lt;b&gt;" is text, not a tag. Scrapers and the Twitter
 * API leave references in plain text ("H&amp;M", "it&#39;s", "&lt;3"), and HTML holds them.
 */
export function readReferences(text: string): ReadText {
  if (!text.includes('&')) return { text, shifts: NO_SHIFTS }
  let read = ''
  let from = 0
  let longer = 0
  // The position after the last reference read as a character a web address's run cannot run back past.
  let runFloor = 0
  let shifts: number[] | undefined
  for (const m of text.matchAll(REFERENCE)) {
    const at = m.index
    const ch = referenceCharacter(m[0])
    if (ch === undefined) continue
    if (!ENDS_ADDRESS.test(ch) && insideWebAddress(text, at, runFloor)) continue
    read += text.slice(from, at) + ch
    from = at + m[0].length
    longer += m[0].length - ch.length
    ;(shifts ??= []).push(read.length, longer)
    if (BREAKS_RUN.test(ch)) runFloor = from
  }
  if (shifts === undefined) return { text, shifts: NO_SHIFTS }
  return { text: read + text.slice(from), shifts }
}

/** Where position `k` of a text as read (see {@link ReadText}) stands in the text as written. */
export function sourcePosition(shifts: readonly number[], k: number): number {
  // The last reference whose character ends at or before k (binary search over the pairs).
  let lo = 0
  let hi = shifts.length / 2
  while (lo < hi) {
    const mid = (lo + hi) >>> 1
    if (shifts[mid * 2]! <= k) lo = mid + 1
    else hi = mid
  }
  return lo === 0 ? k : k + shifts[lo * 2 - 1]!
}

/** Characters a web address holding a character reference may run before it, at most (bounds the scan back). */
const ADDRESS_SCAN = 2048

/**
 * Whether position `at` of `text` continues a run of non-space characters that opens as a web address does. The run
 * starts at `runFloor` at the earliest (after a reference read as a quote or a space).
 */
function insideWebAddress(text: string, at: number, runFloor = 0): boolean {
  let start = at
  const floor = Math.max(runFloor, at - ADDRESS_SCAN)
  while (start > floor && !BREAKS_RUN.test(text[start - 1]!)) start--
  if (start === at || (start === floor && floor > runFloor)) return false
  return OPENS_ADDRESS.test(text.slice(start, at))
}

/** Marks that end a sentence or a clause, and closing brackets, when they end a web address as wink reads it. */
const TRAILING_MARKS = /[.,;:!?'")\]}]$/

/**
 * The marks at the end of a web address that are no part of it: a run of `.,;:!?'"` and closing brackets, except a
 * closing bracket that closes one opened inside the address ("https://en.wikipedia.org/wiki/Foo_(bar)").
 */
export function trailingMarks(address: string): string {
  let k = address.length
  while (k > 0) {
    const c = address[k - 1]!
    if (/[.,;:!?'"]/.test(c)) k--
    else if (c === ')' || c === ']' || c === '}') {
      const open = c === ')' ? '(' : c === ']' ? '[' : '{'
      const inside = address.slice(0, k - 1)
      if (inside.split(open).length - 1 > inside.split(c).length - 1) break
      k--
    } else break
  }
  return address.slice(k)
}

/**
 * Web addresses wink does not read as one token: with a scheme and a host that does not end in a dot and two letters or
 * more ("http://localhost:8080/admin", "http://url_removed", "http://192.168.0.1/admin", "https://a.b/c"), or without a
 * scheme, from "www." ("www.example.com/pricing"): wink splits them into words
 * ("http", "localhost", "www", "com") that became themes and hid the address from the URL entities. Each is replaced,
 * in the text wink reads, by a placeholder address of the same length that it does read as one ("http://aaaa.co"), so
 * every offset stays the text's; the token then takes its text, and its forms, from the text itself (see build).
 * Addresses shorter than a placeholder can be (11 characters) are left as they are.
 */
export function webAddressesForWink(text: string): string {
  if (!text.includes('://') && !/www\./i.test(text)) return text
  return text.replace(WEB_ADDRESS, (m: string) => {
    const core = m.slice(0, m.length - trailingMarks(m).length)
    const scheme = /^[a-z][a-z0-9+.-]*:\/\//i.exec(core)
    if (scheme !== null) {
      const host = core.slice(scheme[0].length).split(/[/:?#]/, 1)[0] ?? ''
      // wink reads an address whose host ends in a dot and two letters or more ("example.co.uk", "bücher.de").
      if (/\.\p{L}{2,}$/u.test(host) || host === '') return m
    }
    if (core.length < 11) return m
    return 'http://' + 'a'.repeat(core.length - 10) + '.co' + m.slice(core.length)
  })
}

/** How a web address opens: a scheme, or "www." before a host with a dot. */
const ADDRESS_OPENING = String.raw`(?:(?:https?|ftp):\/\/|www\.(?=[\p{L}\p{N}-]+\.[\p{L}\p{N}]))`

/** A web address as {@link webAddressesForWink} finds it: from its opening to the next space or quote. */
const WEB_ADDRESS = new RegExp(String.raw`(?<![\p{L}\p{N}@._/-])` + ADDRESS_OPENING + '[^\\s<>"`]+', 'giu')

/** A text that starts as a web address does (see {@link insideWebAddress}). */
const OPENS_ADDRESS = new RegExp('^' + ADDRESS_OPENING, 'iu')

/**
 * Split sentence ranges after each token of `ends` (a mark split off a web address) when a capitalised word, a digit or
 * an opening quote follows after a space: wink read the mark as part of the address, so it did not end the sentence.
 */
function splitAfter(tokens: readonly Token[], ranges: ReadonlyArray<readonly [number, number]>, ends: readonly number[]): Array<readonly [number, number]> {
  const cut = new Set<number>()
  for (const e of ends) {
    const next = tokens[e + 1]
    if (next !== undefined && next.spaceBefore && /^[\p{Lu}\p{N}"'“‘(]/u.test(next.text)) cut.add(e + 1)
  }
  const out: Array<readonly [number, number]> = []
  for (const [a, b] of ranges) {
    let from = a
    for (let k = a + 1; k < b; k++) {
      if (cut.has(k)) {
        out.push([from, k])
        from = k
      }
    }
    out.push([from, b])
  }
  return out
}
