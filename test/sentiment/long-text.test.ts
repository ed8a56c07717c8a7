import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import {
  LONG_TEXT_WORDS,
  classProbabilities,
  defaultModelPath,
  denseFeatures,
  loadSentimentModel,
  ngramScale,
  ngramTable,
  ngramsOf,
  readModelData,
  softmax,
  vectorFeatures,
} from '../../src/sentiment/model.ts'
import { createSemanticModel } from '../../src/semantic/index.ts'
import { createAnnotator } from '../../src/nlp/annotate.ts'
import { createSentimentScorer } from '../../src/sentiment/scorer.ts'

// A long text's n-gram evidence weighs as much as a text of LONG_TEXT_WORDS words (about the longest the regression is
// trained on), not as many times more as it has sentences.
describe('model_sentiment on long texts', () => {
  it('scales n-gram evidence by LONG_TEXT_WORDS over the words past that length, continuously', () => {
    expect(LONG_TEXT_WORDS).toBe(60)
    for (const n of [0, 1, 30, 59, 60]) expect(ngramScale(n)).toBe(1)
    expect(ngramScale(61)).toBeCloseTo(60 / 61, 12)
    expect(ngramScale(120)).toBe(0.5)
    expect(ngramScale(600)).toBe(0.1)
    // Never grows with length.
    for (let n = 1; n < 400; n++) expect(ngramScale(n + 1)).toBeLessThanOrEqual(ngramScale(n))
  })

  it('adds the scaled n-gram sums to the dense part, and scale 1 is the plain sum', () => {
    const data = { denseWeights: [[0.1], [0.2], [-0.3]], ngrams: { good: [-1, 0, 2], bad: [2, 0, -1.5], 'very good': [0, -0.5, 1] } }
    const table = ngramTable(data)
    const grams = ['bad', 'good', 'unknown', 'very good']
    const sums = [-1 + 2 + 0, 0 + 0 + -0.5, 2 + -1.5 + 1]
    const bias = [0.1, 0.2, -0.3]
    expect(classProbabilities(data, grams, [], table)).toEqual(softmax(bias.map((b, c) => b + sums[c]!)))
    expect(classProbabilities(data, grams, [], table, 1)).toEqual(classProbabilities(data, grams, [], table))
    const half = classProbabilities(data, grams, [], table, 0.5)
    const expected = softmax(bias.map((b, c) => b + sums[c]! * 0.5))
    half.forEach((p, c) => expect(p).toBeCloseTo(expected[c]!, 12))
  })

  it('predicts a long text with its n-grams scaled, and a short one as before', () => {
    const annotator = createAnnotator()
    const scorer = createSentimentScorer({ model: false })
    const model = loadSentimentModel()
    const data = readModelData(JSON.parse(readFileSync(defaultModelPath(), 'utf8')), 'committed')
    const table = ngramTable(data)
    const vectors = createSemanticModel().vectors
    const sentence = 'The hotel was quiet and the staff were kind.'
    const long = [
      sentence,
      'We arrived late on a rainy Tuesday and the desk had our keys ready.',
      'The room faced the harbour, and the bed was firm, which suits my back.',
      'Breakfast ran until ten with eggs, fruit, bread and strong coffee.',
      'The lift was slow in the mornings, so we took the stairs most days.',
      'Parking cost extra, about twenty dollars a night, paid at the desk.',
      'On the last day they kept our bags while we walked along the river.',
      'We would stay there again on our next trip to the coast.',
    ].join(' ')
    for (const [text, scaled] of [[sentence, false], [long, true]] as const) {
      const doc = annotator.annotate(text)
      const features = scorer.score(doc).features
      expect(features.words > LONG_TEXT_WORDS).toBe(scaled)
      const grams = ngramsOf(doc, features.nameWords, features)
      const p = model.predict(doc, features).probabilities
      // The lexicon evidence, then the text vector of the committed model.
      const dense = [...denseFeatures(features), ...vectorFeatures(vectors, doc, features.nameWords)]
      expect(dense).toHaveLength(data.dense.length)
      expect(p).toEqual(classProbabilities(data, grams, dense, table, ngramScale(features.words)))
      if (!scaled) expect(p).toEqual(classProbabilities(data, grams, dense, table))
      else expect(p).not.toEqual(classProbabilities(data, grams, dense, table))
    }
  })
})
