import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { ASPECT_FEATURES, aspectWordWeights, createAspectModel, defaultAspectModelPath, loadAspectModel, type AspectModelData } from '../../src/sentiment/aspect.ts'

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
