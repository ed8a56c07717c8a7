/**
 * The packed form of a model's table of names and per-class weights (the aspect model's words, the sentiment model's
 * n-grams): one string of the names, each ended by a line feed, and their weights end to end, in the table's order, as
 * one array of numbers or one string of scaled integers ({@link encodeWeights}). JSON parses it several times faster
 * than an object of one small array per name, and the string of names is what the engine's lookup tables read anyway.
 */

/**
 * Prefix of the weights written as scaled integers ({@link encodeWeights}): `i32e<d>:` then the base64 of one little-endian
 * int32 per weight, each the weight times 10^d.
 */
const SCALED = /^i32e([0-6]):/

/**
 * The weights field of a packed file: when every weight has at most 6 decimals (as trainers round them), the fewest
 * decimals `d` that hold them all and the base64 of the weights times 10^d as little-endian int32s (`i32e<d>:...`),
 * which reads back as the very same doubles (an integer over a power of ten is the double nearest the decimal, as
 * JSON reads it) and parses without the array: the aspect model's 207k weights took 54 ms of the engine's cold start
 * as a JSON array, 20 so (2026-12-06). Otherwise the numbers as they are.
 */
export function encodeWeights(weights: readonly number[]): number[] | string {
  for (let d = 0; d <= 6; d++) {
    const scale = 10 ** d
    const ints = new Int32Array(weights.length)
    let exact = true
    for (let i = 0; i < weights.length && exact; i++) {
      const w = weights[i]!
      const k = Math.round(w * scale)
      exact = Number.isFinite(w) && Math.abs(k) <= 0x7fffffff && k / scale === w
      ints[i] = k
    }
    if (!exact) continue
    const bytes = Buffer.alloc(ints.length * 4)
    ints.forEach((k, i) => bytes.writeInt32LE(k, i * 4))
    return `i32e${d}:${bytes.toString('base64')}`
  }
  return [...weights]
}

/** Names of the two fields and of one item, for the file's error messages ("words", "wordWeights", "word"). */
export interface PackedFields {
  readonly names: string
  readonly weights: string
  readonly item: string
}

/** Pack `table` (name -> `classes` weights, in its key order); `what` names the model for the error on a name with a line feed. */
export function packTable(table: Readonly<Record<string, readonly number[]>>, classes: number, what: string): { names: string; weights: number[] | string } {
  let names = ''
  const weights: number[] = []
  for (const name in table) {
    if (!Object.hasOwn(table, name)) continue
    if (name.includes('\n')) throw new Error(`${what} ${JSON.stringify(name)} holds a line feed`)
    names += name + '\n'
    const row = table[name]!
    for (let k = 0; k < classes; k++) weights.push(row[k] ?? 0)
  }
  return { names, weights: encodeWeights(weights) }
}

/**
 * Check the two packed fields of a parsed file and read them: the names as they are (one string), how many, and the
 * weights as doubles. `bad` throws with the file's name; messages name the field, the index and the item.
 */
export function unpackTable(names: unknown, weights: unknown, classes: number, fields: PackedFields, bad: (message: string) => never): { names: string; count: number; weights: Float64Array } {
  const plural = `${fields.item}s`
  if (typeof names !== 'string' || (names !== '' && !names.endsWith('\n'))) bad(`${fields.names} should be a string of ${plural}, each ended by a line feed`)
  const text = names as string
  let count = 0
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) count++
  if (typeof weights === 'string') return { names: text, count, weights: decodeScaled(weights, count * classes, fields, plural, bad) }
  if (!Array.isArray(weights) || weights.length !== count * classes) {
    bad(`${fields.weights} should hold ${classes} numbers for each of the ${count} ${plural}, instead found ${Array.isArray(weights) ? weights.length : typeof weights}`)
  }
  const out = new Float64Array(count * classes)
  for (let i = 0; i < out.length; i++) {
    const x: unknown = (weights as unknown[])[i]
    if (typeof x !== 'number' || !Number.isFinite(x)) {
      bad(`${fields.weights}[${i}] (${fields.item} ${JSON.stringify(text.split('\n')[Math.floor(i / classes)])}) should be a finite number, instead found ${JSON.stringify(x)}`)
    }
    out[i] = x as number
  }
  return { names: text, count, weights: out }
}

/** The weights of an `i32e<d>:` field ({@link encodeWeights}), checked: the prefix, base64, and `length` of them. */
function decodeScaled(field: string, length: number, fields: PackedFields, plural: string, bad: (message: string) => never): Float64Array {
  const m = SCALED.exec(field)
  if (m === null) bad(`${fields.weights} should be an array of numbers or a string "i32e<decimals 0-6>:<base64>", instead found a string starting ${JSON.stringify(field.slice(0, 8))}`)
  const b64 = field.slice(m![0].length)
  if (b64.length % 4 !== 0 || !/^[A-Za-z0-9+/]*={0,2}$/.test(b64)) bad(`${fields.weights}: the part after "${m![0]}" should be base64`)
  const bytes = Buffer.from(b64, 'base64')
  if (bytes.length !== length * 4) bad(`${fields.weights} should hold ${length} int32s (${length * 4} bytes) for the ${plural}, instead found ${bytes.length} bytes`)
  const scale = 10 ** Number(m![1])
  const out = new Float64Array(length)
  for (let i = 0; i < length; i++) out[i] = bytes.readInt32LE(i * 4) / scale
  return out
}
