import { describe, expect, it } from 'vitest'
import { mkdtempSync, readdirSync, copyFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import {
  defaultLexiconDir,
  LexiconError,
  loadSentimentLexicon,
  parseContrasts,
  parseModifiers,
  parseWeightTable,
  phraseKey,
} from '../../src/sentiment/lexicon.ts'
import { roundToUnitSum } from '../../src/sentiment/model.ts'
import { parseGroundTruth } from '../../src/sentiment/corpus.ts'

describe('lexicon files', () => {
  it('expands contractions the way the tokenizer normalises them', () => {
    expect(phraseKey("Can't  stand")).toBe('can not stand')
    expect(phraseKey('won’t')).toBe('will not')
    expect(phraseKey('waste of time')).toBe('waste of time')
  })

  it('loads every shipped table', () => {
    const lex = loadSentimentLexicon()
    expect(lex.words.get('good')?.weight).toBe(1.9)
    expect(lex.negators.has('not')).toBe(true)
    expect(lex.modifiers.get('very')?.factor).toBeGreaterThan(1)
    expect(lex.modifiers.get('slightly')?.factor).toBeLessThan(1)
    expect(lex.contrasts.get('but')?.after).toBeGreaterThan(1)
    expect(lex.idioms.get('waste of time')?.weight).toBeLessThan(0)
    expect(lex.emoji.get('😀')?.weight).toBeGreaterThan(0)
    expect(lex.maxLength).toBeGreaterThanOrEqual(3)
  })

  it('names file and line of a malformed entry', () => {
    expect(() => parseWeightTable('# c\ngood\t1\nbad\tx\n', 'w.tsv')).toThrow(/w\.tsv:3: weight should be a number/)
    expect(() => parseWeightTable('good\t9\n', 'w.tsv')).toThrow(/within -4..4/)
    expect(() => parseWeightTable('good\n', 'w.tsv')).toThrow(LexiconError)
    expect(() => parseModifiers('very\t0\n', 'i.tsv')).toThrow(/i\.tsv:1: factor/)
    expect(() => parseContrasts('but\t0.5\n', 'c.tsv')).toThrow(/3 tab-separated columns/)
  })

  it('lets a copied lexicon folder be edited', () => {
    const dir = mkdtempSync(join(tmpdir(), 'lex-'))
    for (const f of readdirSync(defaultLexiconDir())) if (/\.(tsv|txt)$/.test(f)) copyFileSync(join(defaultLexiconDir(), f), join(dir, f))
    writeFileSync(join(dir, 'idioms.tsv'), 'over the hill\t-1.5\n')
    const lex = loadSentimentLexicon(dir)
    expect(lex.idioms.get('over the hill')?.weight).toBe(-1.5)
    expect(lex.idioms.has('waste of time')).toBe(false)
  })
})

describe('helpers', () => {
  it('rounds likelihoods so that they still sum to 1', () => {
    const r = roundToUnitSum([1 / 3, 1 / 3, 1 / 3, 0], 4)
    expect(r.reduce((a, b) => a + b, 0)).toBeCloseTo(1, 10)
    expect(r).toEqual([0.3334, 0.3333, 0.3333, 0])
  })

  it('parses ground-truth lines and rejects malformed ones', () => {
    expect(parseGroundTruth('1\t2.5\tGreat!\r\n2\t-1\tMeh\r\n', 'g.txt')).toEqual([
      { id: '1', mean: 2.5, text: 'Great!' },
      { id: '2', mean: -1, text: 'Meh' },
    ])
    expect(() => parseGroundTruth('1\tx\ttext\n', 'g.txt')).toThrow(/g\.txt:1/)
  })
})
