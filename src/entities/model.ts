/**
 * The tagger's weight table: in memory (`PerceptronWeights`) and on disk (`lexicons/en/ner/tagger.bin`), in one of two
 * formats that {@link decodeModel} tells apart by their first bytes.
 *
 * Format 2 (`tagger.bin`, `tagger-rev.bin`; {@link encodeModel}'s default), uncompressed, every table from a multiple of
 * 4 bytes, little-endian, laid out as the tagger uses it so that loading splits, hashes and inflates nothing (about 10
 * ms a file on a cold start instead of 50-90):
 *
 * ```
 * bytes 0..7    magic "TENER002"
 * uint32 LE     length J of the JSON header in bytes
 * J bytes       UTF-8 JSON header: { labels, featureCount, scale, trained, nameUnits, wideCount, wideBytes }
 * int16         weights, featureCount x labels.length, row-major (feature rows); real weight = stored value x scale
 * int32         featureCount hashes of the names (tagger-hash.ts hashOf)
 * uint16        featureCount name lengths in UTF-16 code units
 * nameUnits B   the names, each followed by a line feed, one byte per UTF-16 code unit (its low byte: a name with a
 *               character beyond Latin-1 is read from the wide names instead)
 * uint32        wideCount entries whose names hold a character beyond Latin-1, increasing
 * wideBytes B   those names, UTF-8, each followed by a line feed
 * ```
 *
 * Format 1 (`*.bin.gz`, such as `tagger-open.bin.gz`; `encodeModel(model, { gzip: true })`), the whole file
 * gzip-compressed:
 *
 * ```
 * bytes 0..7    magic "TENER001"
 * uint32 LE     length J of the JSON header in bytes
 * J bytes       UTF-8 JSON header: { labels, featureCount, scale, trained }
 * uint32 LE     length K of the feature-name block in bytes
 * K bytes       UTF-8 feature names, one per line, in row order
 * rest          int16 LE weights, featureCount x labels.length, row-major (feature rows);
 *               real weight = stored value x scale
 * ```
 *
 * Both hold the same quantised weights: converting a file from one format to the other changes no weight.
 */
import { gunzipSync, gzipSync } from 'node:zlib'
import { LABELS } from './features.ts'
import { FeatureTable, attachFeatureTable, featureTableOf, hashOf } from './tagger-hash.ts'

/** Weights of an averaged perceptron: one row of `labels.length` weights per feature. */
export interface PerceptronWeights {
  /** Label names, in column order; must equal {@link LABELS}. */
  readonly labels: readonly string[]
  /** Feature name -> row index. */
  readonly index: ReadonlyMap<string, number>
  /** Row-major weights (`index.size` x `labels.length`). */
  readonly weights: Float32Array
  /** Free-form provenance (data, epochs, date-free so the file is reproducible). */
  readonly trained: Readonly<Record<string, string | number>>
}

const MAGIC = 'TENER001'

/** Whether typed arrays read this machine's memory little-endian (the file's byte order). */
const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1

/** Weights quantised to int16, as both file formats store them. */
export interface QuantisedWeights {
  readonly labels: readonly string[]
  /** Real weight = stored value x scale. */
  readonly scale: number
  readonly trained: Readonly<Record<string, string | number>>
  /** Feature names in row order (none holds a line feed). */
  readonly names: readonly string[]
  /** Row-major, names.length x labels.length. */
  readonly weights: Int16Array
}

/** Quantise weights to int16 (scale: the largest magnitude over 32767). Rows whose weights all quantise to 0 are dropped. */
export function quantiseWeights(model: PerceptronWeights): QuantisedWeights {
  const L = model.labels.length
  let maxAbs = 0
  for (const v of model.weights) if (Math.abs(v) > maxAbs) maxAbs = Math.abs(v)
  const scale = maxAbs > 0 ? maxAbs / 32767 : 1
  const names: string[] = []
  const rows: Int16Array[] = []
  // Iterate in row order so that the output only depends on the weights.
  const byRow = [...model.index.entries()].sort((a, b) => a[1] - b[1])
  for (const [name, row] of byRow) {
    const q = new Int16Array(L)
    let any = false
    for (let k = 0; k < L; k++) {
      const v = Math.round((model.weights[row * L + k] ?? 0) / scale)
      q[k] = v
      if (v !== 0) any = true
    }
    if (!any) continue
    if (name.includes('\n')) continue
    names.push(name)
    rows.push(q)
  }
  const weights = new Int16Array(names.length * L)
  rows.forEach((q, i) => weights.set(q, i * L))
  return { labels: model.labels, scale, trained: model.trained, names, weights }
}

/**
 * Serialise weights, quantised to int16 ({@link quantiseWeights}): format 2, or with `gzip` format 1 gzip-compressed.
 * Deterministic: the same weights give the same bytes. `quantised` writes already quantised weights as they are (to
 * convert a file from one format to the other).
 */
export function encodeModel(model: PerceptronWeights | QuantisedWeights, options: { readonly gzip?: boolean } = {}): Buffer {
  const q = 'names' in model ? model : quantiseWeights(model)
  return options.gzip === true ? gzipSync(formatOne(q), { level: 9 }) : formatTwo(q)
}

/** The uncompressed bytes of format 1. */
function formatOne(q: QuantisedWeights): Buffer {
  const header = Buffer.from(JSON.stringify({ labels: q.labels, featureCount: q.names.length, scale: q.scale, trained: q.trained }), 'utf8')
  const nameBlock = Buffer.from(q.names.join('\n'), 'utf8')
  const weights = Buffer.alloc(q.weights.length * 2)
  for (let i = 0, o = 0; i < q.weights.length; i++) o = weights.writeInt16LE(q.weights[i]!, o)
  const len = (n: number): Buffer => {
    const b = Buffer.alloc(4)
    b.writeUInt32LE(n, 0)
    return b
  }
  return Buffer.concat([Buffer.from(MAGIC, 'latin1'), len(header.length), header, len(nameBlock.length), nameBlock, weights])
}

const MAGIC_2 = 'TENER002'
const align4 = (n: number): number => (n + 3) & ~3

/** The bytes of format 2. */
function formatTwo(q: QuantisedWeights): Buffer {
  if (!LITTLE_ENDIAN) throw new Error('tagger model format 2 is written on little-endian machines only (format 1: { gzip: true })')
  const F = q.names.length
  const hashes = new Int32Array(F)
  const lengths = new Uint16Array(F)
  const wideIds: number[] = []
  const wideNames: string[] = []
  let units = 0
  q.names.forEach((name, e) => {
    if (name.length > 0xffff) throw new Error(`feature name ${e} is ${name.length} characters long (at most 65,535)`)
    hashes[e] = hashOf(name)
    lengths[e] = name.length
    units += name.length + 1
    if (/[^\u0000-\u00ff]/.test(name)) {
      wideIds.push(e)
      wideNames.push(name)
    }
  })
  const wideText = Buffer.from(wideNames.map((w) => w + '\n').join(''), 'utf8')
  const header = Buffer.from(
    JSON.stringify({ labels: q.labels, featureCount: F, scale: q.scale, trained: q.trained, nameUnits: units, wideCount: wideIds.length, wideBytes: wideText.length }),
    'utf8',
  )
  // One byte per UTF-16 code unit: Latin-1 keeps the low byte of a unit beyond it (the wide names are read elsewhere).
  const names = Buffer.alloc(units)
  for (let e = 0, o = 0; e < F; e++) {
    const name = q.names[e]!
    for (let i = 0; i < name.length; i++) names[o++] = name.charCodeAt(i) & 0xff
    names[o++] = 10
  }
  const parts: Uint8Array[] = [q.weights, hashes, lengths, names, Uint32Array.from(wideIds), wideText].map(
    (a) => new Uint8Array(a.buffer, a.byteOffset, a.byteLength),
  )
  let size = align4(12 + header.length)
  for (const p of parts) size = align4(size + p.length)
  const out = Buffer.alloc(size)
  out.write(MAGIC_2, 0, 'latin1')
  out.writeUInt32LE(header.length, 8)
  header.copy(out, 12)
  let at = align4(12 + header.length)
  for (const p of parts) {
    out.set(p, at)
    at = align4(at + p.length)
  }
  return out
}

/**
 * Output chunk size for gunzipping `bytes`: the uncompressed size the gzip trailer states (ISIZE, plus one byte), so
 * the output comes in one chunk instead of 16 KB chunks concatenated at the end (a third of the gunzip's CPU time on
 * the 3.5 MB tagger model: 41 -> 26 ms). Only a size hint: a wrong trailer still gunzips (or fails) as before.
 */
function outputChunk(bytes: Uint8Array): number {
  const DEFAULT = 16 * 1024
  if (bytes.length < 18) return DEFAULT
  const n = bytes.length
  const isize = (bytes[n - 4]! | (bytes[n - 3]! << 8) | (bytes[n - 2]! << 16) | (bytes[n - 1]! << 24)) >>> 0
  return isize < DEFAULT || isize > 256 * 1024 * 1024 ? DEFAULT : isize + 1
}

/**
 * Gunzip `bytes` and check that they start with the 8-character `magic` and hold at least `minLength` bytes; the
 * errors name `source` and what was `expected` (the entity files: tagger model, word clusters).
 */
export function gunzipWithMagic(bytes: Uint8Array, magic: string, minLength: number, source: string, expected: string): Buffer {
  let raw: Buffer
  try {
    raw = gunzipSync(bytes, { chunkSize: outputChunk(bytes) })
  } catch (e) {
    throw new Error(`${source}: expected a gzip-compressed ${expected}, instead found bytes that do not gunzip (${(e as Error).message})`)
  }
  if (raw.length < minLength || raw.toString('latin1', 0, 8) !== magic) {
    throw new Error(`${source}: expected the magic "${magic}" at byte 0, instead found "${raw.toString('latin1', 0, 8)}"`)
  }
  return raw
}

/**
 * Parse a file written by {@link encodeModel}, of either format. Throws an Error naming what is wrong when the bytes are
 * not such a file.
 */
export function decodeModel(bytes: Uint8Array, source = 'NER model'): PerceptronWeights {
  if (bytes.length >= 8 && Buffer.from(bytes.buffer, bytes.byteOffset, 8).toString('latin1') === MAGIC_2) return decodeFormatTwo(bytes, source)
  if (bytes.length < 2 || bytes[0] !== 0x1f || bytes[1] !== 0x8b) {
    throw new Error(`${source}: expected a tagger model (the magic "${MAGIC_2}" at byte 0, or gzip-compressed "${MAGIC}"), instead found bytes that are neither`)
  }
  const raw = gunzipWithMagic(bytes, MAGIC, 16, source, 'tagger model')
  let o = 8
  const hl = raw.readUInt32LE(o)
  o += 4
  const header = JSON.parse(raw.toString('utf8', o, o + hl)) as ModelHeader
  o += hl
  checkLabels(header, source)
  const nl = raw.readUInt32LE(o)
  o += 4
  // The names stay one string (each ended by a line feed), read in place by the table (tagger-hash.ts).
  const table = new FeatureTable(nl === 0 ? '' : raw.toString('utf8', o, o + nl) + '\n')
  const count = table.size
  o += nl
  const L = header.labels.length
  if (count !== header.featureCount || raw.length - o !== header.featureCount * L * 2) {
    throw new Error(
      `${source}: header says ${header.featureCount} features, instead found ${count} names and ${(raw.length - o) / (2 * L)} weight rows`,
    )
  }
  const at = raw.byteOffset + o
  // The rows read in place as an Int16Array (little-endian machine, aligned): the same values as the DataView,
  // at about a third of its cost on a cold start (1M weights). A DataView: Buffer#readInt16LE per weight checked
  // bounds 400,000 times (a third of the load time).
  const rows = LITTLE_ENDIAN && at % 2 === 0 ? new Int16Array(raw.buffer, at, count * L) : new DataView(raw.buffer, at, count * L * 2)
  return weightsOf(header, table, rows)
}

interface ModelHeader {
  labels: string[]
  featureCount: number
  scale: number
  trained: Record<string, string | number>
}

function checkLabels(header: ModelHeader, source: string): void {
  if (JSON.stringify(header.labels) !== JSON.stringify(LABELS)) {
    throw new Error(`${source}: labels should be ${JSON.stringify(LABELS)}, instead found ${JSON.stringify(header.labels)}`)
  }
}

/** The weights of a decoded file: the int16 `rows` (little-endian when a DataView) times the scale, and the table. */
function weightsOf(header: ModelHeader, table: FeatureTable, rows: Int16Array | DataView): PerceptronWeights {
  const count = table.size
  const weights = new Float32Array(count * header.labels.length)
  const scale = header.scale
  if (rows instanceof DataView) for (let i = 0; i < weights.length; i++) weights[i] = rows.getInt16(i * 2, true) * scale
  else for (let i = 0; i < weights.length; i++) weights[i] = rows[i]! * scale
  // The tagger looks names up in a hash table (tagger-hash.ts), quicker to build than the Map, which is built on
  // first use (training and tools read it).
  let index: Map<string, number> | undefined
  const model: PerceptronWeights = {
    labels: header.labels,
    get index(): ReadonlyMap<string, number> {
      if (index === undefined) {
        index = new Map<string, number>()
        for (let i = 0; i < count; i++) index.set(table.name(i), i)
      }
      return index
    },
    weights,
    trained: header.trained,
  }
  attachFeatureTable(model, table)
  return model
}

/** Format 2 (see the module comment): every table read in place. */
function decodeFormatTwo(bytes: Uint8Array, source: string): PerceptronWeights {
  const bad = (what: string): never => {
    throw new Error(`${source}: ${what}`)
  }
  if (!LITTLE_ENDIAN) bad('tagger model format 2 is read on little-endian machines only')
  // Typed arrays need aligned offsets: a copy when the bytes start off a multiple of 4.
  const buf = bytes.byteOffset % 4 === 0 ? bytes : bytes.slice()
  if (buf.length < 12) bad(`${buf.length} bytes are too few for a tagger model`)
  const hl = new DataView(buf.buffer, buf.byteOffset, buf.byteLength).getUint32(8, true)
  if (12 + hl > buf.length) bad(`header of ${hl} bytes runs past the end of the file (${buf.length} bytes)`)
  let header: ModelHeader & { nameUnits: number; wideCount: number; wideBytes: number }
  try {
    header = JSON.parse(Buffer.from(buf.buffer, buf.byteOffset + 12, hl).toString('utf8')) as typeof header
  } catch (e) {
    return bad(`header is not JSON (${(e as Error).message})`)
  }
  if (header === null || typeof header !== 'object') bad('header is not a JSON object')
  checkLabels(header, source)
  for (const k of ['featureCount', 'nameUnits', 'wideCount', 'wideBytes'] as const) {
    if (!Number.isInteger(header[k]) || header[k] < 0) bad(`header field ${k} should be an integer >= 0, instead found ${JSON.stringify(header[k])}`)
  }
  if (typeof header.scale !== 'number' || !(header.scale > 0) || !Number.isFinite(header.scale)) bad(`header field scale should be a positive number, instead found ${JSON.stringify(header.scale)}`)
  const F = header.featureCount
  const L = header.labels.length
  let at = align4(12 + hl)
  const take = <T>(n: number, width: number, make: (b: ArrayBufferLike, o: number, n: number) => T, what: string): T => {
    if (at + n * width > buf.length) bad(`${what} (${n} items) run past the end of the file (${buf.length} bytes)`)
    const a = make(buf.buffer, buf.byteOffset + at, n)
    at = align4(at + n * width)
    return a
  }
  const rows = take(F * L, 2, (b, o, n) => new Int16Array(b, o, n), 'weights')
  const hashes = take(F, 4, (b, o, n) => new Int32Array(b, o, n), 'name hashes')
  const lengths = take(F, 2, (b, o, n) => new Uint16Array(b, o, n), 'name lengths')
  const names = take(header.nameUnits, 1, (b, o, n) => Buffer.from(b, o, n), 'names')
  const wideIds = take(header.wideCount, 4, (b, o, n) => new Uint32Array(b, o, n), 'wide name entries')
  const wideText = take(header.wideBytes, 1, (b, o, n) => Buffer.from(b, o, n), 'wide names').toString('utf8')
  if (at !== align4(buf.length)) bad(`${buf.length - at} bytes after the last table`)
  const starts = new Int32Array(F + 1)
  for (let e = 0, o = 0; e < F; e++) {
    o += lengths[e]! + 1
    if (o > names.length || names[o - 1] !== 10) bad(`name ${e} does not end where its length says (byte ${o - 1} of ${names.length})`)
    starts[e + 1] = o
  }
  if (starts[F] !== names.length) bad(`the names take ${starts[F]} of the ${names.length} bytes the header gives them`)
  const wideNames = wideText.split('\n')
  if (wideNames.length !== header.wideCount + 1 || wideNames[header.wideCount] !== '') bad(`expected ${header.wideCount} wide names at the end, instead found ${wideNames.length - 1}`)
  let wide: Map<number, string> | undefined
  for (let k = 0; k < wideIds.length; k++) {
    const e = wideIds[k]!
    if (e >= F || (k > 0 && e <= wideIds[k - 1]!) || wideNames[k]!.length !== lengths[e]) bad(`wide name ${k} (entry ${e}) does not match the names`)
    ;(wide ??= new Map()).set(e, wideNames[k]!)
  }
  // One byte a character: from 1 MB on, Node makes it an external string (its bytes outside the JS heap).
  const table = new FeatureTable({ text: names.toString('latin1'), starts, hashes, ...(wide === undefined ? {} : { wide }) })
  return weightsOf(header, table, rows)
}

/**
 * The quantised weights a file of either format holds, as {@link encodeModel} takes them: `encodeModel(readQuantised(f))`
 * writes the same weights in format 2, `encodeModel(readQuantised(f), { gzip: true })` in format 1.
 */
export function readQuantised(bytes: Uint8Array, source = 'NER model'): QuantisedWeights {
  const model = decodeModel(bytes, source)
  const table = featureTableOf(model)
  const L = model.labels.length
  const names = Array.from({ length: table.size }, (_, e) => table.name(e))
  // The scale: format 1's header and format 2's are read as the decoder reads them.
  const scale = headerScale(bytes, source)
  const weights = new Int16Array(names.length * L)
  // Each weight was stored as int16 q and read as float32(q x scale): q is its nearest integer over the scale.
  for (let i = 0; i < weights.length; i++) weights[i] = Math.round(model.weights[i]! / scale)
  return { labels: model.labels, scale, trained: model.trained, names, weights }
}

function headerScale(bytes: Uint8Array, source: string): number {
  const raw = bytes[0] === 0x1f && bytes[1] === 0x8b ? gunzipWithMagic(bytes, MAGIC, 16, source, 'tagger model') : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  return (JSON.parse(raw.toString('utf8', 12, 12 + raw.readUInt32LE(8))) as ModelHeader).scale
}
