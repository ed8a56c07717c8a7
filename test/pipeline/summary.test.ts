import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createAnnotator } from '../../src/nlp/annotate.ts'
import { summarize, summarySentences } from '../../src/pipeline/analyzers/summary.ts'
import { createEngine } from '../../src/engine/create-engine.ts'
import type { Engine } from '../../src/engine/types.ts'

const annotator = createAnnotator()
const sentencesOf = (text: string, html = false): string[] => summarySentences(annotator.annotate(text, { html }), { html }).map((s) => s.text)

const CAFE =
  '<html><head><title>Cafe review</title></head><body><p>The coffee was <b>excellent</b> and the cake was fresh.</p>' +
  '<p>Service was slow &amp; rude.</p><p>We will come back for the coffee.</p></body></html>'

const TRISENX =
  'SAVANNAH, Ga., Jan. 2 /PRNewswire/ -- Trisenx, Inc. (www.trisenx.com), the first company to deliver fragrances ' +
  'and flavors electronically, announced it has partnered with Mane to launch its new software, free. The software ' +
  'gives developers tools to add smell to websites. Trisenx said the software costs nothing. Mane makes flavors.'

const NEWS =
  'The city council approved a new budget on Tuesday that raises spending on schools by 3.5 percent. ' +
  'Council members debated for hours. ' +
  'Several residents spoke about the budget, the schools and spending during the meeting. ' +
  'The budget for schools and the spending on schools were the main topics, and the council said the budget for schools would grow. ' +
  'Schools in the city have asked for more spending for years, and the budget gives schools more spending. ' +
  'The mayor is expected to sign it next week.'

describe('summary sentences', () => {
  it('should keep web addresses, e-mail addresses, abbreviations and decimals inside their sentence', () => {
    const s = sentencesOf(
      'Trisenx, Inc. (www.trisenx.com), a maker of displays, said Dr. Smith of the U.S. office paid $3.5 million. ' +
        'Write to info@trisenx.com or see http://www.trisenx.com/news.html today. Shares rose 3.5 percent.',
    )
    expect(s).toEqual([
      'Trisenx, Inc. (www.trisenx.com), a maker of displays, said Dr. Smith of the U.S. office paid $3.5 million.',
      'Write to info@trisenx.com or see http://www.trisenx.com/news.html today.',
      'Shares rose 3.5 percent.',
    ])
  })

  it('should end a sentence written against the next one ("hotel.We"), but not a web address or a decimal', () => {
    expect(sentencesOf('Great hotel.We loved it. Visit www.example.org for 3.5 hours.')).toEqual(['Great hotel.', 'We loved it.', 'Visit www.example.org for 3.5 hours.'])
  })

  it('should still end a sentence after an abbreviation followed by a new sentence', () => {
    expect(sentencesOf('We bought shares of Apple Inc. The price went up.')).toEqual(['We bought shares of Apple Inc.', 'The price went up.'])
  })

  it('should read HTML as text: no markup, entities decoded, a sentence per block', () => {
    expect(sentencesOf(CAFE, true)).toEqual([
      'Cafe review',
      'The coffee was excellent and the cake was fresh.',
      'Service was slow & rude.',
      'We will come back for the coffee.',
    ])
  })
})

describe('summarize', () => {
  it('should choose the lead sentence of a news story, in text order, with summary_size sentences', () => {
    const s = summarize(annotator.annotate(NEWS), 2)
    expect(s.startsWith('The city council approved a new budget on Tuesday that raises spending on schools by 3.5 percent.')).toBe(true)
    const parts = s.split(/(?<=\.) (?=[A-Z])/)
    expect(parts).toHaveLength(2)
    expect(NEWS.indexOf(parts[0]!)).toBeLessThan(NEWS.indexOf(parts[1]!))
  })

  it('should not repeat a sentence it has already taken', () => {
    const text =
      'The hotel was clean and the staff were friendly. The hotel was clean and the staff were friendly! ' +
      'The pool was closed for repairs all week. Parking cost twenty dollars a night.'
    const s = summarize(annotator.annotate(text), 2)
    expect(s.match(/The hotel was clean and the staff were friendly/g)).toHaveLength(1)
  })

  it('should keep "Trisenx, Inc. (www.trisenx.com), ..." whole', () => {
    const s = summarize(annotator.annotate(TRISENX), 1)
    expect(s).toContain('Trisenx, Inc. (www.trisenx.com), the first company to deliver fragrances')
    expect(s).toContain('to launch its new software, free.')
  })

  it('should be the same for the same text', () => {
    expect(summarize(annotator.annotate(NEWS), 3)).toBe(summarize(annotator.annotate(NEWS), 3))
  })
})

describe('summary through the engine', () => {
  let engine: Engine
  beforeAll(() => {
    engine = createEngine({ background: false })
  })
  afterAll(async () => {
    await engine.close()
  })

  it('should summarise the cleaned text when process_html is on, never the raw HTML', async () => {
    await engine.account(engine.defaultAccount).updateConfigurations({ process_html: true, document: { summary_size: 2 } })
    const out = await engine.analyze(CAFE)
    expect(out.summary).toBeDefined()
    expect(out.summary).not.toMatch(/[<>]|&amp;/)
    expect(out.summary).toContain('The coffee was excellent and the cake was fresh.')
  })
})
