import type { AnnotatedDocument } from '../nlp/types.ts'
import type { WordVectors } from './vectors.ts'
import { dot, isZero, samplesVector, textAndSentenceVectors, type Term, type TextVector } from './embed.ts'

/** A text cut into the vectors concept matching compares: the whole text and each sentence. */
export interface DocumentVectors {
  readonly document: TextVector
  readonly sentences: readonly TextVector[]
}

/** The vectors of a document and of each of its sentences (computed once per document, shared by every category). */
export function documentVectors(vectors: WordVectors, doc: AnnotatedDocument): DocumentVectors {
  return textAndSentenceVectors(vectors, doc)
}

/** A set of samples (a concept topic's, or words describing a class) as one unit vector. */
export interface SampleSet {
  readonly vector: Float32Array
  /** False when no sample has a known word: such a set never matches by meaning. */
  readonly known: boolean
}

/** Compile samples (words or phrases) into a {@link SampleSet}. */
export function compileSamples(vectors: WordVectors, samples: readonly string[]): SampleSet {
  const vector = samplesVector(vectors, samples)
  return { vector, known: !isZero(vector) }
}

/** How well a text matches a sample set, and where. */
export interface ConceptMatch {
  /** Cosine of the best-matching part of the text (the whole text or one sentence) with the samples. */
  readonly similarity: number
  /** Sentences whose own similarity passes the threshold (the best one when only the whole text does). */
  readonly sentences: readonly number[]
  /** Words of those sentences that drove the match (token indices, in text order). */
  readonly drivers: readonly number[]
}

/** The empty list of a match without sentences or drivers (shared: never changed). */
const NONE: readonly number[] = Object.freeze([])

/** Least cosine of a word with the samples for it to be reported as a mention of the category. */
export const DRIVER_SIMILARITY = 0.4

/**
 * Match a text against a sample set. The similarity is the best of the whole text's and each sentence's cosine
 * with the samples, so a category that one sentence of a long review talks about ("the concierge was rude")
 * is found as surely as in a one-line text. `threshold` selects the sentences that carry the category.
 */
export function matchSamples(vectors: WordVectors, dv: DocumentVectors, set: SampleSet, threshold: number): ConceptMatch {
  if (!set.known) return { similarity: 0, sentences: NONE, drivers: NONE }
  const docSim = dot(dv.document.vector, set.vector)
  let best = docSim
  let bestSentence = -1
  let bestSentenceSim = -Infinity
  let sentences: number[] | undefined
  // A plain loop, and no arrays for a text that does not match (most texts, for most categories).
  for (let i = 0; i < dv.sentences.length; i++) {
    const s = dv.sentences[i]!
    if (s.terms.length === 0) continue
    const sim = dot(s.vector, set.vector)
    if (sim > bestSentenceSim) {
      bestSentenceSim = sim
      bestSentence = i
    }
    if (sim >= threshold) (sentences ??= []).push(i)
    if (sim > best) best = sim
  }
  if (sentences === undefined) {
    if (bestSentence < 0 || best < threshold) return { similarity: best, sentences: NONE, drivers: NONE }
    sentences = [bestSentence]
  }
  const drivers: number[] = []
  for (const i of sentences) {
    const terms = dv.sentences[i]!.terms
    // The words' similarities, several words at a time where the vectors can (the same numbers as one by one).
    const sims = new Array<number>(terms.length)
    if (vectors.dotWords !== undefined) {
      const ids = new Array<number>(terms.length)
      for (let k = 0; k < terms.length; k++) ids[k] = terms[k]!.id
      vectors.dotWords(ids, set.vector, sims)
    } else for (let k = 0; k < terms.length; k++) sims[k] = vectors.dot(terms[k]!.id, set.vector)
    let top: Term | undefined
    let topSim = -Infinity
    let found = false
    for (let k = 0; k < terms.length; k++) {
      const t = terms[k]!
      const sim = sims[k]!
      if (sim >= DRIVER_SIMILARITY) {
        drivers.push(t.token)
        found = true
      }
      if (sim > topSim) {
        topSim = sim
        top = t
      }
    }
    // A sentence that matches as a whole names the category through its best word at least.
    if (!found && top !== undefined) drivers.push(top.token)
  }
  drivers.sort((a, b) => a - b)
  return { similarity: best, sentences, drivers }
}
