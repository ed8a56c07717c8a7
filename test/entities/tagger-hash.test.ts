import { describe, expect, it } from 'vitest'
import { FeatureTable, hashCat, hashOf } from '../../src/entities/tagger-hash.ts'

describe('tagger feature table', () => {
  const names = ['b', 'w=Paris', 'l-1l=the|city', 'w=Zürich', 'ss=Xx', 'w=Paris', '']

  it('should find the same rows from a name array and from the names as one string, the later of two equal names', () => {
    const fromArray = new FeatureTable(names)
    const fromText = new FeatureTable(names.map((n) => n + '\n').join(''))
    for (const t of [fromArray, fromText]) {
      expect(t.size).toBe(names.length)
      expect(t.row('b')).toBe(0)
      // "w=Paris" twice: the later entry's row, as Map#set in order would keep.
      expect(t.row('w=Paris')).toBe(5)
      expect(t.row('w=Zürich')).toBe(3)
      expect(t.row('')).toBe(6)
      expect(t.row('w=Pari')).toBe(-1)
      expect(t.row('w=Parisx')).toBe(-1)
      expect(t.row('w=Lyon')).toBe(-1)
      expect(t.name(2)).toBe('l-1l=the|city')
    }
  })

  it('should find a name made of parts from the parts and their hashes, without building it', () => {
    const t = new FeatureTable(names.map((n) => n + '\n').join(''), Int32Array.from(names.map((_, i) => 100 + i)))
    const h = hashCat(hashCat(hashCat(hashOf('l-1l='), hashOf('the'), 3), hashOf('|'), 1), hashOf('city'), 4)
    expect(h).toBe(hashOf('l-1l=the|city'))
    expect(t.find(h, 'l-1l=', 'the', '|', 'city')).toBe(102)
    // Same length and hash family, other parts: no row.
    const other = hashCat(hashCat(hashCat(hashOf('l-1l='), hashOf('thy'), 3), hashOf('|'), 1), hashOf('city'), 4)
    expect(t.find(other, 'l-1l=', 'thy', '|', 'city')).toBe(-1)
  })

  it('should refuse a name holding a line feed, which the model file cannot hold either', () => {
    expect(() => new FeatureTable(['b', 'w=a\nb'])).toThrow(/feature name "w=a\\nb" holds a line feed/)
  })

  it('should hold no entry for an empty name list', () => {
    for (const t of [new FeatureTable([]), new FeatureTable('')]) {
      expect(t.size).toBe(0)
      expect(t.row('b')).toBe(-1)
    }
  })
})
