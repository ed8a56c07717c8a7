import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { ownString } from '../src/own-string.ts'
import { heapAfterGc } from './helpers/heap.ts'

describe('ownString', () => {
  it('should give back a string equal to its argument, code unit for code unit', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 40 }), fc.nat(30), (s, cut) => {
        const part = s.slice(Math.min(cut, s.length))
        expect(ownString(part)).toBe(part)
        expect(ownString(s)).toBe(s)
      }),
    )
    // lone surrogates, astral characters, and more code units than one copying step takes
    for (const s of ['\ud800xxxxxxxxxxxxxxx\udfff', '😀'.repeat(20), 'é'.repeat(10_000) + 'z', 'ab']) expect(ownString(s)).toBe(s)
  })

  it('should let the text its words were cut from be collected, where the plain cuts keep it', () => {
    // 100 words cut from a text of about 7.7 MB (one-byte characters), in a call of its own: a register of the
    // caller could otherwise still hold the text.
    const cut = (own: boolean): string[] => {
      const text = Array.from({ length: 400_000 }, (_, i) => `word-number-${i}`).join('\n')
      return Array.from({ length: 100 }, (_, i) => text.slice(i * 30, i * 30 + 20)).map((w) => (own ? ownString(w) : w))
    }
    const kept = (own: boolean): number => {
      const before = heapAfterGc()
      const words = cut(own)
      const after = heapAfterGc()
      expect(words).toHaveLength(100)
      return after - before
    }
    expect(kept(false)).toBeGreaterThan(6_000_000)
    expect(kept(true)).toBeLessThan(1_000_000)
  })
})
