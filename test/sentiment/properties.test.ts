import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import { createAnnotator } from '../../src/nlp/annotate.ts'
import { createSentimentScorer } from '../../src/sentiment/scorer.ts'

const annotator = createAnnotator()
const scorer = createSentimentScorer({ model: false })
const withModel = createSentimentScorer()
const PARAMS = { seed: 20261122, numRuns: 60 } as const

// Common evaluative adjectives, all in the shipped lexicon (checked below).
const POSITIVE = ['good', 'great', 'happy', 'nice', 'lovely', 'beautiful', 'excellent', 'wonderful', 'pleasant', 'brilliant']
const NEGATIVE = ['bad', 'terrible', 'sad', 'awful', 'horrible', 'ugly', 'boring', 'poor', 'nasty', 'stupid']
const ADJECTIVES = [...POSITIVE, ...NEGATIVE]
const SUBJECTS = ['The movie', 'The hotel', 'Our waiter', 'This phone', 'The ending']
const adjective = fc.constantFrom(...ADJECTIVES)
const subject = fc.constantFrom(...SUBJECTS)

const lexiconScore = (text: string): number => scorer.score(annotator.annotate(text)).lexicon_score

describe('sentiment properties', () => {
  it('uses adjectives that the lexicon knows', () => {
    for (const a of ADJECTIVES) expect(scorer.lexicon.words.has(a), a).toBe(true)
  })

  it('should flip a phrase’s polarity when a negator precedes it', () => {
    fc.assert(
      fc.property(subject, adjective, fc.constantFrom('not', 'never'), (s, a, neg) => {
        const plain = lexiconScore(`${s} was ${a}.`)
        const negated = lexiconScore(`${s} was ${neg} ${a}.`)
        expect(Math.sign(plain)).not.toBe(0)
        expect(Math.sign(negated)).toBe(-Math.sign(plain))
      }),
      PARAMS,
    )
  })

  it('should scale a phrase’s magnitude up with an intensifier and down with a diminisher', () => {
    fc.assert(
      fc.property(subject, adjective, fc.constantFrom('very', 'extremely', 'really'), fc.constantFrom('slightly', 'somewhat'), (s, a, up, down) => {
        const plain = Math.abs(lexiconScore(`${s} was ${a}.`))
        expect(Math.abs(lexiconScore(`${s} was ${up} ${a}.`))).toBeGreaterThan(plain)
        expect(Math.abs(lexiconScore(`${s} was ${down} ${a}.`))).toBeLessThan(plain)
      }),
      PARAMS,
    )
  })

  it('should keep every score within -1..1 and likelihoods summing to 1, whatever the text', () => {
    const word = fc.oneof(adjective, fc.constantFrom('not', 'very', 'but', '!!!', 'GREAT', ':)', '😡', 'the', 'food', ',', '.'), fc.string({ maxLength: 6 }))
    fc.assert(
      fc.property(fc.array(word, { minLength: 1, maxLength: 40 }), (words) => {
        const text = words.join(' ')
        if (text.trim() === '') return
        const r = withModel.score(annotator.annotate(text))
        const all = [r.sentiment_score, r.lexicon_score, ...r.tokenScores, ...r.phrases.map((p) => p.sentiment_score), ...r.sentences.map((s) => s.sentiment_score)]
        for (const v of all) {
          expect(Number.isFinite(v)).toBe(true)
          expect(Math.abs(v)).toBeLessThanOrEqual(1)
        }
        const m = r.model_sentiment
        expect(m).toBeDefined()
        if (m !== undefined) {
          const likelihoods = [m.positive_score, m.negative_score, m.neutral_score, m.mixed_score]
          for (const v of likelihoods) expect(v).toBeGreaterThanOrEqual(0)
          expect(Math.round(likelihoods.reduce((x, y) => x + y, 0) * 1e6)).toBe(1e6)
        }
      }),
      { ...PARAMS, numRuns: 40 },
    )
  })

  it('should let a user phrase override the lexicon weight and sign', () => {
    fc.assert(
      fc.property(subject, adjective, fc.double({ min: -2, max: 2, noNaN: true }).filter((w) => Math.abs(w) > 0.01), (s, a, w) => {
        const r = scorer.score(annotator.annotate(`${s} was ${a}.`), [{ name: a, weight: w }])
        const p = r.phrases.find((x) => x.title === a)
        expect(p?.source).toBe('user')
        expect(p?.sentiment_score).toBeCloseTo(w / 2, 3)
        expect(Math.sign(r.lexicon_score)).toBe(Math.sign(w))
      }),
      PARAMS,
    )
  })

  it('should give the same result for the same text, across calls and scorers', () => {
    const other = createSentimentScorer()
    fc.assert(
      fc.property(fc.array(fc.oneof(adjective, subject, fc.constantFrom('but', 'not', 'very', '!')), { minLength: 1, maxLength: 12 }), (parts) => {
        const doc = annotator.annotate(parts.join(' '))
        const a = withModel.score(doc)
        const b = other.score(doc)
        const strip = (r: typeof a) => ({ ...r, spanSentiment: 0, sentenceSentiment: 0, polarityOf: 0, aspectSentiment: 0 })
        expect(strip(a)).toEqual(strip(b))
        expect(strip(withModel.score(doc))).toEqual(strip(a))
      }),
      { ...PARAMS, numRuns: 30 },
    )
  })
})
