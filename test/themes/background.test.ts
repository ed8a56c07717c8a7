import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { parseBackground } from '../../src/themes/background.ts'
import { dataPath } from '../../src/resources.ts'

/** The general reader's answer: trimmed lines, Number, the first zipf of a word wins. */
function reference(text: string): Map<string, number> {
  const out = new Map<string, number>()
  for (const raw of text.split('\n')) {
    const line = raw.trim()
    if (line === '' || line.startsWith('#')) continue
    const [w, z] = line.split('\t')
    if (!out.has(w!)) out.set(w!, Number(z))
  }
  return out
}

describe('parseBackground', () => {
  it('reads the committed list as a Map of its lines would: every word, its zipf, misses and the order', () => {
    const text = readFileSync(dataPath(undefined, 'en', 'word-frequency.tsv'), 'utf8')
    const table = parseBackground(text)
    const ref = reference(text)
    expect(table.size).toBe(ref.size)
    for (const [w, z] of ref) if (!Object.is(table.get(w), z) || !table.has(w) || table.has(w + '\t')) expect.fail(`zipf of ${w}`)
    expect([table.get('You'), table.get(''), table.has('zzzzqq')]).toEqual([undefined, undefined, false])
    expect([...table]).toEqual([...ref])
  })

  it('gives the same map for plain lines, lines it reads the general way, and repeated words', () => {
    const plain = '# comment\nthe\t7.60\n\nnaïve\t2\nthe\t1.5\n中文\t3.25\nx\t007.125\n'
    expect([...parseBackground(plain)]).toEqual([...reference(plain)])
    expect([...parseBackground(plain)]).toEqual([['the', 7.6], ['naïve', 2], ['中文', 3.25], ['x', 7.125]])
    for (const odd of ['a\t1.\n', ' b\t2\n', 'c\t3 \n', 'd\t1e2\n', 'e\t4\r\nf\t5\r\n', '  # c\ng\t.5\n']) {
      expect([...parseBackground(odd)]).toEqual([...reference(odd)])
    }
    expect(() => parseBackground('a\t1\t2\n')).toThrow(/line 1: expected word<TAB>zipf/)
    expect(() => parseBackground('\t1\n')).toThrow(/line 1/)
    expect(() => parseBackground('x\tabc\n')).toThrow(/line 1/)
  })
})
