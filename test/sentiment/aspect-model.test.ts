import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { createAnnotator } from '../../src/nlp/annotate.ts'
import {
  ASPECT_FEATURES,
  aspectMentionScore,
  aspectWordWeights,
  createAspectModel,
  defaultAspectModelPath,
  loadAspectModel,
  quantizedWeights,
  WEIGHT_SCALE,
  type AspectModel,
  type AspectModelData,
} from '../../src/sentiment/aspect.ts'
import { createSentimentScorer } from '../../src/sentiment/scorer.ts'

/** Model data with the given word table (dense weights all 0). */
function modelData(words: Record<string, number[]>): AspectModelData {
  const row = [0, ...ASPECT_FEATURES.map(() => 0)]
  return { format: 'textengine-aspect-model/1', trained: {}, features: [...ASPECT_FEATURES], weights: [row, row, row], words }
}

describe('aspect model word table', () => {
  const words: Record<string, number[]> = {
    great: [-0.1, 0.02, 0.3],
    not_bad: [0.00001, -0.00002, 0.12345],
    // Long enough to be a slice of the file text, and words beyond ASCII and beyond Latin-1.
    'b:incredibly_T': [-1.5, 0, 1.25],
    'a:café': [0, 0.5, 0],
    'b:łódź_T': [0.2, -0.2, 0.1],
    'R:😀': [-0.3, 0, 0.7],
    '“quoted”': [1, 2, 3],
  }
  const model = createAspectModel(modelData(words))

  it('should give every word its own weights, and none to a word it does not hold', () => {
    expect(model.words.size).toBe(Object.keys(words).length)
    for (const [w, ws] of Object.entries(words)) expect(aspectWordWeights(model, w)).toEqual(ws)
    for (const w of ['', 'grea', 'greatx', 'Great', 'a:cafe', 'b:lodz_T', 'R:😁', 'b:incredibly_', 'not_', 'quoted']) {
      expect(aspectWordWeights(model, w)).toBeUndefined()
      expect(model.words.row(w)).toBe(-1)
    }
  })

  it('should refuse a word holding a line feed', () => {
    expect(() => createAspectModel(modelData({ ok: [0, 0, 0], 'a\nb': [1, 0, 0] }))).toThrow(/aspect model: word "a\\nb" holds a line feed/)
  })

  it('should hold each word of the shipped model with the weights of its file', () => {
    const data = JSON.parse(readFileSync(defaultAspectModelPath(), 'utf8')) as AspectModelData
    const shipped = loadAspectModel()
    const all = Object.entries(data.words)
    expect(shipped.words.size).toBe(all.length)
    let differ = 0
    for (const [w, ws] of all) {
      const got = aspectWordWeights(shipped, w)
      if (got === undefined || got.some((x, k) => !Object.is(x, ws[k]))) differ++
    }
    expect(differ).toBe(0)
    expect(aspectWordWeights(shipped, 'no_such_word_in_the_model')).toBeUndefined()
  })
})

describe('aspect model weights as integers', () => {
  it('should keep weights of 5 decimals as integers that read back as the same doubles', () => {
    const w = Float64Array.from([0, 1, -1, 0.00001, -0.00001, 0.12345, -1.31993, 0.1, 0.3, 21474.83647, -21474.83648])
    const q = quantizedWeights(w)
    expect(q).toBeInstanceOf(Int32Array)
    expect(Array.from(q!, (x) => x / WEIGHT_SCALE)).toEqual(Array.from(w))
    expect(Array.from(q!.subarray(0, 6))).toEqual([0, 100000, -100000, 1, -1, 12345])
  })

  it('should refuse the integers when one weight would not read back exactly', () => {
    for (const bad of [0.123456, 1 / 3, 1e-6, -0, 21474.83648, 3e4, Number.NaN]) {
      expect(quantizedWeights(Float64Array.from([0.5, bad, -0.25]))).toBeUndefined()
    }
  })

  it('should score with the doubles themselves when a weight has more decimals', () => {
    const words = { great: [-0.1, 0.02, 0.3], fine: [0.1234567, 0, -0.5] }
    const m = createAspectModel(modelData(words))
    expect(m.table).toBeInstanceOf(Float64Array)
    expect(m.scale).toBe(1)
    for (const [w, ws] of Object.entries(words)) expect(aspectWordWeights(m, w)).toEqual(ws)
    const q = createAspectModel(modelData({ great: [-0.1, 0.02, 0.3], fine: [0.12346, 0, -0.5] }))
    expect(q.table).toBeInstanceOf(Int32Array)
    expect(q.scale).toBe(WEIGHT_SCALE)
  })

  it('should hold the shipped model as integers and score every mention as its doubles do', () => {
    const shipped = loadAspectModel()
    expect(shipped.table).toBeInstanceOf(Int32Array)
    expect(shipped.scale).toBe(WEIGHT_SCALE)
    const doubles: AspectModel = { ...shipped, table: Float64Array.from(shipped.table, (x) => x / shipped.scale), scale: 1 }
    const annotator = createAnnotator()
    const scorer = createSentimentScorer({ model: false })
    const texts = [
      'Great location, dirty rooms, friendly staff.',
      'The food was delicious but the service was terribly slow.',
      'The battery died after a week and the screen is not bright.',
      'Tesla fell 4% while OpenAI did well.',
    ]
    let polar = 0
    for (const text of texts) {
      const doc = annotator.annotate(text)
      const r = scorer.score(doc)
      const ev = { doc, phrases: r.phrases, contrastTokens: r.contrastTokens, sentenceScores: r.sentences.map((x) => x.sentiment_score) }
      for (const t of doc.tokens) {
        if (t.kind !== 'word') continue
        const span = { tokenStart: t.index, tokenEnd: t.index + 1 }
        const a = aspectMentionScore(shipped, ev, span)
        expect(Object.is(a, aspectMentionScore(doubles, ev, span))).toBe(true)
        if (a !== 0) polar++
      }
    }
    expect(polar).toBeGreaterThan(5)
  })
})
