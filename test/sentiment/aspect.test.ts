import { describe, expect, it } from 'vitest'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createEngine } from '../../src/engine/create-engine.ts'
import { createAnnotator } from '../../src/nlp/annotate.ts'
import { createSentimentScorer } from '../../src/sentiment/scorer.ts'
import { aspectFeatures, ASPECT_FEATURES, loadAspectModel, trainAspectModel } from '../../src/sentiment/aspect.ts'
import type { AnnotatedDocument } from '../../src/nlp/types.ts'

const annotator = createAnnotator()
const scorer = createSentimentScorer()

/** Token span of the first occurrence of `words` in the document. */
function spanOf(doc: AnnotatedDocument, words: string): { tokenStart: number; tokenEnd: number } {
  const at = doc.text.indexOf(words)
  if (at < 0) throw new Error(`"${words}" not in "${doc.text}"`)
  const toks = doc.tokens.filter((t) => t.start < at + words.length && t.end > at)
  return { tokenStart: toks[0]!.index, tokenEnd: toks[toks.length - 1]!.index + 1 }
}

function aspect(text: string, words: string): number {
  const doc = annotator.annotate(text)
  return scorer.score(doc).aspectSentiment([spanOf(doc, words)])
}

describe('aspect sentiment (one function for themes, entities, topics and facets)', () => {
  it('should read each item of a list by its own words: "Great location, dirty rooms, friendly staff."', () => {
    const t = 'Great location, dirty rooms, friendly staff.'
    expect(aspect(t, 'rooms')).toBeLessThan(-0.05)
    expect(aspect(t, 'dirty rooms')).toBeLessThan(-0.05)
    expect(aspect(t, 'location')).toBeGreaterThan(0.05)
    expect(aspect(t, 'staff')).toBeGreaterThan(0.05)
  })

  it('should read a mention that is itself an evaluation by its own words: "Wonderland at Bellagio - a total disaster!"', () => {
    expect(aspect('Wonderland at Bellagio - a total disaster!', 'total disaster')).toBeLessThan(-0.05)
    expect(aspect('Wonderland at Bellagio - a real treat!', 'real treat')).toBeGreaterThan(0.05)
    expect(aspect('It was not a real treat.', 'real treat')).toBeLessThan(-0.05)
    // A lexicon word after other words is left to the clause: "support" is praise in the lexicon, not here.
    expect(aspect('The tech support was horrible.', 'tech support')).toBeLessThan(-0.05)
    expect(aspect('I called customer support.', 'customer support')).toBe(0)
  })

  it('should split at "but": "The food was delicious but the service was terribly slow."', () => {
    const t = 'The food was delicious but the service was terribly slow.'
    expect(aspect(t, 'food')).toBeGreaterThan(0.05)
    expect(aspect(t, 'service')).toBeLessThan(-0.05)
  })

  it('should not lend one company the praise of another across "while": "Tesla fell 4%" is negative for Tesla', () => {
    const t = 'Tesla fell 4% while OpenAI did well.'
    expect(aspect(t, 'Tesla')).toBeLessThan(-0.05)
    expect(aspect(t, 'OpenAI')).toBeGreaterThan(0.05)
  })

  it('should end a clause at "and" between two clauses, not between two words', () => {
    const t = 'OpenAI had a strong quarter and Tesla fell 4%.'
    expect(aspect(t, 'Tesla')).toBeLessThan(-0.05)
    expect(aspect(t, 'OpenAI')).toBeGreaterThan(0.05)
    // "clean and spacious" is one evaluation of the rooms.
    expect(aspect('The rooms were clean and spacious.', 'rooms')).toBeGreaterThan(0.05)
  })

  it('should not read stock shares as a good thing: "Shares of Tesla fell 4% on Monday."', () => {
    const doc = annotator.annotate('Shares of Tesla fell 4% on Monday.')
    const r = scorer.score(doc)
    expect(r.phrases.map((p) => p.title)).toEqual(['fell'])
    // The lexicon reads "fell" and nothing else. The document score follows the human ratings of the tweets it learnt
    // from, where a report of a price move is as often neutral as negative ("US stocks down on Greek crisis ...":
    // neutral); with the text vector (2026-12-06) it reads this report neutral (-0.0099) and "Tesla fell 4%." negative.
    // It never reads it positive; Tesla itself is negative.
    expect(r.lexicon_score).toBeLessThan(-0.05)
    expect(r.sentiment_score).toBeLessThan(0.05)
    expect(scorer.score(annotator.annotate('Tesla fell 4%.')).sentiment_polarity).toBe('negative')
    expect(aspect('Shares of Tesla fell 4% on Monday.', 'Tesla')).toBeLessThan(-0.05)
    // The verb keeps its weight.
    expect(scorer.score(annotator.annotate('Thanks for sharing.')).sentiment_polarity).toBe('positive')
  })

  it('should give names no polarity from words alone, and keep it from evaluative words', async () => {
    const engine = createEngine({ background: false })
    try {
      const scores = async (text: string): Promise<Record<string, number>> =>
        Object.fromEntries(((await engine.analyze(text)).entities ?? []).map((e) => [e.title, e.sentiment_score]))
      // Without the names option the words-only model reads these names as praised (Satya Nadella +0.44).
      const neutral = await scores('Microsoft CEO Satya Nadella visited Paris on Monday.')
      expect(neutral['Satya Nadella']).toBe(0)
      expect(neutral['Paris']).toBe(0)
      expect(neutral['Chief Executive Officer']).toBe(0)
      const ev = await scores('I love Apple but hate Samsung.')
      expect(ev['Apple']).toBeGreaterThan(0.05)
      expect(ev['Samsung']).toBeLessThan(-0.05)
      // Addresses too: "visit" praises nothing, "great" and "terrible" do.
      expect(await scores('Visit http://example.com/pricing.')).toEqual({ 'http://example.com/pricing': 0 })
      expect((await scores('Great article, loved it: http://t.co/abc123'))['http://t.co/abc123']).toBeGreaterThan(0.05)
      expect((await scores('Terrible service, avoid them: www.badhotel-example.com/reviews'))['www.badhotel-example.com/reviews']).toBeLessThan(-0.05)
      // The option is the names': the same span as an aspect keeps its words-only reading.
      const doc = annotator.annotate('Microsoft CEO Satya Nadella visited Paris on Monday.')
      const r = scorer.score(doc)
      const nadella = { tokenStart: 2, tokenEnd: 4 }
      expect(r.aspectSentiment([nadella], { names: true })).toBe(0)
      expect(r.aspectSentiment([nadella])).toBeGreaterThan(0.05)
    } finally {
      await engine.close()
    }
  })

  it('should give a mention in a text without evaluative evidence a neutral score', () => {
    expect(Math.abs(aspect('The meeting is on Tuesday.', 'meeting'))).toBeLessThanOrEqual(0.05)
  })

  it('should average the mentions and give 0 without spans', () => {
    const doc = annotator.annotate('The food was delicious. The food was awful.')
    const r = scorer.score(doc)
    const good = r.aspectSentiment([{ tokenStart: 1, tokenEnd: 2 }])
    const first = doc.tokens.findIndex((t, i) => i > 2 && t.text === 'food')
    const bad = r.aspectSentiment([{ tokenStart: first, tokenEnd: first + 1 }])
    expect(good).toBeGreaterThan(0.05)
    expect(bad).toBeLessThan(-0.05)
    const both = r.aspectSentiment([{ tokenStart: 1, tokenEnd: 2 }, { tokenStart: first, tokenEnd: first + 1 }])
    expect(both).toBeCloseTo((good + bad) / 2, 3)
    expect(r.aspectSentiment([])).toBe(0)
  })

  it('should fall back to the sentence score with aspectModel: false', () => {
    const plain = createSentimentScorer({ model: false, aspectModel: false })
    const doc = annotator.annotate('The food was delicious but the service was terribly slow.')
    const r = plain.score(doc)
    expect(r.aspectSentiment([spanOf(doc, 'food')])).toBe(r.sentences[0]!.sentiment_score)
  })

  it('should mark the clause words and the negation of the aspect in its features', () => {
    const doc = annotator.annotate('There was no wifi, but the staff were kind.')
    const r = scorer.score(doc)
    const x = aspectFeatures({ doc, phrases: r.phrases, contrastTokens: r.contrastTokens, sentenceScores: r.sentences.map((s) => s.sentiment_score) }, spanOf(doc, 'wifi'))!
    expect(x.dense).toHaveLength(ASPECT_FEATURES.length)
    expect(x.dense[ASPECT_FEATURES.indexOf('aspect_negated')]).toBe(1)
    expect(x.dense[ASPECT_FEATURES.indexOf('before_contrast')]).toBe(1)
    expect(x.dense[ASPECT_FEATURES.indexOf('after_contrast')]).toBe(0)
    expect(x.dense[ASPECT_FEATURES.indexOf('clause_after')]).toBe(0)
    expect(x.dense[ASPECT_FEATURES.indexOf('across_contrast')]).toBeGreaterThan(0)
  })

  it('should give the bigrams of the clause, the aspect as T, as features', () => {
    const doc = annotator.annotate('The service was slow, but the food was good.')
    const r = scorer.score(doc)
    const x = aspectFeatures({ doc, phrases: r.phrases, contrastTokens: r.contrastTokens, sentenceScores: r.sentences.map((s) => s.sentiment_score) }, spanOf(doc, 'service'))!
    expect(x.words).toContain('b:the_T')
    expect(x.words).toContain('b:T_be')
    expect(x.words).toContain('b:be_slow')
    // Not across the clause boundary.
    expect(x.words).not.toContain('b:food_be')
  })

  it('should train the same weights from the same examples, and learn the sign of the evidence', () => {
    const dense = (v: number): number[] => ASPECT_FEATURES.map((f) => (f === 'clause_after' || f === 'clause_weighted' ? v : 0))
    const xs = [dense(0.8), dense(0.5), dense(-0.7), dense(-0.4), dense(0), dense(0)].map((d, i) => ({ dense: d, words: i % 2 === 0 ? ['nice'] : ['ok'], lexicon: true }))
    const ys = [2, 2, 0, 0, 1, 1]
    const a = trainAspectModel(xs, ys, { iterations: 200, minCount: 1 })
    expect(JSON.stringify(trainAspectModel(xs, ys, { iterations: 200, minCount: 1 }))).toBe(JSON.stringify(a))
    const wAfter = ASPECT_FEATURES.indexOf('clause_after') + 1
    expect(a.weights[2]![wAfter]!).toBeGreaterThan(a.weights[0]![wAfter]!)
  })

  it('should penalise less the words whose counts favour a class (Naive Bayes scaling of the word penalty)', () => {
    const zero = ASPECT_FEATURES.map(() => 0)
    const words = [['great', 'the'], ['great', 'the'], ['great', 'the'], ['great', 'the'], ['great', 'the'], ['the'], ['the'], ['the'], ['great', 'the'], ['the']]
    const ys = [2, 2, 2, 2, 2, 1, 1, 0, 0, 0]
    const xs = words.map((w) => ({ dense: zero, words: w, lexicon: true }))
    const margin = (nbBeta: number): number => {
      const m = trainAspectModel(xs, ys, { iterations: 300, l2Words: 0.05, nbBeta })
      const g = m.words['great']!
      return g[2]! - g[0]!
    }
    expect(margin(0)).toBeGreaterThan(0)
    expect(margin(1)).toBeGreaterThan(margin(0) + 0.05)
    expect(trainAspectModel(xs, ys, { iterations: 10, nbBeta: 0.25 }).trained['nb_beta']).toBe(0.25)
  })

  it('should name the file and the field of a damaged model', () => {
    const dir = mkdtempSync(join(tmpdir(), 'aspect-'))
    const good = JSON.parse(JSON.stringify(loadAspectModel().data)) as { weights: unknown[][] }
    good.weights[1]![3] = 'x'
    writeFileSync(join(dir, 'm.json'), JSON.stringify(good))
    expect(() => loadAspectModel(join(dir, 'm.json'))).toThrow(/m\.json: weights\[1\]\[3\] should be a finite number/)
    writeFileSync(join(dir, 'bad.json'), '{')
    expect(() => loadAspectModel(join(dir, 'bad.json'))).toThrow(/bad\.json: not valid JSON/)
  })
})

describe('aspect sentiment in the pipeline', () => {
  it('should give each theme of a mixed sentence its own polarity', async () => {
    const engine = createEngine({ background: false })
    await engine.account(engine.defaultAccount).updateConfigurations({ document: { themes_limit: 10 } })
    const out = await engine.analyze('Great location, dirty rooms, friendly staff.')
    const pol = (n: string): string | undefined => out.themes!.find((t) => t.normalized === n)?.sentiment_polarity
    expect(pol('dirty room')).toBe('negative')
    expect(pol('great location')).toBe('positive')
    expect(pol('friendly staff')).toBe('positive')
    const out2 = await engine.analyze('The food was delicious but the service was terribly slow.')
    expect(out2.themes!.find((t) => t.normalized === 'food')?.sentiment_polarity).toBe('positive')
    expect(out2.themes!.find((t) => t.normalized === 'service')?.sentiment_polarity).toBe('negative')
    await engine.close()
  })

  it('should not make an entity positive for what another entity did', async () => {
    const engine = createEngine({ background: false })
    const out = await engine.analyze('Tesla fell 4% while OpenAI did well.')
    const tesla = out.entities?.find((e) => e.title === 'Tesla')
    expect(tesla).toBeDefined()
    expect(tesla!.sentiment_polarity).toBe('negative')
    await engine.close()
  })

  it('should count a facet by its own words: "terrible breakfast" is negative in a positive review', async () => {
    const engine = createEngine({ background: false })
    const out = await engine.analyzeCollection(
      [
        'Lovely hotel and great views, but a terrible breakfast.',
        'The staff were wonderful, the pool was great and the breakfast was terrible.',
        'We loved the location. The breakfast was cold and bland.',
      ],
      { id: 'facets' },
    )
    const breakfast = out.facets!.find((f) => f.label === 'breakfast')!
    expect(breakfast.count).toBe(3)
    expect(breakfast.negative_count).toBeGreaterThanOrEqual(2)
    expect(breakfast.positive_count).toBe(0)
    await engine.close()
  })
})
