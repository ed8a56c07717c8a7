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
})
