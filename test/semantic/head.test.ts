import { readFileSync } from 'node:fs'
import { createHash } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { createAnnotator } from '../../src/nlp/annotate.ts'
import { createSemanticModel, headProbabilities, parseCategoryHead } from '../../src/semantic/index.ts'
import { categoryText } from '../../src/pipeline/analyzers/categories.ts'
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
})
