/**
 * The lexicon sentiment engine: phrase matching, negation, intensification, contrast and emphasis
 * over an {@link AnnotatedDocument}, aggregated to token, phrase, sentence, span and document scores.
 *
 * Valences are kept on the lexicon scale (-4..+4, VADER's) while scoring; every score handed out is
 * bounded to -1..+1 and rounded to {@link SentimentScorerOptions.decimals} decimals:
 * - phrase and token scores: `clamp(valence / 4)`;
 * - sentence, span and lexicon document scores: `x / sqrt(x^2 + alpha)` of the summed valences plus
 *   punctuation emphasis (VADER's normalisation, alpha 15);
 * - the document `sentiment_score`: the lexicon document score fed with the statistical model's
 *   likelihoods into a trained linear calibrator (see `model.ts`), or the lexicon score alone when the
 *   scorer has no model.
 */
import { US_POSTAL_CODES } from '../nlp/us-states.ts'
import type { AnnotatedDocument, Token } from '../nlp/types.ts'
import {
  loadSentimentLexicon,
  phraseKey,
  type ContrastEntry,
  type ModifierEntry,
  type SentimentLexicon,
  type WeightedEntry,
} from './lexicon.ts'
import { loadSentimentModel, NO_EVIDENCE_MARGIN, type ModelSentiment, type SentimentModel, type SentimentVectors } from './model.ts'
import { aspectMentionScore, createAspectModel, loadAspectModel, type AspectModelData, type AspectSpan } from './aspect.ts'
import { knownNameTokens, loadKnownNames } from './known-names.ts'
import { ATTRIBUTE_POLARITY } from '../pipeline/attribute-polarity.ts'
import { LINKING_VERBS } from '../nlp/linking-verbs.ts'

/** Contract polarity strings. */
export type SentimentPolarity = 'positive' | 'negative' | 'neutral'

/** A user-defined sentiment phrase (tuning resource): up to three words, weight -2..2. */
export interface UserSentimentPhrase {
  readonly name: string
  readonly weight: number
}

/** Options of {@link createSentimentScorer}; every field has a default. */
export interface SentimentScorerOptions {
  /** Folder of lexicon files. @defaultValue `en/` of the data folder */
  readonly lexiconDir?: string
  /**
   * Data folder (the package's `lexicons/` or a copy) of the default lexicons and model.
   * @defaultValue `TEXTENGINE_DATA_DIR`, else the package's own (see `resolveDataDir`)
   */
  readonly dataDir?: string
  /** Pre-loaded lexicon (wins over `lexiconDir`). */
  readonly lexicon?: SentimentLexicon
  /**
   * Statistical model for `model_sentiment` and the calibrated document score; `false` turns both off
   * (document score = lexicon score). @defaultValue the committed model `lexicons/en/sentiment-model.json`
   */
  readonly model?: SentimentModel | false
  /**
   * The word vectors of the default model's text vector (see `SentimentModelOptions.vectors`). @defaultValue
   * `en/vectors.bin` of the data folder
   */
  readonly vectors?: SentimentVectors
  /**
   * Aspect model of `aspectSentiment` (see `aspect.ts`); `false` reads a mention's sentiment as the mean
   * score of its sentences. @defaultValue the committed model `lexicons/en/aspect-model.json`
   */
  readonly aspectModel?: AspectModelData | false
  /** Document/sentence/span score above which polarity is positive. @defaultValue 0.05 */
  readonly positiveThreshold?: number
  /** Score below which polarity is negative. @defaultValue -0.05 */
  readonly negativeThreshold?: number
  /** A sentence is polar when |score| reaches this and it holds a sentiment phrase. @defaultValue 0.05 */
  readonly polarThreshold?: number
  /** Factor applied to a negated phrase's valence. @defaultValue -0.74 (VADER) */
  readonly negationFactor?: number
  /** Valence added (in the phrase's direction) for an ALL-CAPS word among mixed-case text. @defaultValue 0.733 */
  readonly capsBoost?: number
  /** Valence added per '!' (at most 4) in the direction of the sum. @defaultValue 0.292 */
  readonly exclamationBoost?: number
  /** Normalisation constant alpha of `x / sqrt(x^2 + alpha)`. @defaultValue 15 */
  readonly alpha?: number
  /** Decimals of every score. @defaultValue 4 */
  readonly decimals?: number
  /** Words before a phrase searched for negators and intensifiers. @defaultValue 3 */
  readonly window?: number
}

/** A sentiment phrase found in the text (lexicon word, phrase, idiom, emoji or user phrase). */
export interface DetectedPhrase {
  /** First token index (inclusive). */
  readonly tokenStart: number
  /** Last token index (exclusive). */
  readonly tokenEnd: number
  /** The phrase as it stands in the text. */
  readonly title: string
  /** Where the weight came from. */
  readonly source: 'lexicon' | 'idiom' | 'emoji' | 'user'
  /** Final score, -1..1, after negation, intensification, emphasis and contrast. */
  readonly sentiment_score: number
  readonly sentiment_polarity: SentimentPolarity
  readonly is_negated: boolean
  /** The negator's text when negated. */
  readonly negating_phrase?: string
  readonly is_intensified: boolean
  /** The intensifier's text when intensified. */
  readonly intensifying_phrase?: string
}

/** An evaluative word missing from the lexicon, suggested for tuning. */
export interface PossiblePhrase {
  readonly tokenStart: number
  readonly tokenEnd: number
  readonly title: string
  /** Polarity of its sentence (the context it was seen in). */
  readonly sentiment_polarity: SentimentPolarity
}

/** Per-sentence result. */
export interface SentenceSentimentResult {
  readonly index: number
  readonly sentiment_score: number
  readonly sentiment_polarity: SentimentPolarity
  /** Whether the sentence conveys sentiment (holds a phrase and |score| >= polarThreshold). */
  readonly is_polar: boolean
}

/** Dense lexicon evidence of a document, the input of the statistical model and calibrator. */
export interface LexiconFeatures {
  /** Lexicon document score (-1..1). */
  readonly compound: number
  /** Sum of positive phrase valences / 4. */
  readonly positive: number
  /** Sum of negative phrase valences / 4 (a negative number or 0). */
  readonly negative: number
  readonly positiveCount: number
  readonly negativeCount: number
  readonly negatedCount: number
  /** Score of the last sentence with sentiment, else 0. */
  readonly lastSentence: number
  readonly minSentence: number
  readonly maxSentence: number
  /** Count of '!' (capped 4). */
  readonly exclamations: number
  /** Number of word tokens. */
  readonly words: number
  /** Number of emoji and emoticons with a lexicon weight. */
  readonly icons: number
  /** Number of ALL-CAPS words (two letters or more). */
  readonly capsWords: number
  /**
   * Token indexes, ascending, of the lexicon words that stand in a name and so score nothing ("Fantastic" of
   * "Fantastic Four", "Super" of "Super Bowl", "Miss" of "Miss Marple"; see inName): model_sentiment reads them as
   * `<name>` (`ngramsOf`), not as the word. @defaultValue none
   */
  readonly nameWords?: readonly number[]
  /**
   * Token indexes, ascending, of the negators that a modal comparative holds ("not" of "could not have been cleaner",
   * see modalComparative): no negation, as the scorer reads them; model_sentiment reads each as `<best>` (`ngramsOf`),
   * not as "not". @defaultValue none
   */
  readonly modalNegators?: readonly number[]
  /**
   * Token indexes, ascending, of the comparatives that an un-negated modal negates ("cleaner" of "could have been
   * cleaner"): model_sentiment reads each as negated (`not_cleaner`), as the scorer does. @defaultValue none
   */
  readonly modalNegated?: readonly number[]
  /**
   * Token indexes, ascending, of the negators inside phrases of the lexicon that praise through them ("not" of "not
   * bad", "no" of "no complaints", "n't" of "can't fault"): model_sentiment reads each as `<not_neg>` (`ngramsOf`), not
   * as the negator whose texts lean negative. @defaultValue none
   */
  readonly negativeNegators?: readonly number[]
  /**
   * Token indexes, ascending, of the words after those negators in their phrases ("bad" of "not bad", not the "at all"
   * after it): the scope of `<not_neg>`, read as negated (`not_bad`). @defaultValue none
   */
  readonly praiseNegated?: readonly number[]
}

/** Everything the scorer computes for one document. */
export interface SentimentResult {
  /** Per-token score by token index (-1..1; 0 for tokens outside any sentiment phrase). */
  readonly tokenScores: readonly number[]
  readonly phrases: readonly DetectedPhrase[]
  readonly possiblePhrases: readonly PossiblePhrase[]
  readonly sentences: readonly SentenceSentimentResult[]
  /** Document score, -1..1 (calibrated when the scorer has a model). */
  readonly sentiment_score: number
  readonly sentiment_polarity: SentimentPolarity
  /** Lexicon-only document score, -1..1. */
  readonly lexicon_score: number
  readonly features: LexiconFeatures
  /** The statistical model's output, when the scorer has a model. */
  readonly model_sentiment?: ModelSentiment
  /** Score of the tokens `[tokenStart, tokenEnd)`, -1..1 (phrases starting inside count). */
  spanSentiment(tokenStart: number, tokenEnd: number): number
  /** First tokens of the contrastive conjunctions found ("but", "although"). */
  readonly contrastTokens: ReadonlySet<number>
  /**
   * Sentiment about what the spans mention (a theme, an entity, a topic's hits), -1..1: the mean of
   * each span's aspect score (see `aspect.ts`); 0 without spans or without evidence around them.
   */
  aspectSentiment(spans: readonly AspectSpan[], options?: { readonly names?: boolean }): number
  /** Score of sentence `i`, -1..1; throws RangeError for an index out of range. */
  sentenceSentiment(i: number): number
  /** Polarity of a score under this scorer's thresholds. */
  polarityOf(score: number): SentimentPolarity
}

/** A scorer: lexicons and model loaded once, options frozen. */
export interface SentimentScorer {
  readonly options: Readonly<Required<Omit<SentimentScorerOptions, 'lexiconDir' | 'lexicon' | 'model' | 'dataDir' | 'aspectModel' | 'vectors'>>>
  readonly lexicon: SentimentLexicon
  readonly model: SentimentModel | undefined
  /** Score a document; `userPhrases` (weight -2..2, up to three words) override or extend the lexicon. */
  score(doc: AnnotatedDocument, userPhrases?: readonly UserSentimentPhrase[]): SentimentResult
}

/** Error for bad options or user phrases; the message names the field. */
export class SentimentInputError extends Error {
  override readonly name = 'SentimentInputError'
  readonly code = 'ERR_SENTIMENT_INPUT'
}

type UnitKind = 'sentiment' | 'negator' | 'modifier' | 'contrast'

interface Unit {
  readonly kind: UnitKind
  readonly start: number
  readonly end: number
  readonly source?: DetectedPhrase['source']
  readonly weight?: number
  /** A sentiment word that is also a negator (VADER rates "no" -1.2): it scores and negates. */
  readonly negates?: boolean
  readonly modifier?: ModifierEntry
  readonly contrast?: ContrastEntry
}

const NON_WORD_KINDS = new Set(['punctuation', 'tabCRLF', 'space', 'symbol'])
// Tokens that end a negation or intensifier scope.
const CLAUSE_BREAK = /^[.,;:!?()[\]{}"\u201c\u201d|\u2026-]+$/
// POS tags under which a lexicon word is not read as evaluative (auxiliaries, particles, conjunctions).
const SKIP_POS = new Set(['AUX', 'PART', 'CCONJ'])
// POS tags under which a lexicon word reads as a function word ("like" as a preposition): its weight is
// multiplied by FUNCTION_WORD_FACTOR.
const FUNCTION_POS = new Set(['ADP', 'SCONJ'])
// Lexicon words whose noun sense is no evaluation: stock "shares" ("Shares of Tesla fell", "market share");
// the verb ("thanks for sharing", "I share your joy") keeps its weight.
const NEUTRAL_AS_NOUN = new Set(['share', 'shares'])
const FUNCTION_WORD_FACTOR = 0.5
/** Auxiliaries of a rhetorical "who doesn't ...?" question (see rhetoricalWho), as normals ("wo" of "won't"). */
const RHETORICAL_AUXILIARIES = new Set(['does', 'do', 'did', 'would', 'could', 'can', 'ca', 'will', 'wo'])
const ARTICLES = new Set(['a', 'an', 'the'])

/**
 * Verbs of believing and telling whose negation before an exclamative "how" or "what" emphasises the evaluation in it
 * instead of turning it round: "I can't believe how good it was", "I couldn't believe what a mess it was", "I can't
 * tell you how happy I am" (lemmas).
 */
const EXCLAMATIVE_VERBS = new Set(['believe', 'imagine', 'describe', 'express', 'explain', 'tell', 'say', 'stress', 'emphasize', 'emphasise'])

/** The verb forms of a counterfactual wish after "wish" or "if only" ("I wish the staff were friendlier"). */
const COUNTERFACTUAL_VERBS = new Set(['were', 'was', 'had', 'would', 'could'])
/** Of COUNTERFACTUAL_VERBS, the modals: a wish with them is counterfactual only of a state (`be`, `have` next). */
const MODAL_WISHES = new Set(['would', 'could'])
/** Modals of a comparative evaluation ("could have been better"; "ca" of "can't"). */
const MODAL_COMPARISON_VERBS = new Set(['could', 'can', 'ca'])
/** "have" and its clitic ("could've been better"). */
const HAVE_FORMS = new Set(['have', "'ve"])
/** Comparatives that do not end in "-er" or whose lemma is their own form. */
const COMPARATIVES = new Set(['better', 'worse', 'less', 'more'])
/** Distinct token indexes, ascending. */
function ascending(indexes: readonly number[]): number[] {
  return [...new Set(indexes)].sort((a, b) => a - b)
}
/** Words of a verb's object that may stand between it and a modal comparative ("asked for a better stay"). */
const MODAL_OBJECT_WORDS = 3
/** The parts of speech of those words: "for", "a", "that ball", "it". */
const MODAL_OBJECT_POS = new Set(['ADP', 'DET', 'NOUN', 'PRON'])
/** Words after an evaluation that may stand before the "enough" or "more" of `modalExcess` ("this place"). */
const MODAL_EXCESS_WORDS = 4
/** Demonstratives, whatever their tag ("that" of "thrown that ball any better" reads as a conjunction). */
const DEMONSTRATIVES = new Set(['this', 'that', 'these', 'those'])
/** What a negated modal comparative does to its evaluation: nothing could be more so ("couldn't have been better"). */
const MODAL_BEST_FACTOR = 1.5
// US state and territory postal codes: in capitals after "City," or before a ZIP code they are places ("Tulsa, OK"),
// and those that are no English word (NH, TX) are places whenever written in capitals.
const POSTAL_CODES = US_POSTAL_CODES
const WORD_CODES = new Set(['HI', 'IN', 'ME', 'OH', 'OK', 'OR', 'LA', 'MA', 'PA', 'DE', 'CO', 'ID', 'AL', 'GA', 'MI', 'MO', 'MS'])
const CONTENT_POS = new Set(['NOUN', 'VERB', 'ADJ', 'ADV'])
const EVALUATIVE_VERBS = new Set(['be', 'seem', 'look', 'feel', 'sound', 'become', 'get', 'remain', 'appear', 'find'])

function checkNumber(name: string, v: number | undefined, lo: number, hi: number, dflt: number): number {
  if (v === undefined) return dflt
  if (typeof v !== 'number' || !Number.isFinite(v) || v < lo || v > hi) {
    throw new SentimentInputError(`option ${name} should be a number within ${lo}..${hi}, instead found ${String(v)}`)
  }
  return v
}

/**
 * Create a sentiment scorer. Lexicons (and the model, unless `model: false`) are loaded here, once;
 * bad options or malformed lexicon files throw here, never in `score`.
 */
export function createSentimentScorer(options: SentimentScorerOptions = {}): SentimentScorer {
  const opts = Object.freeze({
    positiveThreshold: checkNumber('positiveThreshold', options.positiveThreshold, -1, 1, 0.05),
    negativeThreshold: checkNumber('negativeThreshold', options.negativeThreshold, -1, 1, -0.05),
    polarThreshold: checkNumber('polarThreshold', options.polarThreshold, 0, 1, 0.05),
    negationFactor: checkNumber('negationFactor', options.negationFactor, -2, 0, -0.74),
    capsBoost: checkNumber('capsBoost', options.capsBoost, 0, 4, 0.733),
    exclamationBoost: checkNumber('exclamationBoost', options.exclamationBoost, 0, 2, 0.292),
    alpha: checkNumber('alpha', options.alpha, 0.01, 1000, 15),
    decimals: checkNumber('decimals', options.decimals, 0, 10, 4),
    window: checkNumber('window', options.window, 1, 10, 3),
  })
  if (opts.negativeThreshold > opts.positiveThreshold) {
    throw new SentimentInputError(
      `option negativeThreshold (${opts.negativeThreshold}) should not exceed positiveThreshold (${opts.positiveThreshold})`,
    )
  }
  const dataDir = options.dataDir
  const lexicon = options.lexicon ?? loadSentimentLexicon(options.lexiconDir, dataDir)
  // Known names that hold a sentiment word ("Super Bowl", "Amazon"): words of a name wherever they stand (see inName).
  const knownNames = loadKnownNames(lexicon.words, dataDir)
  const model =
    options.model === false
      ? undefined
      : (options.model ?? loadSentimentModel(undefined, { ...(dataDir === undefined ? {} : { dataDir }), ...(options.vectors === undefined ? {} : { vectors: options.vectors }) }))
  const aspectModel =
    options.aspectModel === false ? undefined : options.aspectModel === undefined ? loadAspectModel(undefined, dataDir) : createAspectModel(options.aspectModel)
  const multiWordStarts = new Set<string>()
  // Every key of the five tables, and every proper word prefix of their multi-word keys ("a b" of "a b c"): a span
  // is looked up only when its key is one of them, and grown only while its words are a prefix of one.
  const lexiconKeys = new Set<string>()
  const lexiconPrefixes = new Set<string>()
  for (const table of [lexicon.words, lexicon.idioms, lexicon.negators, lexicon.modifiers, lexicon.contrasts] as ReadonlyArray<ReadonlyMap<string, unknown>>) {
    for (const key of table.keys()) {
      lexiconKeys.add(key)
      const sp = key.indexOf(' ')
      if (sp > 0) multiWordStarts.add(key.slice(0, sp))
      for (let at = sp; at > 0; at = key.indexOf(' ', at + 1)) lexiconPrefixes.add(key.slice(0, at))
    }
  }
  // The first UTF-16 unit of every lexicon word holding a character that is no letter or digit (emoticons such as
  // ":)", "<3", "o_o"): glued tokens are looked up only from a token that can begin one (see matchAt).
  const glueStarts = new Set<string>()
  for (const key of lexicon.words.keys()) if (key.length > 0 && /[^\p{L}\p{N}]/u.test(key)) glueStarts.add(key.charAt(0))
  // Words that judge what they are said of in reviews but that the lexicon does not list, for being said of much else
  // ("the service was slow" but "slow cooker", "the room was small" but "small business"): the learned attribute
  // table's words that the lexicon lacks, read only as a predicate (see predicateWeight).
  const predicates = new Map<string, number>()
  for (const [w, x] of ATTRIBUTE_POLARITY) if (!lexicon.words.has(w) && !lexicon.idioms.has(w) && !lexicon.modifiers.has(w)) predicates.set(w, x * PREDICATE_SCALE)
  const known = (w: string): boolean =>
    lexicon.words.has(w) || lexicon.modifiers.has(w) || lexicon.negators.has(w) || lexicon.contrasts.has(w) || lexicon.idioms.has(w)
  // unstretch is a pure function of the word (the lexicon is fixed per scorer) and runs three regular expressions:
  // memoised per word, the table emptied when it grows past STRETCH_CACHE_LIMIT (null: nothing to unstretch).
  const stretchCache = new Map<string, string | null>()
  const unstretchCached = (w: string): string | undefined => {
    const hit = stretchCache.get(w)
    if (hit !== undefined) return hit ?? undefined
    const v = unstretch(w)
    if (stretchCache.size >= STRETCH_CACHE_LIMIT) stretchCache.clear()
    stretchCache.set(w, v ?? null)
    return v
  }
  // A word with a letter repeated three times or more that the lexicon does not know: the first of
  // "runs cut to two letters", "runs cut to one letter" that it knows, else undefined.
  const unstretch = (w: string): string | undefined => {
    // Laughter of any length ("hahahah", "hahaa", "heheh") reads as "haha" / "hehe".
    const laugh = /^(?:ha){2,}h?a*$/.test(w) ? 'haha' : /^(?:he){2,}h?e*$/.test(w) ? 'hehe' : undefined
    if (laugh !== undefined && laugh !== w && !known(w) && known(laugh)) return laugh
    if (!/(\p{L})\1\1/u.test(w) || known(w)) return undefined
    for (const c of [w.replace(/(\p{L})\1{2,}/gu, '$1$1'), w.replace(/(\p{L})\1{2,}/gu, '$1')]) if (known(c)) return c
    return undefined
  }
  const scale = 10 ** opts.decimals
  const round = (x: number): number => {
    const r = Math.round(x * scale) / scale
    return r === 0 ? 0 : r // no -0
  }
  const normalize = (x: number): number => (x === 0 ? 0 : x / Math.sqrt(x * x + opts.alpha))
  const clamp1 = (x: number): number => Math.max(-1, Math.min(1, x))
  const polarityOf = (s: number): SentimentPolarity =>
    s > opts.positiveThreshold ? 'positive' : s < opts.negativeThreshold ? 'negative' : 'neutral'

  return {
    options: opts,
    lexicon,
    model,
    score(doc, userPhrases = []) {
      const user = userTable(userPhrases)
      const tokens = doc.tokens
      const n = tokens.length
      const keysNormal: string[] = new Array<string>(n)
      const keysLemma: string[] = new Array<string>(n)
      let wordCount = 0
      let capsCount = 0
      for (let i = 0; i < n; i++) {
        const t = tokens[i] as Token
        // Hashtags read as their word; a word the tokenizer kept with its full stop ("NO.") as the word.
        const normal =
          t.kind === 'hashtag' ? t.normal.replace(/^#/, '') : t.normal.endsWith('.') && /^\p{L}{2,}\.$/u.test(t.normal) ? t.normal.slice(0, -1) : t.normal
        // An elongated word ("sooo", "yayyyy", "goooood") reads as the lexicon word it stretches.
        const stretched = t.kind === 'word' || t.kind === 'hashtag' ? unstretchCached(normal) : undefined
        keysNormal[i] = stretched ?? normal
        keysLemma[i] = stretched ?? (t.kind === 'hashtag' ? normal : t.lemma)
        if (isWord(t)) {
          wordCount++
          if (isAllCaps(t.text)) capsCount++
        }
      }
      // VADER's cap differential: ALL CAPS emphasises only when some, not all, words are capitals.
      const capsDifferential = capsCount > 0 && capsCount < wordCount

      // Per sentence, once: whether it has a lower-case content word (else it is a title; see inName).
      const lowerContentOf: Array<boolean | undefined> = []
      // Lexicon words read as words of a name (LexiconFeatures.nameWords); matchAt visits tokens in order.
      const nameWords: number[] = []
      // The negators modal comparatives hold and the comparatives they negate (LexiconFeatures.modalNegators and
      // modalNegated).
      const modalNegators: number[] = []
      const modalNegated: number[] = []
      // The negators inside praising phrases ("not" of "not bad"; LexiconFeatures.negativeNegators).
      const negativeNegators: number[] = []
      // The words after them in those phrases ("bad" of "not bad at all"; LexiconFeatures.praiseNegated).
      const praiseNegated: number[] = []
      // Token indices inside a known name (knownNameTokens), found when inName first asks.
      let knownNameAt: Set<number> | undefined

      // 1. Longest match, sentence by sentence.
      const units: Unit[] = []
      const unitAt = new Int32Array(n).fill(-1)
      for (const s of doc.sentences) {
        let i = s.tokenStart
        while (i < s.tokenEnd) {
          const u = matchAt(i, s.tokenEnd)
          if (u === undefined) {
            i++
            continue
          }
          for (let k = u.start; k < u.end; k++) unitAt[k] = units.length
          units.push(u)
          i = u.end
        }
      }

      // A modifier that is also a lexicon word and modifies nothing ("Damn!", "Pretty horses") is a
      // sentiment word: it modifies only when a sentiment phrase follows within two words of its clause.
      for (let u = 0; u < units.length; u++) {
        const unit = units[u] as Unit
        if (unit.kind !== 'modifier') continue
        const w = lexicon.words.get(keysNormal.slice(unit.start, unit.end).join(' '))
        if (w === undefined) continue
        let modifies = false
        for (let k = unit.end, seen = 0; k < n && seen < 2; k++) {
          const t = tokens[k] as Token
          if (t.sentence !== (tokens[unit.start] as Token).sentence || CLAUSE_BREAK.test(t.text)) break
          const nu = units[unitAt[k] ?? -1]
          if (nu !== undefined && (nu.kind === 'sentiment' || nu.kind === 'modifier')) {
            modifies = true
            break
          }
          seen++
        }
        if (!modifies) units[u] = { kind: 'sentiment', start: unit.start, end: unit.end, source: 'lexicon', weight: w.weight }
      }

      // 2. Valence of each sentiment unit with negation, intensification and caps emphasis.
      const valence = new Float64Array(units.length)
      const negatedBy: Array<string | undefined> = new Array<string | undefined>(units.length)
      const intensifiedBy: Array<string | undefined> = new Array<string | undefined>(units.length)
      for (let u = 0; u < units.length; u++) {
        const unit = units[u] as Unit
        if (unit.kind !== 'sentiment') continue
        let v = unit.weight ?? 0
        // A phrase that praises through a negator ("not bad", "no complaints") holds one that negates a negative.
        if (v > 0 && unit.end - unit.start > 1) {
          let after = false
          for (let k = unit.start; k < unit.end; k++) {
            if (lexicon.negators.has(keysNormal[k] ?? '')) {
              negativeNegators.push(k)
              after = true
            } else if (after) praiseNegated.push(k)
          }
        }
        if (capsDifferential && tokensAllCaps(unit.start, unit.end)) v += Math.sign(v) * opts.capsBoost
        // Walk back over at most `window` words of the same clause.
        // Emoji and emoticons carry the writer's own tone: negators and intensifiers do not reach them.
        const head = tokens[unit.start] as Token
        const isIcon = unit.source === 'emoji' || head.kind === 'emoticon' || (unit.end - unit.start === 1 && head.pos === 'INTJ')
        let words = isIcon ? opts.window : 0
        let j = unit.start - 1
        const sentenceStart = doc.sentences[(tokens[unit.start] as Token).sentence]?.tokenStart ?? 0
        // "could have been better", "couldn't be happier": the modal decides below; its own negator is no negation.
        const modal = isIcon ? undefined : modalComparative(unit.start, sentenceStart)
        while (j >= sentenceStart && words < opts.window) {
          if (j === modal?.negator) {
            j--
            continue
          }
          const t = tokens[j] as Token
          if (CLAUSE_BREAK.test(t.text)) break
          // An exclamative after a verb of believing or telling ("can't believe how bad ...") closes the scope.
          if ((t.normal === 'how' || t.normal === 'what') && exclamativeAfterVerb(j)) break
          const ui = unitAt[j] ?? -1
          const prev = ui >= 0 ? units[ui] : undefined
          if (prev !== undefined && prev.kind === 'contrast') break
          // Articles do not count towards the window ("wouldn't be such a bad idea").
          if (prev === undefined && t.pos === 'DET' && ARTICLES.has(t.normal)) {
            j--
            continue
          }
          words++
          const damp = words === 1 ? 1 : words === 2 ? 0.95 : 0.9
          if (prev !== undefined && prev.kind === 'modifier' && prev.modifier !== undefined) {
            const f = prev.modifier.factor
            let factor = 1 + (f - 1) * damp
            if (f > 1 && capsDifferential && tokensAllCaps(prev.start, prev.end)) factor += 0.2
            v *= factor
            if (f > 1 && intensifiedBy[u] === undefined) intensifiedBy[u] = textOf(prev.start, prev.end)
          } else if (prev !== undefined && prev.kind === 'negator' && modalExcess(prev, unit)) {
            // "I can't recommend it enough": nothing could be more so.
            v *= MODAL_BEST_FACTOR
            modalNegators.push(prev.start)
          } else if (
            prev !== undefined &&
            (prev.kind === 'negator' || prev.negates === true) &&
            !neverSoBefore(unit.start, prev) &&
            !rhetoricalWho(prev)
          ) {
            v *= opts.negationFactor
            if (negatedBy[u] === undefined) negatedBy[u] = textOf(prev.start, prev.end)
          }
          if (prev !== undefined) {
            // Count a multi-token unit as one word and continue before it.
            j = prev.start - 1
          } else {
            j--
          }
        }
        // A comparative after "could (have been)" weighs the text against what could be: "It could have been better",
        // "The room could be cleaner" say it was not good, not clean (and "It could have been worse", not bad); negated,
        // nothing could be more so: "The staff couldn't have been friendlier", "It could not be easier" are the best.
        if (modal !== undefined) {
          if (modal.negator >= 0) {
            v *= MODAL_BEST_FACTOR
            modalNegators.push(modal.negator)
          } else {
            modalNegated.push(unit.start)
            v *= opts.negationFactor
            if (negatedBy[u] === undefined) negatedBy[u] = textOf(modal.verb, modal.verb + 1)
          }
        }
        // A counterfactual wish says the evaluation does not hold: "I wish the staff were friendlier", "If only the room
        // had been cleaner" (not "I wish you a happy birthday"). Wished away, a negated one holds: "I wish it wasn't so
        // expensive" finds it expensive (the two negations cancel). A wished modal comparative ("I wish it could have
        // been cleaner") is the modal's to read; the wish is no kind word there either.
        const wish = isIcon ? -1 : counterfactualWish(unit.start)
        if (wish >= 0) {
          if (modal === undefined) {
            v *= opts.negationFactor
            negatedBy[u] = negatedBy[u] === undefined ? textOf(wish, wish + 1) : undefined
          }
          // Nor is the "wish" itself a kind word there.
          const w = unitAt[wish] ?? -1
          if (w >= 0 && units[w]?.kind === 'sentiment' && units[w]?.start === wish) valence[w] = 0
        }
        valence[u] = v
      }

      // 3. Contrast: the first contrastive conjunction of a sentence reweights its clauses.
      const weightOfToken = new Float64Array(n).fill(1)
      const scaleRange = (a: number, b: number, f: number): void => {
        for (let i = a; i < b; i++) weightOfToken[i] = (weightOfToken[i] ?? 1) * f
      }
      for (const s of doc.sentences) {
        let c: Unit | undefined
        for (let i = s.tokenStart; i < s.tokenEnd; i++) {
          const ui = unitAt[i] ?? -1
          const u = ui >= 0 ? units[ui] : undefined
          if (u !== undefined && u.kind === 'contrast') {
            c = u
            break
          }
        }
        if (c === undefined || c.contrast === undefined) continue
        const { before, after } = c.contrast
        const first = firstWord(s.tokenStart, s.tokenEnd)
        if (c.start === first) {
          if (after < 1) {
            // "Although X, Y": the subordinate clause X is weakened, Y strengthened.
            const comma = findComma(c.end, s.tokenEnd)
            for (let i = c.end; i < s.tokenEnd; i++) weightOfToken[i] = i < comma ? after : before
          } else {
            // "But Y." after a sentence: that sentence is weakened, this one strengthened.
            const prevS = doc.sentences[s.index - 1]
            if (prevS !== undefined) scaleRange(prevS.tokenStart, prevS.tokenEnd, before)
            scaleRange(c.end, s.tokenEnd, after)
          }
        } else {
          scaleRange(s.tokenStart, c.start, before)
          scaleRange(c.end, s.tokenEnd, after)
        }
      }
      for (let u = 0; u < units.length; u++) {
        const unit = units[u] as Unit
        if (unit.kind === 'sentiment') valence[u] = (valence[u] ?? 0) * (weightOfToken[unit.start] ?? 1)
      }

      // 4. Token valences (a phrase's valence shared among its tokens) and phrases.
      const tokenValence = new Float64Array(n)
      const tokenScores: number[] = new Array<number>(n).fill(0)
      const phrases: DetectedPhrase[] = []
      let posSum = 0
      let negSum = 0
      let posCount = 0
      let negCount = 0
      let negatedCount = 0
      let iconCount = 0
      for (let u = 0; u < units.length; u++) {
        const unit = units[u] as Unit
        if (unit.kind !== 'sentiment') continue
        const v = valence[u] ?? 0
        const sc = round(clamp1(v / 4))
        for (let k = unit.start; k < unit.end; k++) {
          tokenValence[k] = v / (unit.end - unit.start)
          tokenScores[k] = sc
        }
        if (v > 0) {
          posSum += v
          posCount++
        } else if (v < 0) {
          negSum += v
          negCount++
        }
        const neg = negatedBy[u]
        const int = intensifiedBy[u]
        if (neg !== undefined) negatedCount++
        if (unit.source === 'emoji' || (tokens[unit.start] as Token).kind !== 'word') iconCount++
        phrases.push({
          tokenStart: unit.start,
          tokenEnd: unit.end,
          title: textOf(unit.start, unit.end),
          source: unit.source ?? 'lexicon',
          sentiment_score: sc,
          sentiment_polarity: polarityOf(sc),
          is_negated: neg !== undefined,
          ...(neg !== undefined ? { negating_phrase: neg } : {}),
          is_intensified: int !== undefined,
          ...(int !== undefined ? { intensifying_phrase: int } : {}),
        })
      }

      // 5. Sentences and document.
      const exclamationsIn = (a: number, b: number): number => {
        let e = 0
        for (let i = a; i < b; i++) {
          const t = tokens[i] as Token
          if (t.kind === 'punctuation' || t.kind === 'symbol') for (const ch of t.text) if (ch === '!') e++
        }
        return Math.min(e, 4)
      }
      const questionsIn = (a: number, b: number): number => {
        let q = 0
        for (let i = a; i < b; i++) for (const ch of (tokens[i] as Token).text) if (ch === '?') q++
        return q
      }
      // VADER's punctuation emphasis: '!' (up to 4) and '??'+ push the sum away from zero.
      const emphasised = (sum: number, a: number, b: number): number => {
        if (sum === 0) return 0
        const q = questionsIn(a, b)
        const amp = exclamationsIn(a, b) * opts.exclamationBoost + (q > 1 ? (q <= 3 ? q * 0.18 : 0.96) : 0)
        return sum + Math.sign(sum) * amp
      }
      const rawSpan = (a: number, b: number): number => {
        let sum = 0
        for (let i = Math.max(0, a); i < Math.min(n, b); i++) sum += tokenValence[i] ?? 0
        return normalize(emphasised(sum, a, b))
      }
      const sentences: SentenceSentimentResult[] = []
      const sentenceRaw: number[] = []
      let lastSentence = 0
      let minSentence = 0
      let maxSentence = 0
      for (const s of doc.sentences) {
        const raw = rawSpan(s.tokenStart, s.tokenEnd)
        const sc = round(raw)
        let hasPhrase = false
        for (let i = s.tokenStart; i < s.tokenEnd && !hasPhrase; i++) if ((tokenValence[i] ?? 0) !== 0) hasPhrase = true
        sentenceRaw.push(sc)
        if (hasPhrase) lastSentence = raw
        minSentence = Math.min(minSentence, raw)
        maxSentence = Math.max(maxSentence, raw)
        sentences.push({
          index: s.index,
          sentiment_score: sc,
          sentiment_polarity: polarityOf(sc),
          is_polar: hasPhrase && Math.abs(sc) >= opts.polarThreshold,
        })
      }
      const lexiconRaw = rawSpan(0, n)
      const lexicon_score = round(lexiconRaw)
      const features: LexiconFeatures = {
        compound: lexiconRaw,
        positive: posSum / 4,
        negative: negSum / 4,
        positiveCount: posCount,
        negativeCount: negCount,
        negatedCount,
        lastSentence,
        minSentence,
        maxSentence,
        exclamations: exclamationsIn(0, n),
        words: wordCount,
        icons: iconCount,
        capsWords: capsCount,
        nameWords,
        ...(modalNegators.length > 0 ? { modalNegators: ascending(modalNegators) } : {}),
        ...(modalNegated.length > 0 ? { modalNegated: ascending(modalNegated) } : {}),
        ...(negativeNegators.length > 0 ? { negativeNegators: ascending(negativeNegators) } : {}),
        ...(praiseNegated.length > 0 ? { praiseNegated: ascending(praiseNegated) } : {}),
      }
      let sentiment_score = lexicon_score
      let model_sentiment: ModelSentiment | undefined
      if (model !== undefined) {
        const out = model.predict(doc, features)
        model_sentiment = out.model_sentiment
        sentiment_score = round(clamp1(out.calibrated))
        // Neutral is an answer: without lexicon evidence (no sentiment word, phrase, emoji or emoticon) the
        // model's words must set one polar class clearly above the other ("An utterly tedious, lifeless
        // film.": 0.67 / 0.27), else the text scores 0 ("The meeting is on Tuesday.": 0.54 / 0.35).
        const [pNeg = 0, , pPos = 0] = out.probabilities
        if (posCount + negCount + iconCount === 0 && Math.abs(pPos - pNeg) < NO_EVIDENCE_MARGIN) sentiment_score = 0
      }

      const possiblePhrases = findPossible()
      const contrastTokens = new Set<number>()
      for (const u of units) if (u.kind === 'contrast') contrastTokens.add(u.start)
      const evidence = { doc, phrases, contrastTokens, sentenceScores: sentenceRaw }
      const mentionScores = new Map<number, number>()

      return {
        tokenScores,
        phrases,
        possiblePhrases,
        sentences,
        sentiment_score,
        sentiment_polarity: polarityOf(sentiment_score),
        lexicon_score,
        features,
        ...(model_sentiment !== undefined ? { model_sentiment } : {}),
        spanSentiment(a, b) {
          if (!Number.isInteger(a) || !Number.isInteger(b) || a < 0 || b > n || a > b) {
            throw new RangeError(`span [${a}, ${b}) should lie within the document's ${n} tokens`)
          }
          return round(rawSpan(a, b))
        },
        contrastTokens,
        aspectSentiment(spans, options = {}) {
          if (spans.length === 0) return 0
          // Names (entities) take a polarity only from the lexicon's evaluative words (see aspectMentionScore).
          const names = options.names === true
          let sum = 0
          if (aspectModel === undefined) {
            const seen = [...new Set(spans.map((sp) => (tokens[sp.tokenStart] as Token).sentence))]
            for (const i of seen) sum += sentenceRaw[i] ?? 0
            return round(sum / seen.length)
          }
          for (const sp of spans) {
            // Themes ranking and entity themes ask for the same spans again: score each span once per document.
            const key = (sp.tokenStart * (n + 1) + sp.tokenEnd) * 2 + (names ? 1 : 0)
            let v = mentionScores.get(key)
            if (v === undefined) {
              v = aspectMentionScore(aspectModel, evidence, sp, names ? { wordsOnly: false } : {})
              mentionScores.set(key, v)
            }
            sum += v
          }
          return round(sum / spans.length)
        },
        sentenceSentiment(i) {
          const v = sentenceRaw[i]
          if (!Number.isInteger(i) || v === undefined) {
            throw new RangeError(`sentence index ${i} should be an integer within 0..${sentenceRaw.length - 1}`)
          }
          return v
        },
        polarityOf,
      }

      // --- helpers closing over this document ---

      function textOf(a: number, b: number): string {
        const first = tokens[a]
        const last = tokens[b - 1]
        return first === undefined || last === undefined ? '' : doc.text.slice(first.start, last.end)
      }

      function tokensAllCaps(a: number, b: number): boolean {
        for (let i = a; i < b; i++) {
          const t = tokens[i] as Token
          if (isWord(t) && !isAllCaps(t.text)) return false
        }
        return true
      }

      function firstWord(a: number, b: number): number {
        for (let i = a; i < b; i++) if (!CLAUSE_BREAK.test((tokens[i] as Token).text)) return i
        return b
      }

      function findComma(a: number, b: number): number {
        for (let i = a; i < b; i++) if (/^[,;:]$/.test((tokens[i] as Token).text)) return i
        return b
      }

      function matchAt(i: number, end: number): Unit | undefined {
        const t = tokens[i] as Token
        if (t.kind === 'emoji') {
          const e = lexicon.emoji.get(t.text.replace(/\ufe0f/g, ''))
          return e === undefined ? undefined : { kind: 'sentiment', start: i, end: i + 1, source: 'emoji', weight: e.weight }
        }
        if (t.kind === 'tabCRLF' || t.kind === 'space') return undefined
        // Emoticons the tokenizer split ("=)", "-_-", "o_O"): glue tokens written without spaces.
        // A glued key is unescapeHtml(lower case) of text holding a character that is no letter or digit, so it holds
        // one too and begins with the lower case of this token's first character (or with what an escape gives).
        const c0 = t.text.charCodeAt(0)
        const mayGlue = t.text.length === 0 || c0 === 38 /* & */ || (c0 >= 0xd800 && c0 <= 0xdfff) || glueStarts.has(t.text.charAt(0).toLowerCase().charAt(0))
        if (mayGlue && tokens[i + 1] !== undefined && !(tokens[i + 1] as Token).spaceBefore && (t.spaceBefore || i === 0 || !/[\p{L}\p{N}]$/u.test((tokens[i - 1] as Token).text))) {
          let glued = t.text
          let best: Unit | undefined
          for (let k = i + 1; k < Math.min(end, i + 4); k++) {
            const nt = tokens[k] as Token
            if (nt.spaceBefore || nt.kind === 'tabCRLF') break
            glued += nt.text
            const after = tokens[k + 1]
            if (after !== undefined && !after.spaceBefore && /[\p{L}\p{N}]/u.test(after.text)) continue
            // Emoticons escaped as HTML ("&lt;3" is "<3").
            const w = /^[\p{L}\p{N}]+$/u.test(glued) ? undefined : lexicon.words.get(unescapeHtml(glued.toLowerCase()))
            if (w !== undefined && glued.length >= 2) best = { kind: 'sentiment', start: i, end: k + 1, source: 'lexicon', weight: w.weight }
          }
          if (best !== undefined) return best
        }
        // Multi-word keys are tried only where one can start (their first word is indexed once per scorer).
        const canStartPhrase =
          multiWordStarts.has(keysNormal[i] ?? '') || multiWordStarts.has(keysLemma[i] ?? '') || user.starts.has(keysNormal[i] ?? '') || user.starts.has(keysLemma[i] ?? '')
        // Most tokens: no phrase starts here and the token alone is no key (nor an emoticon, looked up apart): nothing
        // below can match, so neither the name test nor the key lookups run.
        if (!canStartPhrase && t.kind !== 'emoticon') {
          const kn = keysNormal[i] ?? ''
          const kl = t.pos === 'PROPN' ? kn : (keysLemma[i] ?? '')
          if (!lexiconKeys.has(kn) && !user.map.has(kn) && (kl === kn || (!lexiconKeys.has(kl) && !user.map.has(kl)))) {
            const pw = predicateWeight(i)
            return pw === undefined ? undefined : { kind: 'sentiment', start: i, end: i + 1, source: 'lexicon', weight: pw }
          }
        }
        // A word of a name ("Fantastic Four", "Super Bowl", "Miss Marple", "Concord, NH") is no evaluation:
        // it matches nothing, unless the whole name is a lexicon or user phrase (tried first, below).
        const named = inName(i)
        // The longest span whose first words (all normals, or all lemmas) begin some key: no longer one can match.
        let maxLen = 1
        if (canStartPhrase) {
          const limit = Math.min(Math.max(lexicon.maxLength, user.maxLength), end - i)
          let pn = keysNormal[i] ?? ''
          let pl = keysLemma[i] ?? ''
          let okN = true
          let okL = true
          for (let len = 2; len <= limit; len++) {
            okN &&= lexiconPrefixes.has(pn) || user.prefixes.has(pn)
            okL &&= lexiconPrefixes.has(pl) || user.prefixes.has(pl)
            if (!okN && !okL) break
            maxLen = len
            pn += ' ' + (keysNormal[i + len - 1] ?? '')
            pl += ' ' + (keysLemma[i + len - 1] ?? '')
          }
        }
        for (let len = maxLen; len >= (named ? 2 : 1); len--) {
          // Phrases do not run across clause punctuation (a single punctuation token may be an emoticon).
          if (len > 1 && spansBreak(i, i + len)) continue
          const kn = len === 1 ? (keysNormal[i] ?? '') : keysNormal.slice(i, i + len).join(' ')
          // Lemma-aware, except for proper nouns ("Braves" is not "brave").
          let hasPropn = false
          for (let k = i; k < i + len; k++) if ((tokens[k] as Token).pos === 'PROPN') hasPropn = true
          const kl = hasPropn ? kn : len === 1 ? (keysLemma[i] ?? '') : keysLemma.slice(i, i + len).join(' ')
          const listed = lexiconKeys.has(kn) || user.map.has(kn) || (kl !== kn && (lexiconKeys.has(kl) || user.map.has(kl)))
          const keys = !listed ? [] : kn === kl ? [kn] : [kn, kl]
          for (const key of keys) {
            const up = user.map.get(key)
            if (up !== undefined) return { kind: 'sentiment', start: i, end: i + len, source: 'user', weight: up.weight }
          }
          for (const key of keys) {
            const id = lexicon.idioms.get(key)
            if (id !== undefined) return { kind: 'sentiment', start: i, end: i + len, source: 'idiom', weight: id.weight }
            if (lexicon.negators.has(key)) {
              const w = lexicon.words.get(key)
              return w === undefined
                ? { kind: 'negator', start: i, end: i + len }
                : { kind: 'sentiment', start: i, end: i + len, source: 'lexicon', weight: w.weight, negates: true }
            }
            const m = lexicon.modifiers.get(key)
            // A modifier that ends up modifying nothing becomes a sentiment word later, if the lexicon has it.
            if (m !== undefined) return { kind: 'modifier', start: i, end: i + len, modifier: m }
            const c = lexicon.contrasts.get(key)
            if (c !== undefined) return { kind: 'contrast', start: i, end: i + len, contrast: c }
          }
          for (const key of keys) {
            const w = lexicon.words.get(key)
            if (w === undefined) continue
            if (len === 1 && t.kind === 'word' && (SKIP_POS.has(t.pos) || /^\p{L}$/u.test(t.text))) continue
            if (len === 1 && (t.pos === 'NOUN' || t.pos === 'PROPN') && NEUTRAL_AS_NOUN.has(key)) continue
            if (len === 1 && !isStandalone(i)) continue
            if (len === 1 && (inCompound(i) || isPossessor(i))) continue
            // A function-word reading ("seems like it", "like a movie") keeps a weakened weight.
            const fw = len === 1 && t.kind === 'word' && FUNCTION_POS.has(t.pos) ? FUNCTION_WORD_FACTOR : 1
            return { kind: 'sentiment', start: i, end: i + len, source: 'lexicon', weight: w.weight * fw }
          }
          // Emoticons keep their case-sensitive text (":D"); the table is lower-cased.
          if (len === 1 && t.kind === 'emoticon' && isStandalone(i)) {
            const w = lexicon.words.get(t.text.toLowerCase())
            if (w !== undefined) return { kind: 'sentiment', start: i, end: i + 1, source: 'lexicon', weight: w.weight }
          }
        }
        if (named) nameWords.push(i)
        return undefined
      }

      // The valence of a predicate word (`predicates`) at token i said of something: an adjective after a linking verb ("was",
      // "seemed", "tasted"), with at most three adverbs, negators or degree words between ("was not slow", "were a bit
      // small", "is way too expensive"), and no noun after it ("was a small hotel", "is slow cooking": said of that
      // noun, which may be no judgement). Else undefined.
      function predicateWeight(i: number): number | undefined {
        const t = tokens[i] as Token
        // Besides adjectives, a word of the table the tagger reads as a verb ("dated", "The service was prompt.") or an
        // adverb ("The laptop is fast.") after the linking verb, where no verb follows it ("is fast approaching").
        const offTag = (t.pos === 'ADV' || t.pos === 'VERB') && predicates.has(t.normal)
        if (t.kind !== 'word' || !(t.pos === 'ADJ' || offTag)) return undefined
        // "too" before an adjective the lexicon does not judge says there is too much of it: "The price is too high.", "The
        // bed was too soft." (not "too good", the lexicon's; "not too high" is negated as any phrase).
        const before = previousWord(i)?.normal
        const w = predicates.get(t.normal) ?? (t.pos === 'ADJ' && before === 'too' ? TOO_MUCH : undefined)
        // "just as fast with one program open as with sixteen", "as small as": a comparison, no judgement.
        if (w === undefined || before === 'as') return undefined
        let k = i + 1
        while (k < n && ((tokens[k] as Token).kind === 'space' || (tokens[k] as Token).kind === 'tabCRLF')) k++
        const next = tokens[k]
        if (next !== undefined && next.sentence === t.sentence && (next.pos === 'NOUN' || next.pos === 'PROPN' || next.pos === 'ADJ' || (offTag && (next.pos === 'VERB' || next.pos === 'AUX')))) return undefined
        let between = 0
        for (let j = i - 1; j >= 0; j--) {
          const p = tokens[j] as Token
          if (p.kind === 'space' || p.kind === 'tabCRLF') continue
          if (p.sentence !== t.sentence) return undefined
          // A clitic "'s", "'re", "'m" written apart ("it 's slow") is tagged a particle: "be" all the same.
          if (((p.pos === 'AUX' || p.pos === 'VERB') && LINKING_VERBS.has(p.lemma)) || CLITIC_BE.has(p.normal)) return w
          if (between === 3 || !(p.pos === 'ADV' || p.pos === 'PART' || DEGREE_WORDS.has(p.normal))) return undefined
          between++
        }
        return undefined
      }

      // The word before token i in its sentence (spaces aside), if any.
      function previousWord(i: number): Token | undefined {
        const t = tokens[i] as Token
        for (let j = i - 1; j >= 0; j--) {
          const p = tokens[j] as Token
          if (p.kind === 'space' || p.kind === 'tabCRLF') continue
          return p.sentence === t.sentence ? p : undefined
        }
        return undefined
      }

      // Whether token i is a word of a name: a capitalised word, not opening its sentence or clause, in a sentence whose
      // content words are not all capitalised (a title), that is a proper noun or stands next to another
      // capitalised word ("Fantastic Four", "Chief Justice", "Miss Marple", "Marvel comics"); or a US postal
      // code in capitals ("NH", "TX"; one that is also a word, "OK", only as "City, OK" or before a ZIP code).
      function inName(i: number): boolean {
        const t = tokens[i] as Token
        if (t.kind !== 'word' || !/^\p{Lu}/u.test(t.text)) return false
        // A known name is a name wherever it stands, also where it opens its sentence ("Super Bowl tickets are on sale.").
        knownNameAt ??= knownNameTokens(tokens, knownNames)
        if (knownNameAt.has(i)) return true
        const sentence = doc.sentences[t.sentence]
        if (sentence === undefined) return false
        const prev = tokens[i - 1]
        const next = tokens[i + 1]
        // Opening a sentence or a clause (after punctuation, a @mention, an emoji): capitals are no sign of a name.
        const opens = (k: number): boolean => {
          const p = tokens[k - 1]
          return p === undefined || p.sentence !== (tokens[k] as Token).sentence || p.kind !== 'word'
        }
        // A postal code that is no English word is a place wherever it stands ("NH primary results tonight").
        if (isAllCaps(t.text) && t.text.length === 2 && POSTAL_CODES.has(t.text) && !WORD_CODES.has(t.text)) return true
        // A name closed by a number word stays a name where it opens the sentence ("Fantastic Four opens today",
        // "Magnificent Seven"): no evaluation is written with a capitalised number after it.
        // ("Great Four Seasons hotel": the number opens another name, and "Great" evaluates it.)
        if (opens(i) && next !== undefined && next.kind === 'word' && next.sentence === t.sentence && next.pos === 'NUM' && /^\p{Lu}\p{Ll}+$/u.test(next.text) &&
          /^\p{Lu}\p{Ll}/u.test(t.text) && !/^\p{Lu}/u.test(tokens[i + 2]?.text ?? '')) return true
        if (opens(i) && !(isAllCaps(t.text) && prev?.text === ',')) return false
        if (isAllCaps(t.text)) {
          if (t.text.length !== 2 || !POSTAL_CODES.has(t.text)) return false
          const afterCity = prev !== undefined && prev.text === ',' && /^\p{Lu}\p{Ll}/u.test(tokens[i - 2]?.text ?? '')
          return afterCity || (next !== undefined && /^\d{5}$/.test(next.text))
        }
        let lowerContent = lowerContentOf[t.sentence]
        if (lowerContent === undefined) {
          lowerContent = false
          for (let k = sentence.tokenStart; k < sentence.tokenEnd && !lowerContent; k++) {
            const w = tokens[k] as Token
            if (w.kind === 'word' && CONTENT_POS.has(w.pos) && /^\p{Ll}/u.test(w.text)) lowerContent = true
          }
          lowerContentOf[t.sentence] = lowerContent
        }
        if (!lowerContent) return false
        if (t.pos === 'PROPN') return true
        const capital = (w: Token | undefined): boolean =>
          w !== undefined && w.kind === 'word' && w.sentence === t.sentence && /^\p{Lu}\p{Ll}/u.test(w.text) && !opens(w.index)
        return capital(prev) || capital(next)
      }

      // The "wish" (or the "only" of "if only") of a counterfactual wish that governs the clause before `start`, or -1:
      // walking back over the same clause, a verb form of COUNTERFACTUAL_VERBS, then within five words before it "wish"
      // (a verb) or "if only" ("I wish I could say it was great"). "would" and "could" wish a state ("would be
      // nicer", "could have been better"), not an act: "I wish he would make one more awesome film" praises the films,
      // and "I wish they would fix the awful wifi" finds it awful.
      function counterfactualWish(start: number): number {
        const sentenceStart = doc.sentences[(tokens[start] as Token).sentence]?.tokenStart ?? 0
        let verbAt = -1
        for (let j = start - 1; j >= sentenceStart && start - j <= 6; j--) {
          const t = tokens[j] as Token
          if (CLAUSE_BREAK.test(t.text) || units[unitAt[j] ?? -1]?.kind === 'contrast') return -1
          if (COUNTERFACTUAL_VERBS.has(t.normal)) {
            verbAt = j
            break
          }
        }
        if (verbAt < 0) return -1
        if (MODAL_WISHES.has((tokens[verbAt] as Token).normal)) {
          let k = verbAt + 1
          while (k < start && ((tokens[k] as Token).pos === 'ADV' || (tokens[k] as Token).pos === 'PART')) k++
          const next = tokens[k]
          if (next === undefined || k >= start || (next.lemma !== 'be' && next.lemma !== 'have')) return -1
        }
        for (let j = verbAt - 1; j >= sentenceStart && verbAt - j <= 5; j--) {
          const t = tokens[j] as Token
          if (CLAUSE_BREAK.test(t.text)) return -1
          if ((t.lemma === 'wish' && t.pos === 'VERB') || (t.normal === 'only' && tokens[j - 1]?.normal === 'if')) return j
        }
        return -1
      }

      // The modal of a comparative evaluation that starts at `start` ("better", "cleaner", "more helpful"), or undefined:
      // walking back over adverbs and "any", "have been" or "be", or a verb and at most MODAL_OBJECT_WORDS words of its
      // object, "have" or none ("asked for a better", "done a better", "get any better"), then a negator or none, then
      // "could" or "can" ("could have been better", "couldn't be any happier", "could hardly be better": a one-word
      // negator of the lexicon; "couldn't have asked for a better stay", "can't get any better", "could have done a
      // better job"). Without a negator, a verb other than "be" reads as a judgement only in the perfect ("could have
      // done better"): "Now I can sleep better" tells of an ability. `verb`: the modal's token, `negator`: its
      // negator's, or -1.
      function modalComparative(start: number, sentenceStart: number): { verb: number; negator: number } | undefined {
        const head = tokens[start] as Token
        const modifier = head.pos === 'ADJ' || head.pos === 'ADV'
        const before = tokens[start - 1]
        // "more helpful"; "better" whatever its tag ("any better" reads as a noun); "friendlier" (lemma "friendly").
        const analytic = modifier && before !== undefined && start - 1 >= sentenceStart && (before.normal === 'more' || before.normal === 'less')
        if (!analytic && !COMPARATIVES.has(head.normal) && !(modifier && head.normal.endsWith('er') && head.lemma !== head.normal)) return undefined
        let j = (analytic ? start - 1 : start) - 1
        // A one-word negator of the lexicon ("not", "n't", "never", "hardly").
        const negatorAt = (k: number): boolean => {
          const unit = units[unitAt[k] ?? -1]
          return unit !== undefined && unit.kind === 'negator' && unit.start === k && unit.end === k + 1
        }
        const skip = (): void => {
          while (j >= sentenceStart && ((tokens[j] as Token).normal === 'any' || ((tokens[j] as Token).pos === 'ADV' && !negatorAt(j)))) j--
        }
        skip()
        if (j < sentenceStart) return undefined
        // "been", "be" or a verb with at most MODAL_OBJECT_WORDS words of its object before the comparative.
        const copula = (tokens[j] as Token).normal === 'been' || (tokens[j] as Token).normal === 'be'
        if (!copula) {
          for (let words = 0; words < MODAL_OBJECT_WORDS && j >= sentenceStart && (MODAL_OBJECT_POS.has((tokens[j] as Token).pos) || DEMONSTRATIVES.has((tokens[j] as Token).normal)) && !negatorAt(j); words++) {
            j--
            skip()
          }
          const verb = tokens[j]
          if (j < sentenceStart || verb === undefined || !(verb.pos === 'VERB' || (verb.pos === 'AUX' && (verb.lemma === 'get' || verb.lemma === 'do')))) return undefined
        }
        const been = (tokens[j] as Token).normal === 'been'
        j--
        skip()
        // "have" before it: a past that could have gone otherwise ("been" has one).
        const perfect = j >= sentenceStart && HAVE_FORMS.has((tokens[j] as Token).normal)
        if (been && !perfect) return undefined
        if (perfect) {
          j--
          skip()
        }
        let negator = -1
        if (j >= sentenceStart && negatorAt(j)) {
          negator = j
          j--
          skip()
        }
        if (!copula && negator < 0 && !perfect) return undefined
        return j >= sentenceStart && MODAL_COMPARISON_VERBS.has((tokens[j] as Token).normal) ? { verb: j, negator } : undefined
      }

      // Whether the "how" or "what" at j follows a verb of EXCLAMATIVE_VERBS, directly or after its object pronoun
      // ("believe how", "tell you how").
      function exclamativeAfterVerb(j: number): boolean {
        const before = tokens[j - 1]
        if (before === undefined || before.sentence !== (tokens[j] as Token).sentence) return false
        if (EXCLAMATIVE_VERBS.has(before.lemma)) return true
        const verb = tokens[j - 2]
        return before.pos === 'PRON' && verb !== undefined && verb.sentence === before.sentence && EXCLAMATIVE_VERBS.has(verb.lemma)
      }

      // A symbol-only token (emoticon) glued to a preceding word is part of something else ("http://");
      // a word glued to "&" is an HTML entity.
      function isStandalone(i: number): boolean {
        const t = tokens[i] as Token
        const prev = tokens[i - 1]
        // "&gt;" and "&amp;" are markup, not words.
        if (prev !== undefined && prev.text.endsWith('&') && !t.spaceBefore) return false
        if (/\p{L}/u.test(t.text) && t.kind === 'word') return true
        if (prev === undefined || t.spaceBefore || prev.sentence !== t.sentence) return true
        return !/[\p{L}\p{N}]$/u.test(prev.text)
      }

      // "I can't recommend this place enough", "couldn't recommend it more highly", "can't say enough good things": a
      // one-word negator after "can" or "could" with "enough" or "more" between it and MODAL_EXCESS_WORDS words after the
      // evaluation, in its clause, says that no amount would be too much; the evaluation holds, at its most.
      function modalExcess(negator: Unit, unit: Unit): boolean {
        const modal = tokens[negator.start - 1]
        if (negator.end !== negator.start + 1 || modal === undefined || modal.sentence !== (tokens[negator.start] as Token).sentence) return false
        if (!MODAL_COMPARISON_VERBS.has(modal.normal)) return false
        const last = Math.min(n - 1, unit.end - 1 + MODAL_EXCESS_WORDS)
        for (let k = negator.end; k <= last; k++) {
          const t = tokens[k] as Token
          if (t.sentence !== modal.sentence || CLAUSE_BREAK.test(t.text)) return false
          if (t.normal === 'enough' || (t.normal === 'more' && k >= unit.end)) return true
        }
        return false
      }

      // VADER's "never so good" rule: "so"/"this" right before the phrase emphasises rather than being
      // negated when the negator is "never" two words back or any negator three words back
      // ("never so happy", "haven't been this sore"); "not so bad" stays negated.
      function neverSoBefore(start: number, negator: Unit): boolean {
        const before = tokens[start - 1]
        if (before === undefined || (before.normal !== 'so' && before.normal !== 'this') || start - 1 < negator.end) return false
        const gap = start - negator.end // words between the negator and the phrase
        return gap >= 2 || keysNormal.slice(negator.start, negator.end).join(' ') === 'never'
      }

      // "Who doesn't love birthdays?", "Seriously, who wouldn't like free food?": a question that opens its clause with
      // "who" and an auxiliary the negator follows says that everyone does; the negator does not turn the evaluation
      // round. Not a relative "who" ("people who don't like change": a word before it) nor a statement (no "?").
      function rhetoricalWho(negator: Unit): boolean {
        const aux = tokens[negator.start - 1]
        const who = tokens[negator.start - 2]
        if (aux === undefined || who === undefined || who.normal !== 'who' || !RHETORICAL_AUXILIARIES.has(aux.normal)) return false
        const before = tokens[who.index - 1]
        if (before !== undefined && before.sentence === who.sentence && before.kind === 'word') return false
        const s = doc.sentences[who.sentence]
        if (s === undefined) return false
        for (let k = negator.end; k < s.tokenEnd; k++) if ((tokens[k] as Token).text.includes('?')) return true
        return false
      }

      // A noun followed by a possessive "'s" names an owner ("Blockbuster's stock"), not an evaluation.
      function isPossessor(i: number): boolean {
        const t = tokens[i] as Token
        const next = tokens[i + 1]
        return (t.pos === 'PROPN' || t.pos === 'NOUN') && next !== undefined && !next.spaceBefore && /^['\u2019]s$/i.test(next.text)
      }

      // Part of a hyphenated compound ("tax-the-rich", "mock-ups"): the word is not used on its own.
      function inCompound(i: number): boolean {
        const prev = tokens[i - 1]
        const next = tokens[i + 1]
        const t = tokens[i] as Token
        return (
          (prev !== undefined && prev.text === '-' && !t.spaceBefore && !prev.spaceBefore) ||
          (next !== undefined && next.text === '-' && !next.spaceBefore && !(tokens[i + 2]?.spaceBefore ?? true))
        )
      }

      function spansBreak(a: number, b: number): boolean {
        for (let k = a; k < b; k++) {
          const t = tokens[k] as Token
          if (t.kind === 'punctuation' && t.text !== '-' && t.text !== "'") return true
        }
        return false
      }

      function findPossible(): PossiblePhrase[] {
        const out: PossiblePhrase[] = []
        const seen = new Set<string>()
        for (let i = 0; i < n; i++) {
          const t = tokens[i] as Token
          if (unitAt[i] !== -1 || t.kind !== 'word' || t.isStopWord || !/^[a-z][a-z-]{2,}$/.test(t.normal)) continue
          const isAdj = t.pos === 'ADJ'
          const isLyAdv = t.pos === 'ADV' && t.normal.endsWith('ly')
          if (!isAdj && !isLyAdv) continue
          if (lexicon.words.has(t.normal) || lexicon.words.has(t.lemma)) continue
          // Evaluative context: after a modifier/negator or a copular verb, or near a sentiment phrase.
          let evaluative = false
          const prev = tokens[i - 1]
          if (prev !== undefined && prev.sentence === t.sentence) {
            const pu = unitAt[i - 1] ?? -1
            const pk = pu >= 0 ? units[pu]?.kind : undefined
            if (pk === 'modifier' || pk === 'negator') evaluative = true
            if (isAdj && EVALUATIVE_VERBS.has(prev.lemma)) evaluative = true
          }
          for (let k = Math.max(0, i - 3); k <= Math.min(n - 1, i + 3) && !evaluative; k++) {
            if ((tokenValence[k] ?? 0) !== 0 && (tokens[k] as Token).sentence === t.sentence) evaluative = true
          }
          if (!evaluative) continue
          const key = t.lemma
          if (seen.has(key)) continue
          seen.add(key)
          out.push({
            tokenStart: i,
            tokenEnd: i + 1,
            title: t.text,
            sentiment_polarity: polarityOf(sentenceRaw[t.sentence] ?? 0),
          })
        }
        return out
      }
    },
  }
}

// The HTML escapes tweets carry in place of the characters emoticons are made of.
function unescapeHtml(s: string): string {
  if (!s.includes('&')) return s
  return s.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&').replace(/&quot;/g, '"')
}

function isWord(t: Token): boolean {
  return !NON_WORD_KINDS.has(t.kind) && /\p{L}/u.test(t.text)
}

/** Words of the unstretch memo before it is emptied (it caches a pure function; bounded for memory). */
const STRETCH_CACHE_LIMIT = 50_000

/** Lexicon valence of a predicate word per unit of its learned attribute weight (-1..1): "slow" -0.69 reads -1.38. */
const PREDICATE_SCALE = 2
/** Lexicon valence of an adjective the lexicon does not judge after "too", said of something ("the price is too high"). */
const TOO_MUCH = -1
/** The clitic forms of "be". */
const CLITIC_BE = new Set(["'s", "'re", "'m"])
/** Words of degree that may stand between a linking verb and its predicate besides adverbs ("a bit", "a little", "kind of"). */
const DEGREE_WORDS = new Set(['a', 'bit', 'little', 'tad', 'kind', 'sort', 'of', 'kinda', 'sorta', 'way'])

function isAllCaps(s: string): boolean {
  // Python's isupper on a word of at least two letters: capitals and no lower-case letter. ASCII text (most
  // tokens) is read by character codes, where \p{Lu} is A-Z and \p{Ll} is a-z; other text by the expressions.
  let upper = 0
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i)
    // (Also a line break: the expression's '.' does not cross it.)
    if (c >= 128 || c === 10 || c === 13) return /\p{Lu}.*\p{Lu}/u.test(s) && !/\p{Ll}/u.test(s)
    if (c >= 97 && c <= 122) {
      // A lower-case letter: never all capitals, whatever follows.
      return false
    }
    if (c >= 65 && c <= 90) upper++
  }
  return upper >= 2
}

interface UserTable {
  readonly map: ReadonlyMap<string, WeightedEntry>
  readonly maxLength: number
  /** First words of multi-word user phrases. */
  readonly starts: ReadonlySet<string>
  /** Every proper word prefix of multi-word user phrases. */
  readonly prefixes: ReadonlySet<string>
}

/** Validate user phrases (name of up to three words, weight -2..2) into a lookup on the lexicon scale. */
function userTable(phrases: readonly UserSentimentPhrase[]): UserTable {
  const map = new Map<string, WeightedEntry>()
  const starts = new Set<string>()
  const prefixes = new Set<string>()
  let maxLength = 0
  if (!Array.isArray(phrases)) throw new SentimentInputError('userPhrases should be an array of {name, weight}')
  phrases.forEach((p, i) => {
    const name: unknown = p?.name
    const weight: unknown = p?.weight
    if (typeof name !== 'string' || name.trim() === '') {
      throw new SentimentInputError(`userPhrases[${i}].name should be a non-empty string, instead found ${JSON.stringify(name)}`)
    }
    if (typeof weight !== 'number' || !Number.isFinite(weight) || weight < -2 || weight > 2) {
      throw new SentimentInputError(`userPhrases[${i}].weight should be a number within -2..2, instead found ${JSON.stringify(weight)}`)
    }
    const words = name.trim().split(/\s+/)
    if (words.length > 3) {
      throw new SentimentInputError(`userPhrases[${i}].name should have at most three words, instead found ${words.length}: "${name}"`)
    }
    const key = phraseKey(name)
    const length = key.split(' ').length
    maxLength = Math.max(maxLength, length)
    if (length > 1) starts.add(key.slice(0, key.indexOf(' ')))
    for (let at = key.indexOf(' '); at > 0; at = key.indexOf(' ', at + 1)) prefixes.add(key.slice(0, at))
    // User weights -2..2 map onto the lexicon scale -4..4, so weight 2 scores as strongly as the strongest word.
    map.set(key, { title: name, weight: weight * 2, length })
  })
  return { map, maxLength, starts, prefixes }
}
