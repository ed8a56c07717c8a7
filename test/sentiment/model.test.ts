import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import {
  CALIBRATION_INPUTS,
  DENSE_FEATURES,
  checkModelData,
  defaultModelPath,
  loadSentimentModel,
  type SentimentModelData,
} from '../../src/sentiment/model.ts'

// A small valid model; each test damages one part of a copy.
const valid = (): SentimentModelData => ({
  format: 'textengine-sentiment-model/1',
  model_name: 'test',
  trained: {},
  dense: DENSE_FEATURES,
  denseWeights: [0, 0, 0].map(() => [0, ...DENSE_FEATURES.map(() => 0.1)]),
  ngrams: { good: [-1, 0, 1], 'not_good </s>': [1, 0, -1] },
  calibrator: { inputs: CALIBRATION_INPUTS, bias: 0, weights: CALIBRATION_INPUTS.map(() => 0.01) },
})
const damaged = (edit: (d: Record<string, unknown>) => void): unknown => {
  const d = JSON.parse(JSON.stringify(valid())) as Record<string, unknown>
  edit(d)
  return d
}

describe('sentiment model file validation', () => {
  it('accepts the committed model and a well-formed one', () => {
    expect(() => checkModelData(JSON.parse(readFileSync(defaultModelPath(), 'utf8')), 'committed')).not.toThrow()
    expect(() => checkModelData(valid(), 'valid')).not.toThrow()
  })

  it('rejects an n-gram weight that is not a finite number, naming the n-gram and the class', () => {
    const bad = damaged((d) => {
      ;(d.ngrams as Record<string, unknown[]>)['not_good </s>'] = [1, 'x', -1]
    })
    expect(() => checkModelData(bad, 'm.json')).toThrow('m.json: ngrams["not_good </s>"][1] should be a finite number, instead found "x"')
  })

  it('rejects an n-gram row of the wrong length', () => {
    const bad = damaged((d) => {
      ;(d.ngrams as Record<string, unknown>).good = [1, 2]
    })
    expect(() => checkModelData(bad, 'm.json')).toThrow('ngrams["good"] should be an array of 3 numbers')
  })

  it('rejects a dense weight row that does not match the dense features', () => {
    const bad = damaged((d) => {
      ;(d.denseWeights as unknown[][])[2] = [0, 1]
    })
    expect(() => checkModelData(bad, 'm.json')).toThrow(`denseWeights[2] should be an array of ${DENSE_FEATURES.length + 1} numbers`)
  })

  it('rejects a calibrator without a finite bias or with a non-numeric weight', () => {
    expect(() => checkModelData(damaged((d) => ((d.calibrator as Record<string, unknown>).bias = null)), 'm.json')).toThrow(
      'calibrator.bias should be a finite number, instead found null',
    )
    const weights = damaged((d) => {
      ;((d.calibrator as Record<string, unknown[]>).weights as unknown[])[3] = '0.5'
    })
    expect(() => checkModelData(weights, 'm.json')).toThrow('calibrator.weights[3] should be a finite number, instead found "0.5"')
  })

  it('names the file when it is not JSON', () => {
    const path = join(mkdtempSync(join(tmpdir(), 'te-model-')), 'broken.json')
    writeFileSync(path, '{"format": ')
    expect(() => loadSentimentModel(path)).toThrow(`${path}: not valid JSON`)
  })
})
