import type { AnnotatedDocument } from '../nlp/types.ts'
import { UNSEEN_ZIPF, type Background } from './background.ts'
import type { ThemeSpan } from './candidates.ts'

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
 * Rank candidate phrases. Each word (by stem) gets a score from how often it occurs inside candidates and how
 * rare it is in everyday English (the background list), YAKE's and TF-IDF's two strongest signals; a phrase
 * sums its words' scores, divided by its length to the power `lengthNorm`, and is lifted by its own frequency, an
 * early first mention, names and spread. Ties break by first position, then key: the order is a pure function
 * of the document.
 */
export function rankCandidates(
  doc: AnnotatedDocument,
  spans: readonly ThemeSpan[],
  background: Background,
  w: ThemeWeights = DEFAULT_THEME_WEIGHTS,
): RankedCandidate[] {
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
  const out: RankedCandidate[] = []
  for (const [key, list] of groups) {
    const first = list[0]!
    const stems = key.split(' ')
    let sum = 0
    let properWords = 0
    for (let k = 0; k < stems.length; k++) {
      sum += specificity(first.words[k] ?? stems[k]!, first.proper[k] === true) * (1 + Math.log(wordFreq.get(stems[k]!) ?? 1))
      if (first.proper[k] === true) properWords++
    }
    const n = stems.length
    const firstAt = first.tokenStart / nTokens
    const s0 = doc.tokens[first.tokenStart]!.sentence
    const s1 = doc.tokens[list[list.length - 1]!.tokenStart]!.sentence
    const score =
      (sum / Math.pow(n, lengthNorm)) *
      (1 + phraseFrequency * Math.log(list.length)) *
      (1 + w.position * (1 - firstAt) * (1 - firstAt)) *
      (1 + (w.proper * properWords) / n) *
      (1 + (w.spread * (s1 - s0)) / nSentences) *
      (list.every((s) => s.isPart) ? (n > 1 ? w.partPhraseOnly : w.partOnly) : 1) *
      (n === 1 && list.length === 1 && properWords === 0 ? w.singleOnce : 1) *
      (n === 1 && properWords === 0 ? w.single : 1)
    out.push({ key, spans: list, score })
  }
  out.sort((a, b) => b.score - a.score || a.spans[0]!.tokenStart - b.spans[0]!.tokenStart || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0))
  return out
}

/**
 * Drop redundant themes: a single word that is a word of a better-ranked phrase, or a phrase holding a
 * better-ranked single word ("battery" after "battery life", or "battery life" after "battery"), is folded into it
 * (its occurrences at new places join the kept theme's, so mentions and sentiment still see them). Two phrases
 * of several words both stay ("neural network", "recurrent neural network"): on the keyphrase sets, people list
 * both (F1@10 0.294 against 0.267 when they are folded too, Inspec), unless every occurrence of the shorter one
 * lies inside an occurrence of the kept one ("new battery" and "battery life" of "new battery life"). Order is kept.
 */
export function removeRedundant(ranked: readonly RankedCandidate[], limit = Infinity): RankedCandidate[] {
  const kept: { key: string; padded: string; spans: ThemeSpan[]; score: number }[] = []
  for (const c of ranked) {
    const padded = ` ${c.key} `
    const single = !c.key.includes(' ')
    const into =
      kept.find((k) => (single || !k.key.includes(' ')) && (k.padded.includes(padded) || padded.includes(k.padded))) ??
      // A phrase seen only inside one kept theme's occurrences ("new battery" of "new battery life").
      kept.find((k) => k.padded.includes(padded) && c.spans.every((s) => k.spans.some((t) => t.tokenStart <= s.tokenStart && s.tokenEnd <= t.tokenEnd)))
    if (into !== undefined) {
      // Occurrences at new places only: "battery" inside "battery life" is already a mention of it.
      for (const s of c.spans) if (!into.spans.some((t) => s.tokenStart < t.tokenEnd && t.tokenStart < s.tokenEnd)) into.spans.push(s)
      continue
    }
    if (kept.length >= limit) continue
    kept.push({ key: c.key, padded, spans: [...c.spans], score: c.score })
  }
  return kept.map((k) => ({ key: k.key, spans: k.spans.sort((a, b) => a.tokenStart - b.tokenStart), score: k.score }))
}
