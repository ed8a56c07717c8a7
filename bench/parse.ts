/**
 * `npx tsx bench/parse.ts` (`npm run bench:parse`): how long one large hostile or malformed request body holds
 * the event loop in the request decoders (issue 18: a 2.2 MB XML body took 3.1 s, a 4 MB malformed JSON body
 * 0.8 s). Bodies are generated (no data folder): JSON whose error is at the very end (the native parser refuses
 * it and ours must locate the error), and XML batches with plain text, entities and character references.
 * Prints milliseconds per decode (median of 5). `BENCH_PARSE_CODECS=dir` times the `json.ts`/`xml.ts` of another
 * folder (e.g. copies of an older commit) for a before/after comparison in one run.
 */
import { resolve } from 'node:path'
import { pathToFileURL } from 'node:url'

const dir = process.env['BENCH_PARSE_CODECS']
const codecs = dir === undefined ? '../src/codecs/' : pathToFileURL(resolve(dir)).href + '/'
const { decodeJson } = (await import(codecs + 'json.ts')) as typeof import('../src/codecs/json.ts')
const { decodeXml } = (await import(codecs + 'xml.ts')) as typeof import('../src/codecs/xml.ts')

const sentence = 'The staff were friendly, but the room was not clean. '
const docs = Array.from({ length: 2300 }, (_, i) => ({ id: `doc-${i}`, text: sentence.repeat(30), tag: 't', metadata: { a: [1, 2, 3], b: 'x' } }))
const goodJson = JSON.stringify(docs)
const cases: Array<[string, string, () => unknown]> = [
  ['JSON, valid', goodJson, () => decodeJson(goodJson)],
  ['JSON, error at the end', goodJson.slice(0, -1) + ',}', () => decodeJson(goodJson.slice(0, -1) + ',}')],
  ['JSON, 2M numbers, error at the end', '[' + '1,'.repeat(2_000_000) + ']', () => decodeJson('[' + '1,'.repeat(2_000_000) + ']')],
  ['JSON, 1M strings, error at the end', '[' + '"x",'.repeat(1_000_000) + ']', () => decodeJson('[' + '"x",'.repeat(1_000_000) + ']')],
]
const xmlCases: Array<[string, string]> = [
  ['XML, batch of plain text', '<documents>' + docs.slice(0, 1400).map((d) => `<document><id>${d.id}</id><text>${d.text}</text><tag>t</tag></document>`).join('') + '</documents>'],
  ['XML, entities', '<documents><document><id>1</id><text>' + 'a &amp; b '.repeat(220_000) + '</text></document></documents>'],
  ['XML, character references', '<documents><document><id>1</id><text>' + 'a&#233;b'.repeat(300_000) + '</text></document></documents>'],
  ['XML, &lt; in text', '<documents><document><id>1</id><text>' + 'a &lt; b '.repeat(240_000) + '</text></document></documents>'],
]
for (const [name, body] of xmlCases) cases.push([name, body, () => decodeXml(body, 'documents')])

console.log(`decoders from ${dir ?? 'src/codecs'}; ms per decode, median of 5 (node ${process.version})`)
for (const [name, body, run] of cases) {
  const times: number[] = []
  for (let i = 0; i < 5; i++) {
    const t0 = performance.now()
    try {
      run()
    } catch {
      // malformed bodies are expected to throw
    }
    times.push(performance.now() - t0)
  }
  times.sort((a, b) => a - b)
  console.log(`${name.padEnd(36)} ${(body.length / 1e6).toFixed(1).padStart(5)} MB ${times[2]!.toFixed(0).padStart(7)} ms`)
}
