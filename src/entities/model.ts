/**
 * The tagger's weight table: in memory (`PerceptronWeights`) and on disk (`lexicons/en/ner/tagger.bin.gz`).
 *
 * On-disk layout (the whole file is gzip-compressed):
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
 */
import { gunzipSync, gzipSync } from 'node:zlib'
import { LABELS } from './features.ts'
import { FeatureTable, attachFeatureTable } from './tagger-hash.ts'

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

/** Serialise weights, quantised to int16, gzip-compressed. Rows whose weights all quantise to 0 are dropped. */
export function encodeModel(model: PerceptronWeights): Buffer {
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
  const header = Buffer.from(JSON.stringify({ labels: model.labels, featureCount: names.length, scale, trained: model.trained }), 'utf8')
  const nameBlock = Buffer.from(names.join('\n'), 'utf8')
  const weights = Buffer.alloc(names.length * L * 2)
  let o = 0
  for (const q of rows) for (const v of q) o = weights.writeInt16LE(v, o)
  const len = (n: number): Buffer => {
    const b = Buffer.alloc(4)
    b.writeUInt32LE(n, 0)
    return b
  }
  const raw = Buffer.concat([Buffer.from(MAGIC, 'latin1'), len(header.length), header, len(nameBlock.length), nameBlock, weights])
  return gzipSync(raw, { level: 9 })
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

/** Parse a file written by {@link encodeModel}. Throws an Error naming what is wrong when the bytes are not such a file. */
export function decodeModel(bytes: Uint8Array, source = 'NER model'): PerceptronWeights {
  const raw = gunzipWithMagic(bytes, MAGIC, 16, source, 'tagger model')
  let o = 8
  const hl = raw.readUInt32LE(o)
  o += 4
  const header = JSON.parse(raw.toString('utf8', o, o + hl)) as {
    labels: string[]
    featureCount: number
    scale: number
    trained: Record<string, string | number>
  }
  o += hl
  if (JSON.stringify(header.labels) !== JSON.stringify(LABELS)) {
    throw new Error(`${source}: labels should be ${JSON.stringify(LABELS)}, instead found ${JSON.stringify(header.labels)}`)
  }
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
  const weights = new Float32Array(count * L)
  const scale = header.scale
  const at = raw.byteOffset + o
  if (LITTLE_ENDIAN && at % 2 === 0) {
    // The rows read in place as an Int16Array (little-endian machine, aligned): the same values as the DataView
    // below, at about a third of its cost on a cold start (1M weights).
    const rows = new Int16Array(raw.buffer, at, weights.length)
    for (let i = 0; i < weights.length; i++) weights[i] = rows[i]! * scale
  } else {
    // A DataView over the rows: Buffer#readInt16LE per weight checked bounds 400,000 times (a third of the load time).
    const rows = new DataView(raw.buffer, at, weights.length * 2)
    for (let i = 0; i < weights.length; i++) weights[i] = rows.getInt16(i * 2, true) * scale
  }
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
