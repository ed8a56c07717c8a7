import { describe, expect, it } from 'vitest'
import { createEntityTagger, loadDefaultModel, readNerFile, taggerFileName } from '../../src/entities/tagger.ts'
import { decodeModel } from '../../src/entities/model.ts'

describe('the two shipped tagger weights (licence choice)', () => {
  it('reads tagger.bin.gz unless TEXTENGINE_NER_WEIGHTS=open, and names a wrong value', () => {
    expect(taggerFileName({})).toBe('tagger.bin.gz')
    expect(taggerFileName({ TEXTENGINE_NER_WEIGHTS: 'default' })).toBe('tagger.bin.gz')
    expect(taggerFileName({ TEXTENGINE_NER_WEIGHTS: 'open' })).toBe('tagger-open.bin.gz')
    expect(() => taggerFileName({ TEXTENGINE_NER_WEIGHTS: 'conll' })).toThrow(/TEXTENGINE_NER_WEIGHTS.*"conll"/)
  })

  it('open weights were trained on openly licensed corpora only, and tag a sentence', () => {
    const open = decodeModel(readNerFile('tagger-open.bin.gz'), 'tagger-open.bin.gz')
    const data = String(open.trained['data'])
    expect(data).toContain('CC BY')
    expect(data).not.toMatch(/CoNLL|research use/)
    const { gazetteer, clusters } = loadDefaultModel()
    const tagger = createEntityTagger({ weights: open, gazetteer, ...(clusters === undefined ? {} : { clusters }) })
    const spans = tagger.tag(['Barack', 'Obama', 'visited', 'Paris', 'on', 'Monday', '.'])
    expect(spans.map((s) => `${s.type}:${s.start}:${s.end}`)).toEqual(['PER:0:2', 'LOC:3:4'])
  })

  it('default weights say what they were trained on, research-use data included', () => {
    const main = decodeModel(readNerFile('tagger.bin.gz'), 'tagger.bin.gz')
    expect(String(main.trained['data'])).toMatch(/CoNLL-2003.*research use/)
  })
})
