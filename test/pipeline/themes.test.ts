import { describe, expect, it } from 'vitest'
import { createEngine } from '../../src/engine/create-engine.ts'
import { createAnnotator } from '../../src/nlp/annotate.ts'
import { nounPhrases, rankThemes } from '../../src/pipeline/analyzers/themes.ts'
import { extractCandidates, loadBackground } from '../../src/themes/index.ts'
import type { SentimentSection } from '../../src/pipeline/types.ts'

describe('themes', () => {
  it('should find noun phrases ending in a common noun, with their adjectives as attributes', () => {
    const doc = createAnnotator().annotate('The friendly staff cleaned the huge swimming pool. Breakfast was cold.')
    const p = nounPhrases(doc)
    expect(p.map((x) => x.normalized)).toEqual(['friendly staff', 'huge swimming pool', 'breakfast'])
    expect(p[0]!.attributes).toEqual(['friendly'])
    expect(p[0]!.head).toBe('staff')
  })

  it('should rank themes, give sentiment from their sentences and byte mentions when asked', async () => {
    const engine = createEngine({ background: false })
    await engine.account(engine.defaultAccount).updateConfigurations({ document: { themes_limit: 5, theme_mentions_limit: 2, mentions: true } })
    const text = 'The room service was awful. Room service took an hour. The pool area was lovely.'
    const out = await engine.analyze(text)
    const top = out.themes![0]!
    expect(top).toMatchObject({ title: 'room service', normalized: 'room service', is_about: true, sentiment_polarity: 'negative' })
    const loc = top.mentions![0]!.locations[0]!
    expect(Buffer.from(text).subarray(loc.offset, loc.offset + loc.length).toString()).toBe('room service')
    expect(out.themes!.find((t) => t.normalized === 'pool area')?.sentiment_polarity).toBe('positive')
    await engine.close()
  })

  it('should mark a mention negated after a negator, not after an idiom such as "without a doubt"', async () => {
    const engine = createEngine({ background: false })
    await engine.account(engine.defaultAccount).updateConfigurations({ document: { themes_limit: 5, theme_mentions_limit: 2, mentions: true } })
    const negated = async (text: string): Promise<Record<string, boolean>> =>
      Object.fromEntries((await engine.analyze(text)).themes!.map((t) => [t.normalized, t.mentions![0]!.is_negated]))
    expect(await negated('Without a doubt the best pizza in New York City!')).toEqual({ 'good pizza': false, 'new york city': false })
    expect(await negated('No matter what you order, the pasta is good.')).toEqual({ pasta: false })
    expect(await negated('There was no hot water in the room.')).toEqual({ 'hot water': true, room: true })
    expect(await negated('I did not like the breakfast, but the pool was great.')).toEqual({ breakfast: true, pool: false })
    await engine.close()
  })

  it('should title a name as written though a headline opens with it, and a word also written in lower case in lower case', async () => {
    const engine = createEngine({ background: false })
    await engine.account(engine.defaultAccount).updateConfigurations({ document: { themes_limit: 10 } })
    const out = await engine.analyze(
      'Obama mingles with power brokers\n\nWASHINGTON (AP) - President Barack Obama joked with brokers at the club dinner. ' +
        'The president said Obama would return to the club next year.',
    )
    const titles = out.themes!.map((t) => t.title)
    expect(titles).toContain('Obama')
    expect(titles).not.toContain('obama')
    expect(titles).toContain('president')
    // Alone at the start of a title, a word that is no common word is a name; a common one (a plural too) is not.
    expect((await engine.analyze('\u201cBellagio\u201d')).themes!.map((t) => t.title)).toEqual(['Bellagio'])
    expect((await engine.analyze('Economists at the bank had expected the move.')).themes!.map((t) => t.title)).toContain('economists')
    await engine.close()
  })

  it('should give no themes made of the pieces of a web address, and the address as a URL entity', async () => {
    const engine = createEngine({ background: false })
    await engine.account(engine.defaultAccount).updateConfigurations({ document: { themes_limit: 10, named_entities_limit: 10 } })
    try {
      for (const [text, address] of [
        ['For details on the new pricing plans, visit www.acme-widgets.com/pricing or call our sales team.', 'www.acme-widgets.com/pricing'],
        ['Our staging server at http://localhost:8080/admin crashed again during the demo.', 'http://localhost:8080/admin'],
      ] as const) {
        const out = await engine.analyze(text)
        const words = (out.themes ?? []).flatMap((t) => t.normalized.split(' '))
        for (const piece of ['www', 'com', 'acme-widgets', 'http', 'localhost', 'admin']) expect(words, text).not.toContain(piece)
        expect(out.entities?.filter((e) => e.entity_type === 'URL').map((e) => e.title)).toEqual([address])
      }
    } finally {
      await engine.close()
    }
  })

  it('should leave themes out when themes_limit is 0 (the default)', async () => {
    const engine = createEngine({ background: false })
    expect((await engine.analyze('The room service was awful.')).themes).toBeUndefined()
    await engine.close()
  })
})

describe('entity themes', () => {
  it('should attach the themes of the sentences that mention an entity when entity_themes_limit > 0', async () => {
    const engine = createEngine({ background: false })
    await engine.account(engine.defaultAccount).updateConfigurations({ document: { entity_themes_limit: 3 } })
    const out = await engine.analyze('Tim Cook praised the new battery life. The weather in Paris was grey.')
    const tim = out.entities!.find((e) => e.title === 'Tim Cook')!
    expect(tim.themes!.map((t) => t.normalized)).toEqual(['new battery life'])
    const paris = out.entities!.find((e) => e.title === 'Paris')!
    expect(paris.themes!.map((t) => t.normalized)).toEqual(['weather'])
    await engine.close()
  })
})

describe('ranked themes', () => {
  it('read their sentiment and evidence once, on first use, through getters shared by every theme', () => {
    const doc = createAnnotator().annotate('The battery life is great. The screen is dim. The battery life lasts.')
    let reads = 0
    const sentiment: SentimentSection = {
      score: 0.2,
      polarity: 'positive',
      tokenScores: doc.tokens.map(() => 0),
      sentenceScores: doc.sentences.map(() => 0),
      sentencePolar: doc.sentences.map((_, i) => i === 0),
      aspect: () => {
        reads++
        return { score: 0.5, polarity: 'positive' }
      },
      span: () => ({ score: 0, polarity: 'neutral' }),
      polarityOf: (s) => (s > 0.05 ? 'positive' : s < -0.05 ? 'negative' : 'neutral'),
    }
    const themes = rankThemes(doc, extractCandidates(doc), sentiment, loadBackground())
    const battery = themes.find((t) => t.normalized === 'battery life')!
    expect(reads).toBe(0)
    expect(battery.sentiment).toEqual({ score: 0.5, polarity: 'positive' })
    expect(battery.evidence).toBe(1)
    expect(battery.sentiment).toEqual({ score: 0.5, polarity: 'positive' })
    expect(reads).toBe(1)
    // Not an object literal's getters (new closures in old-generation accessor pairs in V8, which kept every document
    // alive past two scavenges: npm run bench:old-space).
    for (const t of themes) for (const member of ['sentiment', 'evidence']) expect(Object.getOwnPropertyDescriptor(t, member)).toBeUndefined()
  })
})
