import type { Token } from './types.ts'

/** Abbreviations that never end a sentence: a title before a name ("Dr. Smith", "Mr. Lee"). */
const TITLES = new Set(['mr', 'mrs', 'ms', 'dr', 'prof', 'st', 'sen', 'rep', 'gen', 'gov', 'lt', 'col', 'capt', 'rev', 'sgt', 'cpl', 'hon', 'messrs', 'mt', 'ft', 'no', 'vs', 'v', 'approx', 'fig', 'cf'])
/** Abbreviations that may end a sentence, but not before a lower-case word, a digit or a bracket ("Inc. (", "U.S. office"). */
const ABBREVIATIONS = new Set(['inc', 'corp', 'co', 'ltd', 'llc', 'plc', 'bros', 'jr', 'sr', 'etc', 'e.g', 'i.e', 'a.m', 'p.m', 'u.s', 'u.k', 'u.n', 'e.u', 'jan', 'feb', 'mar', 'apr', 'jun', 'jul', 'aug', 'sep', 'sept', 'oct', 'nov', 'dec', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun', 'dept', 'est', 'al', 'ave', 'blvd', 'rd'])

/** A line break or other blank token. */
export const isBlankToken = (t: Token): boolean => t.kind === 'tabCRLF' || t.text.trim() === ''

/** The word an abbreviation's final period belongs to: "Inc." as one token, or "Inc" + "." written together. */
function abbreviationBefore(tokens: readonly Token[], end: number): string | undefined {
  const last = tokens[end - 1]
  if (last === undefined) return undefined
  if (last.text.endsWith('.') && last.text.length > 1) return last.text.slice(0, -1).toLowerCase()
  const word = tokens[end - 2]
  if (last.text === '.' && !last.spaceBefore && word !== undefined && word.kind === 'word') {
    // "U.S" + "." is also an abbreviation; so is a lone capital ("J. Smith").
    return word.text.toLowerCase()
  }
  return undefined
}

/**
 * Sentence ranges (token index ranges [start, end), contiguous, in order) with wink's wrong breaks joined again:
 * where a break falls inside a token run written without spaces (a web address "www.trisenx.com", a decimal "3.5",
 * an e-mail address; not "hotel.We loved it"), after a title ("Dr.", "Mr."), after an abbreviation ("Inc.",
 * "U.S.") followed by a lower-case word, a digit or a bracket, and before a sentence of punctuation only ("), said
 * ..."). A range of blank tokens only joins the one before it. Every token stays in exactly one range.
 */
export function joinBrokenSentences(tokens: readonly Token[], ranges: ReadonlyArray<readonly [number, number]>): Array<[number, number]> {
  const joined: Array<[number, number]> = []
  for (const [a, b] of ranges) {
    const prev = joined[joined.length - 1]
    if (prev === undefined) {
      joined.push([a, b])
      continue
    }
    let first: Token | undefined
    let onlyPunct = true
    for (let k = a; k < b; k++) {
      const t = tokens[k]!
      if (isBlankToken(t)) continue
      first ??= t
      if (t.kind !== 'punctuation') onlyPunct = false
    }
    if (first === undefined) {
      prev[1] = b
      continue
    }
    let end = prev[1]
    while (end > prev[0] && isBlankToken(tokens[end - 1]!)) end--
    const last = tokens[end - 1]
    const abbr = abbreviationBefore(tokens, end)
    const startsLow = /^[\p{Ll}\p{N}(,;:)\]]/u.test(first.text)
    const glued = last !== undefined && !first.spaceBefore && tokens[first.index - 1] === last && first.start === last.end && !/^\p{Lu}\p{Ll}/u.test(first.text)
    const join =
      onlyPunct || glued || (abbr !== undefined && (TITLES.has(abbr) || (startsLow && (ABBREVIATIONS.has(abbr) || /^(\p{L}\.)*\p{L}$/u.test(abbr)))))
    if (join) prev[1] = b
    else joined.push([a, b])
  }
  return joined
}
