import { describe, expect, it } from 'vitest'
import { createEngine } from '../../src/engine/create-engine.ts'
import { createAnnotator } from '../../src/nlp/annotate.ts'
import { createSentimentScorer } from '../../src/sentiment/scorer.ts'

const annotator = createAnnotator()
const scorer = createSentimentScorer()
const score = (text: string) => scorer.score(annotator.annotate(text))

describe('neutral is a real answer', () => {
  it('should score a text without evaluative evidence exactly 0 and neutral: "The meeting is on Tuesday."', async () => {
    const r = score('The meeting is on Tuesday.')
    expect(r.phrases).toEqual([])
    expect(r.sentiment_score).toBe(0)
    expect(r.sentiment_polarity).toBe('neutral')
    const engine = createEngine({ background: false })
    const out = await engine.analyze('The meeting is on Tuesday.')
    expect(out.sentiment_score).toBe(0)
    expect(out.sentiment_polarity).toBe('neutral')
    await engine.close()
  })

  it('should read no sentiment in places and postal codes: "Concord, NH", "Austin, TX", "Tulsa, OK"', () => {
    const r = score('We drove from Concord, NH to Austin, TX and then Tulsa, OK.')
    expect(r.phrases).toEqual([])
    expect(r.sentiment_score).toBe(0)
    // "OK" as a word still scores.
    expect(score('The breakfast was OK.').phrases.map((p) => p.title)).toEqual(['OK'])
  })

  it('should read no sentiment in names: Fantastic Four, Super Bowl, Chief Justice, Miss Marple, Marvel', () => {
    const r = score('We watched Fantastic Four before the Super Bowl; Chief Justice Roberts read Miss Marple and Marvel comics.')
    expect(r.phrases).toEqual([])
    expect(r.sentiment_polarity).toBe('neutral')
    // The same words used as words still score, also at the start of a sentence and in a title-cased headline.
    expect(score('The show was fantastic and the staff super.').phrases.map((p) => p.title)).toEqual(['fantastic', 'super'])
    expect(score('Fantastic food, we will miss it.').phrases.map((p) => p.title)).toContain('Fantastic')
    expect(score('Fantastic Hotel With Great Staff').sentiment_polarity).toBe('positive')
  })

  it('should read a known name as a name where it opens the sentence: "Super Bowl tickets are on sale.", "Amazon said ..."', async () => {
    for (const text of ['Super Bowl tickets are on sale.', 'Amazon said Prime Day sales hit a record.', 'Supreme Court rules on the case.', 'Shake Shack opened a store.', 'Grand Canyon trails reopen.']) {
      expect(score(text).phrases, text).toEqual([])
    }
    // Only where written as the name: "the super bowl" and "Super bowl" are words, and so is a one-word name read as a
    // verb before its object; the words around a name still score.
    expect(score('Super bowl of soup.').phrases.map((p) => p.title)).toEqual(['Super'])
    expect(score('Marvel at the view!').phrases.map((p) => p.title)).toEqual(['Marvel'])
    expect(score('Great Barrier Reef is dying.').phrases.map((p) => p.title)).toEqual(['dying'])
    expect(score('Supreme Court justices were brilliant.').sentiment_polarity).toBe('positive')
    // A lexicon word that no known name holds keeps its score where it opens a sentence before a capitalised word.
    expect(score('Great Service!').sentiment_polarity).toBe('positive')
    // Shouted one-word evaluations the entity lexicon lists (to drop as entities) are no names here.
    expect(score('LOL that was great').phrases.map((p) => p.title)).toEqual(['LOL', 'great'])
    expect(score('FREE shipping today').phrases.map((p) => p.title)).toEqual(['FREE'])
    // The document score, with the model, is neutral too (they read -0.08 and -0.15 before).
    const engine = createEngine({ background: false })
    for (const text of ['Amazon.com Inc. said Prime Day sales hit a record.', 'Shake Shack opened a store.', 'Super Bowl tickets are on sale.']) {
      const out = await engine.analyze(text)
      expect([out.sentiment_score, out.sentiment_polarity], text).toEqual([0, 'neutral'])
    }
    await engine.close()
  })

  it('should read a name closed by a number word as a name where it opens the sentence: "Fantastic Four opens today."', () => {
    expect(score('Fantastic Four opens today.').phrases).toEqual([])
    expect(score('Magnificent Seven was remade.').phrases).toEqual([])
    // Not a word before a number in lower case, nor before a number that opens another name.
    expect(score('Fantastic four days in Rome!').phrases.map((p) => p.title)).toEqual(['Fantastic'])
    expect(score('Great Four Seasons hotel.').phrases.map((p) => p.title)).toEqual(['Great'])
  })

  it('should not score requests and wishes: "Please help, I want a refund."', () => {
    const r = score('Please help, I want a refund.')
    expect(r.phrases).toEqual([])
    expect(r.sentiment_score).toBe(0)
  })

  it('should read "Without a doubt the best hotel in town." as positive, "best" not negated', () => {
    const r = score('Without a doubt the best hotel in town.')
    expect(r.sentiment_polarity).toBe('positive')
    const best = r.phrases.find((p) => p.title === 'best')!
    expect(best.is_negated).toBe(false)
    expect(best.is_intensified).toBe(true)
    expect(r.phrases.some((p) => p.title === 'doubt')).toBe(false)
  })

  it('should read "a total waste of time" as one strongly negative phrase', () => {
    const r = score('The rooms were fine. The whole trip was a total waste of time.')
    const waste = r.phrases.find((p) => p.title === 'total waste of time')!
    expect(waste.sentiment_score).toBeLessThan(-0.75)
    expect(r.sentiment_polarity).toBe('negative')
    // At the end of a review that also praises a few things.
    const review = score(
      'We stayed three nights at the Grand. The pool was nice and the staff were friendly enough. The restaurant was overpriced and the rooms were tired. All in all, a total waste of time.',
    )
    expect(review.phrases.map((p) => p.title)).toEqual(['nice', 'friendly', 'overpriced', 'tired', 'total waste of time'])
    expect(review.sentiment_polarity).toBe('negative')
  })

  it('should negate "hardly worth the price" in phrases, as in details', async () => {
    const engine = createEngine({ background: false })
    await engine.account(engine.defaultAccount).updateConfigurations({ document: { phrases_limit: 5 } })
    const out = await engine.analyze('The room was hardly worth the price.')
    const worth = out.phrases!.find((p) => p.title === 'worth')!
    expect(worth).toMatchObject({ is_negated: true, negating_phrase: 'hardly', sentiment_polarity: 'negative' })
    expect(out.sentiment_polarity).toBe('negative')
    await engine.close()
  })

  it('should call neutral hotel titles neutral, in the score and in model_sentiment', () => {
    for (const title of ['“Trip to Bellagio”', '“Breakfast at Bellagio\'s”', '“Bellagio Buffet”', '“The Bellagio Conservatory”', '“Thanksgiving at Bellagio ”', 'Bellagio again']) {
      const r = score(title)
      expect(r.sentiment_score, title).toBe(0)
      expect(r.sentiment_polarity, title).toBe('neutral')
      expect(r.model_sentiment?.sentiment_polarity, title).toBe('neutral')
    }
    // Evaluative titles keep their polarity.
    expect(score('“Bellagio Is Simply The Best”').sentiment_polarity).toBe('positive')
    expect(score('“Bit disappointed at Bellagio buffet ”').sentiment_polarity).toBe('negative')
  })

  it('should let model_sentiment answer neutral for a text without evaluative evidence: "The meeting is on Tuesday."', () => {
    const m = score('The meeting is on Tuesday.').model_sentiment!
    expect(m.sentiment_polarity).toBe('neutral')
    expect(m.neutral_score).toBeGreaterThan(Math.max(m.positive_score, m.negative_score))
    expect(score('I love this hotel, the staff were wonderful!').model_sentiment!.sentiment_polarity).toBe('positive')
    expect(score('Awful service, the worst stay ever.').model_sentiment!.sentiment_polarity).toBe('negative')
  })
})
