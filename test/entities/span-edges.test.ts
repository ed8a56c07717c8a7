import { describe, expect, it } from 'vitest'
import { createAnnotator } from '../../src/nlp/annotate.ts'
import { createEntityExtractor } from '../../src/entities/extract.ts'

// Span edges the tagger gets wrong since it also learnt from CoNLL04 (possessives), and lower-case common words
// the tagger takes for names in text whose writer capitalises.
const annotator = createAnnotator()
const extractor = createEntityExtractor()
const spans = (text: string): string[] =>
  extractor.extract(annotator.annotate(text)).flatMap((e) => e.mentions.map((m) => `${e.entity_type}:${text.slice(m.start, m.end)}`))

describe('entity span edges', () => {
  it('leaves a possessive ending out of the name', () => {
    const text = "Hillary's speech in Philadelphia drew 20,000 people; Trump's rally in Ohio drew fewer."
    const out = spans(text)
    expect(out.some((s) => s.endsWith(':Trump'))).toBe(true)
    expect(out.filter((s) => /['’]s?$/.test(s))).toEqual([])
    const netflix = spans("Spotify's new feature lets users share playlists; Netflix's password crackdown added 6 million subscribers.")
    expect(netflix).toContain('Company:Netflix')
    expect(netflix.filter((s) => /['’]s?$/.test(s))).toEqual([])
  })

  it('takes no lower-case word for a name when the writer capitalises', () => {
    const out = spans('Thanks for nothing, @united. Two hours on the tarmac and no explanation. #neverflyingagain')
    expect(out.filter((s) => s.includes('tarmac'))).toEqual([])
    expect(out).toContain('Mention:@united')
  })

  it("starts a person's name after the rank or office before it, and takes no title alone for a name", () => {
    expect(spans('Rep. Martin Heinrich met Col. Jeffrey Marlette near Mt. Everest.')).toEqual(['Person:Martin Heinrich', 'Person:Jeffrey Marlette', 'Place:Mt. Everest'])
    expect(spans('Sgt. John Smith was injured.')).toEqual(['Person:John Smith'])
    expect(spans('Sen. Stabenow spoke to the union.')).toEqual(['Person:Stabenow'])
    // Two titles; and "Maj." and "Adm.", which wink splits from their period (and may end a sentence at): no "Lt."
    // company, no "Maj" place, no "Adm" company.
    expect(spans('Lt. Col. Jane Doe led the unit.')).toEqual(['Person:Jane Doe'])
    expect(spans('Maj. Gen. Pat Ryder said so.')).toEqual(['Person:Pat Ryder'])
    expect(spans('Adm. Michael Gilday retired.')).toEqual(['Person:Michael Gilday'])
  })

  it('keeps Mr., Mrs., Ms. and Dr. where the tagger reads them as part of a name', () => {
    expect(spans('Mr. Bean is funny.')).toEqual(['Person:Mr. Bean'])
    expect(spans('Ms. Marvel returns next year.')).toContain('Person:Ms. Marvel')
  })

  it('reads a party affiliation as no entity ("Y." was a person, "R-Texas" a company)', () => {
    expect(spans('Sen. Chuck Schumer (D-N.Y.) said the bill would pass.')).toEqual(['Person:Chuck Schumer'])
    expect(spans('Sen. Ted Cruz (R-Texas) objected.')).toEqual(['Person:Ted Cruz'])
    expect(spans('Rep. Alexandria Ocasio-Cortez, D-N.Y., voted against it.')).toEqual(['Person:Alexandria Ocasio-Cortez'])
    // Not a state after the hyphen: no affiliation ("I-95" is a road, as the tagger reads it).
    expect(spans('Traffic on I-95 in Maryland was slow.')).toContain('Place:Maryland')
  })

  it('leaves a multi-word office before a name out of it, as a Job Title', () => {
    expect(spans('Chief Justice John Roberts wrote the opinion.')).toEqual(['Job Title:Chief Justice', 'Person:John Roberts'])
    expect(spans('U.S. Secretary of State Antony Blinken arrived in Kyiv.')).toContain('Job Title:Secretary of State')
    expect(spans('Police Chief Michel Moore said two officers were hurt.')).toEqual(['Job Title:Police Chief', 'Person:Michel Moore'])
  })

  it('reads a company named by its web address as one company', () => {
    expect(spans('Amazon.com Inc. said Prime Day sales hit a record.')).toEqual(['Company:Amazon.com Inc.'])
    expect(spans('Booking.com and Hotels.com compete.')).toEqual(['Company:Booking.com', 'Company:Hotels.com'])
    // In lower case it is an address, not a name.
    expect(spans('Order it from amazon.com today.').filter((s) => s.startsWith('Company:'))).toEqual([])
  })

  it('takes no storm for a person', () => {
    expect(spans('Hurricane Ian made landfall near Fort Myers on Wednesday.').filter((s) => s.startsWith('Person:'))).toEqual([])
    expect(spans('Typhoon Haiyan killed thousands in the Philippines.')).toEqual(['Place:Philippines'])
    expect(spans('Winter Storm Elliott hit Buffalo.').filter((s) => s.includes('Elliott'))).toEqual([])
    expect(spans('The hurricane season started. Ian Smith said so.')).toEqual(['Person:Ian Smith'])
  })

  it('leaves a verb in the past that opens the sentence out of the name after it', () => {
    expect(spans('Bought Tesla stock yesterday.')).toContain('Company:Tesla')
    expect(spans('Flew Delta from Atlanta to Seattle; the crew was friendly.')).toContain('Company:Delta')
    // Names that open with a verb (or a past form) stay whole.
    expect(spans('Live Nation reported earnings.')).toEqual(['Company:Live Nation'])
    expect(spans('@ARForHillary Entire videos are available. Planned Parenthood admitted it.')).toContain('Company:Planned Parenthood')
  })

  it('reads a restaurant or a shop that the tagger calls a person as a company', () => {
    expect(spans('Shake Shack opened a store.')).toEqual(['Company:Shake Shack'])
    expect(spans('Guess Jeans opened a store.')).toEqual(['Company:Guess Jeans'])
  })
})
