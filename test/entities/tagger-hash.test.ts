import fc from 'fast-check'
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

  it('should find names with characters beyond Latin-1 as the others, by name, by parts and by entry', () => {
    const mixed = ['w=Łódź', 'b', 'w=“quoted”', 'l-1l=the|Zürich', 'w=😀', '', 'w=Łódź', 'w=Paris']
    const fromArray = new FeatureTable(mixed)
    const fromText = new FeatureTable(mixed.map((n) => n + '\n').join(''), Int32Array.from(mixed.map((_, i) => 10 * i)))
    for (const [t, row] of [[fromArray, (e: number) => e], [fromText, (e: number) => 10 * e]] as const) {
      expect(t.size).toBe(mixed.length)
      expect(mixed.map((_, e) => t.name(e))).toEqual(mixed)
      expect([t.row('w=Łódź'), t.row('w=“quoted”'), t.row('w=😀'), t.row(''), t.row('w=Paris')]).toEqual([6, 2, 4, 5, 7].map(row))
      expect([t.row('w=Łód'), t.row('w=Łódźx'), t.row('w=😁')]).toEqual([-1, -1, -1])
      expect(t.find(hashCat(hashOf('w='), hashOf('“quoted”'), 8), 'w=', '“quoted”')).toBe(row(2))
      expect(t.find(hashCat(hashOf('w='), hashOf('“quotes”'), 8), 'w=', '“quotes”')).toBe(-1)
    }
  })

  it('should answer as a Map filled in entry order would, whatever characters the names hold', () => {
    const char = fc.constantFrom('a', 'b', '=', '|', 'é', 'ÿ', 'Ł', '“', '\ud83d', '\ude00')
    fc.assert(
      fc.property(fc.array(fc.array(char, { maxLength: 5 }).map((c) => c.join('')), { maxLength: 30 }), fc.array(char, { maxLength: 5 }), (names, probe) => {
        const expected = new Map<string, number>()
        names.forEach((n, e) => expected.set(n, e))
        const t = new FeatureTable(names.map((n) => n + '\n').join(''))
        expect(names.map((_, e) => t.name(e))).toEqual(names)
        for (const n of [...names, probe.join('')]) {
          expect(t.row(n)).toBe(expected.get(n) ?? -1)
          const cut = n.length >> 1
          expect(t.find(hashCat(hashOf(n.slice(0, cut)), hashOf(n.slice(cut)), n.length - cut), n.slice(0, cut), n.slice(cut))).toBe(expected.get(n) ?? -1)
        }
      }),
    )
  })

  it('should answer the same with its slots three quarters full (maxLoad) as half full', () => {
    // 1,536 names: 2,048 slots at 0.75 (three quarters full), 4,096 at the default 0.5.
    const many = Array.from({ length: 1536 }, (_, i) => `w=${i.toString(36)}|${i % 7}`)
    const half = new FeatureTable(many)
    const full = new FeatureTable(many, undefined, undefined, 0.75)
    for (const [e, n] of many.entries()) {
      expect(full.row(n)).toBe(e)
      expect(half.row(n)).toBe(e)
      expect(full.row(n + 'x')).toBe(-1)
    }
    expect(full.row('w=zzz|0')).toBe(-1)
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
