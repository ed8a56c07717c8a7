import { describe, expect, it } from 'vitest'
import { readTagged, spansOfLabels } from '../../src/entities/conll.ts'
import { LABELS } from '../../src/entities/features.ts'

const names = (labels: readonly number[]): string[] => labels.map((l) => LABELS[l] ?? '?')

describe('readTagged: openly licensed NER corpora in other tag sets', () => {
  it('maps BIO types onto CoNLL types, one tweet a document, and drops unmapped types', () => {
    const text = 'Empire\tB-location\nState\tI-location\nby\tO\nApple\tB-corporation\n\nread\tO\nDune\tB-creative-work\nnow\tB-time\n'
    const docs = readTagged(text, { types: { location: 'LOC', corporation: 'ORG', 'creative-work': 'MISC' }, sentencePerDocument: true })
    expect(docs).toHaveLength(2)
    expect(docs[0]?.sentences[0]?.tokens).toEqual(['Empire', 'State', 'by', 'Apple'])
    expect(names(docs[0]?.sentences[0]?.labels ?? [])).toEqual(['B-LOC', 'I-LOC', 'O', 'B-ORG'])
    expect(names(docs[1]?.sentences[0]?.labels ?? [])).toEqual(['O', 'B-MISC', 'O'])
  })

  it('reads IOB1 with -DOCSTART- documents and drops spans made only of role words', () => {
    const text = '-DOCSTART- -X- O O\n\nSILICON NNP - I-ORG\nVALLEY NNP - I-ORG\nBank NNP - I-ORG\nand CC - O\nthe DT - O\nBorrower NNP - I-PER\n\nJohn NNP - I-PER\nSmith NNP - I-PER\n\n-DOCSTART- -X- O O\n\nParis NNP - I-LOC\n'
    const docs = readTagged(text, { types: { PER: 'PER', ORG: 'ORG', LOC: 'LOC' }, dropWords: new Set(['borrower', 'bank']) })
    expect(docs).toHaveLength(2)
    expect(docs[0]?.sentences).toHaveLength(2)
    // "SILICON VALLEY Bank" keeps its span: not every word is a role word.
    expect(spansOfLabels(docs[0]?.sentences[0]?.labels ?? [])).toEqual([{ type: 'ORG', start: 0, end: 3 }])
    expect(spansOfLabels(docs[0]?.sentences[1]?.labels ?? [])).toEqual([{ type: 'PER', start: 0, end: 2 }])
    expect(names(docs[1]?.sentences[0]?.labels ?? [])).toEqual(['B-LOC'])
  })

  it('reads CoNLL04 columns (#doc lines, word and tag columns named) and skips whitespace-only tokens', () => {
    const text = "#doc 1\n0\tMrs.\tB-Peop\t['N']\t[0]\n1\tRose\tI-Peop\t['N']\t[1]\n2\tin\tO\t['N']\t[2]\n3\tJune\tB-Other\t['N']\t[3]\n#doc 2\n0\tIBM\tB-Org\t['N']\t[0]\n1\t \tO\t['N']\t[1]\n"
    const docs = readTagged(text, { wordColumn: 1, tagColumn: 2, types: { Peop: 'PER', Org: 'ORG' }, sentencePerDocument: true })
    expect(docs).toHaveLength(2)
    expect(names(docs[0]?.sentences[0]?.labels ?? [])).toEqual(['B-PER', 'I-PER', 'O', 'O'])
    expect(docs[1]?.sentences[0]?.tokens).toEqual(['IBM'])
  })

  it('names the file and line of a malformed tag', () => {
    expect(() => readTagged('Paris\tB-LOC\nis\tX-FOO\n', { types: { LOC: 'LOC' } }, 'btc.conll')).toThrow(/btc\.conll:2/)
  })
  it('reads bare Few-NERD tags as spans and keeps only sentences whose capitalised words all carry a tag', () => {
    const text = [
      'The\tO\nSan\torganization-government\nDiego\torganization-government\nPolice\torganization-government\npatrols\tO\nthe\tO\nPort\tlocation-bodiesofwater\n.\tO\n',
      // "Obama" has no tag (his type belongs to another split): the sentence is no evidence and is left out.
      'He\tO\nmet\tO\nObama\tO\nin\tO\nMay\tO\n.\tO\n',
      // Two adjacent spans of different fine types stay two spans; an unmapped tag still counts as a tag.
      'Penicillin\tother-chemicalthing\nhelped\tO\nFleming\tperson-scholar\nBerlin\tlocation-GPE\n"\tO\nThe\tO\nend\tO\n',
      // An untagged name first in its sentence is no evidence either ("the" is written in lower case, "London" never).
      'London\tO\nis\tO\nbig\tO\n',
    ].join('\n')
    const docs = readTagged(text, { types: { 'organization-government': 'ORG', 'location-bodiesofwater': 'LOC', 'person-scholar': 'PER', 'location-GPE': 'LOC' }, bareTags: true, completeCapitals: true, sentencePerDocument: true })
    expect(docs).toHaveLength(2)
    expect(spansOfLabels(docs[0]?.sentences[0]?.labels ?? [])).toEqual([{ type: 'ORG', start: 1, end: 4 }, { type: 'LOC', start: 6, end: 7 }])
    expect(spansOfLabels(docs[1]?.sentences[0]?.labels ?? [])).toEqual([{ type: 'PER', start: 2, end: 3 }, { type: 'LOC', start: 3, end: 4 }])
    // Without the filter every sentence is kept.
    expect(readTagged(text, { types: {}, bareTags: true, sentencePerDocument: true })).toHaveLength(4)
  })
})
