import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import { readFileSync } from 'node:fs'
import { createAnnotator } from '../../src/nlp/annotate.ts'
import { createEntityExtractor } from '../../src/entities/extract.ts'
import { findRelations, loadRelationResources, placeClosure, predictRelations, decodeRelationModel, encodeRelationModel, trainRelationModel, readTriggers } from '../../src/relations/index.ts'
import { alignSpan, conll04Text, readConll04, spacedText } from '../../src/relations/conll04.ts'

const annotator = createAnnotator()
const extractor = createEntityExtractor()
const res = loadRelationResources()
const relationsOf = (text: string) => {
  const doc = annotator.annotate(text)
  const entities = extractor.extract(doc)
  return { entities, found: findRelations(doc, entities, res.model, res.triggers, res.jobTitles) }
}
const summary = (text: string): string[] => {
  const { entities, found } = relationsOf(text)
  return found.map((r) => `${r.relation_type}(${entities[r.args[0]]!.title}, ${entities[r.args[1]]!.title})${r.extra === '' ? '' : ` [${r.extra}]`}`)
}

describe('relations: hand rules', () => {
  it('should find employment by apposition with the job title as extra', () => {
    expect(summary("Tim Cook, Apple's chief executive, spoke in Cupertino.")).toContain('Employment(Tim Cook, Apple) [chief executive]')
  })
  it('should find a place within a place', () => {
    expect(summary('The company opened an office in Austin, Texas.')).toContain('Location(Austin, Texas)')
  })
  it('should not chain the places of a list into place-within-place relations', () => {
    const text = 'The cities surveyed were Guadalajara, Monterrey, Tijuana and Puebla.'
    expect(relationsOf(text).entities.filter((e) => e.entity_type === 'Place').length).toBeGreaterThanOrEqual(3)
    const found = summary(text)
    expect(found.filter((s) => s.startsWith('Location('))).toEqual([])
  })
  it('should not give punctuation or a speech verb between the pair as the trigger words', () => {
    // A stand-in classifier that relates every Company-Place and Person-Place pair, so that the words kept as
    // `extra` are tested whatever the trained model makes of the pairs.
    const stub = { labels: ['N', 'Work_For', 'Live_In', 'Located_In', 'OrgBased_In', 'Kill'], allowed: new Map([['Org>Loc', [4]], ['Peop>Loc', [2]]]), weights: new Map([['bias', Float64Array.from([0, 0, 0, 0, 5, 0])], ['tp=Peop>Loc', Float64Array.from([0, 0, 5, 0, 0, 0])]]), trained: {}, nBias: 0 }
    const withStub = (text: string): string[] => {
      const doc = annotator.annotate(text)
      const entities = extractor.extract(doc)
      return findRelations(doc, entities, stub, res.triggers, res.jobTitles).map((r) => `${r.relation_type}(${entities[r.args[0]]!.title}, ${entities[r.args[1]]!.title}) [${r.extra}]`)
    }
    const quote = withStub('"We will open a plant in Austin, Texas," said Tesla CEO Elon Musk.')
    expect(quote).toContain('Based In(Tesla, Texas) []')
    expect(quote.some((r) => /said|\[[^\]\p{L}\p{N}]+\]/u.test(r))).toBe(false)
    // Words that do link the two stay, without the punctuation at the edges.
    expect(withStub("Hillary's speech in Philadelphia drew crowds.")).toContain("Residence(Hillary, Philadelphia) ['s speech in]")
    expect(withStub('Acme, in Boston, hired staff.')).toContain('Based In(Acme, Boston) [in]')
    // ... but not another entity's name standing between, nor a determiner alone.
    expect(withStub('Jane Smith works for IBM in Armonk, New York.').filter((r) => r.startsWith('Based In(IBM, New York)'))).toEqual(['Based In(IBM, New York) []'])
    expect(withStub('Boeing, the Arlington planemaker, reported a loss.').filter((r) => r.startsWith('Based In(Boeing, Arlington)'))).toEqual(['Based In(Boeing, Arlington) []'])
  })
  it('should find acquisitions and founders', () => {
    expect(summary('Microsoft acquired LinkedIn in 2016.')).toContain('Acquisition(Microsoft, LinkedIn) [acquired]')
    expect(summary('Steve Jobs founded Apple in a garage.').some((s) => s.startsWith('Founder(Steve Jobs, Apple)'))).toBe(true)
  })
  it('should find a residence across one apposition between the person and "lives in"', () => {
    const found = summary("Tim Cook, Apple's chief executive, lives in Palo Alto.")
    expect(found).toContain('Residence(Tim Cook, Palo Alto) [lives in]')
    expect(found.some((s) => s.startsWith('Employment(Tim Cook, Apple)'))).toBe(true)
  })
  it("should give as extra the trigger words of the relation's own kind, not a job title that stands between too", () => {
    const found = summary('Warren Buffett, chairman of Berkshire Hathaway, was born in Omaha.')
    expect(found).toContain('Employment(Warren Buffett, Berkshire Hathaway) [chairman]')
    expect(found).toContain('Residence(Warren Buffett, Omaha) [born]')
  })
  it('should find an organisation based in a place', () => {
    expect(summary('Spotify, based in Stockholm, raised prices.').some((s) => s.startsWith('Based In(Spotify, Stockholm)'))).toBe(true)
  })
})

describe('relations: the trained classifier', () => {
  it('should find CoNLL04-style relations', () => {
    expect(summary('Lee Harvey Oswald killed John F. Kennedy in Dallas.').some((s) => s.startsWith('Kill(Lee Harvey Oswald, John F. Kennedy)'))).toBe(true)
  })
  it('should train deterministically and round-trip its file', () => {
    const text = readFileSync(new URL('../../lexicons/en/relations/triggers.tsv', import.meta.url), 'utf8')
    const triggers = readTriggers(text)
    const data = readConll04(
      ['#doc 1', "0\tJohn\tB-Peop\t['N']\t[0]", "1\tSmith\tI-Peop\t['Work_For']\t[4]", "2\tworks\tO\t['N']\t[2]", "3\tfor\tO\t['N']\t[3]", "4\tIBM\tB-Org\t['N']\t[4]",
        '#doc 2', "0\tMary\tB-Peop\t['Work_For']\t[3]", "1\tjoined\tO\t['N']\t[1]", "2\tthe\tO\t['N']\t[2]", "3\tFBI\tB-Org\t['N']\t[3]"].join('\n'),
    )
    expect(data[0]!.relations).toEqual([{ a: 0, b: 1, label: 'Work_For' }])
    const a = encodeRelationModel(trainRelationModel(data, triggers, { epochs: 3 }))
    const b = encodeRelationModel(trainRelationModel(data, triggers, { epochs: 3 }))
    expect(a).toBe(b)
    expect(encodeRelationModel(decodeRelationModel(a))).toBe(a)
    expect(() => decodeRelationModel('{"format":"X"}', 'f.json')).toThrow(/f.json: should be a relation model/)
    // Per-label biases travel in the file and move the decision for their label only.
    const model = { ...decodeRelationModel(a), nBias: 0, labelBias: { Work_For: -50 } }
    const text2 = encodeRelationModel(model)
    expect(decodeRelationModel(text2).labelBias).toEqual({ Work_For: -50 })
    expect(encodeRelationModel(decodeRelationModel(text2))).toBe(text2)
    expect(predictRelations({ ...model, labelBias: { Work_For: 50 } }, data[0]!, triggers).map((p) => p.label)).toEqual(['Work_For'])
    expect(predictRelations(model, data[0]!, triggers)).toEqual([])
    // Several runs average their weights into one model of the same form, the same bytes each time; the run count is recorded.
    const five = encodeRelationModel(trainRelationModel(data, triggers, { epochs: 3, runs: 5 }))
    expect(encodeRelationModel(trainRelationModel(data, triggers, { epochs: 3, runs: 5 }))).toBe(five)
    expect(decodeRelationModel(five).trained['runs']).toBe(5)
    expect(decodeRelationModel(a).trained['runs']).toBeUndefined()
    // A semicolon between two mentions parts two clauses: the pair is not scored, whatever the weights say.
    const semi = readConll04(['#doc 3', "0\tJohn\tB-Peop\t['N']\t[0]", "1\tSmith\tI-Peop\t['N']\t[1]", "2\tspoke\tO\t['N']\t[2]", "3\t;\tO\t['N']\t[3]", "4\tIBM\tB-Org\t['N']\t[4]"].join('\n'))
    const favoured = { ...decodeRelationModel(a), labelBias: { Work_For: 50 } }
    expect(predictRelations(favoured, { ...semi[0]!, words: semi[0]!.words.map((w) => (w === ';' ? ',' : w)) }, triggers).map((p) => p.label)).toEqual(['Work_For'])
    expect(predictRelations(favoured, semi[0]!, triggers)).toEqual([])
  })
})

describe('relations: place-within-place closure', () => {
  it('should pass residence and organisation location up through a place within a place, once, without duplicates', () => {
    const rels = [
      { a: 0, b: 1, label: 'Live_In', confidence: 0.8 },
      { a: 1, b: 2, label: 'Located_In', confidence: 0.6 },
      { a: 3, b: 1, label: 'OrgBased_In', confidence: 0.5 },
      { a: 3, b: 2, label: 'Work_For', confidence: 0.9 }, // the pair is taken: nothing added for it
      { a: 4, b: 1, label: 'Kill', confidence: 0.9 }, // not a place relation
    ]
    expect(placeClosure(rels)).toEqual([{ a: 0, b: 2, label: 'Live_In', confidence: 0.6 }])
    expect(placeClosure([{ a: 0, b: 1, label: 'Located_In', confidence: 1 }, { a: 1, b: 0, label: 'Located_In', confidence: 1 }])).toEqual([])
  })
  it('should find residence in the state of "City, State"', () => {
    const found = summary('Mary Fisher lives in Louisville, Kentucky, with her two sons.')
    expect(found.some((s) => s.startsWith('Residence(Mary Fisher, Louisville)'))).toBe(true)
    expect(found.some((s) => s.startsWith('Residence(Mary Fisher, Kentucky)'))).toBe(true)
  })
})

describe('relations: properties', () => {
  const names = ['Tim Cook', 'Apple', 'Paris', 'Texas', 'Austin', 'Microsoft', 'Angela Merkel', 'Google', 'London', 'Satya Nadella']
  const glue = [', ', "'s chief executive ", ' acquired ', ' is based in ', ' lives in ', ' founded ', ' met ', ' in ', ' and ', ', a company in ']
  const sentence = fc.array(fc.tuple(fc.constantFrom(...names), fc.constantFrom(...glue)), { minLength: 1, maxLength: 6 }).map((parts) => parts.map(([n, g]) => n + g).join('') + 'today.')
  it('should never relate an entity to itself, nor give a relation without two entities of the document, and be deterministic', () => {
    fc.assert(
      fc.property(sentence, (text) => {
        const { entities, found } = relationsOf(text)
        for (const r of found) {
          expect(r.args[0]).not.toBe(r.args[1])
          expect(entities[r.args[0]]).toBeDefined()
          expect(entities[r.args[1]]).toBeDefined()
          expect(r.confidence).toBeGreaterThanOrEqual(0)
          expect(r.confidence).toBeLessThanOrEqual(1)
          for (const [k, sp] of r.spans.entries()) {
            expect(entities[r.args[k]!]!.mentions.some((m) => m.tokenStart === sp.tokenStart && m.tokenEnd === sp.tokenEnd)).toBe(true)
          }
        }
        for (let i = 1; i < found.length; i++) expect(found[i - 1]!.confidence).toBeGreaterThanOrEqual(found[i]!.confidence)
        expect(relationsOf(text).found).toEqual(found)
      }),
      { numRuns: 40 },
    )
  })
})

describe('relations: CoNLL04 text and alignment', () => {
  const tokens = ['Kevin', 'O', "'Brien", ',', 'who', 'doesn', "'t", 'live', 'in', 'China.', '`', '`', 'Hi', "'", "'", '(', 'AP', ')', 'Va', '.']
  it('should detokenise the corpus tokenisation and keep every token on its own characters', () => {
    const t = conll04Text(tokens)
    expect(t.text).toBe("Kevin O'Brien, who doesn't live in China. ``Hi'' (AP) Va.")
    tokens.forEach((tok, i) => expect(t.text.slice(t.starts[i], t.ends[i])).toBe(tok))
    expect(spacedText(['a', ',', 'b']).text).toBe('a , b')
  })
  it('should align character spans to tokens exactly, with glued or separate punctuation only', () => {
    const t = conll04Text(tokens)
    const at = (s: string): [number, number] => [t.text.indexOf(s), t.text.indexOf(s) + s.length]
    expect(alignSpan(t, ...at("Kevin O'Brien"))).toEqual([0, 3])
    expect(alignSpan(t, ...at('China'))).toEqual([9, 10]) // CoNLL04 glued the period: the token is 'China.'
    expect(alignSpan(t, ...at('Va.'))).toEqual([18, 19]) // CoNLL04 split it: the entity is 'Va'
    expect(alignSpan(t, ...at("Kevin O'"))).toBeUndefined() // stops inside a word
    expect(alignSpan(t, ...at('Kevin O'))).toEqual([0, 2])
    expect(alignSpan(t, ...at('AP'))).toEqual([16, 17])
  })
})
