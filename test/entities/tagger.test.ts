import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import { createEntityTagger } from '../../src/entities/tagger.ts'
import { decodeModel, encodeModel } from '../../src/entities/model.ts'
import { iob1ToBio, readConll, spansOfLabels } from '../../src/entities/conll.ts'
import { trainTagger } from '../../src/entities/train.ts'
import { LABELS, documentContext, isAllowedTransition, shortShape, staticFeatures, wordFeatures, wordShape } from '../../src/entities/features.ts'

// The committed model loads once for the whole file.
const tagger = createEntityTagger()
const spans = (sentence: string): string[] => {
  const tokens = sentence.split(' ')
  return tagger.tag(tokens).map((s) => `${s.type}:${tokens.slice(s.start, s.end).join(' ')}`)
}

describe('the committed entity tagger', () => {
  it('should find a person, an organisation and a place in a news sentence', () => {
    expect(spans('Peter Blackburn of the European Commission said on Thursday in Brussels .')).toEqual([
      'PER:Peter Blackburn',
      'ORG:European Commission',
      'LOC:Brussels',
    ])
  })

  it('should tag a nationality as MISC and a country as LOC', () => {
    expect(spans('German officials met their counterparts in France on Monday .')).toEqual(['MISC:German', 'LOC:France'])
  })

  it('should split wink-style possessives off the name', () => {
    expect(spans("Bill Clinton 's visit to Japan was cancelled .")).toEqual(['PER:Bill Clinton', 'LOC:Japan'])
  })

  it('should find nothing in a sentence without names', () => {
    expect(tagger.tag('the cat sat on the mat .'.split(' '))).toEqual([])
  })

  it('should return spans in order, inside the sentence, with confidence in 0..1', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom('Paris', 'said', 'John', 'Smith', 'of', 'IBM', 'the', '.', 'Reuters', 'in', 'London'), { maxLength: 20 }), (tokens) => {
        const out = tagger.tag(tokens)
        let last = 0
        for (const s of out) {
          expect(s.start).toBeGreaterThanOrEqual(last)
          expect(s.end).toBeGreaterThan(s.start)
          expect(s.end).toBeLessThanOrEqual(tokens.length)
          expect(s.confidence).toBeGreaterThanOrEqual(0)
          expect(s.confidence).toBeLessThanOrEqual(1)
          last = s.end
        }
      }),
      { seed: 6, numRuns: 200 },
    )
  })

  it('should give the same spans for the same tokens every time (determinism)', () => {
    const doc = [['Tim', 'Cook', 'runs', 'Apple', '.'], ['Cook', 'lives', 'in', 'California', '.']]
    expect(tagger.tagDocument(doc)).toEqual(tagger.tagDocument(doc))
    expect(createEntityTagger().tagDocument(doc)).toEqual(tagger.tagDocument(doc))
  })

  it('should use the document memory: a surname alone after the full name is a person', () => {
    const [, second] = tagger.tagDocument([
      'Boris Yeltsin met officials on Monday .'.split(' '),
      'Yeltsin said the talks went well .'.split(' '),
    ])
    expect(second?.map((s) => s.type)).toEqual(['PER'])
  })

  it('should reject tokens that are not strings, naming where', () => {
    expect(() => tagger.tagDocument([['a', 3 as unknown as string]])).toThrow(/token 1 of sentence 0/)
  })
})

describe('CoNLL reading and BIO', () => {
  it('should convert IOB1 to BIO, starting a span where the type changes or B- is given', () => {
    const bio = iob1ToBio(['I-PER', 'I-PER', 'O', 'I-LOC', 'B-LOC', 'I-ORG'])
    expect(bio.map((i) => LABELS[i])).toEqual(['B-PER', 'I-PER', 'O', 'B-LOC', 'B-LOC', 'B-ORG'])
    expect(spansOfLabels(bio)).toEqual([
      { type: 'PER', start: 0, end: 2 },
      { type: 'LOC', start: 3, end: 4 },
      { type: 'LOC', start: 4, end: 5 },
      { type: 'ORG', start: 5, end: 6 },
    ])
  })

  it('should name the line of a malformed row', () => {
    expect(() => readConll('EU NNP I-NP I-ORG\nrejects VBZ I-VP X-FOO\n', 'f')).toThrow(/f:2/)
  })

  it('should only allow I-X after B-X or I-X', () => {
    const at = (l: string): number => (LABELS as readonly string[]).indexOf(l)
    expect(isAllowedTransition(at('B-PER'), at('I-PER'))).toBe(true)
    expect(isAllowedTransition(at('O'), at('I-PER'))).toBe(false)
    expect(isAllowedTransition(at('B-LOC'), at('I-PER'))).toBe(false)
  })

  it('should give training (all features) and tagging (cached word features + the rest) the same features', () => {
    const tokens = ['Peter', 'Blackburn', 'visited', 'NEW', 'YORK', "'s", '1996-08-22', '.']
    const ctx = documentContext([tokens])
    const full = staticFeatures(tokens, undefined, ctx, true)
    const rest = staticFeatures(tokens, undefined, ctx, false)
    tokens.forEach((t, i) => {
      expect([...(full[i] ?? [])].sort()).toEqual([...wordFeatures(t), ...(rest[i] ?? [])].sort())
    })
  })

  it('should compute shapes', () => {
    expect(wordShape('McDonald')).toBe('XxXxxx')
    expect(shortShape('1996-08-22')).toBe('d-d-d')
  })
})

describe('training and the model file', () => {
  const conll = [
    '-DOCSTART- -X- O O', '',
    'John NNP I-NP I-PER', 'Smith NNP I-NP I-PER', 'visited VBD I-VP O', 'Paris NNP I-NP I-LOC', '. . O O', '',
    'Mary NNP I-NP I-PER', 'works VBZ I-VP O', 'for IN I-PP O', 'Acme NNP I-NP I-ORG', 'Corp NNP I-NP I-ORG', '. . O O', '',
    'Peter NNP I-NP I-PER', 'flew VBD I-VP O', 'to TO I-PP O', 'London NNP I-NP I-LOC', '. . O O', '',
  ].join('\n')
  const docs = readConll(conll)

  it('should train byte-identical models from the same data (fixed seed)', () => {
    const a = encodeModel(trainTagger(docs, { epochs: 5, minCount: 1 }))
    const b = encodeModel(trainTagger(docs, { epochs: 5, minCount: 1 }))
    expect(Buffer.compare(a, b)).toBe(0)
  })

  it('should learn its training sentences and survive an encode/decode round trip', () => {
    const weights = decodeModel(encodeModel(trainTagger(docs, { epochs: 10, minCount: 1 })))
    const small = createEntityTagger({ weights, gazetteer: { phrases: new Map(), maxTokens: 0, prefixes: new Set() } })
    const toks = ['John', 'Smith', 'visited', 'Paris', '.']
    expect(small.tag(toks).map((s) => [s.type, s.start, s.end])).toEqual([
      ['PER', 0, 2],
      ['LOC', 3, 4],
    ])
  })

  it('should refuse bytes that are not a model, saying what was expected', () => {
    expect(() => decodeModel(new Uint8Array([1, 2, 3]), 'x.bin')).toThrow(/x.bin: expected a gzip/)
  })
})
