/**
 * `npx tsx bench/encode-json.ts [data dir]` (`npm run bench:encode-json`): cost of writing processed documents as
 * the HTTP answer (`encodeJson`, ASCII-only JSON without null members) against `JSON.stringify` on the same
 * outputs, and against the encoder before issue 17 (`test/codecs/json-reference.ts`: a replacer on every value and
 * a character loop for ASCII escaping). Outputs are the engine's own, for the sample texts of the data folder,
 * in polls of 100 documents, each timed to the UTF-8 bytes sent (`encodeJsonBytes`, what the handler answers with, writes
 * them directly). Prints microseconds per document (median of interleaved rounds, `BENCH_ENCODE_ROUNDS`) and checks that the new and
 * old encoders write the same bytes (and `encodeJsonBytes` the bytes of `encodeJson`'s text).
 */
import { encodeJson, encodeJsonBytes } from '../src/codecs/json.ts'
import { createEngine } from '../src/engine/create-engine.ts'
import { referenceEncodeJson } from '../test/codecs/json-reference.ts'
import { dataDir, loadSamples } from './samples.ts'

const DOCS = Number(process.env['BENCH_ENCODE_DOCS'] ?? 600)
const texts = loadSamples(dataDir()).flatMap((s) => s.texts.slice(0, Math.ceil(DOCS / 3)))
const engine = createEngine()
const outputs: unknown[] = []
for (const [i, text] of texts.entries()) outputs.push(await engine.analyze(text, { id: `doc-${i}` }))
await engine.close()
const polls: unknown[][] = []
for (let i = 0; i < outputs.length; i += 100) polls.push(outputs.slice(i, i + 100))

for (const poll of polls) {
  if (encodeJson(poll) !== referenceEncodeJson(poll)) throw new Error('encodeJson and the reference encoder disagree')
  if (Buffer.compare(Buffer.from(encodeJsonBytes(poll)), Buffer.from(encodeJson(poll), 'latin1')) !== 0) throw new Error('encodeJsonBytes and encodeJson disagree')
}

// Each encoder is timed to the bytes the handler sends (TextEncoder, as respond() does), so that the flattening of
// a string built in pieces is counted where it is paid.
const utf8 = new TextEncoder()
const encoders = [
  ['JSON.stringify (no null dropping, not ASCII-only)', (v: unknown) => utf8.encode(JSON.stringify(v))],
  ['encodeJson before (replacer + character loop)', (v: unknown) => utf8.encode(referenceEncodeJson(v))],
  ['encodeJson, then TextEncoder (answers before)', (v: unknown) => utf8.encode(encodeJson(v))],
  ['encodeJsonBytes (answers now)', (v: unknown) => encodeJsonBytes(v)],
] as const
// Rounds interleave the encoders so that load from other processes falls on all of them alike.
const ROUNDS = Number(process.env['BENCH_ENCODE_ROUNDS'] ?? 11)
const samples: number[][] = encoders.map(() => [])
for (let r = 0; r < ROUNDS; r++) {
  encoders.forEach(([, f], e) => {
    const t0 = process.hrtime.bigint()
    for (const poll of polls) f(poll)
    if (r > 0) samples[e]!.push(Number(process.hrtime.bigint() - t0) / 1000 / outputs.length)
  })
}
const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!
const bytes = polls.reduce((n, p) => n + encodeJson(p).length, 0)
console.log(`${outputs.length} processed documents (${(bytes / outputs.length).toFixed(0)} bytes each as JSON), polls of 100, median of ${ROUNDS - 1} interleaved rounds`)
const base = median(samples[0]!)
encoders.forEach(([name], e) => {
  const us = median(samples[e]!)
  console.log(`${name.padEnd(50)} ${us.toFixed(1).padStart(7)} us/doc  ${(us / base).toFixed(2)}x JSON.stringify`)
})
