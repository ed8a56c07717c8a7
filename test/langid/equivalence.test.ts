import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { createLanguageIdentifier, findLanguageEntry, loadLanguageModel, parseLanguageModel, serializeLanguageModel, trainLanguageModel } from '../../src/langid/index.ts'
import { compileLanguageModel, compileLanguageModelText } from '../../src/langid/compiled.ts'

type Expected = null | [string, string, number, Array<[string, number]>]
const fixture = JSON.parse(readFileSync(new URL('./fixtures/identify-expected.json', import.meta.url), 'utf8')) as { cases: Array<[string, Expected]> }

/** The fixture's compact answer written out as `identify` returns it. */
const expand = (e: Expected): unknown =>
  e === null ? undefined : {
    code: e[0], name: e[1], score: e[2],
    ranking: e[3].map(([code, score]) => ({ code, name: findLanguageEntry(code)?.name, score })),
  }

describe('the compiled scorer gives the answers recorded from the sparse scorer it replaced', () => {
  const fromFile = createLanguageIdentifier()
  const fromData = createLanguageIdentifier(loadLanguageModel())

  it('holds enough cases to mean something', () => {
    expect(fixture.cases.length).toBeGreaterThan(300)
  })

  it('answers every recorded text identically (code, name, score, ranking), from the file and from model data', () => {
    for (const [text, expected] of fixture.cases) {
      expect(fromFile.identify(text), JSON.stringify(text)).toEqual(expand(expected))
      expect(fromData.identify(text), JSON.stringify(text)).toEqual(expand(expected))
    }
  })

  it('answers the same on a second pass (the word cache changes nothing)', () => {
    for (const [text, expected] of fixture.cases.slice(0, 80)) expect(fromFile.identify(text)).toEqual(expand(expected))
  })
})

describe('compiling a model', () => {
  const samples = new Map([
    ['en', ['the cat sat on the mat', 'this is the house that jack built']],
    ['de', ['die katze sitzt auf der matte', 'das ist das haus von jack']],
  ])

  it('gives the same layout from model data and from its text', () => {
    const data = trainLanguageModel(samples, { minCount: 1 })
    const a = compileLanguageModel(data)
    const b = compileLanguageModelText(serializeLanguageModel(data))
    expect(b.featureCount).toBe(a.featureCount)
    expect(Array.from(b.costs)).toEqual(Array.from(a.costs))
    expect([...b.words]).toEqual([...a.words])
  })

  it('stores the floor for unlisted costs and the listed cost otherwise', () => {
    const data = parseLanguageModel(serializeLanguageModel(trainLanguageModel(samples, { minCount: 1 })))
    const c = compileLanguageModel(data)
    const th = (() => {
      let node = 0
      for (const ch of 'th') node = c.child(node, ch.codePointAt(0)!)
      return c.nodeFeature[node]!
    })()
    expect(th).toBeGreaterThanOrEqual(0)
    const row = data.features.get('th')!
    const listed = new Map<number, number>()
    for (let e = 0; e < row.length; e += 2) listed.set(row[e]!, row[e + 1]!)
    for (let li = 0; li < data.languages.length; li++) {
      expect(c.costs[th * data.languages.length + li]).toBe(listed.get(li) ?? data.floors[2]![li])
    }
  })

  it('rejects a duplicate feature naming the line', () => {
    const text = serializeLanguageModel(trainLanguageModel(samples, { minCount: 1 }))
    const lines = text.trimEnd().split('\n')
    const feature = lines.find((l) => !l.startsWith('@') && !l.startsWith('#') && l.includes('\t'))!
    const doubled = [...lines, feature].join('\n') + '\n'
    expect(() => compileLanguageModelText(doubled, 'm.tsv')).toThrow(new RegExp(`m\\.tsv:${lines.length + 1}: duplicate feature`))
    expect(() => parseLanguageModel(doubled, 'm.tsv')).toThrow(new RegExp(`m\\.tsv:${lines.length + 1}: duplicate feature`))
  })
})
