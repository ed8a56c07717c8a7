import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import { createEntityTagger, loadDefaultModel } from '../../src/entities/tagger.ts'
import {
  LABELS, documentContext, dynamicFeatures, isAllowedTransition, recall, rememberSentence, shortShape, staticFeatures,
  typeOfLabel, wordFeatures, type DocumentMemory, type Gazetteer, type WordClusters,
} from '../../src/entities/features.ts'
import type { PerceptronWeights } from '../../src/entities/model.ts'
import { createDecoder } from '../../src/entities/tagger-decoder.ts'

/**
 * The straightforward decoder the tagger replaced: every feature as a string (features.ts, as training
 * sees them), looked up by name, rows added in feature order. The tagger must give exactly its spans
 * and confidences.
 */
function referenceTag(model: PerceptronWeights, gazetteer: Gazetteer, sentences: readonly (readonly string[])[], clusters?: WordClusters): unknown[][] {
  const L = LABELS.length
  const memory: DocumentMemory = new Map()
  const context = documentContext(sentences)
  const dyn: string[] = []
  return sentences.map((tokens) => {
    const feats = staticFeatures(tokens, gazetteer, context, false, clusters)
    const labels = new Int32Array(tokens.length)
    const margins = new Float64Array(tokens.length)
    let prev1 = 0
    let prev2 = -1
    for (let i = 0; i < tokens.length; i++) {
      const tok = tokens[i]!
      dynamicFeatures(i === 0 ? '<s>' : LABELS[prev1]!, i < 2 ? '<s>' : LABELS[prev2]!, tok.toLowerCase(), shortShape(tok), recall(memory, tok), dyn)
      const scores = new Float64Array(L)
      const all = [...wordFeatures(tok, clusters), ...feats[i]!, ...dyn]
      for (const f of all) {
        const row = model.index.get(f)
        if (row === undefined) continue
        for (let k = 0; k < L; k++) scores[k]! += model.weights[row * L + k]!
      }
      let best = -1
      let second = -Infinity
      for (let k = 0; k < L; k++) {
        if (!isAllowedTransition(i === 0 ? 0 : prev1, k)) continue
        if (best < 0 || scores[k]! > scores[best]!) {
          if (best >= 0) second = Math.max(second, scores[best]!)
          best = k
        } else if (scores[k]! > second) second = scores[k]!
      }
      labels[i] = best
      margins[i] = scores[best]! - second
      prev2 = i === 0 ? -1 : prev1
      prev1 = best
    }
    rememberSentence(memory, tokens, labels)
    const spans: unknown[] = []
    let start = -1
    let type: string | undefined
    let sum = 0
    const close = (end: number): void => {
      if (type !== undefined) spans.push({ type, start, end, confidence: Math.round((1 / (1 + Math.exp(-(sum / (end - start)) / 8))) * 1e4) / 1e4 })
      type = undefined
      sum = 0
    }
    for (let i = 0; i < labels.length; i++) {
      const t = typeOfLabel(labels[i]!)
      if (t === undefined) { close(i); continue }
      if (LABELS[labels[i]!]!.startsWith('B-') || t !== type) { close(i); start = i; type = t }
      sum += margins[i]!
    }
    close(labels.length)
    return spans
  })
}

const { weights, reverse, gazetteer, clusters } = loadDefaultModel()
const tagger = createEntityTagger({ weights, gazetteer })
/** The shipped configuration, left to right (the weights name their word clusters); both directions are combined in bidirectional.test.ts. */
const shipped = createEntityTagger({ reverseWeights: null })

const DOC: string[][] = [
  'EU rejects German call to boycott British lamb .',
  'Peter Blackburn of the European Commission said on Thursday in Brussels .',
  'BRUSSELS 1996-08-22',
  'Blackburn said Germany and France would meet the U.N. in New York City next week .',
  'The European Union \'s veterinary committee met in Brussels , and Blackburn left for Paris .',
  'Fischler proposed EU-wide measures after reports from Britain and France that under laboratory conditions sheep could contract Bovine Spongiform Encephalopathy ( BSE ) -- mad cow disease .',
  '@HillaryClinton I totally agree with @BreitbartNews about Amsterdam !!!',
  'ok',
].map((s) => s.split(' '))

describe('the entity tagger decodes exactly like the feature-string reference', () => {
  it('gives the same spans and confidences on a news document and on single sentences', () => {
    expect(tagger.tagDocument(DOC)).toEqual(referenceTag(weights, gazetteer, DOC))
    for (const s of DOC) expect(tagger.tag(s)).toEqual(referenceTag(weights, gazetteer, [s])[0])
  })

  it('gives the same answers on a second pass (its caches change nothing)', () => {
    expect(tagger.tagDocument(DOC)).toEqual(referenceTag(weights, gazetteer, DOC))
  })

  it('decodes a long sentence (9,000 tokens) with the same result', () => {
    const long = Array.from({ length: 9000 }, (_, i) => (i % 7 === 0 ? `W${i}x-${i % 13}` : DOC[3]![i % DOC[3]!.length]!))
    const doc = [DOC[1]!, long, DOC[3]!]
    expect(tagger.tagDocument(doc)).toEqual(referenceTag(weights, gazetteer, doc))
  })

  it('agrees on arbitrary token sequences', () => {
    const token = fc.oneof(
      fc.constantFrom('Paris', 'the', 'U.N.', 'New', 'York', 'said', ',', '.', 'BSE', 'Clinton', 'Ünïcode', '1996', '<s>', '</s>', 'a|b'),
      fc.string({ minLength: 1, maxLength: 8 }),
    )
    fc.assert(
      fc.property(fc.array(fc.array(token, { minLength: 1, maxLength: 12 }), { minLength: 1, maxLength: 4 }), (doc) => {
        expect(tagger.tagDocument(doc)).toEqual(referenceTag(weights, gazetteer, doc))
      }),
      { seed: 11, numRuns: 150 },
    )
  })

  it('gives the same spans with the word clusters the shipped weights use (as createEntityTagger() loads them)', () => {
    expect(clusters).toBeDefined()
    expect(shipped.tagDocument(DOC)).toEqual(referenceTag(weights, gazetteer, DOC, clusters))
    const token = fc.oneof(fc.constantFrom('Paris', 'the', 'New', 'York', 'city', 'said', '.', 'BSE', 'Clinton', 'London', 'bank', 'of', 'America'), fc.string({ minLength: 1, maxLength: 6 }))
    fc.assert(
      fc.property(fc.array(fc.array(token, { minLength: 1, maxLength: 12 }), { minLength: 1, maxLength: 4 }), (doc) => {
        expect(shipped.tagDocument(doc)).toEqual(referenceTag(weights, gazetteer, doc, clusters))
      }),
      { seed: 12, numRuns: 100 },
    )
  })

  it('decodes the right-to-left weights like the reference too', () => {
    expect(reverse).toBeDefined()
    const backward = createEntityTagger({ weights: reverse!, gazetteer, ...(clusters === undefined ? {} : { clusters }), reverseWeights: null })
    expect(backward.tagDocument(DOC)).toEqual(referenceTag(reverse!, gazetteer, DOC, clusters))
    const token = fc.oneof(fc.constantFrom('Paris', 'the', 'New', 'York', 'city', 'said', '.', 'BSE', 'Clinton', 'London', 'bank', 'of', 'America'), fc.string({ minLength: 1, maxLength: 6 }))
    fc.assert(
      fc.property(fc.array(fc.array(token, { minLength: 1, maxLength: 12 }), { minLength: 1, maxLength: 4 }), (doc) => {
        expect(backward.tagDocument(doc)).toEqual(referenceTag(reverse!, gazetteer, doc, clusters))
      }),
      { seed: 13, numRuns: 60 },
    )
  })

  it('gives the same spans when its tables are emptied between documents, and from the feature strings when a document does not fit', () => {
    // Tiny limits: the tables are emptied before almost every document.
    const small = createDecoder(weights, gazetteer, clusters, { tokens: 8, lowers: 8, shapes: 4, pairs: 16, shapeIds: 100 })
    for (let pass = 0; pass < 2; pass++) {
      for (const s of DOC) expect(small([s, DOC[3]!, s])).toEqual(referenceTag(weights, gazetteer, [s, DOC[3]!, s], clusters))
    }
    // A document that could bring more shapes than it may have ids for (100 here, 2^15 by default): decoded from the
    // feature strings.
    const shapes = Array.from({ length: 120 }, (_, i) => i.toString(2).replace(/0/g, 'a').replace(/1/g, 'B') + (i % 3 === 0 ? '-x' : ''))
    const doc = [DOC[1]!, shapes, DOC[3]!, DOC[1]!]
    expect(small(doc)).toEqual(referenceTag(weights, gazetteer, doc, clusters))
    // ... and the next document is decoded over ids again, with the same result.
    expect(small(DOC)).toEqual(referenceTag(weights, gazetteer, DOC, clusters))
  })
})
