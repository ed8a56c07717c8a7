import { describe, expect, it } from 'vitest'
import { createAnnotator } from '../../src/nlp/annotate.ts'
import { createEntityTagger } from '../../src/entities/tagger.ts'
import { companyKey, createEntityExtractor, extractEntities, readPhraseLexicon, type ExtractedEntity } from '../../src/entities/extract.ts'

const annotator = createAnnotator()
const tagger = createEntityTagger()
const extract = (text: string): ExtractedEntity[] => extractEntities(annotator.annotate(text), tagger)
const find = (es: readonly ExtractedEntity[], type: string, title: string): ExtractedEntity | undefined =>
  es.find((e) => e.entity_type === type && e.title === title)

describe('extractEntities', () => {
  const text =
    'Apple Inc. chief executive Tim Cook visited Berlin on Monday. Cook said Apple would hire 500 people in Germany. ' +
    'Apple shares rose 3%.'
  const entities = extract(text)

  it('should merge "Tim Cook" and a later "Cook" into one Person titled with the full name', () => {
    const cook = find(entities, 'Person', 'Tim Cook')
    expect(cook?.mentions.map((m) => m.label)).toEqual(['Tim Cook', 'Cook'])
    expect(cook?.evidence).toBe(2)
    expect(entities.filter((e) => e.entity_type === 'Person')).toHaveLength(1)
  })

  it('should merge "Apple Inc." and "Apple" into one Company', () => {
    const apple = find(entities, 'Company', 'Apple Inc.')
    expect(apple?.mentions.map((m) => m.label)).toEqual(['Apple Inc.', 'Apple', 'Apple'])
    expect(entities.filter((e) => e.entity_type === 'Company')).toHaveLength(1)
  })

  it('should find places and the job title', () => {
    expect(find(entities, 'Place', 'Berlin')).toBeDefined()
    expect(find(entities, 'Place', 'Germany')).toBeDefined()
    expect(find(entities, 'Job Title', 'Chief Executive Officer')?.mentions[0]?.label).toBe('chief executive')
  })

  it('should mark is_about the most mentioned entity and those with at least half its mentions', () => {
    expect(entities.filter((e) => e.is_about).map((e) => e.title)).toEqual(['Apple Inc.', 'Tim Cook'])
  })

  it('should order by evidence, then first mention', () => {
    for (let i = 1; i < entities.length; i++) {
      const a = entities[i - 1] as ExtractedEntity
      const b = entities[i] as ExtractedEntity
      expect(a.evidence > b.evidence || (a.evidence === b.evidence && (a.mentions[0]?.tokenStart ?? 0) <= (b.mentions[0]?.tokenStart ?? 0))).toBe(true)
    }
  })

  it('should report mention offsets that point at the label in the text, in bytes too', () => {
    const bytes = Buffer.from(text, 'utf8')
    for (const e of entities) {
      for (const m of e.mentions) {
        expect(text.slice(m.start, m.end)).toBe(m.label)
        expect(bytes.subarray(m.byteOffset, m.byteOffset + m.byteLength).toString('utf8')).toBe(m.label)
      }
    }
  })

  it('should give confidences in 0..100, patterns at 100', () => {
    for (const e of entities) {
      expect(e.confidence).toBeGreaterThanOrEqual(0)
      expect(e.confidence).toBeLessThanOrEqual(100)
    }
    expect(find(entities, 'Percentage', '3%')?.confidence).toBe(100)
  })

  it('should be deterministic', () => {
    expect(extract(text)).toEqual(entities)
  })
})

describe('pattern entities', () => {
  const entities = extract(
    'Write to jane.doe@example.com or visit https://example.com/help, call +44 20 7946 0958 or (555) 123-4567. ' +
      'The fee is $25 million, up 12% since 5 March 2024. #launch @acme',
  )
  const of = (type: string): string[] => entities.filter((e) => e.entity_type === type).map((e) => e.title)

  it('should find emails, URLs, money, percentages, dates, hashtags and mentions', () => {
    expect(of('Email')).toEqual(['jane.doe@example.com'])
    expect(of('URL')).toEqual(['https://example.com/help'])
    expect(of('Money')).toEqual(['$25 million'])
    expect(of('Percentage')).toEqual(['12%'])
    expect(of('Date')).toEqual(['5 March 2024'])
    expect(of('Hashtag')).toEqual(['#launch'])
    expect(of('Mention')).toEqual(['@acme'])
  })

  it('should find phone numbers in international and bracketed forms, but not years or amounts', () => {
    expect(of('Phone')).toEqual(['+44 20 7946 0958', '(555) 123-4567'])
  })
})

describe('products, lexicons, MISC', () => {
  it('should take a product with its model suffix and drop MISC nationalities', () => {
    const es = extract('German buyers queued for the iPhone 15 Pro in Munich.')
    expect(es.map((e) => `${e.entity_type}:${e.title}`).sort()).toEqual(['Place:Munich', 'Product:iPhone 15 Pro'])
  })

  it('should find companies by their corporate suffix', () => {
    const es = extract('Shares of Zorblax Widgets Ltd fell sharply.')
    expect(find(es, 'Company', 'Zorblax Widgets Ltd')).toBeDefined()
  })

  it('should strip "the" and corporate suffixes from company keys', () => {
    expect(companyKey(['The', 'Acme', 'Corp.'])).toBe('acme')
    expect(companyKey(['Apple', 'Inc.'])).toBe('apple')
  })

  it('should split a leading job title off a person and keep a known company word inside a name', () => {
    const es = extract('Mayor Rob Ford admitted it on Monday.')
    expect(find(es, 'Person', 'Rob Ford')).toBeDefined()
    expect(find(es, 'Job Title', 'Mayor')).toBeDefined()
    expect(es.filter((e) => e.entity_type === 'Company')).toEqual([])
  })

  it('should never return punctuation as an entity', () => {
    const es = extract('Terrific! Gets your brand a very much needed improvement simply with testimonials!!')
    for (const e of es) expect(e.title).toMatch(/[A-Za-z0-9]/)
  })

  it('should name the bad line of a lexicon', () => {
    expect(() => readPhraseLexicon('# c\nceo\tCEO\nbroken line\n', 'jt.tsv')).toThrow(/jt.tsv:3/)
  })

  it('should give the same result through createEntityExtractor', () => {
    const text = 'Tim Cook met Angela Merkel in Berlin.'
    expect(createEntityExtractor({ tagger }).extract(annotator.annotate(text))).toEqual(extract(text))
  })

  it('should return no entities for an empty document', () => {
    // Built by hand: the annotator is exercised elsewhere; this checks extraction copes with nothing.
    expect(extractEntities({ text: '', tokens: [], sentences: [], patterns: [] }, tagger)).toEqual([])
  })
})
