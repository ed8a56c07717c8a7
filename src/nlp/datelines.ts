import type { Token } from './types.ts'

/** Wire services credited after a news dateline ("WASHINGTON (AP) —", "LONDON (Reuters) -"). */
export const WIRE_SERVICES: ReadonlySet<string> = new Set(['AP', 'UPI', 'Reuters', 'AFP', 'DPA', 'Xinhua', 'Kyodo', 'Interfax', 'Tass', 'TASS', 'ANSA', 'EFE', 'CP', 'PA', 'Bloomberg'])

/**
 * Per token, whether it is a word of a news dateline: the place, words in capitals (and the commas between them) right
 * before a wire credit in parentheses within one sentence, and the credit ("WASHINGTON (AP)", "LOS ANGELES
 * (Reuters)"). They say where the story was filed and by whom, not what it is about.
 */
export function datelineWords(toks: readonly Token[]): Uint8Array {
  const out = new Uint8Array(toks.length)
  for (let i = 1; i + 2 < toks.length; i++) {
    if (toks[i]!.text !== '(' || !WIRE_SERVICES.has(toks[i + 1]!.text) || toks[i + 2]!.text !== ')') continue
    const sentence = toks[i]!.sentence
    let k = i - 1
    while (k >= 0 && toks[k]!.sentence === sentence && (toks[k]!.text === ',' || (toks[k]!.kind === 'word' && /\p{Lu}/u.test(toks[k]!.text) && !/\p{Ll}/u.test(toks[k]!.text)))) k--
    if (k + 1 === i) continue
    for (let j = k + 1; j < i; j++) out[j] = 1
    out[i + 1] = 1
  }
  return out
}
