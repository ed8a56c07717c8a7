import { describe, expect, it } from 'vitest'
import { readGazetteer, readPhraseTable } from '../../src/entities/gazetteer.ts'
import { loadEntityLexicons } from '../../src/entities/extract.ts'
import { readNerFile } from '../../src/entities/tagger.ts'

describe('gazetteer tables', () => {
  const tsv = '# comment\nnew york city\tcity\nParis\tcity\nparis\tfirst\nthe democratic republic of the congo\tcountry\n'

  it('should keep the first value of a phrase, lower-cased, with every leading run of its tokens', () => {
    const g = readPhraseTable(tsv, 'test', 'class')
    expect([...g.phrases]).toEqual([['new york city', 'city'], ['paris', 'city'], ['the democratic republic of the congo', 'country']])
    expect(g.maxTokens).toBe(6)
    expect(['new', 'new york', 'new york city', 'the democratic republic of'].every((p) => g.prefixes.has(p))).toBe(true)
    expect(g.prefixes.has('york')).toBe(false)
  })

  it('should parse an equal text once, however many times it is read, and a different text again', () => {
    const a = readGazetteer(tsv, 'test')
    expect(readGazetteer(tsv.slice(0, 20) + tsv.slice(20), 'test')).toBe(a) // an equal string, not the same one
    expect(readGazetteer(tsv + 'lyon\tcity\n', 'test')).not.toBe(a)
    expect(readGazetteer(tsv, 'other source')).not.toBe(a)
  })

  it("should answer the extractor's place lookups as the Set of the gazetteer's phrases would", () => {
    const committed = readGazetteer(readNerFile('gazetteer.tsv').toString('utf8'), 'gazetteer.tsv').phrases
    const { places } = loadEntityLexicons()
    const set = new Set(committed.keys())
    for (const probe of ['paris', 'Paris', 'new york', 'new york city', '', 'london', ...[...set].slice(0, 200)]) expect(places.has(probe)).toBe(set.has(probe))
    const small = readPhraseTable(tsv, 'test', 'class').phrases
    const smallSet = new Set(small.keys())
    for (const probe of ['paris', 'Paris', 'new york', 'new york city', '', 'london']) expect(small.has(probe)).toBe(smallSet.has(probe))
  })
})
