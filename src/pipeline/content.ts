/**
 * Checks that decide whether a text can be analysed at all. A text that fails ends FAILED with the
 * reason returned here.
 */

// Letters and digits of any script count as alphanumeric; whitespace and ordinary sentence
// punctuation are neutral (they neither help nor hurt); everything else (symbols, emoji, markup
// leftovers) counts against the share.
const ALNUM = /[\p{L}\p{N}\p{M}]/u
const NEUTRAL = /[\s.,;:!?'"()\[\]\-–—…/&]/u

/** ASCII classes of the two patterns above: 0 counts against, 1 alphanumeric, 2 neutral. */
const ASCII_CLASS = new Uint8Array(128)
for (let c = 0; c < 128; c++) {
  const ch = String.fromCharCode(c)
  ASCII_CLASS[c] = NEUTRAL.test(ch) ? 2 : ALNUM.test(ch) ? 1 : 0
}

/** Share (0..100) of alphanumeric characters among the characters that are not whitespace or punctuation. */
export function alphanumericShare(text: string): number {
  let alnum = 0
  let counted = 0
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i)
    if (c < 128) {
      const k = ASCII_CLASS[c]!
      if (k === 2) continue
      counted++
      alnum += k
      continue
    }
    // One code point (a surrogate pair counts once), tested with the Unicode patterns.
    const cp = text.codePointAt(i)!
    const ch = String.fromCodePoint(cp)
    if (cp > 0xffff) i++
    if (NEUTRAL.test(ch)) continue
    counted++
    if (ALNUM.test(ch)) alnum++
  }
  return counted === 0 ? 0 : (100 * alnum) / counted
}

/** Why a text cannot be analysed under `threshold` (0..100), or undefined when it can. */
export function contentProblem(text: string, threshold: number): string | undefined {
  if (text.trim() === '') return 'the text is empty'
  const share = alphanumericShare(text)
  if (share === 0) return 'the text has no letters or digits'
  if (share < threshold) {
    return `the alphanumeric share of the text is ${share.toFixed(1)}%, below the configuration's alphanumeric_threshold of ${threshold}%`
  }
  return undefined
}
