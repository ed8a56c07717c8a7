/**
 * Aspect sentiment: the sentiment a text expresses about one thing it mentions (a theme, an entity, a
 * topic hit, a facet), read from the lexicon engine's evidence around that mention rather than from its
 * whole sentence. "Great location, dirty rooms, friendly staff." is positive about the location and the
 * staff and negative about the rooms; "The food was delicious but the service was terribly slow." is
 * positive about the food and negative about the service.
 *
 * One function, {@link aspectMentionScore}, is used by every consumer (through `SentimentResult.aspectSentiment`).
 * Its features ({@link aspectFeatures}) are the engine's scored phrases (after negation, intensification
 * and contrast) weighted by where they stand: inside the mention, in the mention's clause (before or after
 * it, closer counting more), in other clauses of the sentence, across a contrastive conjunction. A
 * multinomial logistic regression over them (negative / neutral / positive), trained deterministically by
 * `bench/train-aspects.ts` on the SemEval-2014 aspect-term training sets, turns them into class likelihoods.
 * The words of the mention's clause and sentence are features too (learned per class), so evaluations the
 * lexicon misses ("the battery died") count; a mention with no evidence at all scores exactly 0 (neutral).
 */
import { readFileSync } from 'node:fs'
import { dataPath, missingDataHint } from '../resources.ts'
import type { AnnotatedDocument, Token } from '../nlp/types.ts'
import { BATCH_DOCUMENTS, RecentCache } from '../nlp/recent-cache.ts'
import { FeatureTable } from '../entities/tagger-hash.ts'
import { packTable, unpackTable } from '../packed-table.ts'

/** A token span [tokenStart, tokenEnd). */
export interface AspectSpan {
  readonly tokenStart: number
  readonly tokenEnd: number
}

/** The lexicon engine's evidence over one document, as aspect sentiment reads it. */
export interface AspectEvidence {
  readonly doc: AnnotatedDocument
  /** Scored phrases (final scores, -1..1), in token order. */
  readonly phrases: readonly { readonly tokenStart: number; readonly tokenEnd: number; readonly sentiment_score: number }[]
  /** First tokens of contrastive conjunctions ("but", "although"). */
  readonly contrastTokens: ReadonlySet<number>
  /** Lexicon score of each sentence. */
  readonly sentenceScores: readonly number[]
}

/** Names of the features, in the order {@link aspectFeatures} returns them. */
export const ASPECT_FEATURES = [
  'inside',
  'clause_weighted',
  'clause_before',
  'clause_after',
  'clause_positive',
  'clause_negative',
  'other_weighted',
  'across_contrast',
  'region_if_clause_empty',
  'nearest',
  'aspect_negated',
  'clause_negated',
  'clause_empty',
  'question',
  'after_contrast',
  'before_contrast',
] as const

/**
 * A model's data as training gives it (`trainAspectModel`), its word table an object. The committed file
 * (`lexicons/en/aspect-model.json`) holds it packed ({@link packAspectModel}); a file of this form loads too.
 */
export interface AspectModelData {
  readonly format: 'textengine-aspect-model/1'
  /** Free-form provenance: data, hyper-parameters. */
  readonly trained: Readonly<Record<string, string | number>>
  readonly features: readonly string[]
  /** Per class (negative, neutral, positive): bias then one weight per feature. */
  readonly weights: readonly (readonly number[])[]
  /** Word of the mention's clause (lemma, `not_` when negated) -> per-class weights. */
  readonly words: Readonly<Record<string, readonly number[]>>
}

/** A mention's features: the dense vector and the words of its clause. */
export interface AspectVector {
  readonly dense: readonly number[]
  readonly words: readonly string[]
  /** Whether the sentence holds a lexicon sentiment phrase. */
  readonly lexicon: boolean
}

/** A model ready to score: weights plus its word table (built once). */
export interface AspectModel {
  /** The model data without its word table (which {@link AspectModel.words} and {@link AspectModel.table} hold). */
  readonly data: Omit<AspectModelData, 'words'>
  /**
   * Word -> its number (`row(word)`, -1 for a word without weights): its per-class weights start at number x classes
   * in {@link AspectModel.table}. The words are numbered in the order of the data's word table.
   */
  readonly words: FeatureTable
  /**
   * Every word's per-class weights, end to end, in the order of the data's word table, each divided by
   * {@link AspectModel.scale} to read it: as round(weight x {@link WEIGHT_SCALE}) when that gives back every weight
   * exactly (a model file's weights have 5 decimals, {@link AspectTrainOptions.decimals}: half the bytes of the
   * doubles), else the doubles themselves.
   */
  readonly table: Int32Array | Float64Array
  /** {@link WEIGHT_SCALE} for an Int32Array table, 1 for a Float64Array (x / 1 is x). */
  readonly scale: number
}

/** The most words per slot of a model's word table (see `createAspectModel`). */
const ASPECT_TABLE_LOAD = 0.75

/** What the weights of an Int32Array word table are multiplied by (see {@link AspectModel.table}). */
export const WEIGHT_SCALE = 1e5

/**
 * `weights` as round(w x {@link WEIGHT_SCALE}), when each reads back as exactly the same double (q / 1e5 is the
 * double nearest to q / 100000, as the parse of the weight's 5 decimals is); undefined when one does not (more
 * decimals, beyond the int32 range, -0), so that no model is ever scored with weights other than its own.
 */
export function quantizedWeights(weights: Float64Array): Int32Array | undefined {
  const q = new Int32Array(weights.length)
  for (let i = 0; i < weights.length; i++) {
    const w = weights[i]!
    q[i] = Math.round(w * WEIGHT_SCALE)
    if (!Object.is(q[i]! / WEIGHT_SCALE, w)) return undefined
  }
  return q
}

/** Build the scoring form of model data. */
export function createAspectModel(data: AspectModelData): AspectModel {
  const classes = data.weights.length
  // for-in visits the keys in Object.entries' order; the loop allocates no [key, value] pair per word (69k words:
  // a share of the engine's cold start). The parsed word object and its 69k arrays of weights are not kept: the
  // weights go into one typed array (measured: the object held about 3 MB of heap, the arrays about 5 MB more).
  const table = data.words
  const flat = new Float64Array(Object.keys(table).length * classes)
  const names: string[] = []
  let at = 0
  for (const word in table) {
    if (!Object.hasOwn(table, word)) continue
    // (The table ends each word with a line feed; no lemma holds one.)
    if (word.includes('\n')) throw new Error(`aspect model: word ${JSON.stringify(word)} holds a line feed`)
    const row = table[word]!
    for (let k = 0; k < classes; k++) flat[at + k] = row[k] ?? 0
    names.push(word)
    at += classes
  }
  const { words: _table, ...rest } = data
  return scoringModel(rest, names, flat)
}

/**
 * The scoring form of a model's header, its words (in the order of its word table) and their weights end to end.
 * `names` as an array or as one string of them each ended by a line feed (the packed file's `words`, read as it is).
 * The words go into a hash table over one string of them all (the tagger's feature table, see FeatureTable): a Map
 * of the 69k words took 3.7 MB of hash table and 1.9 MB of key strings; the engine's retained heap is 4.7 MiB less,
 * its array buffers (the table's typed arrays) 1.3 MiB more. The table's slots may be three quarters full (131,072
 * slots, not 262,144: 1 MB less): a feature's row is looked up once per numbering of the features (see `rowOf`).
 */
function scoringModel(rest: Omit<AspectModelData, 'words'>, names: readonly string[] | string, flat: Float64Array): AspectModel {
  // The weights as integers (0.83 MB instead of 1.66), when they read back exactly.
  const q = quantizedWeights(flat)
  const words = new FeatureTable(names, undefined, undefined, ASPECT_TABLE_LOAD)
  return { data: rest, words, table: q ?? flat, scale: q === undefined ? 1 : WEIGHT_SCALE }
}

/** Format name of the packed weight file ({@link packAspectModel}). */
export const PACKED_ASPECT_FORMAT = 'textengine-aspect-model/2'

/**
 * The weight file of model data (`lexicons/en/aspect-model.json`, written by `bench/train-aspects.ts`): JSON whose
 * word table is packed, `words` one string of the words each ended by a line feed and `wordWeights` their per-class
 * weights end to end, in the table's order (as scaled integers when they have at most 6 decimals, `encodeWeights` in
 * src/packed-table.ts: the trainer's 5 decimals parse in 20 ms where an array of 207k numbers took 54). Read back
 * ({@link loadAspectModel}) it scores exactly as the data. The same words as an object of 69k arrays took the engine's
 * cold start 125 ms to parse, the array 50 (2026-12-06), and the object was only ever read into this form.
 */
export function packAspectModel(data: AspectModelData): string {
  const { names, weights } = packTable(data.words, data.weights.length, 'aspect model: word')
  return JSON.stringify({ format: PACKED_ASPECT_FORMAT, trained: data.trained, features: data.features, weights: data.weights, words: names, wordWeights: weights })
}

// Tokens that end a clause for aspect purposes: punctuation, and subordinating conjunctions ("while", "because").
const CLAUSE_PUNCT = /^[.,;:!?()[\]{}"\u201c\u201d|\u2026\u2013\u2014-]+$/

const isVerb = (t: Token): boolean => t.kind === 'word' && (t.pos === 'VERB' || t.pos === 'AUX')
const isConj = (t: Token): boolean => t.kind === 'word' && t.pos === 'CCONJ'

/** Words either side of a mention kept as positional features. */
const WINDOW = 3

/** Index of the first phrase ending after token `at` (phrases are in token order and do not overlap). */
function firstPhraseEndingAfter(phrases: AspectEvidence['phrases'], at: number): number {
  let lo = 0
  let hi = phrases.length
  while (lo < hi) {
    const mid = (lo + hi) >> 1
    if ((phrases[mid] as AspectEvidence['phrases'][number]).tokenEnd <= at) lo = mid + 1
    else hi = mid
  }
  return lo
}

/** Kinds of word feature of a token (see {@link DocumentFeatures.featureOf}). */
const CLAUSE_WORD = 0
const SENTENCE_WORD = 1
const ASPECT_WORD = 2
const LEFT_WORD = 3
const RIGHT_WORD = 4
const BIGRAM_AFTER_ASPECT = 5
const BIGRAM_BEFORE_ASPECT = 6
const KINDS = 7
/** Marks of the bigram walk of {@link mentionFeatures}: no word yet, or the aspect ("T"). */
const NO_WORD = -2
const THE_ASPECT = -1

/**
 * The word features of every document scored in this process, as numbers: each feature string ("not_" when
 * negated, then the lower-case lemma, under the prefixes of {@link aspectFeatures}) gets a number the first time
 * it is met, and its row in the model's word table is looked up once. A token's features are found by its lemma
 * (a lemma met before costs one `Map` lookup, not a string built and hashed per kind as each document met it), a
 * clause bigram by the numbers of its two words. Numbered afresh (a new generation) when a document starts after
 * {@link FEATURE_NUMBERS_LIMIT} features: it holds the words texts used, not every word ever seen.
 */
interface FeatureNumbers {
  generation: number
  readonly numbers: Map<string, number>
  readonly strings: string[]
  /** Per feature number: the call that last listed it (dedupes a mention's features without a Set). */
  readonly listed: number[]
  call: number
  /** Per lemma (as the token has it): its features' numbers by kind x 2 + negated (-1: not yet numbered). */
  readonly byLemma: Map<string, number[]>
  /** Clause bigrams' numbers, by the number of the first word's clause feature x {@link BIGRAM_KEY} + the second's. */
  readonly bigrams: Map<number, number>
  /** The model the rows below were read from, and each feature's row: its offset in the model's table, -1 when not in it. */
  model: AspectModel | undefined
  rows: (number | undefined)[]
}

/** Features numbered before a new document starts a new numbering (about 5 MB of strings, numbers and rows at most). */
const FEATURE_NUMBERS_LIMIT = 50_000
/** Multiplier of a bigram's first word in its key (above any feature number of one generation and its last document). */
const BIGRAM_KEY = 2 ** 26

const features: FeatureNumbers = newFeatureNumbers(0)

function newFeatureNumbers(generation: number): FeatureNumbers {
  return { generation, numbers: new Map(), strings: [], listed: [], call: 0, byLemma: new Map(), bigrams: new Map(), model: undefined, rows: [] }
}

/**
 * What every mention of one document reads again, made once per document and its contrasts: which tokens end a
 * clause, the contrasts and subordinators of each sentence, whether a sentence asks, and each token's word
 * features as numbers of {@link FeatureNumbers}: a document's themes, entities and categories score many mentions
 * over the same words.
 */
interface DocumentFeatures {
  readonly contrastTokens: ReadonlySet<number>
  /**
   * Per token, two facts each 0 not yet known, 1 yes, 2 no: bits 0-1 whether it ends a clause, bits 2-3 whether it
   * is a word whose lemma has a letter.
   */
  readonly flags: number[]
  /** Per sentence: positions of its contrasts and subordinators, ascending (built on first use). */
  readonly marks: (readonly number[] | undefined)[]
  /** Per sentence: -1 not yet known, 1 a token holds "?", 0 none. */
  readonly question: number[]
  /** Feature number of a token's word feature of a kind, by token x {@link KINDS} + kind (a hole until first used). */
  readonly featureIds: number[]
  /**
   * Clause bigrams' numbers, by their second word's token i (a hole until first used), and the token j of the
   * first word each was made for (the word before i in a clause walk is the same for every mention).
   */
  readonly bigrams: number[]
  readonly bigramFirst: number[]
  /** The numbering these numbers belong to ({@link FeatureNumbers.generation}). */
  readonly generation: number
}

/** The tables of the documents whose mentions were scored last (a batch of documents goes through each analyzer). */
const recentFeatures = new RecentCache<AnnotatedDocument, DocumentFeatures>(BATCH_DOCUMENTS)

function featuresOf(doc: AnnotatedDocument, contrastTokens: ReadonlySet<number>): DocumentFeatures {
  const hit = recentFeatures.get(doc)
  if (hit !== undefined && hit.contrastTokens === contrastTokens && hit.flags.length === doc.tokens.length && hit.generation === features.generation) return hit
  // A new numbering only between documents: the numbers of a mention being scored stay valid.
  if (features.strings.length > FEATURE_NUMBERS_LIMIT) Object.assign(features, newFeatureNumbers(features.generation + 1))
  const n = doc.tokens.length
  // Arrays of numbers, not typed arrays: a typed array of more than 64 bytes is allocated outside the heap, which
  // costs more per document than these tables save.
  const f: DocumentFeatures = {
    contrastTokens,
    flags: new Array<number>(n).fill(0),
    marks: new Array<readonly number[] | undefined>(doc.sentences.length).fill(undefined),
    question: new Array<number>(doc.sentences.length).fill(-1),
    // Holey arrays, sized but not filled: a document's mentions touch a few of its tokens.
    featureIds: new Array<number>(n * KINDS),
    bigrams: new Array<number>(n),
    bigramFirst: new Array<number>(n),
    generation: features.generation,
  }
  recentFeatures.set(doc, f)
  return f
}

function numberOf(s: string): number {
  const g = features
  let id = g.numbers.get(s)
  if (id === undefined) {
    id = g.strings.length
    g.strings.push(s)
    g.listed.push(-1)
    g.numbers.set(s, id)
  }
  return id
}

function isBoundary(f: DocumentFeatures, tokens: readonly Token[], i: number): boolean {
  let b = f.flags[i]! & 3
  if (b === 0) {
    const t = tokens[i] as Token
    b = CLAUSE_PUNCT.test(t.text) || f.contrastTokens.has(t.index) || (t.kind === 'word' && t.pos === 'SCONJ') ? 1 : 2
    f.flags[i] = f.flags[i]! | b
  }
  return b === 1
}

function isLetterWord(f: DocumentFeatures, tokens: readonly Token[], i: number): boolean {
  let l = f.flags[i]! >> 2
  if (l === 0) {
    const t = tokens[i] as Token
    l = t.kind === 'word' && /\p{L}/u.test(t.lemma) ? 1 : 2
    f.flags[i] = f.flags[i]! | (l << 2)
  }
  return l === 1
}

/** `not_` when negated, then the lower-case lemma. */
function wordKey(t: Token): string {
  return (t.negated ? 'not_' : '') + t.lemma.toLowerCase()
}

/** The number of token i's word feature of a kind (`s:word`, `a:lemma`, `L:word`, `b:T_word`, `b:word_T`, ...). */
function featureOf(f: DocumentFeatures, tokens: readonly Token[], i: number, kind: number): number {
  const at = i * KINDS + kind
  let id = f.featureIds[at]
  if (id === undefined) {
    const t = tokens[i] as Token
    // The same lemma and negation make the same string under each kind (the aspect's own word ignores negation).
    let byKind = features.byLemma.get(t.lemma)
    if (byKind === undefined) {
      byKind = new Array<number>(KINDS * 2).fill(-1)
      features.byLemma.set(t.lemma, byKind)
    }
    const slot = kind * 2 + (t.negated && kind !== ASPECT_WORD ? 1 : 0)
    id = byKind[slot]!
    if (id < 0) {
      let s: string
      if (kind === CLAUSE_WORD) s = wordKey(t)
      else if (kind === SENTENCE_WORD) s = 's:' + wordKey(t)
      else if (kind === ASPECT_WORD) s = 'a:' + t.lemma.toLowerCase()
      else if (kind === LEFT_WORD) s = 'L:' + wordKey(t)
      else if (kind === RIGHT_WORD) s = 'R:' + wordKey(t)
      else if (kind === BIGRAM_AFTER_ASPECT) s = 'b:T_' + wordKey(t)
      else s = 'b:' + wordKey(t) + '_T'
      id = byKind[slot] = numberOf(s)
    }
    f.featureIds[at] = id
  }
  return id
}

/** The number of the clause bigram `b:word(j)_word(i)`. */
function bigramOf(f: DocumentFeatures, tokens: readonly Token[], j: number, i: number): number {
  let id = f.bigramFirst[i] === j ? f.bigrams[i] : undefined
  if (id === undefined) {
    // The two words by the numbers of their clause features (whose strings are their word keys).
    const a = featureOf(f, tokens, j, CLAUSE_WORD)
    const b = featureOf(f, tokens, i, CLAUSE_WORD)
    const key = a * BIGRAM_KEY + b
    id = features.bigrams.get(key)
    if (id === undefined) {
      id = numberOf('b:' + features.strings[a]! + '_' + features.strings[b]!)
      features.bigrams.set(key, id)
    }
    f.bigrams[i] = id
    f.bigramFirst[i] = j
  }
  return id
}

/** Contrasts and subordinators of a sentence ("but", "while", "because"), ascending. */
function marksOf(f: DocumentFeatures, tokens: readonly Token[], sentence: number, sStart: number, sEnd: number): readonly number[] {
  let m = f.marks[sentence]
  if (m === undefined) {
    const list: number[] = []
    for (let i = sStart; i < sEnd; i++) {
      const t = tokens[i] as Token
      if (f.contrastTokens.has(i) || (t.kind === 'word' && t.pos === 'SCONJ')) list.push(i)
    }
    m = f.marks[sentence] = list
  }
  return m
}

/**
 * Whether token `k` is a coordinating conjunction between two clauses: a verb between it and the boundary before
 * it, and a subject followed by a verb between it and the boundary after it (the conjunction is not directly
 * followed by the verb, as in "the staff smiled and helped").
 */
function joinsClauses(f: DocumentFeatures, tokens: readonly Token[], k: number, sStart: number, sEnd: number): boolean {
  const t = tokens[k] as Token
  if (!isConj(t)) return false
  let verbBefore = false
  for (let i = k - 1; i >= sStart; i--) {
    const u = tokens[i] as Token
    if (isBoundary(f, tokens, i) || isConj(u)) break
    if (isVerb(u)) {
      verbBefore = true
      break
    }
  }
  if (!verbBefore) return false
  const next = tokens[k + 1]
  if (next === undefined || isVerb(next)) return false
  for (let i = k + 2; i < sEnd; i++) {
    const u = tokens[i] as Token
    if (isBoundary(f, tokens, i) || isConj(u)) break
    if (isVerb(u)) return true
  }
  return false
}

/** A mention's features with its words as numbers of {@link FeatureNumbers}. */
interface MentionFeatures {
  readonly dense: readonly number[]
  readonly ids: readonly number[]
  readonly lexicon: boolean
}

/**
 * Features of one mention: the dense vector (see {@link ASPECT_FEATURES}) and the words of its clause
 * (lemmas, `not_` when negated), of the rest of its sentence (`s:` prefix), the aspect's own words (`a:`), the
 * three words either side of it (`L:`, `R:`) and the bigrams of its clause (`b:`); undefined for a span
 * outside the document.
 */
export function aspectFeatures(ev: AspectEvidence, whole: AspectSpan): AspectVector | undefined {
  const x = mentionFeatures(ev, whole)
  if (x === undefined) return undefined
  const strings = features.strings
  return { dense: x.dense, words: x.ids.map((id) => strings[id]!), lexicon: x.lexicon }
}

function mentionFeatures(ev: AspectEvidence, whole: AspectSpan): MentionFeatures | undefined {
  const { doc, phrases, contrastTokens } = ev
  // The aspect is the span less the sentiment phrases it opens with: in the theme "dirty rooms" the
  // aspect is "rooms" and "dirty" the word that evaluates it (as in the training data's "dirty $T$").
  let coreStart = whole.tokenStart
  for (let pi = firstPhraseEndingAfter(phrases, whole.tokenStart); pi < phrases.length; pi++) {
    const p = phrases[pi] as AspectEvidence['phrases'][number]
    if (p.tokenStart === coreStart && p.tokenEnd < whole.tokenEnd) coreStart = p.tokenEnd
    else if (p.tokenStart > coreStart) break
  }
  const span = { tokenStart: coreStart, tokenEnd: whole.tokenEnd }
  const tokens = doc.tokens
  const first = tokens[span.tokenStart]
  if (first === undefined) return undefined
  const sentence = doc.sentences[first.sentence]
  if (sentence === undefined) return undefined
  const f = featuresOf(doc, contrastTokens)
  const sStart = sentence.tokenStart
  const sEnd = sentence.tokenEnd
  // Clause of the mention: back and forward to the nearest boundary; a coordinating conjunction is one when
  // it joins two clauses, each with its own verb ("OpenAI had a strong quarter and Tesla fell 4%"), not when
  // it joins two words or phrases ("clean and spacious rooms", "the food and the service were great").
  let cStart = span.tokenStart
  while (cStart > sStart && !isBoundary(f, tokens, cStart - 1) && !joinsClauses(f, tokens, cStart - 1, sStart, sEnd)) cStart--
  let cEnd = span.tokenEnd
  while (cEnd < sEnd && !isBoundary(f, tokens, cEnd) && !joinsClauses(f, tokens, cEnd, sStart, sEnd)) cEnd++
  // Contrasts and subordinators ("while", "because") before and after the mention, within the sentence.
  let contrastBefore = -1
  let contrastAfter = -1
  for (const i of marksOf(f, tokens, first.sentence, sStart, sEnd)) {
    if (i < span.tokenStart) contrastBefore = i
    else if (i >= span.tokenEnd && contrastAfter < 0) contrastAfter = i
  }
  // The mention's region: the sentence between the contrasts or subordinators around it.
  const rStart = contrastBefore >= 0 ? contrastBefore + 1 : sStart
  const rEnd = contrastAfter >= 0 ? contrastAfter : sEnd
  let region = 0
  let inside = 0
  let clauseW = 0
  let before = 0
  let after = 0
  let pos = 0
  let neg = 0
  let otherW = 0
  let across = 0
  let nearest = 0
  let nearestD = Infinity
  let phrasesInSentence = 0
  for (let pi = firstPhraseEndingAfter(phrases, sStart); pi < phrases.length; pi++) {
    const p = phrases[pi] as AspectEvidence['phrases'][number]
    if (p.tokenStart >= sEnd) break
    phrasesInSentence++
    const s = p.sentiment_score
    if (p.tokenStart >= rStart && p.tokenEnd <= rEnd) region += s
    if (p.tokenStart < span.tokenEnd && p.tokenEnd > span.tokenStart) {
      inside += s
      if (0 < nearestD) {
        nearestD = 0
        nearest = s
      }
      continue
    }
    const d = p.tokenEnd <= span.tokenStart ? span.tokenStart - p.tokenEnd : p.tokenStart - span.tokenEnd
    const w = 1 / (1 + d)
    const inRegion = p.tokenStart >= rStart && p.tokenEnd <= rEnd
    if (d < nearestD && inRegion) {
      nearestD = d
      nearest = s
    }
    if (p.tokenStart >= cStart && p.tokenEnd <= cEnd) {
      clauseW += s * w
      if (p.tokenEnd <= span.tokenStart) before += s
      else after += s
      if (s > 0) pos += s
      else neg += s
    } else {
      if (!inRegion) across += s * w
      else otherW += s * w
    }
  }
  let aspectNegated = 0
  for (let i = span.tokenStart; i < span.tokenEnd; i++) if ((tokens[i] as Token).negated) aspectNegated = 1
  let clauseNegated = 0
  for (let i = cStart; i < cEnd; i++) if ((tokens[i] as Token).negated) clauseNegated = 1
  let question = f.question[first.sentence]!
  if (question < 0) {
    question = 0
    for (let i = sStart; i < sEnd; i++) if ((tokens[i] as Token).text.includes('?')) question = 1
    f.question[first.sentence] = question
  }
  const clauseEmpty = pos === 0 && neg === 0 && inside === 0 ? 1 : 0
  // The mention's word features, each once, in the order first met.
  const call = ++features.call
  const listed = features.listed
  const ids: number[] = []
  const add = (id: number): void => {
    if (listed[id] === call) return
    listed[id] = call
    ids.push(id)
  }
  for (let i = cStart; i < cEnd; i++) {
    if (i >= span.tokenStart && i < span.tokenEnd) continue
    if (isLetterWord(f, tokens, i)) add(featureOf(f, tokens, i, CLAUSE_WORD))
  }
  // Words of the rest of the region, marked as such, when the clause holds no lexicon evidence of its own.
  for (let i = rStart; i < rEnd && clauseEmpty === 1; i++) {
    if (i >= cStart && i < cEnd) continue
    if (isLetterWord(f, tokens, i)) add(featureOf(f, tokens, i, SENTENCE_WORD))
  }
  // The aspect's own words ("a:" prefix: some things are mostly complained about, e.g. "price" or "wait") and the
  // three words either side of it within the sentence ("L:"/"R:", lemma, "not_" when negated: "dirty rooms",
  // "rooms were dirty").
  for (let i = span.tokenStart; i < span.tokenEnd; i++) if (isLetterWord(f, tokens, i)) add(featureOf(f, tokens, i, ASPECT_WORD))
  for (let i = span.tokenStart - 1, k = 0; i >= sStart && k < WINDOW; i--) {
    if ((tokens[i] as Token).kind !== 'word') continue
    add(featureOf(f, tokens, i, LEFT_WORD))
    k++
  }
  for (let i = span.tokenEnd, k = 0; i < sEnd && k < WINDOW; i++) {
    if ((tokens[i] as Token).kind !== 'word') continue
    add(featureOf(f, tokens, i, RIGHT_WORD))
    k++
  }
  // Bigrams of the clause with the aspect standing as "T" ("b:T_be", "b:be_slow", "b:not_worth"): the word order a
  // bag of words loses (5-fold CV of the training sets with item i in fold i mod 5, restaurants/laptops
  // 75.7/70.7 -> 76.4/71.7; not remeasured with the folds by sentence).
  let prev = NO_WORD
  for (let i = cStart; i < cEnd; i++) {
    const inAspect = i >= span.tokenStart && i < span.tokenEnd
    if ((tokens[i] as Token).kind !== 'word' && !inAspect) continue
    if (inAspect) {
      if (prev === THE_ASPECT) continue
      if (prev !== NO_WORD) add(featureOf(f, tokens, prev, BIGRAM_BEFORE_ASPECT))
      prev = THE_ASPECT
    } else {
      if (prev === THE_ASPECT) add(featureOf(f, tokens, i, BIGRAM_AFTER_ASPECT))
      else if (prev !== NO_WORD) add(bigramOf(f, tokens, prev, i))
      prev = i
    }
  }
  const dense = [
    inside,
    clauseW,
    before,
    after,
    pos,
    neg,
    otherW,
    across,
    clauseEmpty * (region / Math.sqrt(region * region + 1)),
    nearest,
    aspectNegated,
    clauseNegated,
    clauseEmpty,
    question,
    contrastBefore >= 0 ? 1 : 0,
    contrastAfter >= 0 ? 1 : 0,
  ]
  return { dense, ids, lexicon: phrasesInSentence > 0 }
}

/**
 * Softmax over the classes of: each class's bias and dense weights, plus the word rows of `table` (divided by
 * `scale`) starting at `rowOf(0..count-1)` in that order (-1: a word without weights); and whether any word had
 * weights.
 */
function likelihoods(
  weights: readonly (ArrayLike<number>)[],
  dense: readonly number[],
  count: number,
  table: Int32Array | Float64Array,
  scale: number,
  rowOf: (i: number) => number,
): { p: number[]; known: boolean } {
  const classes = weights.length
  const z = new Array<number>(classes)
  for (let k = 0; k < classes; k++) {
    const row = weights[k]!
    let s = row[0] ?? 0
    for (let i = 0; i < dense.length; i++) s += (row[i + 1] ?? 0) * (dense[i] ?? 0)
    z[k] = s
  }
  // Each class adds its word weights in the words' order.
  let known = false
  for (let i = 0; i < count; i++) {
    const row = rowOf(i)
    if (row < 0) continue
    known = true
    for (let k = 0; k < classes; k++) z[k] = z[k]! + table[row + k]! / scale
  }
  let m = -Infinity
  for (let k = 0; k < classes; k++) m = Math.max(m, z[k]!)
  const e = new Array<number>(classes)
  let t = 0
  for (let k = 0; k < classes; k++) {
    e[k] = Math.exp(z[k]! - m)
    t += e[k]!
  }
  for (let k = 0; k < classes; k++) e[k] = e[k]! / t
  return { p: e, known }
}

/** The per-class weights of `word` in the model (as its data gave them), or undefined for a word without weights. */
export function aspectWordWeights(model: AspectModel, word: string): number[] | undefined {
  const e = model.words.row(word)
  if (e < 0) return undefined
  const classes = model.data.weights.length
  return Array.from(model.table.subarray(e * classes, (e + 1) * classes), (x) => x / model.scale)
}

/** Where a feature's row starts in the model's word table, looked up once per document (-1 when the table has none). */
function rowOf(model: AspectModel, id: number): number {
  const g = features
  if (g.model !== model) {
    g.model = model
    g.rows = []
  }
  let row = g.rows[id]
  if (row === undefined) {
    const e = model.words.row(g.strings[id]!)
    row = g.rows[id] = e < 0 ? -1 : e * model.data.weights.length
  }
  return row
}

/** Degree words that make an evaluative noun a mention of its own ("a real treat", "a total disaster", "a huge letdown"). */
const DEGREE_WORDS: ReadonlySet<string> = new Set(['real', 'total', 'complete', 'absolute', 'utter', 'pure', 'sheer', 'true', 'major', 'big', 'huge', 'massive', 'serious', 'minor', 'slight', 'little'])

/**
 * The score of a mention that is itself an evaluation: degree words and an evaluative noun ("a real treat", "a total
 * disaster", "an absolute delight"), scored as the lexicon scores that noun (after negation and the degree word), whatever
 * its clause says of other things ("Wonderland at Bellagio - a total disaster!" was neutral about the disaster). The
 * training data's aspects are things evaluated, never evaluations. Undefined for any other mention: a noun alone or after
 * other words is left to the model ("customer support", "horrible support", where "support" is a lexicon word too).
 */
function evaluativeHead(ev: AspectEvidence, span: AspectSpan): number | undefined {
  if (span.tokenEnd - span.tokenStart < 2) return undefined
  const tokens = ev.doc.tokens
  for (let k = span.tokenStart; k < span.tokenEnd - 1; k++) if (!DEGREE_WORDS.has(tokens[k]?.normal ?? '')) return undefined
  const { phrases } = ev
  for (let pi = firstPhraseEndingAfter(phrases, span.tokenEnd - 1); pi < phrases.length; pi++) {
    const p = phrases[pi] as AspectEvidence['phrases'][number]
    if (p.tokenStart >= span.tokenEnd) break
    if (p.tokenEnd === span.tokenEnd && p.tokenStart === span.tokenEnd - 1 && p.sentiment_score !== 0) return Math.max(-1, Math.min(1, p.sentiment_score))
  }
  return undefined
}

/**
 * Without a lexicon phrase in its sentence, a mention is polar only when the words alone make a polar class
 * this likely ("The battery died after a week" is; "Chief Justice Roberts read Miss Marple" is not).
 * Chosen on the 5-fold CV of the training sets (0.55: restaurants/laptops 71.4/67.0 against 72.6/69.3 with no
 * such floor, but no polarity from words like "watch" or "read" in texts without evaluative evidence).
 */
export const WORDS_ONLY_CONFIDENCE = 0.55

/**
 * Score of one mention, -1..1 (not rounded): exactly 0 without evidence (no lexicon phrase in its sentence
 * and no word the model has weights for, or words that make no polar class {@link WORDS_ONLY_CONFIDENCE}
 * likely) or when the model's most likely class is neutral, else the positive minus the negative likelihood.
 */
export function aspectMentionScore(model: AspectModel, ev: AspectEvidence, span: AspectSpan, options: { readonly wordsOnly?: boolean } = {}): number {
  const own = evaluativeHead(ev, span)
  if (own !== undefined) return own
  const x = mentionFeatures(ev, span)
  if (x === undefined) return 0
  // A name (`wordsOnly: false`) takes a polarity only from evaluative words of the lexicon in its sentence: the
  // words-only polarity was learnt on reviews of restaurants and laptops, where "visited" or "lives" lean positive
  // ("Microsoft CEO Satya Nadella visited Paris on Monday" gave Nadella +0.44).
  if (!x.lexicon && options.wordsOnly === false) return 0
  const { ids } = x
  const { p, known } = likelihoods(model.data.weights, x.dense, ids.length, model.table, model.scale, (i) => rowOf(model, ids[i]!))
  if (!x.lexicon && !known) return 0
  const [neg = 0, neu = 0, pos = 0] = p
  if (neu >= pos && neu >= neg) return 0
  if (!x.lexicon && Math.max(pos, neg) < WORDS_ONLY_CONFIDENCE) return 0
  return pos - neg
}

/** Options of {@link trainAspectModel}. */
export interface AspectTrainOptions {
  /** L2 penalty on dense weights, per example. @defaultValue 0.0003 */
  readonly l2?: number
  /**
   * L2 penalty on word weights, per example, before the NB scaling of {@link AspectTrainOptions.nbBeta}.
   * @defaultValue 0.0006 (chosen with the NB scaling on the 5-fold CV of the training sets, aspects of a sentence in
   * one fold, see {@link NB_BETA}. Without the NB scaling, item i in fold i mod 5:
   * 0.003 gave 72.0/68.2, 0.001 74.8/69.7, 0.0003 75.3/71.0, 0.0001 74.6/70.5; with the clause bigrams 0.0002
   * 76.1/71.3, 0.0006 75.8/72.0)
   */
  readonly l2Words?: number
  /**
   * A word enters the vocabulary when seen in this many training mentions. @defaultValue 1 (5-fold CV with the
   * aspects of a sentence in one fold, restaurants/laptops: 3 gave 72.3/67.1, 2 73.3/68.0, 1 73.5/68.7)
   */
  readonly minCount?: number
  /**
   * Naive-Bayes-scaled word penalty (as in NBSVM, Wang and Manning 2012): the L2 penalty of word j in class k is
   * `l2Words * exp(-nbBeta * |r_jk|)`, r_jk the log-count ratio of the word in class k against the other classes
   * (add-one smoothed), so words whose counts favour a class are penalised less. 0 gives one penalty for all words.
   * @defaultValue see {@link trainAspectModel}
   */
  readonly nbBeta?: number
  /** Full-batch gradient steps. @defaultValue 600 */
  readonly iterations?: number
  /** Step size (Adam). @defaultValue 0.05 */
  readonly learningRate?: number
  /** Decimals of the written weights. @defaultValue 5 */
  readonly decimals?: number
  /** Weight of each example in the loss (normalised by their sum). @defaultValue 1 each */
  readonly sampleWeights?: readonly number[]
  readonly trained?: Readonly<Record<string, string | number>>
}

/**
 * Default {@link AspectTrainOptions.nbBeta}: chosen on the 5-fold CV of the training sets (aspects of a sentence in
 * one fold, restaurants/laptops): 0 (one word penalty, 0.0003) 73.5/68.7; with penalty 0.0006, 0.5 73.9/69.0 and 1
 * 74.6/69.4 (1 with 0.001 74.2/69.6; 0.0003: 0.5 74.2/68.8, 1 74.1/68.5; 1.5 with 0.001 74.2/68.9; 2 with 0.002
 * 74.4/68.6). 1 made "dirty rooms" in "Great location, dirty rooms, friendly staff." positive (rare window words
 * such as R:friendly learnt strong weights, test/sentiment/aspect.test.ts); 0.5 keeps it negative.
 */
export const NB_BETA = 0.5

/**
 * Fit the multinomial logistic regression: full-batch Adam from zero weights, a fixed number of steps,
 * L2 on the weights (not the biases; each word's penalty scaled by its Naive Bayes log-count ratio, see
 * {@link AspectTrainOptions.nbBeta}). Deterministic: the same examples give the same weights.
 * `ys` are classes 0 negative, 1 neutral, 2 positive.
 */
export function trainAspectModel(xs: readonly AspectVector[], ys: readonly number[], options: AspectTrainOptions = {}): AspectModelData {
  const l2 = options.l2 ?? 0.0003
  const l2Words = options.l2Words ?? 0.0006
  const minCount = options.minCount ?? 1
  const iterations = options.iterations ?? 600
  const lr = options.learningRate ?? 0.05
  const decimals = options.decimals ?? 5
  const counts = new Map<string, number>()
  for (const x of xs) for (const w of x.words) counts.set(w, (counts.get(w) ?? 0) + 1)
  const vocab = [...counts].filter(([, c]) => c >= minCount).map(([w]) => w).sort()
  const index = new Map(vocab.map((w, i) => [w, i]))
  const rows = xs.map((x) => x.words.map((w) => index.get(w)).filter((i): i is number => i !== undefined))
  const dd = (xs[0]?.dense.length ?? ASPECT_FEATURES.length) + 1
  const K = 3
  const P = dd + vocab.length
  // Penalty per class and parameter: l2 for dense weights, the NB-scaled l2Words for words, none for biases.
  const nbBeta = options.nbBeta ?? NB_BETA
  const penalty = Array.from({ length: K }, () => new Float64Array(P).fill(l2))
  for (const pk of penalty) pk[0] = 0
  {
    const perClass = Array.from({ length: K }, () => new Float64Array(vocab.length))
    const total = new Float64Array(K)
    rows.forEach((r, e) => {
      const y = ys[e] as number
      for (const j of r) perClass[y]![j] = (perClass[y]![j] as number) + 1
      total[y] = (total[y] as number) + r.length
    })
    const all = (total[0] as number) + (total[1] as number) + (total[2] as number)
    const V = vocab.length
    for (let k = 0; k < K; k++) {
      const pk = penalty[k] as Float64Array
      for (let j = 0; j < V; j++) {
        const inK = (perClass[k]![j] as number) + 1
        const out = (perClass[0]![j] as number) + (perClass[1]![j] as number) + (perClass[2]![j] as number) - (inK - 1) + 1
        const r = Math.log(inK / ((total[k] as number) + V)) - Math.log(out / (all - (total[k] as number) + V))
        pk[dd + j] = l2Words * Math.exp(-nbBeta * Math.abs(r))
      }
    }
  }
  // Parameters per class: [bias, dense..., words...].
  const w = Array.from({ length: K }, () => new Float64Array(P))
  const m = Array.from({ length: K }, () => new Float64Array(P))
  const v = Array.from({ length: K }, () => new Float64Array(P))
  const g = Array.from({ length: K }, () => new Float64Array(P))
  const sw = options.sampleWeights
  const n = sw === undefined ? xs.length : sw.reduce((a, b) => a + b, 0)
  const b1 = 0.9
  const b2 = 0.999
  const z = new Float64Array(K)
  for (let it = 1; it <= iterations; it++) {
    for (const gk of g) gk.fill(0)
    for (let e = 0; e < xs.length; e++) {
      const x = (xs[e] as AspectVector).dense
      const r = rows[e] as number[]
      let mx = -Infinity
      for (let k = 0; k < K; k++) {
        const wk = w[k] as Float64Array
        let s = wk[0] as number
        for (let i = 0; i < x.length; i++) s += (wk[i + 1] as number) * (x[i] as number)
        for (const j of r) s += wk[dd + j] as number
        z[k] = s
        if (s > mx) mx = s
      }
      let t = 0
      for (let k = 0; k < K; k++) {
        z[k] = Math.exp((z[k] as number) - mx)
        t += z[k] as number
      }
      for (let k = 0; k < K; k++) {
        const d = (((z[k] as number) / t - (ys[e] === k ? 1 : 0)) * (sw?.[e] ?? 1)) / n
        const gk = g[k] as Float64Array
        gk[0] = (gk[0] as number) + d
        for (let i = 0; i < x.length; i++) gk[i + 1] = (gk[i + 1] as number) + d * (x[i] as number)
        for (const j of r) gk[dd + j] = (gk[dd + j] as number) + d
      }
    }
    const c1 = 1 - b1 ** it
    const c2 = 1 - b2 ** it
    for (let k = 0; k < K; k++) {
      const wk = w[k] as Float64Array
      const gk = g[k] as Float64Array
      const mk = m[k] as Float64Array
      const vk = v[k] as Float64Array
      for (let i = 0; i < P; i++) {
        const gi = (gk[i] as number) + (penalty[k]![i] as number) * (wk[i] as number)
        mk[i] = b1 * (mk[i] as number) + (1 - b1) * gi
        vk[i] = b2 * (vk[i] as number) + (1 - b2) * gi * gi
        wk[i] = (wk[i] as number) - (lr * ((mk[i] as number) / c1)) / (Math.sqrt((vk[i] as number) / c2) + 1e-8)
      }
    }
  }
  const scale = 10 ** decimals
  const round = (x: number): number => {
    const r = Math.round(x * scale) / scale
    return r === 0 ? 0 : r
  }
  const words: Record<string, number[]> = {}
  vocab.forEach((word, j) => {
    const ws = w.map((wk) => round(wk[dd + j] as number))
    if (ws.some((x) => x !== 0)) words[word] = ws
  })
  return {
    format: 'textengine-aspect-model/1',
    trained: { ...(options.trained ?? {}), l2, l2_words: l2Words, nb_beta: nbBeta, min_count: minCount, iterations, learning_rate: lr },
    features: [...ASPECT_FEATURES],
    weights: w.map((row) => [...row.subarray(0, dd)].map(round)),
    words,
  }
}

/** Path of the committed aspect model in a data folder. */
export function defaultAspectModelPath(dataDir?: string): string {
  return dataPath(dataDir, 'en', 'aspect-model.json')
}

/** Validate parsed JSON as aspect model data; the error names the file and the field. */
export function checkAspectModelData(json: unknown, where: string): AspectModelData {
  const d = json as Partial<AspectModelData> | null
  const bad = (msg: string): never => {
    throw new Error(`${where}: ${msg}`)
  }
  if (d === null || typeof d !== 'object') bad('should be a JSON object')
  if (d?.format !== 'textengine-aspect-model/1') bad(`format should be "textengine-aspect-model/1", instead found ${JSON.stringify(d?.format)}`)
  if (typeof d?.trained !== 'object' || d.trained === null || Array.isArray(d.trained)) bad('trained should be an object')
  if (!Array.isArray(d?.features) || d.features.join(',') !== ASPECT_FEATURES.join(',')) bad(`features should be ${ASPECT_FEATURES.join(',')}`)
  if (!Array.isArray(d?.weights) || d.weights.length !== 3) bad('weights should have 3 rows (negative, neutral, positive)')
  d?.weights?.forEach((row, k) => {
    if (!Array.isArray(row) || row.length !== ASPECT_FEATURES.length + 1) bad(`weights[${k}] should have ${ASPECT_FEATURES.length + 1} numbers`)
    row.forEach((x, i) => {
      if (typeof x !== 'number' || !Number.isFinite(x)) bad(`weights[${k}][${i}] should be a finite number, instead found ${JSON.stringify(x)}`)
    })
  })
  if (d?.words === null || typeof d?.words !== 'object' || Array.isArray(d.words)) bad('words should be an object of word -> 3 weights')
  // Plain loops (no entries array, no closure per word): this check runs on every cold start.
  const words = (d?.words ?? {}) as Record<string, unknown>
  for (const word in words) {
    if (!Object.hasOwn(words, word)) continue
    const ws = words[word]
    let ok = Array.isArray(ws) && ws.length === 3
    for (let i = 0; ok && i < 3; i++) {
      const x: unknown = (ws as unknown[])[i]
      ok = typeof x === 'number' && Number.isFinite(x)
    }
    if (!ok) bad(`words[${JSON.stringify(word)}] should be 3 finite numbers, instead found ${JSON.stringify(ws)}`)
  }
  return d as AspectModelData
}

/** Load the committed aspect model (or the file at `path`); throws naming the file when missing or malformed. */
export function loadAspectModel(path?: string, dataDir?: string): AspectModel {
  const file = path ?? defaultAspectModelPath(dataDir)
  let text: string
  try {
    text = readFileSync(file, 'utf8')
  } catch (e) {
    const hint = path === undefined ? missingDataHint(dataDir) : 'train it with bench/train-aspects.ts'
    throw new Error(`cannot read aspect model ${file}: ${(e as Error).message} (${hint})`)
  }
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch (e) {
    throw new Error(`${file}: not valid JSON (${(e as Error).message})`)
  }
  const format = (json as { format?: unknown } | null)?.format
  if (format === PACKED_ASPECT_FORMAT) return packedAspectModel(json, file)
  if (format !== 'textengine-aspect-model/1') {
    throw new Error(`${file}: format should be "${PACKED_ASPECT_FORMAT}" (or the unpacked "textengine-aspect-model/1"), instead found ${JSON.stringify(format)}`)
  }
  return createAspectModel(checkAspectModelData(json, file))
}

/** The scoring form of a packed weight file ({@link packAspectModel}), checked as {@link checkAspectModelData} checks a table. */
function packedAspectModel(json: unknown, where: string): AspectModel {
  const d = json as { trained?: unknown; features?: unknown; weights?: unknown; words?: unknown; wordWeights?: unknown }
  const bad = (msg: string): never => {
    throw new Error(`${where}: ${msg}`)
  }
  // The header as the unpacked form has it.
  const header = checkAspectModelData({ format: 'textengine-aspect-model/1', trained: d.trained, features: d.features, weights: d.weights, words: {} }, where)
  const table = unpackTable(d.words, d.wordWeights, header.weights.length, { names: 'words', weights: 'wordWeights', item: 'word' }, bad)
  const { words: _none, ...rest } = header
  // (A word written twice is read as JSON reads a key written twice: the later weights count.)
  return scoringModel(rest, table.names, table.weights)
}
