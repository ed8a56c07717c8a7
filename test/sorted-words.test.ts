import { readFileSync } from 'node:fs'
import { gunzipSync } from 'node:zlib'
import { describe, expect, it } from 'vitest'
import { WordIndexMap, sortedWords } from '../src/sorted-words.ts'
import { readClusters } from '../src/entities/tagger.ts'
import { decodeWordVectors } from '../src/semantic/vectors.ts'
import { dataPath } from '../src/resources.ts'

const bytesOf = (words: string[]): Uint8Array => new TextEncoder().encode(words.join('\n'))

describe('sortedWords', () => {
  it('finds exactly the words a Map of them finds, and gives them back by index', () => {
    const words = ['a', 'a-b', 'ab', 'abc', 'b', 'constructor', 'z']
    const s = sortedWords(bytesOf(words), words.length)!
    expect(s).toBeDefined()
    const probes = [...words, '', 'A', 'aa', 'abcd', 'ab ', 'café', '\uffff', '__proto__', 'zz', 'a\u0000']
    for (const p of probes) expect([p, s.indexOf(p)]).toEqual([p, words.indexOf(p)])
    // asked twice: the remembered answer
    expect(s.indexOf('abc')).toBe(3)
    expect(words.map((_, i) => s.word(i))).toEqual(words)
  })

  it('declines what a binary search over bytes could answer differently: non-ASCII, unsorted, repeated, miscounted', () => {
    expect(sortedWords(bytesOf(['a', 'café']), 2)).toBeUndefined()
    expect(sortedWords(bytesOf(['b', 'a']), 2)).toBeUndefined()
    expect(sortedWords(bytesOf(['a', 'a']), 2)).toBeUndefined()
    expect(sortedWords(bytesOf(['a', 'b']), 3)).toBeUndefined()
    expect(sortedWords(bytesOf(['a', 'b', 'c']), 2)).toBeUndefined()
    expect(sortedWords(bytesOf([]), 0)).toBeUndefined()
  })

  it('makes a read-only map that iterates in file order', () => {
    const m = new WordIndexMap(sortedWords(bytesOf(['x', 'y']), 2)!, (i) => i * 10)
    expect([m.size, m.get('y'), m.get('q'), m.has('x'), m.has('q')]).toEqual([2, 10, undefined, true, false])
    expect([...m]).toEqual([['x', 0], ['y', 10]])
    expect([...m.keys(), ...m.values()]).toEqual(['x', 'y', 0, 10])
  })

  it('reads the committed clusters and vocabulary as the Maps built from them did', () => {
    const file = readFileSync(dataPath(undefined, 'en', 'ner', 'clusters.bin.gz'))
    const raw = gunzipSync(file)
    const n = raw.readUInt32LE(8)
    const words = raw.toString('utf8', 12 + 2 * n).split('\n')
    const clusters = readClusters(file)
    expect(clusters).toBeInstanceOf(WordIndexMap)
    expect(clusters.size).toBe(n)
    const listed = new Set(words)
    words.forEach((w, i) => {
      if (clusters.get(w) !== raw[12 + i]! * 65536 + raw[12 + n + i]!) expect.fail(`cluster of ${w}`)
      if (clusters.has(w + 'q') !== listed.has(w + 'q')) expect.fail(`cluster of ${w}q`)
    })
    const vb = readFileSync(dataPath(undefined, 'en', 'vectors.bin'))
    const v = decodeWordVectors(vb)
    const dims = vb.readUInt32LE(8)
    const vocab = new TextDecoder().decode(vb.subarray(24 + v.size * 8 + v.size * dims)).split('\n')
    vocab.forEach((w, i) => {
      if (v.id(w) !== i || v.word(i) !== w) expect.fail(`vector of ${w}`)
    })
    expect([v.id('Hotel'), v.id('hotelz'), v.id('')]).toEqual([-1, -1, -1])
  })
})
