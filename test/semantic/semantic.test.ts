import { readFileSync } from 'node:fs'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { createAnnotator } from '../../src/nlp/annotate.ts'
import { decodeNearestTable, encodeNearestTable, parseTaxonomyModel, semanticIndex } from '../../src/semantic/taxonomy.ts'
import { createSemanticModel, compileSamples, decodeWordVectors, documentVectors, encodeWordVectors, matchSamples, phraseVector, spanVector, dot } from '../../src/semantic/index.ts'
import { dataPath } from '../../src/resources.ts'
import { rowDots } from '../../src/semantic/embed.ts'

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

  it('should leave out the tokens it is told to, and keep the whole text\'s shared vector as it was', () => {
    const doc = annotator.annotate('The concierge was very rude to us.')
    const before = Array.from(spanVector(semantic.vectors, doc).vector)
    const concierge = doc.tokens.findIndex((t) => t.normal === 'concierge')
    const without = spanVector(semantic.vectors, doc, 0, doc.tokens.length, { exclude: [concierge] })
    expect(without.terms.map((t) => doc.tokens[t.token]!.normal)).toEqual(['rude'])
    expect(Array.from(without.vector)).toEqual(Array.from(spanVector(semantic.vectors, annotator.annotate('rude')).vector))
    expect(Array.from(spanVector(semantic.vectors, doc).vector)).toEqual(before)
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

describe('speed structures give the same answers', () => {
  const tsv = readFileSync(dataPath(undefined, 'en', 'iab-taxonomy.tsv'), 'utf8')
  // Words spread over the vocabulary (frequent and rare ones).
  const ids = Array.from({ length: 60 }, (_, i) => (i * 8311) % semantic.vectors.size)

  it('should compute a row-by-row dot product with the same numbers as dot()', () => {
    const nodes = semantic.taxonomy.nodes.slice(0, 7)
    const rows = new Float64Array(nodes.length * semantic.vectors.dims)
    nodes.forEach((n, i) => rows.set(n.vector, i * semantic.vectors.dims))
    const out = new Float64Array(nodes.length)
    for (const id of ids) {
      semantic.vectors.dotRows!(id, rows, nodes.length, out)
      expect(Array.from(out)).toEqual(nodes.map((n) => semantic.vectors.dot(id, n.vector)))
    }
  })

  it('should compute several words\' dot products with one vector with the same numbers as dot()', () => {
    for (const node of semantic.taxonomy.nodes.slice(0, 5)) {
      // 60, 7 and 1 words: the four-at-a-time loop and its tail.
      for (const some of [ids, ids.slice(0, 7), ids.slice(3, 4)]) {
        const out = new Array<number>(some.length)
        semantic.vectors.dotWords!(some, node.branch, out)
        expect(out).toEqual(some.map((id) => semantic.vectors.dot(id, node.branch)))
      }
    }
  })

  it('should add a word to two vectors in one pass with the same numbers as two addTo() calls', () => {
    const dims = semantic.vectors.dims
    const a = new Float32Array(dims)
    const b = new Float32Array(dims).fill(0.25)
    const a2 = new Float32Array(dims)
    const b2 = new Float32Array(dims).fill(0.25)
    for (const [k, id] of ids.entries()) {
      const w = 1 / (k + 3)
      semantic.vectors.addToBoth!(a, b, id, w)
      semantic.vectors.addTo(a2, id, w)
      semantic.vectors.addTo(b2, id, w)
    }
    expect([Array.from(a), Array.from(b)]).toEqual([Array.from(a2), Array.from(b2)])
  })

  it('should compute a matrix\'s rows times a vector with the same numbers as dot(), from 0 or from a bias', () => {
    const dims = semantic.vectors.dims
    const text = spanVector(semantic.vectors, annotator.annotate('The striker scored twice before the referee sent him off.')).vector
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 9 }), fc.integer({ min: 0, max: semantic.taxonomy.nodes.length - 10 }), fc.boolean(), (rows, first, biased) => {
        const nodes = semantic.taxonomy.nodes.slice(first, first + rows)
        const stride = biased ? dims + 1 : dims
        const m = new Float64Array(rows * stride)
        nodes.forEach((n, i) => {
          m.set(n.branch, i * stride)
          if (biased) m[i * stride + dims] = (i + 1) / 7
        })
        const got = rowDots(m, rows, stride, text, biased, new Array<number>(rows))
        // dot() sums from 0; a biased row sums from its bias, in the same order.
        const want = nodes.map((n, i) => {
          let s = biased ? (i + 1) / 7 : 0
          for (let d = 0; d < dims; d++) s += n.branch[d]! * text[d]!
          return s
        })
        expect(got).toEqual(want)
        if (!biased) expect(got).toEqual(nodes.map((n) => dot(text, n.branch)))
      }),
    )
  })

  it('should load the shipped nearest-node table, and it should agree with the nearest nodes computed word by word', () => {
    expect(semantic.taxonomy.precomputed).toBe(true)
    const computed = parseTaxonomyModel(tsv, semantic.vectors, 'tsv')
    expect(computed.precomputed).toBe(false)
    for (const id of ids) {
      const a = semantic.taxonomy.nearest(id)
      const b = computed.nearest(id)
      expect([a.node.id, a.sim]).toEqual([b.node.id, b.sim])
      // The plain definition: the node of highest dot product, the first of equals.
      let best = computed.nodes[0]!
      for (const n of computed.nodes) if (semantic.vectors.dot(id, n.vector) > semantic.vectors.dot(id, best.vector)) best = n
      expect(b.node.id).toBe(best.id)
      expect(semantic.taxonomy.nodes[a.node.index]).toBe(a.node)
      let root = a.node
      while (root.parent !== undefined) root = root.parent
      expect(semantic.taxonomy.roots[a.node.root]).toBe(root)
    }
  })

  it('should round-trip a semantic index and ignore one computed from other inputs', () => {
    const head = tsv.split('\n').slice(0, 40).join('\n')
    const small = parseTaxonomyModel(head, semantic.vectors, 'small')
    const index = semanticIndex(small, semantic.vectors)
    const dims = semantic.vectors.dims
    const digest = new Uint8Array(20).fill(7)
    const bytes = encodeNearestTable(index, small.nodes.length, dims, digest)
    expect(decodeNearestTable(bytes, digest, small.nodes.length, dims)).toEqual(index)
    expect(decodeNearestTable(bytes, new Uint8Array(20), small.nodes.length, dims)).toBeUndefined()
    expect(decodeNearestTable(bytes, digest, small.nodes.length + 1, dims)).toBeUndefined()
    expect(() => decodeNearestTable(bytes.subarray(0, 50), digest, small.nodes.length, dims, 't.bin')).toThrow(/t.bin: expected \d+ bytes/)
    // Read instead of computed: the same nodes, vectors and answers.
    const read = parseTaxonomyModel(head, semantic.vectors, 'small', { nearestTable: index.nearest, nodeVectors: index })
    expect(read.nodes.map((n) => [n.id, Array.from(n.vector), Array.from(n.branch)])).toEqual(small.nodes.map((n) => [n.id, Array.from(n.vector), Array.from(n.branch)]))
    for (const id of ids) expect(read.nearest(id)).toEqual(small.nearest(id))
    expect(() => parseTaxonomyModel(tsv, semantic.vectors, 'x', { nearestTable: index.nearest.subarray(0, 10) })).toThrow(/10 entries/)
    expect(() => parseTaxonomyModel(tsv, semantic.vectors, 'x', { nodeVectors: index })).toThrow(/x: the precomputed node vectors/)
  })

  it('should read the same node vectors from the shipped index as it computes', () => {
    const computed = parseTaxonomyModel(tsv, semantic.vectors, 'tsv')
    const shipped = semantic.taxonomy.nodes
    expect(shipped.length).toBe(computed.nodes.length)
    computed.nodes.forEach((n, i) => {
      expect(Array.from(shipped[i]!.vector)).toEqual(Array.from(n.vector))
      expect(Array.from(shipped[i]!.branch)).toEqual(Array.from(n.branch))
    })
  })

  it('should share the whole text vector between callers and reuse the token lookups for sentences', () => {
    const doc = annotator.annotate('The concierge was rude. The breakfast was cold and the pool was closed.')
    const a = spanVector(semantic.vectors, doc)
    expect(spanVector(semantic.vectors, doc)).toBe(a)
    expect(documentVectors(semantic.vectors, doc).document).toBe(a)
    const fresh = annotator.annotate('The concierge was rude. The breakfast was cold and the pool was closed.')
    const idf = spanVector(semantic.vectors, fresh, 0, fresh.tokens.length, { weighting: 'idf' })
    expect(idf).not.toBe(spanVector(semantic.vectors, fresh))
    expect(Array.from(spanVector(semantic.vectors, fresh).vector)).toEqual(Array.from(a.vector))
    const s = doc.sentences[1]!
    expect(spanVector(semantic.vectors, doc, s.tokenStart, s.tokenEnd).terms.map((t) => semantic.vectors.word(t.id))).toEqual(['breakfast', 'cold', 'pool', 'closed'])
  })
})
