import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { createAnnotator } from '../../src/nlp/annotate.ts'
import { parseTaxonomyModel } from '../../src/semantic/taxonomy.ts'
import { createSemanticModel, compileSamples, decodeWordVectors, documentVectors, encodeWordVectors, matchSamples, phraseVector, spanVector, dot } from '../../src/semantic/index.ts'
import { dataPath } from '../../src/resources.ts'

const semantic = createSemanticModel()
const annotator = createAnnotator()
const similarity = (text: string, samples: string[]): number => {
  const doc = annotator.annotate(text)
  return matchSamples(semantic.vectors, documentVectors(semantic.vectors, doc), compileSamples(semantic.vectors, samples), 0.45).similarity
}

describe('word vectors', () => {
  it('should round-trip through the binary form as unit vectors to about 1%', () => {
    const words = ['alpha', 'beta']
    const bytes = encodeWordVectors({ dims: 3, words, vectors: [Float32Array.of(3, 4, 0), Float32Array.of(0, 0, -2)], probabilities: [0.01, 0.0001] })
    const v = decodeWordVectors(bytes)
    expect([v.size, v.dims, v.id('beta'), v.id('gamma'), v.word(0)]).toEqual([2, 3, 1, -1, 'alpha'])
    const a = new Float32Array(3)
    v.addTo(a, 0, 1)
    expect([...a].map((x) => Math.round(x * 100) / 100)).toEqual([0.6, 0.8, 0])
    expect(v.probability(1)).toBeCloseTo(0.0001, 8)
    expect(() => decodeWordVectors(bytes.subarray(0, 30))).toThrow(/bytes/)
  })

  it('should ship a vocabulary of 50,000 sorted lower-case words that loads quickly', () => {
    const t0 = performance.now()
    const v = decodeWordVectors(readFileSync(dataPath(undefined, 'en', 'vectors.bin')))
    expect(performance.now() - t0).toBeLessThan(2000)
    expect(v.size).toBe(50_000)
    expect(v.word(0) < v.word(1) && v.word(1) < v.word(2)).toBe(true)
    expect(v.id('concierge')).toBeGreaterThanOrEqual(0)
  })
})

describe('text vectors and similarity', () => {
  it('should find "the concierge was rude" close to staff, reception, service, and an unrelated text far from them', () => {
    const staff = ['staff', 'reception', 'service']
    expect(similarity('The concierge was rude.', staff)).toBeGreaterThanOrEqual(0.45)
    expect(similarity('The stock market fell sharply today.', staff)).toBeLessThan(0.3)
    expect(similarity('We had eggs and bacon in the morning.', staff)).toBeLessThan(0.3)
  })

  it('should skip stop words and weight rare words above common ones', () => {
    const doc = annotator.annotate('The concierge was very rude to us.')
    const terms = spanVector(semantic.vectors, doc).terms.map((t) => doc.tokens[t.token]!.normal)
    expect(terms).toEqual(['concierge', 'rude'])
    const { terms: weighted } = spanVector(semantic.vectors, annotator.annotate('concierge people'))
    expect(weighted[0]!.weight).toBeGreaterThan(weighted[1]!.weight)
  })

  it('should keep the topic of a negated span: "the pool was not open" is still about the pool', () => {
    const pool = ['pool', 'swimming']
    expect(similarity('The pool was not open.', pool)).toBeGreaterThan(0.45)
    const doc = annotator.annotate('The pool was not open.')
    const without = spanVector(semantic.vectors, doc, 0, doc.tokens.length, { keepNegated: false })
    expect(without.terms.map((t) => doc.tokens[t.token]!.normal)).toEqual(['pool'])
  })

  it('should compare a phrase sample by its words', () => {
    const a = phraseVector(semantic.vectors, 'front desk').vector
    const b = phraseVector(semantic.vectors, 'reception').vector
    const c = phraseVector(semantic.vectors, 'volcano').vector
    expect(dot(a, b)).toBeGreaterThan(dot(a, c))
  })

  it('should describe every tier-1 IAB node by words and a unit vector', () => {
    const roots = semantic.taxonomy.roots
    expect(roots.map((r) => r.name)).toContain('Sports')
    expect(roots.map((r) => r.name)).not.toContain('Genres')
    for (const r of roots) expect(dot(r.branch, r.branch)).toBeCloseTo(1, 3)
  })

  it('should read corpus words as a fifth column and let them pull a node towards its subject', () => {
    const tsv = ['# id\tparent\tname\twords\tcorpus words', '1\t\tPolitics\tpolitics ideology', '2\t\tSports\tsports sport', ''].join('\n')
    const plain = parseTaxonomyModel(tsv, semantic.vectors)
    const withCorpus = parseTaxonomyModel(tsv.replace('politics ideology', 'politics ideology\tsenate election republicans democrats'), semantic.vectors)
    expect(plain.nodes[0]!.corpus).toEqual([])
    expect(withCorpus.nodes[0]!.corpus).toEqual(['senate', 'election', 'republicans', 'democrats'])
    const vote = phraseVector(semantic.vectors, 'the senate vote on the budget').vector
    expect(dot(vote, withCorpus.nodes[0]!.vector)).toBeGreaterThan(dot(vote, plain.nodes[0]!.vector))
    // Without corpus weight the fifth column changes nothing.
    const off = parseTaxonomyModel(tsv.replace('politics ideology', 'politics ideology\tsenate election'), semantic.vectors, 'x', { corpusWeight: 0 })
    expect(Array.from(off.nodes[0]!.vector)).toEqual(Array.from(plain.nodes[0]!.vector))
    expect(() => parseTaxonomyModel('1\t9\tOrphan\torphan\n', semantic.vectors, 'bad.tsv')).toThrow(/bad.tsv:1: parent "9"/)
  })
})
