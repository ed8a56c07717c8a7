import { describe, expect, it } from 'vitest'
import { PhraseSet, readGazetteer, readPhraseTable } from '../../src/entities/gazetteer.ts'
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

  it('should answer as the Set of the phrases would, in the same order', () => {
    const committed = readGazetteer(readNerFile('gazetteer.tsv').toString('utf8'), 'gazetteer.tsv').phrases
    for (const phrases of [readPhraseTable(tsv, 'test', 'class').phrases, committed]) {
      const set = new Set(phrases.keys())
      const view = new PhraseSet(phrases)
      expect(view.size).toBe(set.size)
      const listed = (it: Iterable<unknown>): string => JSON.stringify([...it])
      expect(listed(view)).toBe(listed(set))
      expect(listed(view.entries())).toBe(listed(set.entries()))
      expect(listed(view.keys())).toBe(listed(set.values()))
      for (const probe of ['paris', 'Paris', 'new york', 'new york city', '', 'london']) expect(view.has(probe)).toBe(set.has(probe))
      const seen: string[] = []
      let same = true
      view.forEach((value, key, s) => {
        same &&= key === value && s === view
        seen.push(value)
      })
      expect(same).toBe(true)
      expect(listed(seen)).toBe(listed(set))
    }
  })
})
