import type { AnnotatedDocument } from '../nlp/types.ts'
import { BATCH_DOCUMENTS, RecentCache } from '../nlp/recent-cache.ts'
import { UNSEEN_ZIPF, type Background } from './background.ts'
import type { ThemeSpan } from './candidates.ts'
import { THEME_MODEL } from './model.ts'
import { loadThemePrior, type ThemePrior } from './prior.ts'

/**
 * Weights of the theme score (see {@link rankCandidates}). The defaults are the ones `bench/train-themes.ts`
 * chose on the development keyphrase sets; every weight is a plain number so that the script can search them.
 */
export interface ThemeWeights {
  /** Exponent of the phrase length dividing the summed word scores: 0 sums (long phrases win), 1 averages. */
  readonly lengthNorm: number
  /**
   * Added to `lengthNorm` per natural log of the text's length over 100 tokens: in long texts words recur, so a
   * frequent single word is better evidence than a long phrase seen once.
   */
  readonly lengthNormPerLogTokens: number
  /** Weight of log(occurrences of the whole phrase). */
  readonly phraseFrequency: number
  /** Added to `phraseFrequency` per natural log of the text's length over 300 tokens, for longer texts (recurrence tells more there). */
  readonly phraseFrequencyPerLogTokens: number
  /** Weight of an early first mention (PositionRank's intuition: 1 at the start, 0 at the end). */
  readonly position: number
  /** Weight of the share of name words (casing: YAKE's feature). */
  readonly proper: number
  /** Weight of the spread over the text's sentences (first to last mention). */
  readonly spread: number
  /** Zipf at which a word stops counting as specific (term specificity = (ceiling - zipf) / ceiling). */
  readonly zipfCeiling: number
  /** Exponent of the specificity of each word. */
  readonly specificity: number
  /** Factor for a candidate seen only inside longer phrases ("life" of "battery life", never alone). */
  readonly partOnly: number
  /**
   * Zipf read for a name word the background list lacks ("Malick"): names are rare words, but not all telling, so
   * they are not given the rarity of an unseen common word.
   */
  readonly nameZipf: number
  /**
   * Factor for a phrase of several words seen only inside longer phrases ("transfer function" of "discrete
   * transfer function model").
   */
  readonly partPhraseOnly: number
  /** Factor for a single common word seen once (in abstracts people list phrases; a word said once is rarely key). */
  readonly singleOnce: number
  /** Factor for a single common word (not a name): in abstracts people list phrases, in news single words. */
  readonly single: number
}

/** Learned by `bench/train-themes.ts` on the development keyphrase sets (it rewrites this literal with `--write`). */
export const DEFAULT_THEME_WEIGHTS: ThemeWeights = {
  lengthNorm: -0.5,
  lengthNormPerLogTokens: 0.8,
  phraseFrequency: 0.3,
  position: 2,
  proper: 0.5,
  spread: 0,
  zipfCeiling: 6,
  specificity: 1,
  partOnly: 0.2,
  nameZipf: 2.5,
  phraseFrequencyPerLogTokens: 6,
  partPhraseOnly: 0.1,
  singleOnce: 0.3,
  single: 0.85,
}

/** Zipf given to a number (the background list holds words only). */
const NUMBER_ZIPF = 5

/** Occurrences of one candidate phrase (grouped by stems) and its score. */
export interface RankedCandidate {
  /** Stems of the words, space-separated: the grouping key. */
  readonly key: string
  readonly spans: readonly ThemeSpan[]
  readonly score: number
}

/**
 * Features of a candidate phrase that the learned ranker ({@link ThemeModel}, trained by `bench/train-themes.ts`)
 * weighs, in this order. `L` is the log of the text's length over 100 tokens (clamped to -1.5..3): products with it
 * let one model weigh recurrence and phrase length differently in abstracts and in news stories. `G` is the share of
 * name words among the text's words over 0.3, at most 1: news stories name people and places (a median of 15% of
 * their words), abstracts seldom (4%); products with it let one model prefer single frequent words in news, where
 * people pick words, and phrases in abstracts, where they pick phrases.
 */
export const THEME_FEATURES = [
  'handScore', // log of the hand-weighted score (ThemeWeights)
  'words1', // a single word
  'words2', // two words
  'words3plus', // three words or more
  'logCount', // log of the phrase's occurrences
  'logCountAlone', // log(1 + occurrences that are not parts of a longer phrase)
  'firstAt', // relative position of the first mention, 0..1
  'firstSentence', // first mention in the first sentence (a title)
  'spread', // share of sentences between first and last mention
  'specMean', // mean term specificity of the words (background list)
  'specMin', // specificity of the most common word
  'specHead', // specificity of the last word
  'properShare', // share of name words
  'partOnly', // seen only inside longer phrases
  'adjectiveFirst', // a phrase of several words opening with an adjective ("new entrants")
  'acronym', // written in capitals, 2 to 6 letters ("IBS", "CL")
  'digit', // holds a digit
  'hyphen', // holds a hyphenated compound
  'logWordFreq', // mean log frequency of its words in the text's phrases
  'logContainers', // log(1 + distinct longer candidates holding the phrase)
  'priorMean', // mean keyphraseness of its words (ThemePrior)
  'priorHead', // keyphraseness of the last word
  'priorMin', // keyphraseness of the least telling word
  'L*words1',
  'L*logCount',
  'L*firstAt',
  'L*specMean',
  'L*properShare',
  'L*partOnly',
  'L*handScore',
  'L*firstSentence',
  'L*logWordFreq',
  'topRank', // a single word: 1 / (1 + rank of its stem among the text's content words by frequency)
  'logTokenFreq', // a single word: log of its stem's occurrences among the text's words (verb and adjective uses too)
  'G*words1',
  'G*words2',
  'G*words3plus',
  'G*partOnly',
  'G*logCount',
  'G*handScore',
  'G*specMean',
  'G*properShare',
  'G*priorMean',
  'G*firstAt',
  'G*logWordFreq',
  'G*topRank',
] as const

/** Share of name words (PROPN) at which {@link THEME_FEATURES}' `G` (how much the text reads like news) reaches 1. */
const NEWS_NAME_SHARE = 0.3

/**
 * A linear scorer over {@link THEME_FEATURES}: score = sigmoid(bias + weights . features). With `news`, a second
 * weight vector for texts that read like news stories, where people pick single words and names (500N-KPCrowd),
 * where abstracts have them pick phrases (Inspec, SemEval2017): the two linear scores are blended by
 * {@link newsShare}, a logistic reading of the text's {@link GENRE_FEATURES}.
 */
export interface ThemeModel {
  /** The feature names the weights were trained for (must equal {@link THEME_FEATURES}). */
  readonly features: readonly string[]
  readonly weights: readonly number[]
  readonly bias: number
  readonly news?: {
    readonly weights: readonly number[]
    /** Logistic weights over {@link GENRE_FEATURES} (then the bias): how much the text reads like news. */
    readonly genre: readonly number[]
    /** Factor on the genre's logit before the sigmoid: large values switch, small ones blend. */
    readonly sharpness: number
  }
}

/**
 * What tells a news story from an abstract, per text (each scaled to about 0..1): names in title case inside
 * sentences ("Depp", "Los Angeles"; not a sentence's first word, not an acronym), quotation marks, the authors' "we",
 * "our" and "paper", acronyms, the log of the length, and rare words (common words other than names below zipf
 * {@link RARE_ZIPF} in the background list: "polytopic", "spatiotemporal"). Reporting verbs ("said") would tell the
 * two training genres apart a little better, but reviews and customer messages use them too ("the waiter said"): a
 * two-sentence remark about a product is not a news story.
 */
export const GENRE_FEATURES = ['titleNames', 'quotes', 'authors', 'acronyms', 'logLength', 'rareWords'] as const

const TITLE_CASE = /^\p{Lu}\p{Ll}/u
const ALL_CAPS = /^\p{Lu}{2,}$/u
const QUOTE = /["\u201c\u201d]/
const AUTHORS = new Set(['we', 'our', 'us', 'paper'])
/** Zipf (log10 per billion words) below which a word counts as rare for {@link GENRE_FEATURES}. */
const RARE_ZIPF = 3

/** Values of {@link GENRE_FEATURES} for a text; `background` gives the words' everyday frequencies. */
export function genreFeatures(doc: AnnotatedDocument, background: Background): number[] {
  let words = 0
  let names = 0
  let acronyms = 0
  let authors = 0
  let quotes = 0
  let common = 0
  let rare = 0
  let sentence = -1
  for (const t of doc.tokens) {
    if (t.kind === 'punctuation' && QUOTE.test(t.text)) quotes++
    if (t.kind !== 'word') continue
    words++
    const first = t.sentence !== sentence
    sentence = t.sentence
    if (t.pos === 'PROPN') {
      if (!first && TITLE_CASE.test(t.text)) names++
      else if (ALL_CAPS.test(t.text)) acronyms++
    } else if (!t.isStopWord) {
      common++
      if ((background.get(t.normal) ?? UNSEEN_ZIPF) < RARE_ZIPF) rare++
    }
    if (AUTHORS.has(t.normal)) authors++
  }
  const n = Math.max(1, words)
  return [
    (10 * names) / n,
    (10 * quotes) / n,
    (100 * authors) / n,
    (10 * acronyms) / n,
    Math.log(Math.max(1, doc.tokens.length) / 100),
    // Over the common words and 20 more of none: three rare words in a five-word title are not an abstract.
    (10 * rare) / (common + 20),
  ]
}

/** How much a text reads as news for `model` (0..1): the sigmoid of its genre logit times the sharpness. */
export function newsShare(model: ThemeModel, doc: AnnotatedDocument, background: Background): number {
  const n = model.news
  if (n === undefined) return 0
  const f = genreFeatures(doc, background)
  let z = n.genre[f.length] ?? 0
  for (let i = 0; i < f.length; i++) z += (n.genre[i] ?? 0) * f[i]!
  return 1 / (1 + Math.exp(-n.sharpness * z))
}

/** One candidate phrase (its occurrences grouped by stems), its hand score and its features. */
export interface CandidateFeatures {
  readonly key: string
  readonly spans: ThemeSpan[]
  /** The hand-weighted score ({@link ThemeWeights}). */
  readonly hand: number
  /** Values of {@link THEME_FEATURES}, in order. */
  readonly x: number[]
}

const EMPTY_PRIOR: ThemePrior = new Map()

const ACRONYM = /^[A-Z][A-Z0-9]{1,5}s?$/
const HAS_LETTER = /\p{L}/u

/**
 * Group a document's candidates by stems and compute each group's hand score and features. Each word (by stem)
 * gets a score from how often it occurs inside candidates and how rare it is in everyday English (the background
 * list), YAKE's and TF-IDF's two strongest signals; the hand score sums its words' scores, divided by its length to
 * the power `lengthNorm`, and is lifted by its own frequency, an early first mention, names and spread.
 */
export function candidateFeatures(
  doc: AnnotatedDocument,
  spans: readonly ThemeSpan[],
  background: Background,
  w: ThemeWeights = DEFAULT_THEME_WEIGHTS,
  prior: ThemePrior = loadThemePrior(),
): CandidateFeatures[] {
  const groups = new Map<string, ThemeSpan[]>()
  const wordFreq = new Map<string, number>()
  for (const s of spans) {
    const list = groups.get(s.stemmed)
    if (list === undefined) groups.set(s.stemmed, [s])
    else list.push(s)
    // Word frequency counts each place once: the parts of a phrase stand at the phrase's own place.
    if (!s.isPart) for (const stem of s.stemmed.split(' ')) wordFreq.set(stem, (wordFreq.get(stem) ?? 0) + 1)
  }
  const logLength = Math.log(Math.max(1, doc.tokens.length) / 100)
  const lengthNorm = w.lengthNorm + w.lengthNormPerLogTokens * logLength
  // Only texts longer than 300 tokens (news stories, not abstracts or reviews) get the extra weight on recurrence.
  const phraseFrequency = w.phraseFrequency + w.phraseFrequencyPerLogTokens * Math.max(0, Math.log(Math.max(1, doc.tokens.length) / 300))
  const nTokens = Math.max(1, doc.tokens.length)
  const nSentences = Math.max(1, doc.sentences.length)
  const L = Math.min(3, Math.max(-1.5, logLength))
  // Content words by stem (as the most-frequent-words baseline counts them) and the text's share of name words.
  const tokenFreq = new Map<string, number>()
  let words = 0
  let names = 0
  for (const t of doc.tokens) {
    if (t.kind !== 'word') continue
    words++
    if (t.pos === 'PROPN') names++
    if (t.isStopWord || !HAS_LETTER.test(t.text)) continue
    tokenFreq.set(t.stem, (tokenFreq.get(t.stem) ?? 0) + 1)
  }
  const G = Math.min(1, names / Math.max(1, words) / NEWS_NAME_SHARE)
  // Rank of a stem by frequency, ties by first occurrence (the map's order), without sorting: the stems said more
  // often, then those said as often but earlier.
  let maxFreq = 0
  for (const f of tokenFreq.values()) if (f > maxFreq) maxFreq = f
  const above = new Array<number>(maxFreq + 2).fill(0)
  for (const f of tokenFreq.values()) above[f - 1]!++
  for (let f = maxFreq - 1; f >= 0; f--) above[f]! += above[f + 1]!
  // above[f] now counts the stems said more than f times.
  const tied = new Array<number>(maxFreq + 1).fill(0)
  const freqRank = new Map<string, number>()
  for (const [stem, f] of tokenFreq) freqRank.set(stem, above[f]! + tied[f]!++)
  const specificity = (surface: string, isName: boolean): number => {
    // A hyphenated compound is as specific as its rarest part.
    let zipf = 99
    for (const part of surface.split('-')) {
      // Numbers are everyday words ("15", "3-day"), not rare ones, though the list holds no digits.
      const z = /^[\d.,]+$/.test(part) ? NUMBER_ZIPF : (background.get(part) ?? (isName ? w.nameZipf : UNSEEN_ZIPF))
      zipf = Math.min(zipf, z)
    }
    if (zipf === 99) zipf = UNSEEN_ZIPF
    const s = Math.max(0.02, (w.zipfCeiling - zipf) / w.zipfCeiling)
    return w.specificity === 1 ? s : Math.pow(s, w.specificity)
  }
  // Distinct longer candidates holding each key ("battery" in "battery life" and "long battery life"): every
  // multi-word key counts once for each distinct run of its words shorter than itself.
  const containing = new Map<string, number>()
  for (const k of groups.keys()) {
    if (!k.includes(' ')) continue
    const words = k.split(' ')
    const runs = new Set<string>()
    for (let i = 0; i < words.length; i++) for (let j = i + 1; j <= words.length; j++) if (j - i < words.length) runs.add(words.slice(i, j).join(' '))
    for (const r of runs) containing.set(r, (containing.get(r) ?? 0) + 1)
  }
  const out: CandidateFeatures[] = []
  for (const [key, list] of groups) {
    const first = list[0]!
    const stems = key.split(' ')
    let sum = 0
    let properWords = 0
    let specSum = 0
    let specMin = 1
    let specLast = 0
    let logWf = 0
    let priorSum = 0
    let priorMin = Infinity
    let priorLast = 0
    for (let k = 0; k < stems.length; k++) {
      const pr = prior.get(stems[k]!) ?? 0
      priorSum += pr
      priorMin = Math.min(priorMin, pr)
      priorLast = pr
      const spec = specificity(first.words[k] ?? stems[k]!, first.proper[k] === true)
      const wf = wordFreq.get(stems[k]!) ?? 1
      sum += spec * (1 + Math.log(wf))
      specSum += spec
      specMin = Math.min(specMin, spec)
      specLast = spec
      logWf += Math.log(wf)
      if (first.proper[k] === true) properWords++
    }
    const n = stems.length
    const firstAt = first.tokenStart / nTokens
    const s0 = doc.tokens[first.tokenStart]!.sentence
    const s1 = doc.tokens[list[list.length - 1]!.tokenStart]!.sentence
    const partOnly = list.every((s) => s.isPart)
    const hand =
      (sum / Math.pow(n, lengthNorm)) *
      (1 + phraseFrequency * Math.log(list.length)) *
      (1 + w.position * (1 - firstAt) * (1 - firstAt)) *
      (1 + (w.proper * properWords) / n) *
      (1 + (w.spread * (s1 - s0)) / nSentences) *
      (partOnly ? (n > 1 ? w.partPhraseOnly : w.partOnly) : 1) *
      (n === 1 && list.length === 1 && properWords === 0 ? w.singleOnce : 1) *
      (n === 1 && properWords === 0 ? w.single : 1)
    const handLog = Math.log(Math.max(1e-9, hand))
    const logCount = Math.log(list.length)
    const specMean = specSum / n
    const properShare = properWords / n
    const inFirst = s0 === 0 ? 1 : 0
    const surface = doc.text.slice(doc.tokens[first.tokenStart]!.start, doc.tokens[first.tokenEnd - 1]!.end)
    const containers = containing.get(key) ?? 0
    const meanLogWf = logWf / n
    const rank = n === 1 ? freqRank.get(key) : undefined
    const topRank = rank === undefined ? 0 : 1 / (1 + rank)
    const logTokenFreq = n === 1 ? Math.log(1 + (tokenFreq.get(key) ?? 0)) : 0
    out.push({
      key,
      spans: list,
      hand,
      x: [
        handLog,
        n === 1 ? 1 : 0,
        n === 2 ? 1 : 0,
        n >= 3 ? 1 : 0,
        logCount,
        Math.log(1 + list.filter((s) => !s.isPart).length),
        firstAt,
        inFirst,
        (s1 - s0) / nSentences,
        specMean,
        specMin,
        specLast,
        properShare,
        partOnly ? 1 : 0,
        n > 1 && first.adjective[0] === true ? 1 : 0,
        n === 1 && ACRONYM.test(surface) ? 1 : 0,
        /\d/.test(surface) ? 1 : 0,
        first.words.some((x) => x.includes('-')) ? 1 : 0,
        meanLogWf,
        Math.log(1 + containers),
        priorSum / n,
        priorLast,
        priorMin,
        L * (n === 1 ? 1 : 0),
        L * logCount,
        L * firstAt,
        L * specMean,
        L * properShare,
        L * (partOnly ? 1 : 0),
        L * handLog,
        L * inFirst,
        L * meanLogWf,
        topRank,
        logTokenFreq,
        G * (n === 1 ? 1 : 0),
        G * (n === 2 ? 1 : 0),
        G * (n >= 3 ? 1 : 0),
        G * (partOnly ? 1 : 0),
        G * logCount,
        G * handLog,
        G * specMean,
        G * properShare,
        G * (priorSum / n),
        G * firstAt,
        G * meanLogWf,
        G * topRank,
      ],
    })
  }
  return out
}

/**
 * The learned score of a candidate's features: sigmoid(bias + weights . x), the weights blended with the news
 * weights by `news` (0..1, see {@link newsShare}).
 */
export function modelScore(model: ThemeModel, x: readonly number[], news = 0): number {
  let a = 0
  for (let i = 0; i < x.length; i++) a += (model.weights[i] ?? 0) * x[i]!
  let b = 0
  if (news > 0 && model.news !== undefined) for (let i = 0; i < x.length; i++) b += (model.news.weights[i] ?? 0) * x[i]!
  const z = model.bias + (1 - news) * a + news * b
  return 1 / (1 + Math.exp(-z))
}

/**
 * Rank candidate phrases: by the learned model over {@link candidateFeatures} (the default, {@link THEME_MODEL}),
 * or by the hand score alone when `model` is null. Ties break by first position, then key: the order is a pure
 * function of the document.
 */
export function rankCandidates(
  doc: AnnotatedDocument,
  spans: readonly ThemeSpan[],
  background: Background,
  w: ThemeWeights = DEFAULT_THEME_WEIGHTS,
  model: ThemeModel | null = THEME_MODEL,
  prior?: ThemePrior,
): RankedCandidate[] {
  const p = prior ?? (model === null ? EMPTY_PRIOR : loadThemePrior())
  // The themes analyzer and entity themes rank the same document's candidates with the same lists: once.
  const known = RANKED.get(doc)
  if (known !== undefined && known.background === background && known.w === w && known.model === model && known.prior === p && sameSpans(known.spans, spans)) {
    return known.out.slice()
  }
  const news = model === null ? 0 : newsShare(model, doc, background)
  const out: RankedCandidate[] = candidateFeatures(doc, spans, background, w, p).map((c) => ({
    key: c.key,
    spans: c.spans,
    score: model === null ? c.hand : modelScore(model, c.x, news),
  }))
  out.sort((a, b) => b.score - a.score || a.spans[0]!.tokenStart - b.spans[0]!.tokenStart || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0))
  RANKED.set(doc, { spans: spans.slice(), background, w, model, prior: p, out })
  return out.slice()
}

/**
 * The last ranking of each of the last documents asked about, with what it was computed from (ranked candidates are
 * never changed by their users); a RecentCache, not a WeakMap, for the reason its comment gives.
 */
const RANKED = new RecentCache<
  AnnotatedDocument,
  { spans: readonly ThemeSpan[]; background: Background; w: ThemeWeights; model: ThemeModel | null; prior: ThemePrior; out: readonly RankedCandidate[] }
>(BATCH_DOCUMENTS)

function sameSpans(a: readonly ThemeSpan[], b: readonly ThemeSpan[]): boolean {
  if (a.length !== b.length) return false
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false
  return true
}

/**
 * Whether a word said on its own at least twice, and more often than inside a better-ranked phrase holding it, stays
 * beside that phrase as a theme of its own (see {@link removeRedundant}). Off: on the even (training) halves of the
 * keyphrase sets it changes F1@10 by -0.002 to +0.001, and the issue asks for "battery" and "battery life" as one theme.
 */
export const STANDALONE_WORDS = false

/** A one-word candidate read as a name (a proper noun) at one of its occurrences at least. */
function isNameWord(c: RankedCandidate): boolean {
  return c.spans.some(isNameSpan)
}

/** A one-word occurrence read as a name. */
function isNameSpan(s: ThemeSpan): boolean {
  return s.proper?.length === 1 && s.proper[0] === true
}

/** Whether a name word of `a` stands right before or after one of `b` (no token between: "Geraldine McEwan"). */
function adjacent(a: readonly ThemeSpan[], b: readonly ThemeSpan[]): boolean {
  return a.some((s) => isNameSpan(s) && b.some((t) => isNameSpan(t) && (t.tokenStart === s.tokenEnd || s.tokenStart === t.tokenEnd)))
}

/**
 * Drop redundant themes: a single word that is a word of a better-ranked phrase, or a phrase holding a
 * better-ranked single word ("battery" after "battery life", or "battery life" after "battery"), is folded into it
 * (its occurrences at new places join the kept theme's, so mentions and sentiment still see them). Two phrases
 * of several words both stay ("neural network", "recurrent neural network"): on the keyphrase sets, people list
 * both (F1@10 0.294 against 0.267 when they are folded too, Inspec), unless every occurrence of the shorter one
 * lies inside an occurrence of the kept one ("new battery" and "battery life" of "new battery life"). With
 * `standalone`, a word said on its own at least twice and more often than inside the kept phrase stays a theme of its
 * own. With `nameWords`, a name word standing right beside a better-ranked kept name word is folded into it: the two
 * words of "Geraldine McEwan" are one theme, not "McEwan" and "Geraldine" (on the news stories of 500N-KPCrowd, whose
 * people tagged first and last names one by one, F1@10 reads 0.001 to 0.003 lower with it). A name word never said
 * alone ("Mexico" of "New Mexico" each time) whose whole name ranks below it gives its place to the name: the theme is
 * "New Mexico", not another country (on 500N-KPCrowd-dev, whose people tagged "Mexico", F1@10 0.189 -> 0.188). Order is
 * kept.
 */
export function removeRedundant(ranked: readonly RankedCandidate[], limit = Infinity, standalone = STANDALONE_WORDS, nameWords = true): RankedCandidate[] {
  const kept: { key: string; padded: string; spans: ThemeSpan[]; score: number; alone: number; name: boolean; partOfName: boolean }[] = []
  // Occurrences of a word standing as a noun phrase of its own ("the battery"), not inside a longer one.
  const aloneOf = (c: RankedCandidate): number => c.spans.filter((s) => s.isPart !== true).length
  const overlapping = (a: readonly ThemeSpan[], b: readonly ThemeSpan[]): number =>
    a.filter((s) => b.some((t) => s.tokenStart < t.tokenEnd && t.tokenStart < s.tokenEnd)).length
  for (const c of ranked) {
    const padded = ` ${c.key} `
    const single = !c.key.includes(' ')
    const alone = single && standalone ? aloneOf(c) : 0
    // A word said on its own at least twice, and more often than inside the phrase, names a theme of its own.
    const ownTheme = (wordAlone: number, inside: number): boolean => standalone && wordAlone >= 2 && wordAlone > inside
    const into =
      kept.find(
        (k) =>
          (single || !k.key.includes(' ')) &&
          (k.padded.includes(padded) || padded.includes(k.padded)) &&
          // (The overlap is counted only when standalone words are asked for: it costs |spans|^2 per pair.)
          !(standalone && (single ? ownTheme(alone, overlapping(c.spans, k.spans)) : ownTheme(k.alone, overlapping(k.spans, c.spans)))),
      ) ??
      // A phrase seen only inside one kept theme's occurrences ("new battery" of "new battery life").
      kept.find((k) => k.padded.includes(padded) && c.spans.every((s) => k.spans.some((t) => t.tokenStart <= s.tokenStart && s.tokenEnd <= t.tokenEnd)))
    if (into !== undefined) {
      // A name written whole at every place its better-ranked word stands ("New Mexico" after "Mexico", a word never
      // said alone): the name is the theme, in the word's place; "Mexico" alone would name another place.
      if (!single && into.partOfName && into.spans.every((t) => c.spans.some((s) => s.tokenStart <= t.tokenStart && t.tokenEnd <= s.tokenEnd))) {
        into.key = c.key
        into.padded = padded
        into.partOfName = false
        into.name = false
        into.spans = [...c.spans]
        continue
      }
      // Occurrences at new places only: "battery" inside "battery life" is already a mention of it.
      for (const s of c.spans) if (!into.spans.some((t) => s.tokenStart < t.tokenEnd && t.tokenStart < s.tokenEnd)) into.spans.push(s)
      continue
    }
    // Two words of one name ("Geraldine" beside a kept "McEwan", "Sachs" beside "Goldman"): the same person, company
    // or place, listed once. Only the word's occurrences apart from the kept word join it ("Geraldine" said alone): one
    // right beside it is the same mention.
    const name = nameWords && single && isNameWord(c) ? kept.find((k) => k.name && adjacent(c.spans, k.spans)) : undefined
    if (name !== undefined) {
      for (const s of c.spans) if (!name.spans.some((t) => s.tokenStart <= t.tokenEnd && t.tokenStart <= s.tokenEnd)) name.spans.push(s)
      continue
    }
    if (kept.length >= limit) continue
    kept.push({ key: c.key, padded, spans: [...c.spans], score: c.score, alone, name: single && isNameWord(c), partOfName: single && c.spans.every((s) => s.isPart && isNameSpan(s)) })
  }
  return kept.map((k) => ({ key: k.key, spans: k.spans.sort((a, b) => a.tokenStart - b.tokenStart), score: k.score }))
}
