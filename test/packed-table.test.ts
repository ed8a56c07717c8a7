import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import { encodeWeights, unpackTable } from '../src/packed-table.ts'

const fields = { names: 'words', weights: 'wordWeights', item: 'word' }
const bad = (message: string): never => {
  throw new Error(message)
}
/** Read weights written by encodeWeights for `count` names of one class each. */
const read = (weights: number[] | string, count: number): number[] => Array.from(unpackTable('w\n'.repeat(count), weights, 1, fields, bad).weights)

describe('packed weights as scaled integers', () => {
  it('writes the fewest decimals that hold every weight, and reads back the very same doubles', () => {
    expect(encodeWeights([1, -2, 0])).toMatch(/^i32e0:/)
    expect(encodeWeights([0.5, -0.25])).toMatch(/^i32e2:/)
    expect(encodeWeights([0.12597, -0.0563, 0.16938])).toMatch(/^i32e5:/)
    fc.assert(
      fc.property(fc.array(fc.integer({ min: -2_000_000_000, max: 2_000_000_000 }), { maxLength: 50 }), fc.integer({ min: 0, max: 6 }), (ints, d) => {
        // The doubles JSON reads for these decimals, as a trainer writes them.
        const weights = ints.map((k) => Number((k / 10 ** d).toFixed(d)))
        const encoded = encodeWeights(weights)
        expect(typeof encoded).toBe('string')
        expect(read(encoded, weights.length).every((w, i) => Object.is(w, weights[i] === 0 ? 0 : weights[i]))).toBe(true)
      }),
    )
  })

  it('keeps the numbers as they are when a weight has more than 6 decimals or lies beyond int32', () => {
    expect(encodeWeights([0.1234567, 1])).toEqual([0.1234567, 1])
    expect(encodeWeights([3e9])).toEqual([3e9])
    expect(encodeWeights([1e-7])).toEqual([1e-7])
    expect(read(encodeWeights([0.1234567, 1]), 2)).toEqual([0.1234567, 1])
    // No weights: an empty string of integers.
    expect(read(encodeWeights([]), 0)).toEqual([])
  })

  it('refuses a string of another form, bad base64 or the wrong count, naming the field', () => {
    expect(() => read('i32e7:AAAAAA==', 1)).toThrow('wordWeights should be an array of numbers or a string "i32e<decimals 0-6>:<base64>"')
    expect(() => read('i32e2:AAAA AA==', 1)).toThrow('wordWeights: the part after "i32e2:" should be base64')
    expect(() => read(`i32e2:${Buffer.alloc(8).toString('base64')}`, 1)).toThrow('wordWeights should hold 1 int32s (4 bytes) for the words, instead found 8 bytes')
  })
})
