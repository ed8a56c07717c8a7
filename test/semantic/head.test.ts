import { readFileSync } from 'node:fs'
import { createHash } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { createAnnotator } from '../../src/nlp/annotate.ts'
import { createSemanticModel, headProbabilities, parseCategoryHead } from '../../src/semantic/index.ts'
import { trainHead, type HeadExample } from '../../src/semantic/head.ts'
import { categoryText, HEAD_SUPPORT_COSINE_FLOOR, nodeEvidence, rankCategories } from '../../src/pipeline/analyzers/categories.ts'
import { spanVector } from '../../src/semantic/embed.ts'
import { refineTags } from '../../src/pipeline/pos.ts'
import { dataPath } from '../../src/resources.ts'

const semantic = createSemanticModel()
const annotator = createAnnotator()
const modelText = readFileSync(dataPath(undefined, 'en', 'category-model.json'), 'utf8')
const vectorsSha1 = createHash('sha1').update(readFileSync(dataPath(undefined, 'en', 'vectors.bin'))).digest('hex')

describe('learned head of auto_categories', () => {
  it('should ship a small model trained on these vectors that covers every tier-1 category and loads quickly', () => {
    expect(Buffer.byteLength(modelText)).toBeLessThan(100_000)
    const taxonomy = semantic.taxonomy
    const t0 = performance.now()
    const head = parseCategoryHead(modelText, taxonomy, semantic.vectors.dims, vectorsSha1)
    expect(performance.now() - t0).toBeLessThan(200)
    expect(head).toBeDefined()
    expect(head!.rows.every((r) => r !== undefined)).toBe(true)
    expect(semantic.head).toBeDefined()
  })

  it('should not be used with other vectors, and should reject a class that is not a tier-1 node', () => {
    expect(parseCategoryHead(modelText, semantic.taxonomy, semantic.vectors.dims, '0'.repeat(40))).toBeUndefined()
    expect(parseCategoryHead(modelText, semantic.taxonomy, semantic.vectors.dims + 1, vectorsSha1)).toBeUndefined()
    const bad = JSON.stringify({ about: '', vectors_sha1: 'x', dims: 2, classes: [{ id: 'no-such-node', name: 'X', examples: 1, weights: [0, 0, 0] }] })
    expect(() => parseCategoryHead(bad, semantic.taxonomy, 2, 'x')).toThrow(/not a tier-1 node/)
  })

  it('should give probabilities over the tier-1 categories, 0 for those it does not cover', () => {
    const dims = semantic.vectors.dims
    const first = semantic.taxonomy.roots[0]!
    const second = semantic.taxonomy.roots[1]!
    const weights = (bias: number): number[] => [...new Array<number>(dims).fill(0), bias]
    const file = JSON.stringify({ about: '', vectors_sha1: 'x', dims, classes: [{ id: first.id, name: first.name, examples: 1, weights: weights(Math.log(3)) }, { id: second.id, name: second.name, examples: 1, weights: weights(0) }] })
    const p = headProbabilities(parseCategoryHead(file, semantic.taxonomy, dims, 'x')!, new Float32Array(dims))
    expect(p[0]).toBeCloseTo(0.75, 10)
    expect(p[1]).toBeCloseTo(0.25, 10)
    expect([...p.slice(2)].every((x) => x === 0)).toBe(true)
  })

  it('should put most of its probability on the category a person would pick for a news headline, a review and a tweet', () => {
    const top = (text: string): string => {
      const p = headProbabilities(semantic.head!, categoryText(semantic.vectors, annotator.annotate(text)).vector)
      return semantic.taxonomy.roots[p.indexOf(Math.max(...p))]!.name
    }
    expect(top('Senate Republicans block the Democrats’ voting rights bill as the president urges Congress to act.')).toBe('Politics')
    expect(top('The pasta was overcooked and the sauce bland, but the dessert and the wine were lovely.')).toBe('Food & Drink')
    expect(top('What a game!! The quarterback threw three touchdowns and the defense held on in overtime #NFL')).toBe('Sports')
  })

  it('should learn a set of classes as one: the set gets the probability, split by what the other examples say', () => {
    const unit = (x: number, y: number): Float32Array => {
      const n = Math.hypot(x, y)
      return Float32Array.from([x / n, y / n])
    }
    const probs = (W: Float64Array[], v: Float32Array): number[] => {
      const z = W.map((w) => w[0]! * v[0]! + w[1]! * v[1]! + w[2]!)
      const m = Math.max(...z)
      const e = z.map((x) => Math.exp(x - m))
      const s = e.reduce((a, x) => a + x, 0)
      return e.map((x) => x / s)
    }
    const training = { steps: 200, rate: 5, l2: 0 }
    // Class 0 near (1, 0), class 2 near (0, 1); a story at (1, 0.2) labelled "0 or 1".
    const base: HeadExample[] = [
      { k: 0, v: unit(1, 0), w: 1 },
      { k: 2, v: unit(0, 1), w: 1 },
    ]
    const story: HeadExample = { k: 0, set: [0, 1], v: unit(1, 0.2), w: 3 }
    const W = trainHead([...base, story], 3, 2, training)
    const p = probs(W, story.v)
    expect(p[0]! + p[1]!).toBeGreaterThan(0.9)
    // Class 0 has examples of its own near the story, class 1 none: the set's probability goes mostly to class 0.
    expect(p[0]!).toBeGreaterThan(p[1]!)
    // A set of one class is that class; the same examples give the same numbers.
    const one = trainHead([...base, { ...story, set: [0] }], 3, 2, training)
    const plain = trainHead([...base, { k: 0, v: story.v, w: 3 }], 3, 2, training)
    expect(one.map((r) => [...r])).toEqual(plain.map((r) => [...r]))
    // Labelled "0 or 1", class 1 keeps more of the story's probability than when it is labelled 0 alone.
    expect(p[1]!).toBeGreaterThan(3 * probs(plain, story.v)[1]!)
    expect(trainHead([...base, story], 3, 2, training).map((r) => [...r])).toEqual(W.map((r) => [...r]))
    // A weight is as many copies of the example.
    const copies = trainHead([...base, { k: 0, v: story.v, w: 1 }, { k: 0, v: story.v, w: 1 }, { k: 0, v: story.v, w: 1 }], 3, 2, training)
    plain.forEach((r, k) => r.forEach((x, d) => expect(x).toBeCloseTo(copies[k]![d]!, 9)))
  })

  it('should report a category from the head only when the text is somewhat near it by its words', () => {
    const ranked = (text: string) => {
      const doc = annotator.annotate(text)
      refineTags(doc)
      const tv = categoryText(semantic.vectors, doc)
      const r = rankCategories(semantic, tv, {}, nodeEvidence(semantic, tv), nodeEvidence(semantic, spanVector(semantic.vectors, doc)))
      return { first: r[0]!, p: headProbabilities(semantic.head!, tv.vector)[r[0]!.node.root]! }
    }
    // News-day filler: the head may lean to a section of the news, but no word is near it, so nothing is reported.
    const filler = ranked('The meeting is on Tuesday.')
    expect(filler.first.cosine).toBeLessThan(HEAD_SUPPORT_COSINE_FLOOR)
    expect(filler.first.strength).toBeLessThan(0.2)
    // A headline plainly about a category is reported from the head.
    const headline = ranked('Senate Republicans block the voting rights bill as the president urges Congress to act')
    expect(headline.first.node.name).toBe('Politics')
    expect(headline.p).toBeGreaterThan(0.6)
    expect(headline.first.strength).toBeGreaterThanOrEqual(0.45)
  })
})
