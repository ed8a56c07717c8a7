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
  parseNegators,
  parseWeightTable,
  phraseKey,
} from '../../src/sentiment/lexicon.ts'
import { roundToUnitSum } from '../../src/sentiment/model.ts'
import { parseGroundTruth } from '../../src/sentiment/corpus.ts'
import { heapAfterGc } from '../helpers/heap.ts'

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

describe('lexicon tables and their file text', () => {
  it('should keep keys and titles of their own, so that the file text can be collected', () => {
    // About 7 MB of comments (one-byte characters), then entries whose terms and keys are long enough to be cuts of
    // the text; parsed in a call of their own (a register of the caller could otherwise still hold the text).
    const parse = (): unknown[] => {
      const comments = Array.from({ length: 300_000 }, (_, i) => `# comment line number ${i}`).join('\n')
      const terms = Array.from({ length: 50 }, (_, i) => `remarkably-long-term-${i}`)
      const rows = terms.map((t, i) => `${t}\t${(i % 8) - 4}\t1`).join('\n')
      const tables = [
        parseWeightTable(`${comments}\n${rows}\nCouldn't Care Less At All\t-2\n`, 'w.tsv'),
        parseNegators(`${comments}\n${terms.join('\n')}\n`, 'n.txt'),
        parseModifiers(`${comments}\n${rows.replace(/\t-?\d\t/g, '\t1.5\t')}\n`, 'm.tsv'),
        parseContrasts(`${comments}\n${rows.replace(/\t-?\d\t/g, '\t0.5\t')}\n`, 'c.tsv'),
      ]
      // (The engine remembers the last text a regular expression searched, as RegExp.input: the last file's.)
      ;/x/.test('x')
      return tables
    }
    const before = heapAfterGc()
    const tables = parse() as Map<string, { title: string }>[]
    const after = heapAfterGc()
    expect(after - before).toBeLessThan(1_000_000)
    const [weights, negators] = tables as [Map<string, { title: string; weight: number }>, Map<string, { title: string }>]
    expect(weights.get('remarkably-long-term-5')).toEqual({ title: 'remarkably-long-term-5', weight: 1, length: 1 })
    expect(weights.get('could not care less at all')).toEqual({ title: "Couldn't Care Less At All", weight: -2, length: 6 })
    expect(negators.get('remarkably-long-term-49')?.title).toBe('remarkably-long-term-49')
    for (const t of tables) expect(t.size).toBeGreaterThanOrEqual(50)
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
