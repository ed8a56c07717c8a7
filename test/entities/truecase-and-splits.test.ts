import { describe, expect, it } from 'vitest'
import { createAnnotator } from '../../src/nlp/annotate.ts'
import { createEntityExtractor } from '../../src/entities/extract.ts'
import { readLowerWords, truecaseHeadline } from '../../src/entities/tagger.ts'

// Title-case headlines are tagged as running text would write them (lower-words.txt, bench/build-ner-truecase.ts),
// and a job title inside a tagger span cuts it into organisation and person. Texts outside the development sets.
const lowerWords = readLowerWords()
const annotator = createAnnotator()
const extractor = createEntityExtractor()
const NAMED = ['Person', 'Company', 'Place', 'Product']
const typed = (text: string): string[] =>
  extractor.extract(annotator.annotate(text)).filter((e) => NAMED.includes(e.entity_type)).map((e) => `${e.entity_type}:${e.title}`)
const words = (s: string): string[] => s.split(' ')

describe('truecasing title-case headlines for the tagger', () => {
  it('lowers the words running text writes in lower case, and keeps the first word and the names', () => {
    expect(truecaseHeadline(words('Deutsche Bank Posts Surprise Profit'), lowerWords).join(' ')).toBe('Deutsche Bank posts surprise profit')
    expect(truecaseHeadline(words('Heat Wave Grips Texas As Power Demand Hits Record'), lowerWords).join(' ')).toBe('Heat wave grips Texas as power demand hits record')
  })

  it('leaves running text, capitals headlines and lines of names alone', () => {
    const running = words('The bank posts its results on Tuesday .')
    expect(truecaseHeadline(running, lowerWords)).toBe(running)
    const caps = words('SOCCER - LEADING ENGLISH PREMIER LEAGUE SCORERS')
    expect(truecaseHeadline(caps, lowerWords)).toBe(caps)
    // A result line has one word that is also a common word ("Miles"): fewer than three to lower, left as written.
    const results = words('2. Jearl Miles ( U.S. ) 50.42')
    expect(truecaseHeadline(results, lowerWords)).toBe(results)
  })

  it('lists no word that running text capitalises as often as not, and is sorted', () => {
    for (const w of ['bank', 'city', 'street', 'general', 'motors']) expect(lowerWords.has(w)).toBe(false)
    for (const w of ['posts', 'profit', 'warns', 'record']) expect(lowerWords.has(w)).toBe(true)
  })

  it('keeps the company out of a verb after it in a headline', () => {
    expect(typed('Deutsche Bank Posts Surprise Profit')).toEqual(['Company:Deutsche Bank'])
    const out = typed('Mercedes-Benz Posts Record Sales In China Despite Slowdown')
    expect(out).toContain('Company:Mercedes-Benz')
    expect(out.some((e) => e.includes('Posts'))).toBe(false)
  })
})

describe('a job title inside a tagger span', () => {
  it('cuts the span into the organisation before the title and the person after it', () => {
    const out = typed('"We will open a plant in Austin, Texas," said Tesla CEO Elon Musk.')
    expect(out).toContain('Company:Tesla')
    expect(out).toContain('Person:Elon Musk')
    expect(out.some((e) => e.includes('CEO'))).toBe(false)
    const cook = typed('Apple Chief Executive Tim Cook visited Berlin.')
    expect(cook).toContain('Company:Apple')
    expect(cook).toContain('Person:Tim Cook')
  })
})

describe('two known places joined by "and" in one tagger span', () => {
  it('are two places, unless the whole is a known place', () => {
    expect(typed('Heavy snow closes roads across Colorado and Wyoming')).toEqual(['Place:Colorado', 'Place:Wyoming'])
    expect(typed('Heavy Snow Closes Roads Across Nevada And Utah')).toEqual(['Place:Nevada', 'Place:Utah'])
    expect(typed('He visited Bosnia and Herzegovina and Trinidad and Tobago.')).toEqual(['Place:Bosnia and Herzegovina', 'Place:Trinidad and Tobago'])
    expect(typed('Johnson & Johnson settled the case.')).toEqual(['Company:Johnson & Johnson'])
  })
})

describe('a name ending in a generational suffix', () => {
  it('is a person whatever the tagger took it for', () => {
    expect(typed('Chelsea 2-0 Fulham: Palmer Jr Scores Twice At Stamford Bridge')).toContain('Person:Palmer Jr')
    expect(typed('Cal Ripken Jr. visited Baltimore.')).toContain('Person:Cal Ripken Jr.')
  })
})

describe('a common word opening a sentence before a comma', () => {
  it('is no name before a lower-case word, but a name before an apposition or a relative clause stays', () => {
    expect(typed('Fast, light and cheap: the Zenbook 14 is the laptop most people should buy.').filter((e) => e.startsWith('Person:'))).toEqual([])
    expect(typed('Brown, who was injured, did not play on Sunday.')).toContain('Person:Brown')
  })
})

describe('names cut at a lower-case particle', () => {
  it('joins a person and the name after "bin", "ten" or "von der" into one person', () => {
    expect(typed('Crown Prince Mohammed bin Salman said that Saudi Arabia would bid.')).toContain('Person:Prince Mohammed bin Salman')
    expect(typed('Erik ten Hag said that the team would improve.')).toEqual(['Person:Erik ten Hag'])
    expect(typed('Ursula von der Leyen visited Kyiv.')).toContain('Person:Ursula von der Leyen')
  })
  it('leaves a place after a particle that follows no person alone', () => {
    expect(typed('Flights from Paris to de Gaulle airport were delayed.').some((t) => t.includes(' de '))).toBe(false)
  })
})
