import { describe, expect, it } from 'vitest'
import { createEngine } from '../../src/engine/create-engine.ts'
import { encodeXml } from '../../src/codecs/xml.ts'

const ALL_ON = {
  relations: true, named_relations_limit: 10, user_relations_limit: 10,
  opinions: true, named_opinions_limit: 10, user_opinions_limit: 10,
  intentions: true, named_entities_limit: 20,
}
const TEXT =
  "Tim Cook, Apple's chief executive, spoke in Austin, Texas. \"The iPhone had a record quarter,\" Cook said. " +
  'Microsoft acquired LinkedIn in 2016. I want to buy a new MacBook Pro, but I will never buy another Samsung phone.'

describe('relations, opinions and intentions in the pipeline', () => {
  it('should leave the three sections out by default (their switches are off)', async () => {
    const engine = createEngine({ background: false })
    const out = await engine.analyze(TEXT)
    expect(out.relations).toBeUndefined()
    expect(out.opinions).toBeUndefined()
    expect(out.intentions).toBeUndefined()
    await engine.close()
  })

  it('should produce them when switched on, with titles of the entities and the spec item shapes', async () => {
    const engine = createEngine({ background: false })
    await engine.account(engine.defaultAccount).updateConfigurations({ document: ALL_ON })
    const out = await engine.analyze(TEXT)
    expect(out.relations).toContainEqual({
      type: 'named', relation_type: 'Employment', confidence_score: expect.any(Number), extra: 'chief executive',
      entities: [{ title: 'Tim Cook', entity_type: 'Person' }, { title: 'Apple', entity_type: 'Company' }],
    })
    expect(out.relations!.some((r) => r.relation_type === 'Acquisition' && r.entities[0]!.title === 'Microsoft' && r.entities[1]!.title === 'LinkedIn')).toBe(true)
    const titles = new Set(out.entities!.map((e) => e.title))
    for (const r of out.relations!) {
      expect(r.entities).toHaveLength(2)
      expect(r.entities[0]!.title).not.toBe(r.entities[1]!.title)
      for (const e of r.entities) expect(titles.has(e.title)).toBe(true)
    }
    const scores = out.relations!.map((r) => r.confidence_score)
    expect([...scores].sort((a, b) => b - a)).toEqual(scores)
    expect(out.opinions).toEqual([
      expect.objectContaining({ quotation: 'The iPhone had a record quarter', type: 'named', speaker: 'Tim Cook', topic: 'iPhone' }),
    ])
    expect(['positive', 'negative', 'neutral']).toContain(out.opinions![0]!.sentiment_polarity)
    expect(out.intentions).toEqual([{ type: 'buy', who: 'I', what: 'a new MacBook Pro', evidence_phrase: 'want to buy' }])
    // Deterministic: the same text gives the same sections.
    const again = await engine.analyze(TEXT)
    expect([again.relations, again.opinions, again.intentions]).toEqual([out.relations, out.opinions, out.intentions])
    const xml = encodeXml(out, 'document')
    expect(xml).toMatch(/<relations><relation><type>named<\/type>.*?<entities><entity><title>/)
    expect(xml).toContain('<opinions><opinion>')
    expect(xml).toContain('<intentions><intention>')
    await engine.close()
  })

  it('should relate only the entities at or above entities_threshold', async () => {
    const engine = createEngine({ background: false })
    const acct = engine.account(engine.defaultAccount)
    await acct.updateConfigurations({ document: ALL_ON, entities_threshold: 0 })
    const all = await engine.analyze(TEXT)
    expect(all.relations!.length).toBeGreaterThan(0)
    // At 100 few named entities are confident enough (lexicon names score 90 or 95): every relation left is
    // between entities the output marks confident.
    await acct.updateConfigurations({ document: ALL_ON, entities_threshold: 100 })
    const none = await engine.analyze(TEXT)
    const sure = new Set((none.entities ?? []).filter((e) => e.confident).map((e) => e.title))
    const left = none.relations ?? []
    expect(left.length).toBeLessThan(all.relations!.length)
    for (const r of left) for (const e of r.entities) expect(sure.has(e.title)).toBe(true)
    await engine.close()
  })

  it('should respect the limits (0 turns a kind off) and make relations between user entities user relations', async () => {
    const engine = createEngine({ background: false })
    const acct = engine.account(engine.defaultAccount)
    await acct.updateConfigurations({ document: { ...ALL_ON, named_relations_limit: 1, user_relations_limit: 0, named_opinions_limit: 0 } })
    const out = await engine.analyze(TEXT)
    expect(out.relations).toHaveLength(1)
    expect(out.opinions).toBeUndefined()
    await acct.createTuning('entities', [{ name: 'Globex', type: 'Company' }, { name: 'Initech', type: 'Company' }])
    await acct.updateConfigurations({ document: { user_relations_limit: 5, named_relations_limit: 0 } })
    const users = await engine.analyze('Globex acquired Initech last year.')
    expect(users.relations).toEqual([
      { type: 'user', relation_type: 'Acquisition', confidence_score: expect.any(Number), extra: 'acquired', entities: [{ title: 'Globex', entity_type: 'Company' }, { title: 'Initech', entity_type: 'Company' }] },
    ])
    await engine.close()
  })

  it('should report the three features for English', async () => {
    const engine = createEngine()
    const [f] = await engine.account(engine.defaultAccount).features('English')
    expect([f!.detailed_mode['relations'], f!.detailed_mode['opinions'], f!.detailed_mode['intentions']]).toEqual([true, true, true])
    await engine.close()
  })
})
