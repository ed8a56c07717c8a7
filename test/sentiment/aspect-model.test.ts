import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { createAnnotator } from '../../src/nlp/annotate.ts'
import {
  ASPECT_FEATURES,
  aspectMentionScore,
  aspectWordWeights,
  createAspectModel,
  defaultAspectModelPath,
  loadAspectModel,
  packAspectModel,
  PACKED_ASPECT_FORMAT,
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
    const file = JSON.parse(readFileSync(defaultAspectModelPath(), 'utf8')) as { format: string; words: string; wordWeights: string }
    expect(file.format).toBe(PACKED_ASPECT_FORMAT)
    // The weights as scaled integers (5 decimals), read here by the file's own rule, not by the engine's loader.
    expect(file.wordWeights.startsWith('i32e5:')).toBe(true)
    const bytes = Buffer.from(file.wordWeights.slice('i32e5:'.length), 'base64')
    const weights = Array.from({ length: bytes.length / 4 }, (_, i) => bytes.readInt32LE(4 * i) / 1e5)
    const names = file.words.slice(0, -1).split('\n')
    expect(weights.length).toBe(3 * names.length)
    const all = names.map((w, i) => [w, weights.slice(3 * i, 3 * i + 3)] as const)
    expect(new Set(names).size).toBe(names.length)
    const shipped = loadAspectModel()
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

describe('packed aspect model file', () => {
  const words: Record<string, number[]> = {
    great: [-0.1, 0.02, 0.3],
    fine: [0.1234567, 0, -0.5],
    'a:café': [0, 0.5, 0],
    'b:łódź_T': [0.2, -0.2, 0.1],
    '“quoted”': [1, 2, 3],
  }
  const data = modelData(words)
  const dir = mkdtempSync(join(tmpdir(), 'aspect-pack-'))
  const write = (name: string, text: string): string => {
    const f = join(dir, name)
    writeFileSync(f, text)
    return f
  }

  it('should read back exactly the model of its data, and the unpacked form still loads', () => {
    const packed = packAspectModel(data)
    expect(JSON.parse(packed)).toMatchObject({ format: PACKED_ASPECT_FORMAT, words: 'great\nfine\na:café\nb:łódź_T\n“quoted”\n', wordWeights: Object.values(words).flat() })
    for (const model of [loadAspectModel(write('packed.json', packed + '\n')), loadAspectModel(write('table.json', JSON.stringify(data)))]) {
      const direct = createAspectModel(data)
      expect(model.data).toEqual(direct.data)
      expect(model.scale).toBe(direct.scale)
      expect(Array.from(model.table)).toEqual(Array.from(direct.table))
      for (const [w, ws] of Object.entries(words)) expect(aspectWordWeights(model, w)).toEqual(ws)
      expect(aspectWordWeights(model, 'grea')).toBeUndefined()
    }
    // The same data give the same bytes.
    expect(packAspectModel(JSON.parse(JSON.stringify(data)) as AspectModelData)).toBe(packed)
    const empty = loadAspectModel(write('empty.json', packAspectModel(modelData({}))))
    expect(empty.words.size).toBe(0)
  })

  it('should refuse a damaged packed file, naming the file and the field', () => {
    const good = JSON.parse(packAspectModel(data)) as Record<string, unknown>
    const cases: Array<[Record<string, unknown>, RegExp]> = [
      [{ ...good, wordWeights: (good['wordWeights'] as number[]).slice(1) }, /bad\.json: wordWeights should hold 3 numbers for each of the 5 words, instead found 14/],
      [{ ...good, wordWeights: (good['wordWeights'] as number[]).map((x, i) => (i === 4 ? 'x' : x)) }, /bad\.json: wordWeights\[4\] \(word "fine"\) should be a finite number, instead found "x"/],
      [{ ...good, words: 'great\nfine' }, /bad\.json: words should be a string of words, each ended by a line feed/],
      [{ ...good, words: ['great'] }, /bad\.json: words should be a string of words/],
      [{ ...good, trained: 'yesterday' }, /bad\.json: trained should be an object/],
      [{ ...good, weights: [[0], [0], [0]] }, /bad\.json: weights\[0\] should have \d+ numbers/],
      [{ ...good, features: ['inside'] }, /bad\.json: features should be/],
      [{ ...good, format: 'textengine-aspect-model/9' }, /bad\.json: format should be "textengine-aspect-model\/2" \(or the unpacked "textengine-aspect-model\/1"\), instead found "textengine-aspect-model\/9"/],
    ]
    for (const [json, message] of cases) expect(() => loadAspectModel(write('bad.json', JSON.stringify(json)))).toThrow(message)
    expect(() => packAspectModel(modelData({ 'a\nb': [0, 0, 0] }))).toThrow(/holds a line feed/)
  })
})
