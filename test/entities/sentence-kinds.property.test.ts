import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import { isCapsSentence, isTitleSentence, TITLE_SMALL } from '../../src/entities/features.ts'

// The headline tests avoid copying each token; these are their definitions, written plainly.
function titleReference(tokens: readonly string[]): boolean {
  let words = 0
  let capital = 0
  let upper = 0
  for (const t of tokens) {
    const c = t.charCodeAt(0)
    const isUpper = c >= 65 && c <= 90
    if (!isUpper && !(c >= 97 && c <= 122)) continue
    if (t.length > 1 && t === t.toUpperCase()) upper++
    if (TITLE_SMALL.has(t.toLowerCase())) continue
    words++
    if (isUpper) capital++
  }
  return words >= 3 && capital / words >= 0.8 && upper / words < 0.8
}
function capsReference(tokens: readonly string[]): boolean {
  let alpha = 0
  let upper = 0
  for (const t of tokens) {
    if (!/[A-Za-z]/.test(t)) continue
    alpha++
    if (t === t.toUpperCase()) upper++
  }
  return alpha >= 2 && upper / alpha > 0.8
}

// Tokens drawn from words that matter (small words in any case, names, capitals, accented and other scripts,
// punctuation) and from arbitrary strings.
const token = fc.oneof(
  fc.constantFrom('The', 'the', 'OF', 'Of', 'vs.', 'VS.', 'Into', 'into', 'Apple', 'APPLE', 'apple', 'É', 'École', 'ÉCOLE', 'éCOLE', 'ß', 'Straße', 'İstanbul', 'Δ', 'ΔΕΛΤΑ', '42', '-', '"', 'S24', 'iPhone', 'McIlroy', 'A', 'a', ''),
  fc.string({ maxLength: 8 }),
  fc.string({ unit: 'grapheme', maxLength: 6 }),
)

describe('headline tests of a sentence', () => {
  it('say what their plain definitions say, for any tokens', () => {
    fc.assert(
      fc.property(fc.array(token, { maxLength: 12 }), (tokens) => {
        expect(isTitleSentence(tokens)).toBe(titleReference(tokens))
        expect(isCapsSentence(tokens)).toBe(capsReference(tokens))
      }),
      { numRuns: 3000, seed: 20261127 },
    )
  })

  it('tell a title-case headline, a capitals headline and running text apart', () => {
    expect(isTitleSentence('Rory McIlroy Leads By Two Shots At Augusta'.split(' '))).toBe(true)
    expect(isTitleSentence('Rory McIlroy leads by two shots at Augusta'.split(' '))).toBe(false)
    expect(isCapsSentence('SOCCER - LEADING ENGLISH SCORERS'.split(' '))).toBe(true)
    expect(isTitleSentence('SOCCER - LEADING ENGLISH SCORERS'.split(' '))).toBe(false)
  })
})
