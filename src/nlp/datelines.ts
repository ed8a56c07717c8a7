import type { Token } from './types.ts'
import { AP_FULL_STATES } from './us-states.ts'

/** Wire services credited after a news dateline ("WASHINGTON (AP) —", "LONDON (Reuters) -"). */
const WIRE_SERVICES: ReadonlySet<string> = new Set(['AP', 'UPI', 'Reuters', 'AFP', 'DPA', 'Xinhua', 'Kyodo', 'Interfax', 'Tass', 'TASS', 'ANSA', 'EFE', 'CP', 'PA', 'Bloomberg'])

/**
 * Press-release wires as a release's dateline credits them, upper-cased, words joined by one space: "SAN FRANCISCO--
 * (BUSINESS WIRE)--", "SAVANNAH, Ga., Jan. 2 /PRNewswire/ --" (also "/PRNewswire-FirstCall/").
 */
const RELEASE_WIRES: readonly string[] = ['BUSINESS WIRE', 'GLOBE NEWSWIRE', 'PRNEWSWIRE', 'PR NEWSWIRE', 'MARKETWIRE', 'MARKETWIRED', 'ACCESSWIRE', 'EWORLDWIRE']

const MONTHS = /^(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sept?(?:ember)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\.?$/i

/** The index of the token closing a wire credit opened at `i` ("(" or "/"), or -1 when there is none. */
function creditEnd(toks: readonly Token[], i: number): number {
  const open = toks[i]!.text
  const close = open === '(' ? ')' : open === '/' ? '/' : undefined
  if (close === undefined) return -1
  const words: string[] = []
  for (let j = i + 1; j < Math.min(toks.length, i + 6); j++) {
    const t = toks[j]!
    if (t.text === close) {
      if (words.length === 1 && open === '(' && WIRE_SERVICES.has(words[0]!)) return j
      const name = words.join(' ').toUpperCase()
      return RELEASE_WIRES.some((w) => name === w || name.startsWith(`${w} -`)) ? j : -1
    }
    if (t.sentence !== toks[i]!.sentence) return -1
    words.push(t.text)
  }
  return -1
}

/**
 * A word of a dateline's place or date: in capitals, an abbreviation ("Ga.", "Calif.", "Jan.", or its period when wink
 * splits it off), a state AP writes in full, a month, a number.
 */
function datelinePart(t: Token, next: Token | undefined): boolean {
  if (t.kind === 'number' || t.text === ',' || t.text === '.') return true
  if (t.kind !== 'word') return false
  return (
    (/\p{Lu}/u.test(t.text) && !/\p{Ll}/u.test(t.text)) ||
    /^\p{Lu}\p{Ll}{0,4}\.$/u.test(t.text) ||
    (next?.text === '.' && !next.spaceBefore && /^\p{Lu}\p{Ll}{0,4}$/u.test(t.text)) ||
    AP_FULL_STATES.has(t.text) ||
    MONTHS.test(t.text)
  )
}

/** What {@link datelineWords} says of a token: no part of a dateline, its place (and date), or its wire credit. */
export const DATELINE_PLACE = 1
export const DATELINE_CREDIT = 2

/**
 * Per token, whether it is a word of a news or press-release dateline: {@link DATELINE_PLACE} for the place (words in
 * capitals, and the state, date and commas a release adds) right before a wire credit, {@link DATELINE_CREDIT} for the
 * credit and its brackets ("WASHINGTON (AP)", "LOS ANGELES (Reuters)", "SAVANNAH, Ga., Jan. 2 /PRNewswire/", "SAN
 * FRANCISCO--(BUSINESS WIRE)"), 0 elsewhere. They say where, when and by whom a story was filed, not what it is about.
 * The place must open with a word in capitals, in the credit's sentence.
 */
export function datelineWords(toks: readonly Token[]): Uint8Array {
  const out = new Uint8Array(toks.length)
  for (let i = 1; i + 2 < toks.length; i++) {
    const end = creditEnd(toks, i)
    if (end < 0) continue
    const sentence = toks[i]!.sentence
    let k = i - 1
    // A release's dashes between the place and the credit ("SAN FRANCISCO--(BUSINESS WIRE)").
    while (k >= 0 && toks[k]!.sentence === sentence && /^[-\u2013\u2014]+$/.test(toks[k]!.text)) k--
    const last = k
    while (k >= 0 && toks[k]!.sentence === sentence && datelinePart(toks[k]!, toks[k + 1])) k--
    // The place opens the dateline in capitals ("SAVANNAH", not "Ga.").
    let first = k + 1
    while (first <= last && !(toks[first]!.kind === 'word' && !/\p{Ll}/u.test(toks[first]!.text))) first++
    if (first > last) continue
    for (let j = first; j <= end; j++) out[j] = j < i ? DATELINE_PLACE : DATELINE_CREDIT
    i = end
  }
  return out
}
