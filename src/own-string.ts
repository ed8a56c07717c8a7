/**
 * Strings that a loaded model keeps, made independent of the file text they were cut from.
 *
 * V8 makes a cut of 13 code units or more (`slice`, `substring`, `split`'s parts, a regexp's match) a *sliced string*:
 * a pointer into the string it was cut from, which stays alive as long as any such cut does. A model that keeps a
 * few hundred long words of its file as `Map` keys thus keeps the whole file text too (the language model's: 2.2 MB
 * for 149 words). {@link ownString} copies such a word into a string of its own, so the file text can be collected
 * once loading is done.
 */

/** V8's `SlicedString::kMinLength`: a shorter cut is always a copy. */
const SLICE_MIN_LENGTH = 13

/** Code units copied per `String.fromCharCode` call (well below any engine's limit on arguments). */
const CHUNK = 4096

/**
 * `s` itself when it is too short to be a slice of another string, else a copy of it that points into no other
 * string. Equal to `s` in every way a program can observe (`===`, length, code units); only the memory it keeps
 * alive differs. Call it on the strings a loader keeps (map keys, field values), not on the ones it throws away.
 */
export function ownString(s: string): string {
  if (s.length < SLICE_MIN_LENGTH) return s
  let out = ''
  for (let at = 0; at < s.length; at += CHUNK) {
    const units = new Array<number>(Math.min(CHUNK, s.length - at))
    for (let i = 0; i < units.length; i++) units[i] = s.charCodeAt(at + i)
    out += String.fromCharCode(...units)
  }
  return out
}
