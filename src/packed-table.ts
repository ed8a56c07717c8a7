/**
 * The packed form of a model's table of names and per-class weights (the aspect model's words, the sentiment model's
 * n-grams): one string of the names, each ended by a line feed, and one array of their weights end to end, in the
 * table's order. JSON parses it several times faster than an object of one small array per name, and the string of
 * names is what the engine's lookup tables read anyway.
 */

/** Names of the two fields and of one item, for the file's error messages ("words", "wordWeights", "word"). */
export interface PackedFields {
  readonly names: string
  readonly weights: string
  readonly item: string
}

/** Pack `table` (name -> `classes` weights, in its key order); `what` names the model for the error on a name with a line feed. */
export function packTable(table: Readonly<Record<string, readonly number[]>>, classes: number, what: string): { names: string; weights: number[] } {
  let names = ''
  const weights: number[] = []
  for (const name in table) {
    if (!Object.hasOwn(table, name)) continue
    if (name.includes('\n')) throw new Error(`${what} ${JSON.stringify(name)} holds a line feed`)
    names += name + '\n'
    const row = table[name]!
    for (let k = 0; k < classes; k++) weights.push(row[k] ?? 0)
  }
  return { names, weights }
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
