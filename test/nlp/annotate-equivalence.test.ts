import { readFileSync } from 'node:fs'
import { isDeepStrictEqual } from 'node:util'
import { describe, expect, it } from 'vitest'
import model from 'wink-eng-lite-web-model'
import { createAnnotator, loadCoreModel } from '../../src/nlp/annotate.ts'
import { createReferenceAnnotator } from './reference-annotate.ts'

const golden = JSON.parse(readFileSync(new URL('../fixtures/golden/texts.json', import.meta.url), 'utf8')) as string[]
const tricky = [
  '',
  '   ',
  "can't won't I'd y'all gonna wanna",
  'Non\u00a0breaking\u2009spaces and\ttabs\r\nand new lines\n\nhere.',
  'U.S.A. e.g. i.e. Mr. Smith Jr. paid $5.99 (about €5) at 10:30am on 3rd May — 50% off!',
  // A web address wink reads as one token (one it splits, "http://x.y/z", our annotator reads whole: see
  // webAddressesForWink and its tests in annotate.test.ts; wink's columns are then no reference for it).
  'Emoji 👍🏽 👨‍👩‍👧 :-) ;) <3 #tag @user http://x.yz/a?q=1 a@b.co',
  '<p>HTML <b>bold</b> &amp; &#x1F600; &lt;tag&gt;</p>',
  'ALL CAPS SHOUTING!!! lowercase whisper... MiXeD cAsE',
  '東京 and Zürich and São Paulo and Kraków',
  "1990s rock'n'roll, the '80s, 2nd-hand, state-of-the-art",
]

describe('one-pass annotation over wink internals', () => {
  it("should load the same core model as wink-eng-lite-web-model's core()", () => {
    const ours = loadCoreModel()
    const theirs = (model.core as () => Record<string, unknown>)()
    expect(Object.keys(ours).sort()).toEqual(Object.keys(theirs).sort())
    for (const k of Object.keys(theirs)) expect(isDeepStrictEqual(ours[k], theirs[k]), k).toBe(true)
    // Two loads share no mutable part (wink learns words into the feature lists and hashes).
    const again = loadCoreModel() as { features: { lexeme: { list: string[]; hash: object } } }
    expect(again.features.lexeme.list).not.toBe((ours as typeof again).features.lexeme.list)
    expect(again.features.lexeme.hash).not.toBe((ours as typeof again).features.lexeme.hash)
  })

  it("should give the same document as wink's public .out() columns", () => {
    // One reference instance: its output depends on the texts it read before (see the history tests), which for
    // these texts, in this order, does not show.
    const fast = createAnnotator()
    const reference = createReferenceAnnotator()
    for (const text of [...golden, ...tricky]) {
      for (const html of [false, true]) {
        expect(fast.annotate(text, { html }), JSON.stringify(text)).toEqual(reference.annotate(text, { html }))
      }
    }
  }, 120_000)
})

describe('history independence', () => {
  it("should tokenize a text the same after wink met its words elsewhere (wink learns words: 'Hillary's')", () => {
    const annotator = createAnnotator()
    const text = "We all know Hillary's an idiot lol!!!"
    const first = JSON.stringify(annotator.annotate(text))
    expect(annotator.annotate(text).tokens.map((t) => t.text)).toContain('Hillary')
    // These make wink learn "Hillary's" as one word (after a punctuation mark, or before one).
    for (const other of ["(Hillary's)", "Hillary's,", "Bill's lying and Hillary's blatant lies.", '#Hillary\'s', ...golden]) annotator.annotate(other)
    expect(JSON.stringify(annotator.annotate(text))).toBe(first)
  })

  it('should give byte-identical documents before and after many other texts', () => {
    const annotator = createAnnotator()
    const texts = [...golden, "We all know Hillary's an idiot lol!!!"]
    const before = texts.map((t) => JSON.stringify(annotator.annotate(t)))
    const others = ["(Hillary's)", "Hillary's,", "Trump's.", '"Trump\'s"', ...tricky, ...golden]
    for (let round = 0; round < 3; round++) for (const t of others.reverse()) annotator.annotate(t.toUpperCase() + ' ' + t + ' (' + t + ')')
    const after = texts.map((t) => JSON.stringify(annotator.annotate(t)))
    expect(after).toEqual(before)
  })
})
