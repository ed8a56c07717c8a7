import { describe, expect, it } from 'vitest'
import { createAnnotator } from '../../src/nlp/annotate.ts'
import { createEntityExtractor } from '../../src/entities/extract.ts'

// Organisations and places of news copy the tagger gets wrong at the edges (issue 16, and the entity errors that
// cost issue 12's relations): datelines before a wire credit, broadcast credits of monitored news, a nationality
// before a government body, bodies the tagger calls places, names cut short before "and", title abbreviations.
const annotator = createAnnotator()
const extractor = createEntityExtractor()
const spans = (text: string): string[] =>
  extractor.extract(annotator.annotate(text)).flatMap((e) => e.mentions.map((m) => `${e.entity_type}:${text.slice(m.start, m.end)}`))

describe('organisations and places in news copy', () => {
  it('reads a dateline in capitals before a wire credit as a place', () => {
    for (const [text, city] of [['LOS ANGELES (AP)', 'LOS ANGELES'], ['NEW ORLEANS (UPI) Flood waters rose again on Tuesday.', 'NEW ORLEANS']] as const) {
      const out = spans(text)
      expect(out).toContain(`Place:${city}`)
      expect(out).not.toContain(`Company:${city}`)
    }
  })

  it('starts a city in capitals before its state at its first word in capitals (a byline before it)', () => {
    const out = spans('By AP Entertainment Writer PARK CITY, Utah (AP) — The festival opened.')
    expect(out).toContain('Place:PARK CITY')
    expect(out.filter((s) => s.includes('Writer'))).toEqual([])
  })

  it('splits a broadcast credit into the city and the broadcaster', () => {
    const out = spans('LD1203101094 Paris Radio France International in French 0900 GMT 12 Mar 94')
    expect(out).toContain('Place:Paris')
    expect(out).toContain('Company:Radio France International')
    expect(out.filter((s) => s.includes('Paris Radio'))).toEqual([])
  })

  it('reads a nationality before a government body as the organisation', () => {
    expect(spans('The plan was approved by the Chinese Government last month.')).toContain('Company:Chinese Government')
    expect(spans('Talks stalled after the Angolan Government rejected the offer.')).toContain('Company:Angolan Government')
    // Not when the body is not capitalised: "the French government" leaves the adjective alone.
    expect(spans('The French government said little.').filter((s) => s.startsWith('Company:'))).toEqual([])
  })

  it('makes a body whose last word is College, Society or Service an organisation, not a place', () => {
    const out = spans('She left Ohio to enter Oberlin College, where she studied history.')
    expect(out).toContain('Company:Oberlin College')
    expect(out).not.toContain('Place:Oberlin College')
  })

  it('keeps "X and Y Service" whole', () => {
    const out = spans('Two officers of the Immigration and Naturalization Service flew to Miami on Monday.')
    expect(out).toContain('Company:Immigration and Naturalization Service')
    expect(out).not.toContain('Company:Naturalization Service')
  })

  it('leaves a title abbreviation before a name out of the organisation', () => {
    const out = spans('The search will go on overnight, said Coast Guard Lt. Maria Ortega.')
    expect(out).toContain('Company:Coast Guard')
    expect(out.filter((s) => s.includes('Lt.') && s.startsWith('Company:'))).toEqual([])
  })
  it('makes a "person" whose last word is District or Province the place', () => {
    for (const [text, place] of [['Troops were sent to Dan Sai District after the raid.', 'Dan Sai District'], ['Rescuers reached Tanjung Priok District by boat.', 'Tanjung Priok District']] as const) {
      const out = spans(text)
      expect(out).toContain(`Place:${place}`)
      expect(out).not.toContain(`Person:${place}`)
    }
  })
  it('keeps a generational suffix with the name, known person or not', () => {
    expect(spans('Civil rights leader Robert Carter Jr. was shot in Memphis.')).toContain('Person:Robert Carter Jr.')
    expect(spans('Martin Luther King III spoke on Monday.')).toContain('Person:Martin Luther King III')
    expect(spans('A statue of Martin Luther King Jr. was unveiled.')).toContain('Person:Martin Luther King Jr.')
  })
})
