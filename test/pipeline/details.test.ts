import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createEngine } from '../../src/engine/create-engine.ts'
import type { Engine } from '../../src/engine/types.ts'
import { createAnnotator } from '../../src/nlp/annotate.ts'
import type { AnnotatedDocument } from '../../src/nlp/types.ts'
import { nounPhrases } from '../../src/pipeline/analyzers/themes.ts'
import { isImperative } from '../../src/pipeline/analyzers/details.ts'
import { negationScope, refineTags } from '../../src/pipeline/pos.ts'
import type { SentenceDetail } from '../../src/model/output.ts'

const annotator = createAnnotator()
const refined = (text: string): AnnotatedDocument => {
  const doc = annotator.annotate(text)
  refineTags(doc)
  return doc
}
const tagOf = (doc: AnnotatedDocument, word: string): string | undefined => doc.tokens.find((t) => t.text === word)?.pos

describe('refineTags (post-tagger over wink)', () => {
  it('continues a proper-noun sequence: "Tim Cook" is two proper nouns, not Cook/VERB', () => {
    const raw = annotator.annotate('Tim Cook announced a software update.')
    expect(tagOf(raw, 'Cook')).toBe('VERB') // wink's error this rule corrects
    const doc = refined('Tim Cook announced a software update.')
    expect(tagOf(doc, 'Tim')).toBe('PROPN')
    expect(tagOf(doc, 'Cook')).toBe('PROPN')
    expect(tagOf(doc, 'announced')).toBe('VERB')
  })

  it('reads a base-form "verb" after determiner + noun with no object as a compound head: "software update"', () => {
    expect(tagOf(refined('Tim Cook announced a software update.'), 'update')).toBe('NOUN')
    expect(tagOf(refined('My phone needs a software update.'), 'update')).toBe('NOUN')
    expect(tagOf(refined('Install the security update today.'), 'update')).toBe('NOUN')
    // A verb with an object, or an inflected verb, stays a verb.
    expect(tagOf(refined('Please update the app.'), 'update')).toBe('VERB')
    expect(tagOf(refined('The kids watched the show.'), 'watched')).toBe('VERB')
  })

  it('tags the contraction "I\'m" (one token in wink) as a pronoun, so it is no theme candidate', () => {
    const text = "I'm happy with the room. I’m coming back."
    expect(tagOf(annotator.annotate(text), "I'm")).toBe('PROPN') // wink's tag
    const doc = refined(text)
    expect(tagOf(doc, "I'm")).toBe('PRON')
    expect(tagOf(doc, 'I’m')).toBe('PRON')
    expect(nounPhrases(doc).map((p) => p.normalized)).toEqual(['room'])
  })

  it('reads a sentence-opening imperative verb that wink tags noun or proper noun as a verb', () => {
    expect(tagOf(refined('Check out our new menu!'), 'Check')).toBe('VERB')
    expect(tagOf(refined('Book early to get the best rates.'), 'Book')).toBe('VERB')
    expect(tagOf(refined('Call me tomorrow.'), 'Call')).toBe('VERB')
    expect(tagOf(refined('Please contact us today.'), 'contact')).toBe('VERB')
    // Before a web or e-mail address (wink: PROPN, then SYM for the address).
    expect(tagOf(refined('Visit www.acme-widgets.com/pricing for details.'), 'Visit')).toBe('VERB')
    expect(tagOf(refined('Check https://example.com/status for updates.'), 'Check')).toBe('VERB')
    expect(tagOf(refined('Email support@acme.com today.'), 'Email')).toBe('VERB')
    // A noun phrase opening the sentence stays a noun phrase.
    expect(tagOf(refined('Book lovers will enjoy it.'), 'Book')).toBe('NOUN')
    expect(tagOf(refined('Order confirmation attached.'), 'Order')).not.toBe('VERB')
    expect(tagOf(refined('Check-in was slow.'), 'Check')).not.toBe('VERB')
  })

  it('is deterministic: the same text gives the same tags', () => {
    const text = 'Tim Cook announced a software update. Book early! I\'m in.'
    expect(refined(text).tokens.map((t) => t.pos)).toEqual(refined(text).tokens.map((t) => t.pos))
  })
})

describe('negationScope', () => {
  const scope = (text: string): string[] => {
    const doc = refined(text)
    const s = doc.sentences[0]!
    const flags = negationScope(doc, s.tokenStart, s.tokenEnd)
    return doc.tokens.slice(s.tokenStart, s.tokenEnd).filter((_, i) => flags[i]).map((t) => t.text)
  }

  it('stops at the head of the negated verb phrase: "Do not send another email" negates send only', () => {
    const raw = annotator.annotate('Do not send another email.')
    expect(raw.tokens.filter((t) => t.negated).map((t) => t.text)).toEqual(['send', 'another', 'email']) // wink's scope
    expect(scope('Do not send another email.')).toEqual(['send'])
    expect(scope("Don't forget the keys.")).toEqual(['forget'])
  })

  it('covers adjective phrases and noun phrases up to their head', () => {
    expect(scope('The room was not very clean and the staff were rude.')).toEqual(['very', 'clean'])
    expect(scope('No hot water in the room.')).toEqual(['hot', 'water'])
    expect(scope('It was not a good hotel for families.')).toEqual(['a', 'good', 'hotel'])
    expect(scope('We have never been happier.')).toEqual(['been', 'happier'])
  })
})

describe('details analyzer', () => {
  let engine: Engine
  beforeAll(() => {
    engine = createEngine({ background: false })
  })
  afterAll(async () => {
    await engine.close()
  })
  const details = async (text: string): Promise<SentenceDetail[]> => (await engine.analyze(text)).details ?? []
  const word = (d: SentenceDetail[], title: string) => d.flatMap((s) => s.words).find((w) => w.title === title)

  it('reports the corrected tags: Cook/PROPN, update/NOUN, I\'m not a proper noun', async () => {
    const d = await details("Tim Cook announced a software update. I'm happy.")
    expect(word(d, 'Cook')).toMatchObject({ tag: 'PROPN', type: 'Noun' })
    expect(word(d, 'update')).toMatchObject({ tag: 'NOUN', type: 'Noun' })
    expect(word(d, "I'm")).toMatchObject({ tag: 'PRON', type: 'Pronoun' })
  })

  it('marks "Check out our new menu!" and "Book early..." as imperative, not "Book lovers will enjoy it."', async () => {
    expect((await details('Check out our new menu!'))[0]!.is_imperative).toBe(true)
    expect((await details('Book early to get the best rates.'))[0]!.is_imperative).toBe(true)
    expect((await details('Book lovers will enjoy it.'))[0]!.is_imperative).toBe(false)
    expect((await details('Do not send another email.'))[0]!.is_imperative).toBe(true)
    const doc = refined('Check out our new menu!')
    expect(isImperative(doc, 0, doc.tokens.length)).toBe(true)
  })

  it('negates only the negated phrase: "Do not send another email" negates send, not another or email', async () => {
    const d = await details('Do not send another email.')
    expect(word(d, 'send')?.is_negated).toBe(true)
    expect(word(d, 'another')?.is_negated).toBe(false)
    expect(word(d, 'email')?.is_negated).toBe(false)
    const r = await details('The room was not very clean and the staff were rude.')
    expect(word(r, 'clean')?.is_negated).toBe(true)
    expect(word(r, 'rude')?.is_negated).toBe(false)
  })

  it('does not call "Please call me back" polar for its politeness marker alone', async () => {
    const d = await details('Please call me back.')
    expect(d[0]).toMatchObject({ is_imperative: true, is_polar: false })
    expect((await details('Please call me back, the room was great.'))[0]!.is_polar).toBe(true)
  })
})
