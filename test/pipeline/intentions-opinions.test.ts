import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import { readFileSync } from 'node:fs'
import { createAnnotator } from '../../src/nlp/annotate.ts'
import { createEntityExtractor } from '../../src/entities/extract.ts'
import { findIntentions } from '../../src/pipeline/analyzers/intentions.ts'
import { findOpinions } from '../../src/pipeline/analyzers/opinions.ts'

const annotator = createAnnotator()
const extractor = createEntityExtractor()
const fixture = <T>(name: string): T => JSON.parse(readFileSync(new URL(`../fixtures/${name}`, import.meta.url), 'utf8')) as T
const opinionsOf = (text: string) => {
  const doc = annotator.annotate(text)
  const entities = extractor.extract(doc).map((e) => ({ type: 'named' as const, title: e.title, entity_type: e.entity_type, mentions: e.mentions }))
  return { entities, found: findOpinions(doc, entities, undefined) }
}

describe('intentions', () => {
  it('should find the intentions of the development cases (type, who, what) with precision and recall of at least 0.9', () => {
    const { cases } = fixture<{ cases: { text: string; intentions: { type: string; who: string; what: string }[] }[] }>('intentions.json')
    expect(cases.length).toBeGreaterThanOrEqual(60)
    let tp = 0, fp = 0, fn = 0
    for (const c of cases) {
      const key = (x: { type: string; who: string; what: string }): string => `${x.type}|${x.who.toLowerCase()}|${x.what.toLowerCase()}`
      const g = new Set(c.intentions.map(key))
      const p = new Set(findIntentions(annotator.annotate(c.text)).map(key))
      for (const k of p) if (g.has(k)) tp++; else fp++
      for (const k of g) if (!p.has(k)) fn++
    }
    expect(tp / (tp + fp)).toBeGreaterThanOrEqual(0.9)
    expect(tp / (tp + fn)).toBeGreaterThanOrEqual(0.9)
  })

  const verbs = ['buy', 'sell', 'cancel', 'visit', 'hire', 'learn', 'return']
  const objects = ['a new laptop', 'my car', 'the Paris office', 'two designers', 'Spanish', 'the blue jacket']
  it('should find an intention in "I want to V O" and none once it is negated, made hypothetical or asked', () => {
    fc.assert(
      fc.property(fc.constantFrom(...verbs), fc.constantFrom(...objects), (v, o) => {
        const plain = findIntentions(annotator.annotate(`I want to ${v} ${o}.`))
        expect(plain).toHaveLength(1)
        expect(plain[0]!.evidence_phrase).toBe(`want to ${v}`)
        expect(plain[0]!.who).toBe('I')
        for (const t of [`I don't want to ${v} ${o}.`, `I will never ${v} ${o}.`, `If I were rich, I would ${v} ${o}.`, `Do you want to ${v} ${o}?`]) {
          expect(findIntentions(annotator.annotate(t))).toEqual([])
        }
      }),
      { numRuns: 30 },
    )
  })
})

describe('opinions', () => {
  it('should attribute the quotations of the development cases with precision and recall of at least 0.9', () => {
    const { cases } = fixture<{ cases: { text: string; opinions: { speaker: string; quotation: string }[] }[] }>('opinions.json')
    expect(cases.length).toBeGreaterThanOrEqual(60)
    const norm = (s: string): string => s.toLowerCase().replace(/[\s"“”]+/g, ' ').trim().replace(/^[\s.,;:!?'‘’]+|[\s.,;:!?'‘’]+$/g, '')
    let tp = 0, fp = 0, fn = 0
    for (const c of cases) {
      const key = (x: { speaker: string; quotation: string }): string => `${x.speaker.toLowerCase()}|${norm(x.quotation)}`
      const g = new Set(c.opinions.map(key))
      const p = new Set(opinionsOf(c.text).found.map(key))
      for (const k of p) if (g.has(k)) tp++; else fp++
      for (const k of g) if (!p.has(k)) fn++
    }
    expect(tp / (tp + fp)).toBeGreaterThanOrEqual(0.9)
    expect(tp / (tp + fn)).toBeGreaterThanOrEqual(0.9)
  })

  it('should resolve a short mention or a pronoun to the full name', () => {
    expect(opinionsOf('Tim Cook spoke in Cupertino. "The iPhone had a record quarter," Cook said.').found.map((o) => o.speaker)).toEqual(['Tim Cook'])
    expect(opinionsOf('Sundar Pichai joined Google in 2004. "Search is our core business," he said.').found.map((o) => o.speaker)).toEqual(['Sundar Pichai'])
  })

  const speakers = ['Tim Cook', 'Angela Merkel', 'Maria Lopez', 'Satya Nadella']
  const quotes = ['The results were excellent', 'We will not raise prices', 'This is a terrible decision. It hurts everyone']
  const forms = [
    (s: string, q: string) => `"${q}," said ${s}.`,
    (s: string, q: string) => `“${q},” ${s} said.`,
    (s: string, q: string) => `${s} said: "${q}."`,
  ]
  it('should give the quotation as written in the text and the speaker as an entity title, in every form', () => {
    fc.assert(
      fc.property(fc.constantFrom(...speakers), fc.constantFrom(...quotes), fc.constantFrom(...forms), (s, q, form) => {
        const text = form(s, q)
        const { entities, found } = opinionsOf(text)
        expect(found).toHaveLength(1)
        expect(text.includes(found[0]!.quotation)).toBe(true)
        expect(found[0]!.quotation.replace(/\.$/, '')).toBe(q)
        expect(entities.map((e) => e.title)).toContain(found[0]!.speaker)
        expect(opinionsOf(text).found).toEqual(found)
      }),
      { numRuns: 30 },
    )
  })
})
