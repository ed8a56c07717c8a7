import type { AnnotatedDocument } from '../../nlp/types.ts'
import type { AutoCategory } from '../../model/output.ts'
import { normalize, rowDots, spanVector, type EmbedOptions, type Term, type TextVector } from '../../semantic/embed.ts'
import { DRIVER_SIMILARITY } from '../../semantic/concepts.ts'
import type { SemanticModel } from '../../semantic/index.ts'
import type { TaxonomyModelNode } from '../../semantic/taxonomy.ts'
import { headProbabilities } from '../../semantic/head.ts'
import { round4, type TokenRange } from '../spans.ts'
import { need } from '../pipeline.ts'
import type { Analyzer, SentimentSection } from '../types.ts'

/** Most sub-categories listed under one category. */
const CHILDREN_LIMIT = 3

/**
 * Temperature of the share each category takes among its siblings (in cosine units): a category 0.1 more similar
 * to the text than a sibling takes e^2 = 7.4 times its share.
 */
export const CATEGORY_TEMPERATURE = 0.05

/**
 * The confidence that a text is about the category it is ranked first for (0..1), the strength reported for that
 * category (`strength_score`; each other category gets it times its share relative to the first's, see
 * {@link rankCategories}). It is the largest of three readings, each linear between a floor (0) and a full
 * value (1):
 * - the raw cosine of the text with the category ({@link COSINE_FLOOR} .. {@link COSINE_FULL}), times the text's
 *   evidence mass up to {@link EVIDENCE_MASS} (a text of only common words, "What a day!", says too little);
 * - the word evidence ({@link nodeEvidence}: the summed weight x cosine of the text's words whose nearest
 *   taxonomy node lies in the category's subtree; {@link WORD_EVIDENCE_FLOOR} .. {@link WORD_EVIDENCE_FULL}): the
 *   cosine of a long text's mean vector is diluted by names and filler (match reports: cosine 0.16 to 0.29 with
 *   Sports while 13 to 24 units of their words are nearest a Sports node);
 * - the learned head's probability of the category ({@link HEAD_FLOOR} .. {@link HEAD_FULL}), times the
 *   evidence mass up to {@link HEAD_MASS}: headlines such as "Budget Cuts Head To Latest Showdown" are near no
 *   node but plainly about one category for the head.
 * Chosen on the design half of 500N-KPCrowd (`bench/eval-categories.ts --design-only`; the share of stories whose
 * first category is correct and reported at the default threshold 0.45 / at threshold 0, against a ranking top-1
 * of 0.685): the previous calibration (cosine 0.3..0.6, words 2..10, no head, strength = share x confidence)
 * 0.546 / 0.623 (16 of 130 stories with nothing); words 1..5, 0.577 / 0.638 (13); with the head 0.3..0.7,
 * 0.600 / 0.646 (10); 0.2..0.6, 0.600 / 0.669 (7). A cosine full at 0.55 reports no more stories and puts a short
 * review about nothing in the tree ("The staff were friendly, but the room was not clean.", cosine 0.416 with
 * Food & Drink) over the default threshold. On the sample inputs, the first category reaches 0.45 for 36 of 99
 * short texts (34 before) and 1,180 of 3,211 tweets (767 before; most of the added ones are campaign tweets
 * filed under Politics); "The meeting is on Tuesday." and "I can't believe how bad the service was" get none.
 */
export const COSINE_FLOOR = 0.3
export const COSINE_FULL = 0.6
export const WORD_EVIDENCE_FLOOR = 1
export const WORD_EVIDENCE_FULL = 5
export const HEAD_FLOOR = 0.2
export const HEAD_FULL = 0.6
/**
 * Importance a text's words must sum to (SIF weights, 0..1 each: a rare word about 1, "day" or "like" under 0.1)
 * for full confidence from the cosine ({@link EVIDENCE_MASS}) or from the head ({@link HEAD_MASS}).
 */
export const EVIDENCE_MASS = 1
export const HEAD_MASS = 2

/** Confidence that a text is about a category, from their cosine and the text's evidence (0..1). */
export function categoryConfidence(cosine: number, text: TextVector): number {
  return confidence(cosine, evidenceMass(text))
}

/** The summed importance of a text's words (what {@link EVIDENCE_MASS} is compared with). */
function evidenceMass(text: TextVector): number {
  return text.terms.reduce((a, t) => a + t.weight, 0)
}

const ramp = (x: number, floor: number, full: number): number => Math.min(1, Math.max(0, (x - floor) / (full - floor)))

/**
 * How far the similarity supports the head's reading (0..1): full when the category's words weigh
 * {@link WORD_EVIDENCE_FLOOR} or its cosine reaches {@link HEAD_SUPPORT_COSINE_FULL}, none under
 * {@link HEAD_SUPPORT_COSINE_FLOOR} without words. A head trained on long news stories reads news-day filler as
 * the corpus's largest section ("The meeting is on Tuesday.": Politics 0.83, cosine -0.01, no word near it);
 * the head may rank such a text, but only a category the text's words are somewhat near is reported from it.
 * Chosen on the design half of 500N-KPCrowd (two-fold cross-validation, heads of 300-weight design stories,
 * head x2.4: stories whose first category is reported at the default threshold and right, 87 of 130 ungated,
 * 85 with this gate, 83 with the cosine alone (0.1..0.2) or the words alone (0.5); 78 with the head of
 * HuffPost alone, ungated) and the sample texts (600 tweets: 283 reported ungated, 251 gated).
 */
export const HEAD_SUPPORT_COSINE_FLOOR = 0.1
export const HEAD_SUPPORT_COSINE_FULL = 0.2

function confidence(cosine: number, mass: number, words = 0, head = 0): number {
  const c = ramp(cosine, COSINE_FLOOR, COSINE_FULL) * Math.min(1, mass / EVIDENCE_MASS)
  const w = ramp(words, WORD_EVIDENCE_FLOOR, WORD_EVIDENCE_FULL)
  const support = Math.max(Math.min(1, words / WORD_EVIDENCE_FLOOR), ramp(cosine, HEAD_SUPPORT_COSINE_FLOOR, HEAD_SUPPORT_COSINE_FULL))
  const h = ramp(head, HEAD_FLOOR, HEAD_FULL) * Math.min(1, mass / HEAD_MASS) * support
  return Math.max(c, w, h)
}

/** Least cosine between a word and its nearest taxonomy node for the word to vote for that node's tier-1 branch. */
export const VOTE_SIMILARITY = 0.3

/**
 * Votes of a text's words for the tier-1 branches: each word's nearest node among all nodes of the tree (by the
 * node's own vector), when the cosine passes {@link VOTE_SIMILARITY}, gives weight x cosine to that node's tier-1
 * root; returned as shares of all votes (0 without votes). Fine-grained nodes catch what a branch's averaged
 * vector blurs ("striker" is nearest to Soccer, hence Sports). Each word's nearest node is cached in the model.
 */
export function rootVotes(semantic: SemanticModel, text: TextVector, evidence: readonly number[] = nodeEvidence(semantic, text)): number[] {
  // Plain loops (no map, reduce or closures): this runs for every text, and such calls cost more than the sums.
  const roots = semantic.taxonomy.roots
  const n = roots.length
  const votes = new Array<number>(n)
  let total = 0
  for (let i = 0; i < n; i++) total += votes[i] = evidence[roots[i]!.index]!
  if (total > 0) for (let i = 0; i < n; i++) votes[i]! /= total
  return votes
}

/**
 * Word evidence per node (by node index): each word of the text whose nearest node (by the node's own vector)
 * passes {@link VOTE_SIMILARITY} adds weight x cosine to that node and to each of its ancestors, so that a node's
 * evidence is what its whole subtree drew. A tier-1 node's evidence is its vote ({@link rootVotes}).
 */
export function nodeEvidence(semantic: SemanticModel, text: TextVector): number[] {
  return nodeEvidencePair(semantic, text)[0]
}

/** Each node's parent's index (-1 for a tier-1 node), per taxonomy: the walk up of {@link nodeEvidence} over an array. */
const parentsOf = new WeakMap<SemanticModel['taxonomy'], Int32Array>()

function parentIndex(taxonomy: SemanticModel['taxonomy']): Int32Array {
  let parents = parentsOf.get(taxonomy)
  if (parents === undefined) {
    parents = Int32Array.from(taxonomy.nodes, (n) => n.parent?.index ?? -1)
    parentsOf.set(taxonomy, parents)
  }
  return parents
}

/**
 * {@link nodeEvidence} of `text`, and of `other` when given: a text vector over the same words in the same order
 * at other weights (the plain text vector beside {@link categoryText}'s), whose words' nearest nodes are then looked
 * up once for both. Each node adds its words in the text's order either way, so the sums are those of two calls.
 */
function nodeEvidencePair(semantic: SemanticModel, text: TextVector, other?: TextVector, into?: readonly [number[], number[]]): [number[], number[] | undefined] {
  const { nodes, nearestIndex, nearestSimilarity } = semantic.taxonomy
  const parents = parentIndex(semantic.taxonomy)
  const terms = text.terms
  const otherTerms = other?.terms
  const same = otherTerms !== undefined && otherTerms.length === terms.length && otherTerms.every((t, i) => t.id === terms[i]!.id)
  // Arrays of numbers, not typed arrays (allocated outside the heap, which costs more than the loop below); those
  // given, zeroed, instead of new ones.
  const out = into === undefined ? new Array<number>(nodes.length).fill(0) : into[0].fill(0)
  const out2 = other === undefined ? undefined : same ? (into === undefined ? new Array<number>(nodes.length).fill(0) : into[1].fill(0)) : nodeEvidence(semantic, other)
  for (let i = 0; i < terms.length; i++) {
    const t = terms[i]!
    const node = nearestIndex(t.id)
    const sim = nearestSimilarity(t.id)
    if (sim <= VOTE_SIMILARITY) continue
    const v = t.weight * sim
    for (let n = node; n >= 0; n = parents[n]!) out[n]! += v
    if (same) {
      const v2 = otherTerms[i]!.weight * sim
      for (let n = node; n >= 0; n = parents[n]!) out2![n]! += v2
    }
  }
  return [out, out2]
}

/**
 * The two arrays the analyzer sums a text's word evidence in ({@link nodeEvidencePair}), reused text after text:
 * the analyzer runs one text at a time and keeps neither past its run, and two arrays of the taxonomy's 661
 * numbers made for every text were a good part of what it left the garbage collector.
 */
let evidenceArrays: readonly [number[], number[]] | undefined

function evidenceScratch(nodes: number): readonly [number[], number[]] {
  if (evidenceArrays === undefined || evidenceArrays[0].length !== nodes) evidenceArrays = [new Array<number>(nodes).fill(0), new Array<number>(nodes).fill(0)]
  return evidenceArrays
}

/** Choices of how a text is classified (the evaluation compares them; the engine uses the defaults). */
export interface CategoryOptions extends EmbedOptions {
  /** Weight of the first sentence's words (a news story's headline) against the rest's. @defaultValue {@link TITLE_WEIGHT} */
  readonly titleWeight?: number
  /** Whether the words' votes for tier-1 branches are added to the cosines ({@link rootVotes}). @defaultValue true */
  readonly votes?: boolean
  /** Soft votes instead: each word's best cosine with a node of each branch, above the vote floor ({@link softVotes}). */
  readonly softVotes?: boolean
  /** Repeats of a word count 1 + ln(n) times instead of n times. @defaultValue false */
  readonly sublinear?: boolean
  /** Keep only the this many words of most weight (0: all). @defaultValue 0 */
  readonly topTerms?: number
  /** Weight of proper nouns (PROPN: names of people, places, firms) against other words. @defaultValue 1 */
  readonly properNounWeight?: number
  /** Weight of words that are not nouns (verbs, adjectives, adverbs). @defaultValue {@link OTHER_POS_WEIGHT} */
  readonly otherPosWeight?: number
  /** Weight of the learned head's probabilities ({@link HEAD_WEIGHT}; 0: similarity alone). */
  readonly headWeight?: number
  /** Whether word evidence and the head's probability count in the confidence besides the cosine ({@link confidence}). @defaultValue true */
  readonly wordEvidence?: boolean
}

/**
 * Weight of the words of a text that are not nouns (verbs, adjectives, adverbs) in its category vector, against
 * nouns and names: what a story is about is said by its nouns ("the striker scored" is about a striker). Chosen
 * on the design half of 500N-KPCrowd (`bench/eval-categories.ts --design-only`, ranking top-1 / top-3 with the
 * head retrained for each: 1 0.631/0.808, 0.5 0.646/0.808; nouns only was 0.646/0.785 with the older head).
 */
export const OTHER_POS_WEIGHT = 0.5
/**
 * Weight of the first sentence's words (a story's headline, a review's title) when a text has more than one
 * sentence. Chosen on the design half with the head retrained for it: ranking top-1 / top-3 0.646/0.808 at 1,
 * 0.662/0.808 at 2.
 */
export const TITLE_WEIGHT = 2

/**
 * Weight of the learned head (`SemanticModel.head`: logistic regression from the text vector to the tier-1
 * categories, trained on a labelled news corpus, the development stories of 500N-KPCrowd and the taxonomy's own
 * node descriptions) in a tier-1 node's score: its probability times this is added to cosine + vote share.
 * Chosen on the design half of 500N-KPCrowd by two-fold cross-validation (heads trained with the HuffPost
 * stories and half of the design stories at 300 headlines each, ranking top-1/top-3 of the other half, mean of
 * the folds): x1.6 0.692/0.861, x2.4 0.724/0.860, x3.2 0.724/0.867; x2.4, the smaller of the two best at
 * top-1, leaves the similarity more say on texts unlike news stories. (With the head of HuffPost alone, before:
 * x0.8 0.669/0.823, x1.2 0.677/0.831, x1.6 0.685/0.831, x2.4 0.677/0.831 on the whole design half.)
 */
export const HEAD_WEIGHT = 2.4

/**
 * The vector a text is classified by: its words weighted by importance (`spanVector`), the first sentence's
 * words counting `titleWeight` times when there is more than one sentence.
 */
export function categoryText(vectors: SemanticModel['vectors'], doc: AnnotatedDocument, options: CategoryOptions = {}): TextVector {
  const all = spanVector(vectors, doc, 0, doc.tokens.length, options)
  const tw = options.titleWeight ?? TITLE_WEIGHT
  const pw = options.properNounWeight ?? 1
  const top = options.topTerms ?? 0
  const ow = options.otherPosWeight ?? OTHER_POS_WEIGHT
  if ((tw === 1 && pw === 1 && ow === 1 && top === 0 && options.sublinear !== true) || all.terms.length === 0) return all
  const first = doc.sentences.length > 1 ? doc.sentences[0] : undefined
  const reduce = options.sublinear === true || top > 0
  const acc = new Float32Array(vectors.dims)
  // One plain loop (no map or spread: this runs for every text): each word's weight, and (unless words are
  // then merged or dropped) its vector added, in the words' order.
  const from = all.terms
  let terms: Term[] = new Array<Term>(from.length)
  for (let i = 0; i < from.length; i++) {
    const t = from[i]!
    let w = t.weight
    if (first !== undefined && t.token >= first.tokenStart && t.token < first.tokenEnd) w *= tw
    const pos = doc.tokens[t.token]!.pos
    if (pos === 'PROPN') w *= pw
    else if (pos !== 'NOUN') w *= ow
    terms[i] = w === t.weight ? t : { token: t.token, id: t.id, weight: w }
    if (!reduce) vectors.addTo(acc, t.id, w)
  }
  if (!reduce) return { vector: normalize(acc), terms }
  // Per distinct word: summed weight (or mean weight x (1 + ln n)); the heaviest words kept (evaluation choices).
  {
    const by = new Map<number, { sum: number; n: number }>()
    for (const t of terms) {
      const e = by.get(t.id) ?? { sum: 0, n: 0 }
      e.sum += t.weight
      e.n++
      by.set(t.id, e)
    }
    const total = (id: number): number => {
      const e = by.get(id)!
      return options.sublinear === true ? (e.sum / e.n) * (1 + Math.log(e.n)) : e.sum
    }
    let keep: Set<number> | undefined
    if (top > 0) keep = new Set([...by.keys()].sort((a, b) => total(b) - total(a) || a - b).slice(0, top))
    terms = terms.filter((t) => keep === undefined || keep.has(t.id)).map((t) => ({ ...t, weight: (t.weight / by.get(t.id)!.sum) * total(t.id) }))
  }
  for (const t of terms) vectors.addTo(acc, t.id, t.weight)
  return { vector: normalize(acc), terms }
}

/**
 * Soft votes of a text's words for the tier-1 branches: a word gives weight x (best cosine with a node of the
 * branch - {@link VOTE_SIMILARITY}) to every branch where that is positive (not only to its nearest node's
 * branch, so that a word with two senses supports both); returned as shares of all votes.
 */
export function softVotes(semantic: SemanticModel, text: TextVector): number[] {
  const votes = new Array<number>(semantic.taxonomy.roots.length).fill(0)
  for (const t of text.terms) {
    const best = semantic.taxonomy.branchBest(t.id)
    for (let i = 0; i < votes.length; i++) if (best[i]! > VOTE_SIMILARITY) votes[i]! += t.weight * (best[i]! - VOTE_SIMILARITY)
  }
  const total = votes.reduce((a, x) => a + x, 0)
  return total > 0 ? votes.map((v) => v / total) : votes
}

/**
 * Each node's share among `nodes` (a softmax of their scores: cosine with the text, plus `extra`, at
 * {@link CATEGORY_TEMPERATURE}), its raw cosine, and its strength: the confidence that the text is about the
 * first of them ({@link confidence}: from its cosine, its word evidence when `evidence` is given, its head
 * probability when `head` is given) for the first, and that times the node's share relative to the first's for
 * the others, so that strength keeps the ranking's order and a clear first category is reported whole. With
 * `relative` false (sub-categories), every node's strength is its share x that confidence (as before this change):
 * the children of a node often score within a few hundredths of each other ("Healthy Living": Wellness,
 * Children's Health, Senior Health for a hospital review), and relative shares reported them all.
 */
function shares(
  text: TextVector,
  nodes: readonly TaxonomyModelNode[],
  extra?: readonly number[],
  evidence?: readonly number[],
  head?: ArrayLike<number>,
  relative = true,
  mass = evidenceMass(text),
  reported?: { readonly threshold: number; readonly cap: number },
): RankedCategory[] {
  // Plain loops: this runs for the tier-1 nodes of every text and the children of each category reported. Arrays of
  // numbers, not typed arrays: a typed array of more than 64 bytes is allocated outside the heap, which costs more
  // than these loops. With `reported` (the analyzer), the numbers go in arrays kept from text to text, and only
  // the nodes reported (strength, at most `cap`, above 0 and reaching `threshold` once rounded) are returned.
  const count = nodes.length
  const cosines = rowDots(branchMatrix(nodes), count, text.vector.length, text.vector, false, reported === undefined ? new Array<number>(count) : scratch.cosines)
  const scores = reported === undefined ? new Array<number>(count) : scratch.scores
  let max = -Infinity
  for (let i = 0; i < count; i++) {
    const c = cosines[i]!
    const score = c + (extra?.[i] ?? 0)
    scores[i] = score
    if (score > max) max = score
  }
  const e = reported === undefined ? new Array<number>(count) : scratch.e
  let sum = 0
  for (let i = 0; i < count; i++) {
    e[i] = Math.exp((scores[i]! - max) / CATEGORY_TEMPERATURE)
    sum += e[i]!
  }
  // One confidence for the text among these siblings, from the one it is ranked first for: the strengths then
  // keep the order of the shares (the ranking), and a text that the first is not near gets none.
  let first = 0
  for (let i = 1; i < count; i++) if (scores[i]! > scores[first]!) first = i
  const firstNode = nodes[first]
  const conf = firstNode === undefined ? 0 : confidence(cosines[first]!, mass, evidence?.[firstNode.index] ?? 0, head?.[first] ?? 0)
  // Relative: the first takes the whole confidence (e[first] = 1), each other its share relative to the
  // first's. Otherwise each its share x the confidence (sub-categories: one is reported only when it stands out
  // among its siblings, not each of several near-equal ones).
  if (reported === undefined) {
    const out = new Array<RankedCategory>(count)
    for (let i = 0; i < count; i++) out[i] = { node: nodes[i]!, share: e[i]! / sum, cosine: cosines[i]!, strength: (relative ? e[i]! : e[i]! / sum) * conf }
    return out
  }
  const out: RankedCategory[] = []
  for (let i = 0; i < count; i++) {
    const strength = (relative ? e[i]! : e[i]! / sum) * conf
    const capped = Math.min(reported.cap, strength)
    if (capped > 0 && round4(capped) >= reported.threshold) out.push({ node: nodes[i]!, share: e[i]! / sum, cosine: cosines[i]!, strength })
  }
  return out
}

/** The arrays {@link shares} fills for the analyzer, kept from text to text (filled before they are read, each time). */
const scratch = { cosines: [] as number[], scores: [] as number[], e: [] as number[] }

/** The branch vectors of a list of sibling nodes as the rows of one matrix (float64 holding the float32 numbers), per list. */
const branchMatrices = new WeakMap<readonly TaxonomyModelNode[], Float64Array>()

function branchMatrix(nodes: readonly TaxonomyModelNode[]): Float64Array {
  let m = branchMatrices.get(nodes)
  if (m === undefined) {
    const dims = nodes[0]?.branch.length ?? 0
    m = new Float64Array(nodes.length * dims)
    for (let i = 0; i < nodes.length; i++) m.set(nodes[i]!.branch, i * dims)
    branchMatrices.set(nodes, m)
  }
  return m
}

/** A node ranked for a text. */
export interface RankedCategory {
  readonly node: TaxonomyModelNode
  /** Share among its siblings (0..1, summing to 1). */
  readonly share: number
  /** Raw cosine of the text with the node's branch vector. */
  readonly cosine: number
  /** Calibrated strength: the confidence for the first node, times the share relative to the first's for the others (0 for an unrelated text). */
  readonly strength: number
}

/** Strongest first; equal strengths by share, then in file order. */
const byStrength = (a: RankedCategory, b: RankedCategory): number => b.strength - a.strength || b.share - a.share

/** A category of the built-in taxonomy found in a text, with its sub-categories. */
export interface FoundCategory {
  readonly node: TaxonomyModelNode
  readonly strength: number
  readonly sentiment: { readonly score: number; readonly polarity: 'positive' | 'negative' | 'neutral' }
  readonly categories: readonly FoundCategory[]
}

/** The `auto_categories` section: tier-1 categories, best first, before the output limit. */
export type CategoriesSection = readonly FoundCategory[]

/**
 * Rank the tier-1 categories of the built-in taxonomy for a text. A node is scored by the cosine between the
 * text's vector (importance-weighted words, {@link categoryText}) and the node's branch vector (its words and
 * its subtree's), plus its share of the words' votes ({@link rootVotes}); its share is a softmax of those scores
 * among the tier-1 nodes, plus the learned head's probability x {@link HEAD_WEIGHT}; its share is a softmax of
 * those scores among the tier-1 nodes. The first node's strength is the confidence that the text is about it
 * at all ({@link confidence}: raw cosine above a floor with enough evidence, enough of its words nearest the
 * category, or the head's probability), so that an unrelated or contentless text gets no strong category and a
 * clear one gets its first category whole; every other node's is that times its share relative to the first's.
 * `evidence` is the text's {@link nodeEvidence} (computed here when not given), for the votes; `confidenceEvidence`
 * the one the confidence reads (the engine gives that of the plain text vector, each word at its own importance,
 * without the headline and noun emphasis of {@link categoryText}, which aims the vector but adds no evidence: the
 * word-evidence floor was measured so). Returns every tier-1 node, strongest first, without thresholds; the evaluation
 * (`bench/eval-categories.ts`) ranks with this same function.
 */
export function rankCategories(
  semantic: SemanticModel,
  text: TextVector,
  options: CategoryOptions = {},
  evidence = nodeEvidence(semantic, text),
  confidenceEvidence = evidence,
): RankedCategory[] {
  return scoreRoots(semantic, text, options, evidence, confidenceEvidence).sort(byStrength)
}

/** The tier-1 nodes of {@link rankCategories}, in taxonomy order (sorting only those reported is cheaper). */
function scoreRoots(
  semantic: SemanticModel,
  text: TextVector,
  options: CategoryOptions,
  evidence: readonly number[],
  confidenceEvidence: readonly number[],
  threshold?: number,
): RankedCategory[] {
  let extra = options.votes === false ? undefined : options.softVotes === true ? softVotes(semantic, text) : rootVotes(semantic, text, evidence)
  const hw = options.headWeight ?? HEAD_WEIGHT
  const head = hw > 0 ? semantic.head : undefined
  let p: number[] | undefined
  if (head !== undefined) {
    p = headProbabilities(head, text.vector)
    const sum = new Array<number>(p.length)
    for (let i = 0; i < p.length; i++) sum[i] = hw * p[i]! + (extra?.[i] ?? 0)
    extra = sum
  }
  const cosineOnly = options.wordEvidence === false
  const reported = threshold === undefined ? undefined : { threshold, cap: Infinity }
  return shares(text, semantic.taxonomy.roots, extra, cosineOnly ? undefined : confidenceEvidence, cosineOnly ? undefined : p, true, evidenceMass(text), reported)
}

/**
 * `auto_categories`: the text classified into the built-in taxonomy (IAB Tech Lab Content Taxonomy 3.1,
 * `lexicons/en/iab-taxonomy.tsv`). `strength_score` is calibrated (see {@link rankCategories}): the first tier-1
 * category's is the confidence that the text is about it, another's that times its share relative to the
 * first's; a sub-category's is its share among its siblings times its own confidence (from cosine and word
 * evidence), at most its parent's strength. Tier-1
 * categories whose strength is above 0 and reaches `concept_topics_threshold` (its older name is
 * `categories_threshold`; 0.45 by default) are reported, strongest first, up to `auto_categories_limit`; under
 * each, up to three sub-categories that reach it too, recursively to the deepest tier. `type` is `node` for a category that has
 * sub-categories in the taxonomy, `leaf` for an end of the tree. Sentiment is that of the sentences holding the
 * words most similar to the category. English only; the vectors load when this first runs.
 */
export function createCategoriesAnalyzer(semantic: SemanticModel): Analyzer {
  return {
    name: 'auto_categories',
    needs: ['sentiment'],
    enabled: (ctx) => {
      const d = ctx.configuration.document
      return (
        ctx.mode !== 'discovery' &&
        ctx.subscription.feature_settings.document.auto_categories &&
        d.auto_categories &&
        d.auto_categories_limit > 0 &&
        ctx.configuration.language.toLowerCase() === 'english'
      )
    },
    run(doc, sections, ctx): CategoriesSection {
      const sentiment = need(sections, 'sentiment')
      const text = categoryText(semantic.vectors, doc)
      if (text.terms.length === 0) return []
      const [evidence, plain] = nodeEvidencePair(semantic, text, spanVector(semantic.vectors, doc), evidenceScratch(semantic.taxonomy.nodes.length)) as [number[], number[]]
      const threshold = ctx.configuration.concept_topics_threshold
      const limit = ctx.configuration.document.auto_categories_limit
      const mass = evidenceMass(text)
      // Nodes of one branch often rest on the same words: their sentences' sentiment is computed once.
      const bySpans = new Map<string, { score: number; polarity: 'positive' | 'negative' | 'neutral' }>()
      // The text's distinct words, for the sentiment of the categories reported (none for most short texts).
      let distinct: DistinctTerms | undefined
      const found = (node: TaxonomyModelNode, strength: number): FoundCategory => ({
        node,
        strength: round4(strength),
        sentiment: nodeSentiment(semantic, doc, text, (distinct ??= distinctTerms(text)), node, sentiment, bySpans),
        // A sub-category's strength: its share among its siblings x its confidence (see shares), at most its parent's.
        // Those that pass are sorted, not all (a stable sort: the order of sorting all, then keeping these).
        categories: shares(text, node.children, undefined, plain, undefined, false, mass, { threshold, cap: strength })
          .sort(byStrength)
          .slice(0, CHILDREN_LIMIT)
          .map((x) => found(x.node, Math.min(strength, x.strength))),
      })
      return scoreRoots(semantic, text, {}, evidence, plain, threshold)
        .sort(byStrength)
        .slice(0, limit)
        .map((x) => found(x.node, x.strength))
    },
    toWire(value, out) {
      const list = value as CategoriesSection
      if (list.length > 0) out.auto_categories = list.map(categoryWire)
    },
  }
}

/** The distinct words of a text's terms (first-met order) and, per term, the position of its word among them. */
interface DistinctTerms {
  readonly ids: readonly number[]
  readonly slot: readonly number[]
}

function distinctTerms(text: TextVector): DistinctTerms {
  const slotOf = new Map<number, number>()
  const slot = new Array<number>(text.terms.length)
  const ids: number[] = []
  for (let i = 0; i < text.terms.length; i++) {
    const id = text.terms[i]!.id
    let j = slotOf.get(id)
    if (j === undefined) {
      j = ids.length
      ids.push(id)
      slotOf.set(id, j)
    }
    slot[i] = j
  }
  return { ids, slot }
}

/**
 * The sentiment of the sentences holding the text's words nearest the category (its best word at least).
 * `distinct` is the text's {@link distinctTerms} (once per text: each word's similarity is computed once per node).
 */
function nodeSentiment(
  semantic: SemanticModel,
  doc: AnnotatedDocument,
  text: TextVector,
  distinct: DistinctTerms,
  node: TaxonomyModelNode,
  sentiment: SentimentSection,
  bySpans: Map<string, { score: number; polarity: 'positive' | 'negative' | 'neutral' }>,
): { score: number; polarity: 'positive' | 'negative' | 'neutral' } {
  const spans: TokenRange[] = []
  let best: TokenRange | undefined
  let bestSim = -Infinity
  const sims = new Array<number>(distinct.ids.length)
  const vectors = semantic.vectors
  if (vectors.dotWords !== undefined) vectors.dotWords(distinct.ids, node.branch, sims)
  else for (let j = 0; j < sims.length; j++) sims[j] = vectors.dot(distinct.ids[j]!, node.branch)
  for (let i = 0; i < text.terms.length; i++) {
    const t = text.terms[i]!
    const sim = sims[distinct.slot[i]!]!
    if (sim >= DRIVER_SIMILARITY) spans.push({ tokenStart: t.token, tokenEnd: t.token + 1 })
    if (sim > bestSim) {
      bestSim = sim
      best = { tokenStart: t.token, tokenEnd: t.token + 1 }
    }
  }
  if (spans.length === 0 && best !== undefined) spans.push(best)
  const key = spans.map((s) => s.tokenStart).join(',')
  let hit = bySpans.get(key)
  if (hit === undefined) {
    const { score, polarity } = sentiment.aspect(spans)
    hit = { score, polarity }
    bySpans.set(key, hit)
  }
  return hit
}

function categoryWire(c: FoundCategory): AutoCategory {
  const item: AutoCategory = {
    title: c.node.name,
    type: c.node.children.length > 0 ? 'node' : 'leaf',
    strength_score: c.strength,
    sentiment_score: c.sentiment.score,
    sentiment_polarity: c.sentiment.polarity,
  }
  if (c.categories.length > 0) item.categories = c.categories.map(categoryWire)
  return item
}
