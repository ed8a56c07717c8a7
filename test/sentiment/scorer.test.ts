import { describe, expect, it } from 'vitest'
import { createAnnotator } from '../../src/nlp/annotate.ts'
import { createSentimentScorer, SentimentInputError } from '../../src/sentiment/scorer.ts'
import { CALIBRATION_INPUTS, DENSE_FEATURES, NEUTRAL_GATE, createSentimentModel, type SentimentModelData } from '../../src/sentiment/model.ts'

const annotator = createAnnotator()
const lexical = createSentimentScorer({ model: false })
const full = createSentimentScorer()
const score = (text: string, scorer = lexical) => scorer.score(annotator.annotate(text))

describe('lexicon scorer', () => {
  it('scores a positive and a negative word with their polarity', () => {
    const pos = score('The food was good.')
    const neg = score('The food was awful.')
    expect(pos.lexicon_score).toBeGreaterThan(0.05)
    expect(pos.sentiment_polarity).toBe('positive')
    expect(neg.lexicon_score).toBeLessThan(-0.05)
    expect(neg.sentiment_polarity).toBe('negative')
    expect(score('The table is in the kitchen.').sentiment_polarity).toBe('neutral')
  })

  it('reports the negator of a negated phrase', () => {
    const r = score('The food was not good.')
    const good = r.phrases.find((p) => p.title === 'good')
    expect(good?.is_negated).toBe(true)
    expect(good?.negating_phrase).toBe('not')
    expect(good?.sentiment_score).toBeLessThan(0)
    expect(r.lexicon_score).toBeLessThan(0)
  })

  it("reads contractions as negators (don't, isn't)", () => {
    expect(score("I don't like it.").lexicon_score).toBeLessThan(0)
    expect(score("It isn't bad.").lexicon_score).toBeGreaterThan(0)
  })

  it('does not let negation cross a clause boundary', () => {
    const r = score('Not here, the staff were great.')
    expect(r.phrases.find((p) => p.title === 'great')?.is_negated).toBe(false)
  })

  it('does not turn round the evaluation of a rhetorical "who doesn\'t ...?" question, only of a statement or a relative "who"', () => {
    const love = (text: string): number => score(text).phrases.find((p) => p.title === 'love')!.sentiment_score
    expect(love("Who doesn't love birthdays?")).toBeGreaterThan(0)
    expect(love('Seriously, who would not love free food?! #yum')).toBeGreaterThan(0)
    expect(love("Who doesn't love birthdays.")).toBeLessThan(0)
    expect(love("People who don't love their jobs?")).toBeLessThan(0)
    expect(love("I don't love birthdays?")).toBeLessThan(0)
    expect(score("Who doesn't love birthdays?", full).sentiment_polarity).toBe('positive')
  })

  it('does not turn round an exclamative after a negated verb of believing or telling: "I can\'t believe how bad ..."', () => {
    const phrase = (text: string, title: string) => score(text).phrases.find((p) => p.title === title)!
    expect(phrase("I can't believe how bad the new iPhone 15 battery is.", 'bad').is_negated).toBe(false)
    expect(score("I can't believe how bad the new iPhone 15 battery is.").sentiment_polarity).toBe('negative')
    expect(score("I can't believe how good it was.").sentiment_polarity).toBe('positive')
    expect(score("I couldn't believe what a mess it was.").sentiment_polarity).toBe('negative')
    expect(phrase("I can't tell you how happy we were.", 'happy').is_negated).toBe(false)
    // Without the exclamative, or after another verb, the negator reaches the evaluation as before.
    expect(phrase("I don't believe good things happen.", 'good').is_negated).toBe(true)
    expect(phrase("I don't know how good it is.", 'good').is_negated).toBe(true)
    expect(score("I can't believe how bad the new iPhone 15 battery is.", full).sentiment_polarity).toBe('negative')
  })

  it('reads "no wonder", "anything but" and "can\'t wait" as the set phrases they are', () => {
    const loves = score('No wonder everyone loves this place.').phrases.find((p) => p.title === 'loves')!
    expect(loves.is_negated).toBe(false)
    expect(score('No wonder everyone loves this place.').sentiment_polarity).toBe('positive')
    expect(score('No wonder it failed.').sentiment_polarity).toBe('negative')
    const clean = score('The room was anything but clean.').phrases.find((p) => p.title === 'clean')!
    expect([clean.is_negated, clean.negating_phrase]).toEqual([true, 'anything but'])
    expect(score('The room was anything but clean.').sentiment_polarity).toBe('negative')
    expect(score("Can't wait to go back!").sentiment_polarity).toBe('positive')
    expect(score('I cannot wait to see you').sentiment_polarity).toBe('positive')
    // "but" alone still contrasts, and "nothing but" is still praise.
    expect(score('Nothing but praise for the staff.').sentiment_polarity).toBe('positive')
  })

  it('reads a counterfactual wish as saying the evaluation does not hold, and "less than" as a negator', () => {
    const friendlier = score('I wish the staff were friendlier.')
    expect(friendlier.sentiment_polarity).toBe('negative')
    expect(friendlier.phrases.find((p) => p.title === 'friendlier')?.negating_phrase).toBe('wish')
    expect(score('If only the room were cleaner.').sentiment_polarity).toBe('negative')
    expect(score('I wish they had better coffee.').sentiment_polarity).toBe('negative')
    // A wish for someone is no counterfactual, nor is a judgement in the next clause.
    expect(score('I wish you a happy birthday!').sentiment_polarity).toBe('positive')
    expect(score('We wish you all the best.').sentiment_polarity).toBe('positive')
    expect(score('I wish we had more time here, it was wonderful.').sentiment_polarity).toBe('positive')
    // With "would" or "could", a wished state is counterfactual, a wished act is not: its evaluation holds.
    expect(score('I wish the staff would be friendlier.').sentiment_polarity).toBe('negative')
    expect(score('I wish they could have been nicer.').sentiment_polarity).toBe('negative')
    const film = score('I wish Al Pacino would make just one more awesome film.')
    expect(film.sentiment_polarity).toBe('positive')
    expect(film.phrases.find((p) => p.title === 'awesome')?.is_negated).toBe(false)
    expect(score('I wish they would fix the awful wifi.').phrases.find((p) => p.title === 'awful')?.is_negated).toBe(false)
    // The wish reaches over "I could say".
    expect(score('I wish I could say it was great.').sentiment_polarity).toBe('negative')
    // A negated evaluation wished away holds: the two negations cancel.
    const rude = score("I wish the staff weren't so rude.")
    expect(rude.sentiment_polarity).toBe('negative')
    expect(rude.phrases.find((p) => p.title === 'rude')?.is_negated).toBe(false)
    expect(score("If only the beds weren't so hard.").sentiment_polarity).toBe('negative')
    expect(score('Less than ideal.').sentiment_polarity).toBe('negative')
    expect(score('It took less than 5 minutes, great service.').sentiment_polarity).toBe('positive')
  })

  it('reads the review idioms whose words alone read the other way', () => {
    const polarity = (text: string) => score(text).sentiment_polarity
    for (const text of ['Could have been better.', "I've had better.", 'Save your money.', 'This phone is a joke.', 'Did not meet my expectations.', 'The service could be better.']) {
      expect(polarity(text), text).toBe('negative')
    }
    for (const text of ["The staff couldn't have been nicer.", 'Exceeded my expectations.', 'I could not be happier with it!', 'It met my expectations.']) {
      expect(polarity(text), text).toBe('positive')
    }
    // Any comparative after "could (have been)", not a list of them: the modal weighs the text against what could be.
    for (const text of ["The staff couldn't have been friendlier.", 'The room could not have been cleaner.', 'The staff could not have been more attentive.', "Life couldn't be any better.", 'It could hardly have been better.', 'It could have been worse.']) {
      expect(polarity(text), text).toBe('positive')
    }
    for (const text of ['It could have been cleaner.', 'The room could be cleaner.', 'It could not have been worse.', 'The staff could have been more helpful.']) {
      expect(polarity(text), text).toBe('negative')
    }
  })

  it('reads a comparative after a modal and a verb with its object as the modal says: "couldn\'t have asked for a better stay"', () => {
    const read = (text: string) => score(text)
    // Negated, nothing could be better: praise, and the negator negates nothing.
    for (const text of ["I couldn't have asked for a better stay.", "They couldn't have done a better job.", 'I could not ask for a better host.', "It can't get any better than this.", 'Alex could not have thrown that ball any better than he did.']) {
      const r = read(text)
      expect(r.sentiment_polarity, text).toBe('positive')
      expect(r.phrases.map((p) => p.negating_phrase ?? null), text).toEqual([null])
    }
    // Not negated, in the perfect: it could have gone better, so it did not go well.
    expect(read('They could have done a better job.').sentiment_polarity).toBe('negative')
    expect(read('They could have done a better job.').phrases.map((p) => p.negating_phrase)).toEqual(['could'])
    // An ability or a question is no judgement: the comparative reads as itself.
    for (const text of ['Now I can sleep better.', 'Can it get any better?']) expect(read(text).sentiment_polarity, text).toBe('positive')
    // A subject between the modal and the verb ends the walk; so does a clause break.
    expect(read("I can't say, it was better.").phrases.map((p) => p.negating_phrase ?? null)).toEqual([null])
  })

  it('reads "can\'t recommend it enough" as praise at its most, the negator no negation', () => {
    for (const text of ["I can't recommend this place enough.", "Couldn't recommend it more highly.", "I can't say enough good things about the staff.", "I can't thank them enough."]) {
      const r = score(text)
      expect(r.sentiment_polarity, text).toBe('positive')
      expect(r.phrases.map((p) => p.is_negated), text).toEqual([false])
    }
    const plain = score("I recommend this place.").phrases[0]?.sentiment_score ?? 0
    expect(score("I can't recommend this place enough.").phrases[0]?.sentiment_score).toBeGreaterThan(plain)
    // Without "enough" or "more", or with a clause break before it, the negator negates.
    expect(score("I can't recommend this place.").sentiment_polarity).toBe('negative')
    expect(score("I can't recommend this place, not enough room.").phrases[0]?.is_negated).toBe(true)
    // Not after "can" or "could": "I don't like it enough" stays negated.
    expect(score("I don't like it enough.").phrases[0]?.is_negated).toBe(true)
  })

  it('reads the set phrases of reviews whose words read the other way', () => {
    for (const text of ['The view was to die for.', "The location couldn't be beat.", 'The price is hard to beat.', 'I would not hesitate to recommend this hotel.', 'Nothing was too much trouble for the staff.', 'It exceeded all our expectations.', "Can't fault the staff.", "You won't be disappointed.", 'Nothing to complain about.']) {
      expect(score(text).sentiment_polarity, text).toBe('positive')
    }
    for (const text of ['The breakfast leaves much to be desired.', 'Never again.', "We won't be back.", 'I will never return.', 'It was not what we expected.', 'I expected more for the price.', 'I was unpleasantly surprised.']) {
      expect(score(text).sentiment_polarity, text).toBe('negative')
    }
    // "I can't wait to be back" is eager, not "not be back".
    expect(score("I can't wait to be back.").sentiment_polarity).toBe('positive')
    // "X at best" is a hedge: "best" praises nothing there, and does elsewhere.
    for (const text of ['The food was mediocre at best.', 'The shower was lukewarm at best.']) {
      expect(score(text).sentiment_polarity, text).toBe('negative')
      expect(score(text, full).sentiment_polarity, text).toBe('negative')
    }
    expect(score('This is the best hotel in town.', full).sentiment_polarity).toBe('positive')
  })

  it('scores review words VADER lacks, in the lexicon and in the document score', () => {
    for (const text of ['The location is unbeatable.', 'The service was impeccable.', 'A stellar performance.', 'The guide was very knowledgeable.', 'A cozy little room.', 'The suite was roomy.', 'It is sturdy and reliable.', 'The setup was intuitive and seamless.', 'The staff were very accommodating.', 'The steak was juicy and the fries crispy.']) {
      expect(score(text).sentiment_polarity, text).toBe('positive')
      expect(score(text, full).sentiment_polarity, text).toBe('positive')
    }
    for (const text of ['The app is glitchy and unresponsive.', 'The chicken was undercooked.', 'The pasta was overcooked.', 'The steak was inedible.', 'The touch pad is a nightmare.', 'It has a major design flaw.', 'Tons of bloatware and junk programs.', 'The room was dingy and shabby.', 'We found bed bugs in the room.', 'The soup was watery and flavorless.']) {
      expect(score(text).sentiment_polarity, text).toBe('negative')
      expect(score(text, full).sentiment_polarity, text).toBe('negative')
    }
  })

  it('scores informal words of tweets and chats that VADER lacks', () => {
    for (const text of ['So stoked for the weekend', 'tysm for the birthday wishes', 'ilysm']) {
      expect(score(text).sentiment_polarity, text).toBe('positive')
      expect(score(text, full).sentiment_polarity, text).toBe('positive')
    }
    for (const text of ['yuck', 'Eww that smell', 'Yikes, that was close', 'Totally gutted about the result', 'fml my car broke down again']) {
      expect(score(text).sentiment_polarity, text).toBe('negative')
      expect(score(text, full).sentiment_polarity, text).toBe('negative')
    }
  })

  it('reads a review attribute the lexicon lacks when it is said of something, not when it names a kind', () => {
    for (const text of ['Service was slow.', 'The food was cold.', 'The rooms were a bit small.', 'The battery life is way too short.', 'The decor is dated.']) {
      expect(score(text).sentiment_polarity, text).toBe('negative')
      expect(score(text, full).sentiment_polarity, text).toBe('negative')
    }
    expect(score('The food was tasty and the location convenient.', full).sentiment_polarity).toBe('positive')
    // Said of a noun it is no judgement ("slow cooker", "small business"), nor a comparison.
    for (const text of ['The slow cooker works.', 'We run a small business.', 'It was a short film.', 'This one is smaller than that one.']) {
      expect(score(text).phrases, text).toEqual([])
    }
    const notSmall = score('The room was not small.').phrases
    expect(notSmall.map((p) => [p.title, p.is_negated, p.sentiment_polarity])).toEqual([['small', true, 'positive']])
    expect(score('The service was slow but the food was delicious.', full).sentiment_polarity).toBe('positive')
    // "fast" after the verb is tagged an adverb, and is said of the subject all the same; not before a verb.
    expect(score('The laptop is fast.').phrases.map((p) => [p.title, p.sentiment_polarity])).toEqual([['fast', 'positive']])
    expect(score('The deadline is fast approaching.').phrases).toEqual([])
    expect(score('The car goes fast.').phrases).toEqual([])
    expect(score("It's just as fast with one program open as with sixteen.").phrases).toEqual([])
  })

  it('reads recommendations without a word of the lexicon as praise', () => {
    for (const text of ['You must try the shrimp appetizers.', 'Well worth the wait.', 'Worth a try if you are nearby.', 'The service was prompt.', 'Delivery was quick.']) {
      expect(score(text).sentiment_polarity, text).toBe('positive')
      expect(score(text, full).sentiment_polarity, text).toBe('positive')
    }
    expect(score('It was not worth the wait.', full).sentiment_polarity).toBe('negative')
  })

  it('reads "too" before an adjective the lexicon does not judge as too much of it, and review set phrases', () => {
    for (const text of ['The price is too high.', 'The bed was too soft.', 'The air conditioning was loud.', 'The walls are paper thin.', 'It took forever to check in.', 'The keyboard feels cheap.', 'Customer service never called back.']) {
      expect(score(text).sentiment_polarity, text).toBe('negative')
      expect(score(text, full).sentiment_polarity, text).toBe('negative')
    }
    expect(score('The price is not too high.').phrases.map((p) => [p.title, p.is_negated, p.sentiment_polarity])).toEqual([['high', true, 'positive']])
    // "too" after the word is "also"; before a lexicon word the lexicon's weight holds.
    expect(score('The room was nice too.').sentiment_polarity).toBe('positive')
    expect(score('That is too cute!').sentiment_polarity).toBe('positive')
    for (const text of ['Not a single complaint.', "The staff couldn't do enough for us."]) {
      expect(score(text).sentiment_polarity, text).toBe('positive')
      expect(score(text, full).sentiment_polarity, text).toBe('positive')
    }
  })

  it('reads "less" as the quality missing, "more or less" as a hedge', () => {
    expect(score('The staff was less helpful.').sentiment_polarity).toBe('negative')
    expect(score('The staff was less helpful.').phrases.map((p) => p.negating_phrase)).toEqual(['less'])
    expect(score('The room was less noisy than the last one.').sentiment_polarity).toBe('positive')
    expect(score('The staff could not have been less helpful.').sentiment_polarity).toBe('negative')
    expect(score('It could have been less noisy.').sentiment_polarity).toBe('negative')
    expect(score('It was more or less fine.').phrases.map((p) => [p.title, p.is_negated])).toEqual([['fine', false]])
    expect(score('It was more or less fine.').phrases[0]?.sentiment_score).toBeLessThan(score('It was fine.').phrases[0]?.sentiment_score ?? 0)
    expect(score('It was more or less fine.').sentiment_polarity).toBe('positive')
  })

  it('reports the intensifier and scales the phrase', () => {
    const plain = score('The room was nice.')
    const very = score('The room was very nice.')
    const bit = score('The room was slightly nice.')
    const p = very.phrases.find((x) => x.title === 'nice')
    expect(p?.is_intensified).toBe(true)
    expect(p?.intensifying_phrase).toBe('very')
    expect(very.lexicon_score).toBeGreaterThan(plain.lexicon_score)
    expect(bit.lexicon_score).toBeLessThan(plain.lexicon_score)
    expect(bit.phrases.find((x) => x.title === 'nice')?.is_intensified).toBe(false)
  })

  it('weights the clause after "but" over the clause before it', () => {
    const r = score('The food was great, but the service was terrible.')
    expect(r.lexicon_score).toBeLessThan(0)
    const r2 = score('The service was terrible, but the food was great.')
    expect(r2.lexicon_score).toBeGreaterThan(0)
  })

  it('weakens a subordinate "although" clause', () => {
    expect(score('Although the food was great, the service was terrible.').lexicon_score).toBeLessThan(0)
  })

  it('adds emphasis for exclamation marks and capitals', () => {
    const base = score('The view was good.').lexicon_score
    expect(score('The view was good!!!').lexicon_score).toBeGreaterThan(base)
    expect(score('The view was GOOD.').lexicon_score).toBeGreaterThan(base)
  })

  it('matches idioms and multi-word phrases longest first, lemma-aware', () => {
    const r = score('The film was a waste of time.')
    expect(r.phrases.map((p) => p.title)).toContain('waste of time')
    expect(r.phrases.find((p) => p.title === 'waste of time')?.source).toBe('idiom')
    expect(r.lexicon_score).toBeLessThan(0)
    // "kind of" is a diminisher, not the positive word "kind".
    expect(score('It was kind of boring.').phrases.map((p) => p.title)).not.toContain('kind')
  })

  it('scores greetings written in title case, which would otherwise read as words of a name', () => {
    const titles = (text: string) => score(text).phrases.map((p) => [p.title, p.source, Math.sign(p.sentiment_score)])
    expect(titles('Madonna and MIA sing Happy Birthday for Nicki Minaj.')).toContainEqual(['Happy Birthday', 'idiom', 1])
    expect(titles('Merry Christmas and a Happy New Year to all our customers!')).toEqual([
      ['Merry Christmas', 'idiom', 1],
      ['Happy New Year', 'idiom', 1],
    ])
    expect(titles('Thank you and Happy Holidays from the whole team.')).toContainEqual(['Happy Holidays', 'idiom', 1])
    // In lower case the set phrase weighs what its first word did alone.
    expect(score('happy birthday to my mum').lexicon_score).toBe(score('happy to my mum').lexicon_score)
  })

  it('scores emoji and emoticons', () => {
    expect(score('Dinner tonight 😀').lexicon_score).toBeGreaterThan(0)
    expect(score('Dinner tonight :(').lexicon_score).toBeLessThan(0)
    // ":/" inside a URL is not an emoticon.
    expect(score('See http://example.com/page').phrases).toHaveLength(0)
  })

  it('scores the common emoji beyond faces: winks, hearts, gestures, with presentation selectors and ZWJ sequences', () => {
    // A wink and the text-style smiling face with its emoji presentation selector (U+FE0F).
    expect(score('See you tomorrow 😉').lexicon_score).toBeGreaterThan(0)
    expect(score('See you tomorrow ☺️').lexicon_score).toBeGreaterThan(0)
    expect(score('Happy birthday to my sister 💞🎂').lexicon_score).toBeGreaterThan(0)
    expect(score('Another Monday 😪').lexicon_score).toBeLessThan(0)
    // A ZWJ sequence (face palm, woman) reads its base emoji; a skin-tone modifier does not hide its emoji.
    expect(score('My flight is delayed again 🤦\u200d♀️').lexicon_score).toBeLessThan(0)
    expect(score('Landed 🤘🏽').lexicon_score).toBeGreaterThan(0)
    // Emoji of no clear polarity stay unscored.
    expect(score('Look at this 👀').phrases).toHaveLength(0)
  })

  it('gives per-token scores by token index, zero outside phrases', () => {
    const doc = annotator.annotate('The food was good.')
    const r = lexical.score(doc)
    expect(r.tokenScores).toHaveLength(doc.tokens.length)
    const goodIndex = doc.tokens.findIndex((t) => t.text === 'good')
    expect(r.tokenScores[goodIndex]).toBeGreaterThan(0)
    expect(r.tokenScores[0]).toBe(0)
  })

  it('scores sentences, marks polar ones, and answers span and sentence queries', () => {
    const doc = annotator.annotate('The hotel was wonderful. We arrived on Monday.')
    const r = lexical.score(doc)
    expect(r.sentences).toHaveLength(2)
    expect(r.sentences[0]?.is_polar).toBe(true)
    expect(r.sentences[1]?.is_polar).toBe(false)
    expect(r.sentenceSentiment(0)).toBeGreaterThan(0)
    expect(r.sentenceSentiment(1)).toBe(0)
    const s0 = doc.sentences[0]
    expect(s0).toBeDefined()
    if (s0 !== undefined) expect(r.spanSentiment(s0.tokenStart, s0.tokenEnd)).toBe(r.sentenceSentiment(0))
    expect(() => r.sentenceSentiment(5)).toThrow(RangeError)
    expect(() => r.spanSentiment(3, 1)).toThrow(RangeError)
  })

  it('suggests evaluative words missing from the lexicon as possible phrases', () => {
    const r = score('The rooms were very airy and the staff were great.')
    const titles = r.possiblePhrases.map((p) => p.title)
    expect(titles).toContain('airy')
    expect(r.phrases.map((p) => p.title)).not.toContain('airy')
  })

  it('lets user phrases override and extend the lexicon', () => {
    const doc = annotator.annotate('The blorfy dessert was good.')
    const base = lexical.score(doc)
    expect(base.lexicon_score).toBeGreaterThan(0)
    const overridden = lexical.score(doc, [{ name: 'good', weight: -2 }])
    expect(overridden.lexicon_score).toBeLessThan(0)
    expect(overridden.phrases.find((p) => p.title === 'good')?.source).toBe('user')
    const extended = lexical.score(annotator.annotate('The dessert was blorfy.'), [{ name: 'blorfy', weight: 1.5 }])
    expect(extended.phrases.find((p) => p.title === 'blorfy')?.sentiment_score).toBe(0.75)
    // Multi-word user phrases win over the words they contain.
    const multi = lexical.score(annotator.annotate('It was good enough.'), [{ name: 'good enough', weight: -1 }])
    expect(multi.phrases.map((p) => p.title)).toEqual(['good enough'])
    // The next call without the phrases is unaffected (no state kept between calls).
    expect(lexical.score(doc).lexicon_score).toBe(base.lexicon_score)
  })

  it('rejects malformed user phrases with a message naming the field', () => {
    const doc = annotator.annotate('ok')
    expect(() => lexical.score(doc, [{ name: 'good', weight: 3 }])).toThrow(/userPhrases\[0\]\.weight/)
    expect(() => lexical.score(doc, [{ name: 'one two three four', weight: 1 }])).toThrow(/at most three words/)
    expect(() => lexical.score(doc, [{ name: ' ', weight: 1 }])).toThrow(SentimentInputError)
  })

  it('rejects bad options when the scorer is created', () => {
    expect(() => createSentimentScorer({ model: false, positiveThreshold: 2 })).toThrow(/positiveThreshold/)
    expect(() => createSentimentScorer({ model: false, positiveThreshold: -0.5, negativeThreshold: 0.5 })).toThrow(/negativeThreshold/)
  })

  it('uses configurable thresholds for polarity', () => {
    const strict = createSentimentScorer({ model: false, positiveThreshold: 0.9, negativeThreshold: -0.9 })
    const r = strict.score(annotator.annotate('The food was good.'))
    expect(r.sentiment_polarity).toBe('neutral')
    expect(r.polarityOf(0.95)).toBe('positive')
  })

  it('handles an empty document', () => {
    const r = full.score({ text: '', tokens: [], sentences: [], patterns: [] })
    expect(r.sentiment_polarity).toBeDefined()
    expect(r.phrases).toHaveLength(0)
    expect(r.lexicon_score).toBe(0)
  })
})

describe('elongated words', () => {
  it('reads a stretched word as the lexicon word it stretches', () => {
    const plain = score('The food was good.')
    const stretched = score('The food was goooood.')
    expect(stretched.lexicon_score).toBe(plain.lexicon_score)
    expect(score('yayyyyy').lexicon_score).toBeGreaterThan(0.05)
    // A stretched intensifier still intensifies ("sooo" -> "so").
    expect(score('The food was sooo good.').lexicon_score).toBeGreaterThan(plain.lexicon_score)
    // Words the lexicon does not know stay unknown, stretched or not.
    expect(score('The zzzzz was there.').lexicon_score).toBe(0)
  })

  it('reads laughter of any length as haha', () => {
    expect(score('hahahahah').lexicon_score).toBe(score('haha').lexicon_score)
    expect(score('hahaa').lexicon_score).toBe(score('haha').lexicon_score)
  })

  it('reads an HTML-escaped heart as the emoticon', () => {
    expect(score('I &lt;3 you').lexicon_score).toBe(score('I <3 you').lexicon_score)
    expect(score('I &lt;3 you').lexicon_score).toBeGreaterThan(0.05)
    expect(score('x &gt; y').lexicon_score).toBe(0)
  })
})

describe('document score and model_sentiment', () => {
  it('returns likelihoods that sum to 1 after rounding, and a polarity', () => {
    for (const t of ['I loved every minute of it!', 'Worst purchase ever. It broke in a day.', 'The meeting is at 10.', 'Great food but awful service.']) {
      const m = score(t, full).model_sentiment
      expect(m).toBeDefined()
      if (m === undefined) continue
      const sum = m.positive_score + m.negative_score + m.neutral_score + m.mixed_score
      expect(Math.round(sum * 1e6) / 1e6).toBe(1)
      expect(['positive', 'negative', 'neutral']).toContain(m.sentiment_polarity)
      expect(m.model_name).toMatch(/\S/)
    }
    expect(score('I loved every minute of it!', full).model_sentiment?.sentiment_polarity).toBe('positive')
    expect(score('Worst purchase ever. It broke in a day.', full).model_sentiment?.sentiment_polarity).toBe('negative')
  })

  it('gives mixed text a mixed likelihood', () => {
    const mixed = score('The food was great but the service was awful.', full).model_sentiment
    const plain = score('The food was great.', full).model_sentiment
    expect(mixed?.mixed_score ?? 0).toBeGreaterThan(plain?.mixed_score ?? 0)
  })

  it('calibrates the document score from lexicon and model', () => {
    expect(score('An utterly tedious, lifeless film.', full).sentiment_score).toBeLessThan(-0.05)
    expect(score('A warm, funny and moving film.', full).sentiment_score).toBeGreaterThan(0.05)
  })

  it('gates a document without lexicon evidence to neutral when the model is unsure', () => {
    // A hand-made model: no n-grams, class biases only, and a calibrator that leans negative (-0.5).
    const modelWith = (neutralBias: number, negativeBias = 0): SentimentModelData => ({
      format: 'textengine-sentiment-model/1',
      model_name: 'test',
      trained: {},
      dense: DENSE_FEATURES,
      denseWeights: [negativeBias, neutralBias, 0].map((b) => [b, ...DENSE_FEATURES.map(() => 0)]),
      ngrams: {},
      calibrator: { inputs: CALIBRATION_INPUTS, bias: -0.5, weights: CALIBRATION_INPUTS.map(() => 0) },
    })
    const unsure = createSentimentScorer({ model: createSentimentModel(modelWith(3)) })
    // Sure: a polar class clearly ahead of the other (a model torn between positive and negative is unsure too).
    const sure = createSentimentScorer({ model: createSentimentModel(modelWith(-3, 3)) })
    const torn = createSentimentScorer({ model: createSentimentModel(modelWith(-3)) })
    const plain = 'The meeting is at 10 in room 4.'
    expect((unsure.score(annotator.annotate(plain)).model_sentiment?.neutral_score ?? 0) > NEUTRAL_GATE).toBe(true)
    expect(unsure.score(annotator.annotate(plain)).sentiment_score).toBe(0)
    expect(unsure.score(annotator.annotate(plain)).sentiment_polarity).toBe('neutral')
    // A neutral likelihood under the gate, or any lexicon evidence, leaves the calibrator's value.
    expect(sure.score(annotator.annotate(plain)).sentiment_score).toBe(-0.5)
    expect(torn.score(annotator.annotate(plain)).sentiment_score).toBe(0)
    expect(unsure.score(annotator.annotate('The meeting is at 10 in a great room.')).sentiment_score).toBe(-0.5)
  })
})
