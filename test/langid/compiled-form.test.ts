import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import {
  compileLanguageModelText, compiledLanguageModelPath, decodeCompiledLanguageModel, defaultLanguageModelPath, encodeCompiledLanguageModel,
  languageModelTextSha256, loadCompiledLanguageModel, serializeLanguageModel, trainLanguageModel, type CompiledLanguageModel,
} from '../../src/langid/index.ts'

const samples = new Map([
  ['en', ['the cat sat on the mat', 'this is the house that jack built', 'naïve café owners']],
  ['de', ['die katze sitzt auf der matte', 'das ist das haus von jack', 'größer schön']],
])
const smallText = serializeLanguageModel(trainLanguageModel(samples, { minCount: 1 }))

/** Every n-gram the trie can hold, as a path of code points, with the feature it reaches. */
function features(m: CompiledLanguageModel, text: string): Array<[string, number]> {
  const out: Array<[string, number]> = []
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('# ') || line.startsWith('@')) continue
    const key = line.slice(0, line.indexOf('\t'))
    if (key.startsWith('#')) {
      out.push([key, m.words.get(key.slice(1)) ?? -2])
      continue
    }
    let node = 0
    for (const ch of key) node = node < 0 ? -1 : m.child(node, ch.codePointAt(0)!)
    out.push([key, node < 0 ? -2 : m.nodeFeature[node]!])
  }
  return out
}

/** The two models hold the same tables and answer every lookup alike. */
function expectSame(a: CompiledLanguageModel, b: CompiledLanguageModel, text: string): void {
  expect(a.languages).toEqual(b.languages)
  expect([a.maxOrder, a.temperature, a.featureCount]).toEqual([b.maxOrder, b.temperature, b.featureCount])
  expect(a.floors).toEqual(b.floors)
  expect(a.costs.constructor).toBe(b.costs.constructor)
  expect(Buffer.from(a.costs.buffer, a.costs.byteOffset, a.costs.byteLength).equals(Buffer.from(b.costs.buffer, b.costs.byteOffset, b.costs.byteLength))).toBe(true)
  expect(Array.from(a.nodeFeature)).toEqual(Array.from(b.nodeFeature))
  expect([...a.words]).toEqual([...b.words])
  const fa = features(a, text)
  expect(fa).toEqual(features(b, text))
  expect(fa.every(([, f]) => f >= 0)).toBe(true)
  for (const [node, cp] of [[0, 0x41], [0, 0x1f600], [1, 0x7a], [3, 0xe9]] as const) expect(a.child(node, cp)).toBe(b.child(node, cp))
}

describe('the compiled form of a language model', () => {
  it('reads back as the model compiled from its text, tables and lookups alike', () => {
    const bytes = encodeCompiledLanguageModel(smallText)
    expectSame(decodeCompiledLanguageModel(bytes), compileLanguageModelText(smallText), smallText)
  })

  it('is deterministic: the same text gives the same bytes', () => {
    expect(encodeCompiledLanguageModel(smallText).equals(encodeCompiledLanguageModel(smallText))).toBe(true)
  })

  it('is committed beside the committed model, compiled from that very text (npm run build:langid rewrites it)', () => {
    const tsv = defaultLanguageModelPath()
    const text = readFileSync(tsv, 'utf8')
    const committed = readFileSync(compiledLanguageModelPath(tsv))
    expect(committed.equals(encodeCompiledLanguageModel(text, tsv))).toBe(true)
    expectSame(decodeCompiledLanguageModel(committed, 'model.bin', languageModelTextSha256(readFileSync(tsv))), compileLanguageModelText(text), text)
  })

  it('names model.bin beside model.tsv', () => {
    expect(compiledLanguageModelPath(join('a', 'model.tsv'))).toBe(join('a', 'model.bin'))
    expect(compiledLanguageModelPath('m')).toBe('m.bin')
  })

  describe('refuses bytes that are not a compiled form, naming the file and what is wrong', () => {
    const good = encodeCompiledLanguageModel(smallText)
    const headerLength = good.readUInt32LE(8)
    const header = JSON.parse(good.toString('utf8', 12, 12 + headerLength)) as Record<string, unknown>
    /** The form with its header replaced (same length, padded with spaces, so the tables stay where they were). */
    const withHeader = (change: Record<string, unknown>): Buffer => {
      const json = Buffer.from(JSON.stringify({ ...header, ...change }), 'utf8')
      if (json.length > headerLength) throw new Error('test header too long')
      const out = Buffer.from(good)
      out.fill(0x20, 12, 12 + headerLength)
      json.copy(out, 12)
      return out
    }
    const cases: Array<[string, Uint8Array, RegExp, string?]> = [
      ['another magic', Buffer.concat([Buffer.from('TELID999'), good.subarray(8)]), /m\.bin: expected the magic "TELID001" at byte 0/],
      ['too short', good.subarray(0, 6), /expected the magic/],
      ['a truncated file', good.subarray(0, good.length - 40), /run past the end of the file/],
      ['bytes after the tables', Buffer.concat([good, Buffer.alloc(8)]), /8 bytes after the last table/],
      ['a header that is not JSON', (() => { const b = Buffer.from(good); b.write('{', 13); return b })(), /header is not JSON/],
      ['another format', withHeader({ format: 'x/9' }), /expected format "textengine-langid-compiled\/1", instead found "x\/9"/],
      ['a bad count', withHeader({ featureCount: -1 }), /featureCount should be an integer >= 0, instead found -1/],
      ['an unknown language', withHeader({ languages: ['en', 'xx'] }), /known language codes/],
      ['floors of the wrong shape', withHeader({ floors: [[1]] }), /floors should hold/],
      ['another text', good, /compiled from another model text/, 'f'.repeat(64)],
    ]
    for (const [what, bytes, message, sha] of cases) {
      it(what, () => {
        expect(() => decodeCompiledLanguageModel(bytes, 'm.bin', sha)).toThrow(message)
      })
    }

    it('a trie edge from a later node, and a node feature out of range', () => {
      const m = compileLanguageModelText(smallText)
      const costBytes = m.costs.byteLength
      const at = (12 + headerLength + 3) & ~3
      const edges = at + ((costBytes + 3) & ~3)
      const nodes = header['nodeCount'] as number
      const bad = Buffer.from(good)
      bad.writeInt32LE(5, edges) // node 1's parent: node 5
      expect(() => decodeCompiledLanguageModel(bad, 'm.bin')).toThrow(/trie edge to node 1 comes from node 5/)
      const nodeFeatures = edges + 8 * (nodes - 1)
      const bad2 = Buffer.from(good)
      bad2.writeInt32LE(m.featureCount + 7, nodeFeatures + 4)
      expect(() => decodeCompiledLanguageModel(bad2, 'm.bin')).toThrow(new RegExp(`node 1's feature ${m.featureCount + 7} is not one of the ${m.featureCount} features`))
    })
  })

  describe('loading', () => {
    const dir = mkdtempSync(join(tmpdir(), 'textengine-langid-'))
    afterAll(() => rmSync(dir, { recursive: true, force: true }))
    const other = serializeLanguageModel(trainLanguageModel(new Map([['en', ['one two three']], ['fr', ['un deux trois']]]), { minCount: 1 }))

    it('reads the compiled form beside the text when it was compiled from it', () => {
      const tsv = join(dir, 'fresh.tsv')
      writeFileSync(tsv, smallText)
      writeFileSync(compiledLanguageModelPath(tsv), encodeCompiledLanguageModel(smallText))
      expectSame(loadCompiledLanguageModel(tsv), compileLanguageModelText(smallText), smallText)
      // The tables come from the file: a cost changed there (the header still naming the text) is what loads.
      const bin = encodeCompiledLanguageModel(smallText)
      const costsAt = (12 + bin.readUInt32LE(8) + 3) & ~3
      bin[costsAt] = bin[costsAt]! + 1
      writeFileSync(compiledLanguageModelPath(tsv), bin)
      const loaded = loadCompiledLanguageModel(tsv)
      expect(loaded.costs[0]).toBe(compileLanguageModelText(smallText).costs[0]! + 1)
    })

    it('compiles the text when the compiled form beside it is stale, damaged or missing', () => {
      for (const [name, bin] of [['stale', encodeCompiledLanguageModel(other)], ['damaged', Buffer.from('TELID001 nonsense')], ['missing', undefined]] as const) {
        const tsv = join(dir, `${name}.tsv`)
        writeFileSync(tsv, smallText)
        if (bin !== undefined) writeFileSync(compiledLanguageModelPath(tsv), bin)
        expectSame(loadCompiledLanguageModel(tsv), compileLanguageModelText(smallText), smallText)
      }
    })

    it('still names a missing model file', () => {
      expect(() => loadCompiledLanguageModel(join(dir, 'absent.tsv'))).toThrow(/cannot read language model .*absent\.tsv/)
    })

    it('finds the committed form from a data folder copy', () => {
      const data = join(dir, 'data')
      const tsv = join(data, 'langid', 'model.tsv')
      // Only the two langid files: the loader needs nothing else.
      mkdirSync(join(data, 'langid'), { recursive: true })
      copyFileSync(defaultLanguageModelPath(), tsv)
      copyFileSync(compiledLanguageModelPath(defaultLanguageModelPath()), compiledLanguageModelPath(tsv))
      const text = readFileSync(tsv, 'utf8')
      expectSame(loadCompiledLanguageModel(undefined, data), compileLanguageModelText(text), text)
    })
  })
})
