import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import { combineSpans, createEntityTagger, loadDefaultModel, quietWords, reverseFileName, worthReversing, type TaggedSpan } from '../../src/entities/tagger.ts'
import { reverseDocument, reverseSentence } from '../../src/entities/train.ts'
import { spansOfLabels } from '../../src/entities/conll.ts'
import { LABELS } from '../../src/entities/features.ts'

const span = (type: TaggedSpan['type'], start: number, end: number, confidence: number): TaggedSpan => ({ type, start, end, confidence })
const label = (name: string): number => LABELS.indexOf(name as (typeof LABELS)[number])

describe('the right-to-left tagger and the combination of both directions', () => {
  it('names the reverse weights after the forward ones', () => {
    expect(reverseFileName('tagger.bin.gz')).toBe('tagger-rev.bin.gz')
    expect(reverseFileName('tagger-open.bin.gz')).toBe('tagger-open-rev.bin.gz')
  })

  it('reads a sentence backwards with its entities re-labelled in BIO (the last word of a name becomes its B-)', () => {
    const s = { tokens: ['Tim', 'Cook', 'runs', 'Apple', 'Inc', '.'], labels: ['B-PER', 'I-PER', 'O', 'B-ORG', 'I-ORG', 'O'].map(label) }
    const r = reverseSentence(s)
    expect(r.tokens).toEqual(['.', 'Inc', 'Apple', 'runs', 'Cook', 'Tim'])
    expect(r.labels.map((l) => LABELS[l])).toEqual(['O', 'B-ORG', 'I-ORG', 'O', 'B-PER', 'I-PER'])
    // Two names of one type side by side stay two names.
    const two = reverseSentence({ tokens: ['A', 'B', 'C'], labels: ['B-LOC', 'B-LOC', 'I-LOC'].map(label) })
    expect(spansOfLabels(two.labels)).toEqual([{ type: 'LOC', start: 0, end: 2 }, { type: 'LOC', start: 2, end: 3 }])
    const doc = reverseDocument({ sentences: [s, { tokens: ['Hi'], labels: [0] }] })
    expect(doc.sentences.map((x) => x.tokens[0])).toEqual(['Hi', '.'])
  })

  it('reading twice backwards gives the sentence back, spans included', () => {
    const labels = fc.array(fc.constantFrom(...LABELS.map((_, i) => i)), { maxLength: 12 })
    fc.assert(fc.property(labels, (ls) => {
      const tokens = ls.map((_, i) => `w${i}`)
      const twice = reverseSentence(reverseSentence({ tokens, labels: ls }))
      expect(twice.tokens).toEqual(tokens)
      expect(spansOfLabels(twice.labels)).toEqual(spansOfLabels(ls))
    }))
  })

  it('keeps what both directions give (confidence: the mean), then the surer of two conflicting spans', () => {
    const forward = [span('PER', 0, 2, 0.9), span('LOC', 4, 5, 0.6), span('ORG', 7, 8, 0.8)]
    const backward = [span('PER', 0, 2, 0.7), span('ORG', 3, 5, 0.95), span('MISC', 9, 10, 0.5)]
    expect(combineSpans(forward, backward)).toEqual([
      span('PER', 0, 2, 0.8), // both: the mean
      span('ORG', 3, 5, 0.95), // beats LOC 4:5 (0.6)
      span('ORG', 7, 8, 0.8),
      span('MISC', 9, 10, 0.5),
    ])
    // A span both give wins over a surer one only one gives.
    expect(combineSpans([span('LOC', 0, 1, 0.6), span('ORG', 2, 3, 0.5)], [span('LOC', 0, 1, 0.6), span('ORG', 0, 3, 0.99)])).toEqual([
      span('LOC', 0, 1, 0.6),
      span('ORG', 2, 3, 0.5),
    ])
    expect(combineSpans([], [])).toEqual([])
  })

  it('never returns overlapping spans, every span from one of the two passes, and the same answer each time', () => {
    const arb = fc.array(fc.record({ type: fc.constantFrom('PER', 'ORG', 'LOC', 'MISC'), start: fc.integer({ min: 0, max: 8 }), len: fc.integer({ min: 1, max: 3 }), confidence: fc.integer({ min: 0, max: 1e4 }).map((x) => x / 1e4) }), { maxLength: 5 })
      .map((xs) => {
        // One pass never overlaps itself.
        const out: TaggedSpan[] = []
        for (const x of xs) {
          const s = span(x.type as TaggedSpan['type'], x.start, x.start + x.len, x.confidence)
          if (!out.some((o) => o.start < s.end && s.start < o.end)) out.push(s)
        }
        return out.sort((a, b) => a.start - b.start)
      })
    fc.assert(fc.property(arb, arb, (f, b) => {
      const c = combineSpans(f, b)
      for (let i = 1; i < c.length; i++) expect(c[i]!.start).toBeGreaterThanOrEqual(c[i - 1]!.end)
      for (const s of c) expect([...f, ...b].some((x) => x.start === s.start && x.end === s.end && x.type === s.type)).toBe(true)
      expect(combineSpans(f, b)).toEqual(c)
    }))
  })

  it('runs the right-to-left pass only where it may change something', () => {
    const words = (t: string): string[] => t.split(' ')
    // A title-case headline: never.
    expect(worthReversing(words('Samsung Unveils Galaxy S24 With New AI Features'), [span('ORG', 0, 1, 0.6)])).toBe(false)
    // An unsure span: yes.
    expect(worthReversing(words('Tim Cook visited Paris .'), [span('PER', 0, 2, 0.999), span('LOC', 3, 4, 0.7)])).toBe(true)
    // Sure spans and no other capitalised word (the first word and "I" do not count): no.
    expect(worthReversing(words('Yesterday I met Tim Cook at his new office in Paris .'), [span('PER', 3, 5, 0.999), span('LOC', 10, 11, 0.995)])).toBe(false)
    // A capitalised word outside the spans: yes.
    expect(worthReversing(words('Yesterday I met Tim Cook at his new office in Paris .'), [span('PER', 3, 5, 0.999)])).toBe(true)
    expect(worthReversing(words('we love the new café at Ördögárok'), [])).toBe(true)
    expect(worthReversing(words('nothing here at all'), [])).toBe(false)
    // Capitalised common words and day names do not count when the tagger says which words are quiet.
    const quiet = new Set(['the', 'tuesday'])
    expect(worthReversing(words('He said : The deal closes on Tuesday .'), [], quiet)).toBe(false)
    expect(worthReversing(words('He said : The deal closes on Tuesday .'), [])).toBe(true)
    expect(worthReversing(words('He said : The deal closes in Paris .'), [], quiet)).toBe(true)
  })

  it('decodes with both directions by default, and with one when told', () => {
    const model = loadDefaultModel()
    expect(model.reverse).toBeDefined()
    expect(String(model.reverse?.trained['direction'])).toMatch(/right to left/)
    const both = createEntityTagger()
    const forward = createEntityTagger({ ...model, reverseWeights: null })
    const backward = createEntityTagger({ ...model, weights: model.reverse!, reverseWeights: null })
    const mirror = (spans: readonly TaggedSpan[], n: number): TaggedSpan[] => spans.map((x) => ({ ...x, start: n - x.end, end: n - x.start }))
    const quiet = quietWords()
    expect(quiet.has('tuesday') && quiet.has('the')).toBe(true)
    // An unsure span ("Zorblax"): the sentence is read both ways.
    const tokens = 'Fans of Zorblax cheered as Kinderhook Mills beat the Lemmon Rovers 2-1 .'.split(' ')
    expect(worthReversing(tokens, forward.tag(tokens), quiet)).toBe(true)
    expect(both.tag(tokens)).toEqual(combineSpans(forward.tag(tokens), mirror(backward.tag([...tokens].reverse()), tokens.length)))
    // Every span sure, and only quiet words ("Tuesday") capitalised outside them: left to right alone.
    const sure = 'Heavy rain hit Tim Cook \'s home in Palo Alto , California , on Tuesday , Reuters said .'.split(' ')
    expect(worthReversing(sure, forward.tag(sure), quiet)).toBe(false)
    expect(both.tag(sure)).toEqual(forward.tag(sure))
    expect(both.tag(sure).map((s) => `${s.type}:${sure.slice(s.start, s.end).join(' ')}`)).toEqual(['PER:Tim Cook', 'LOC:Palo Alto', 'LOC:California', 'ORG:Reuters'])
    // A document: the sentences worth it are decoded right to left as a document of their own (last first), the others keep their spans.
    const doc = [tokens, ['nothing', 'to', 'see', '.'], ['Cook', 'said', 'so', 'in', 'Cupertino', '.'], sure]
    const f = forward.tagDocument(doc)
    const picked = doc.map((s, i) => i).filter((i) => worthReversing(doc[i]!, f[i]!, quiet))
    expect(picked).toEqual([0, 2])
    const r = backward.tagDocument(picked.map((i) => [...doc[i]!].reverse()).reverse())
    const want = f.map((spans, i) => (picked.includes(i) ? combineSpans(spans, mirror(r[picked.length - 1 - picked.indexOf(i)]!, doc[i]!.length)) : spans))
    expect(both.tagDocument(doc)).toEqual(want)
  })

  it('keeps the left-to-right spans of a title-case headline', () => {
    const model = loadDefaultModel()
    const forward = createEntityTagger({ ...model, reverseWeights: null })
    const headline = ['Samsung', 'Unveils', 'Galaxy', 'S24', 'With', 'New', 'AI', 'Features']
    expect(createEntityTagger().tag(headline)).toEqual(forward.tag(headline))
  })
})
