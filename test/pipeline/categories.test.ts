import { describe, expect, it } from 'vitest'
import { createEngine } from '../../src/engine/create-engine.ts'
import type { AutoCategory } from '../../src/model/output.ts'
import { createAnnotator } from '../../src/nlp/annotate.ts'
import { createSemanticModel } from '../../src/semantic/index.ts'
import { categoryText, COSINE_FLOOR, nodeEvidence, rankCategories, WORD_EVIDENCE_FLOOR } from '../../src/pipeline/analyzers/categories.ts'

const walk = (list: readonly AutoCategory[], f: (c: AutoCategory) => void): void => {
  for (const c of list) {
    f(c)
    walk(c.categories ?? [], f)
  }
}

describe('auto_categories', () => {
  it('should file a football report under Sports, with Soccer among its sub-categories, strongest first', async () => {
    const engine = createEngine({ background: false })
    // One sentence is weak evidence: its calibrated strength is under the default threshold 0.45.
    await engine.account(engine.defaultAccount).updateConfigurations({ concept_topics_threshold: 0.1 })
    const out = await engine.analyze('The striker scored twice as United beat Chelsea 3-1 in the league match on Saturday.')
    const cats = out.auto_categories!
    expect(cats[0]).toMatchObject({ title: 'Sports', type: 'node' })
    await engine.account(engine.defaultAccount).updateConfigurations({ concept_topics_threshold: 0.05 })
    const nested = (await engine.analyze('The striker scored twice as United beat Chelsea 3-1 in the league match on Saturday.')).auto_categories!
    expect(nested[0]!.categories!.map((c) => c.title)).toContain('Soccer')
    walk(nested, (c) => {
      expect(c.strength_score).toBeGreaterThanOrEqual(0.05)
      expect(['node', 'leaf']).toContain(c.type)
      expect(['positive', 'negative', 'neutral']).toContain(c.sentiment_polarity)
      if (c.type === 'leaf') expect(c.categories).toBeUndefined()
    })
    for (let i = 1; i < nested.length; i++) expect(nested[i - 1]!.strength_score).toBeGreaterThanOrEqual(nested[i]!.strength_score)
    await engine.close()
  })

  it('should take the sentiment of the sentences that carry a category', async () => {
    const engine = createEngine({ background: false })
    const out = await engine.analyze('The hospital staff were wonderful and the doctors treated my illness with great care.')
    // Filed under Healthy Living (the learned head's first) or Medical Health: either carries the praise.
    const health = out.auto_categories!.find((c) => c.title === 'Medical Health' || c.title === 'Healthy Living')
    expect(health?.sentiment_polarity).toBe('positive')
    await engine.close()
  })

  it('should honour auto_categories_limit, concept_topics_threshold and the auto_categories switch', async () => {
    const engine = createEngine({ background: false })
    const acct = engine.account(engine.defaultAccount)
    const text = 'Shares of the bank fell after the central bank raised interest rates, and investors sold stocks.'
    await acct.updateConfigurations({ concept_topics_threshold: 0, document: { auto_categories_limit: 2 } })
    const two = await engine.analyze(text)
    expect(two.auto_categories!.length).toBe(2)
    expect(two.auto_categories!.map((c) => c.title).sort()).toEqual(['Business and Finance', 'Personal Finance'])
    // A clear first category takes the whole confidence (up to 1): a threshold above its strength leaves nothing.
    const first = two.auto_categories![0]!.strength_score
    await acct.updateConfigurations({ concept_topics_threshold: first + 0.01 })
    expect(first).toBeLessThan(0.99)
    expect((await engine.analyze(text)).auto_categories).toBeUndefined()
    await acct.updateConfigurations({ concept_topics_threshold: 0.45, document: { auto_categories: false } })
    expect((await engine.analyze(text)).auto_categories).toBeUndefined()
    await engine.close()
  })

  it('should give no category to a text that nothing in the taxonomy is near, at the default threshold', async () => {
    const engine = createEngine({ background: false })
    for (const text of ['The staff were friendly, but the room was not clean. Tim Cook stayed here!', 'What a day!', 'I like it.', 'The meeting is at 3 pm on Tuesday.']) {
      expect((await engine.analyze(text)).auto_categories, text).toBeUndefined()
    }
    // A text plainly about something still gets it at the default threshold.
    const phone = await engine.analyze('Apple released a new iPhone with a faster chip, and the software update improves the camera app.')
    expect(phone.auto_categories![0]!.title).toBe('Technology & Computing')
    expect(phone.auto_categories![0]!.strength_score).toBeGreaterThanOrEqual(0.45)
    await engine.close()
  })

  it('should give the same bytes for the same text', async () => {
    const engine = createEngine({ background: false })
    const text = 'The new smartphone has a faster processor and a better camera.'
    const a = await engine.analyze(text, { id: 'x' })
    const b = await engine.analyze(text, { id: 'x' })
    expect(JSON.stringify(a.auto_categories)).toBe(JSON.stringify(b.auto_categories))
    expect(a.auto_categories![0]!.title).toBe('Technology & Computing')
    await engine.close()
  })
})

describe('auto_categories for news, reviews and tweets', () => {
  const top = async (text: string): Promise<string | undefined> => {
    const engine = createEngine({ background: false })
    await engine.account(engine.defaultAccount).updateConfigurations({ concept_topics_threshold: 0 })
    const out = await engine.analyze(text)
    await engine.close()
    return out.auto_categories?.[0]?.title
  }

  it('should file a news story, a review and a tweet under the tier-1 category a person would pick', async () => {
    expect(await top('The Senate passed the budget bill on Friday after Democrats and Republicans agreed on spending cuts, and the president is expected to sign it.')).toBe('Politics')
    expect(await top('Great little restaurant: the pasta was fresh, the pizza crust perfectly crispy and the tiramisu was the best dessert we had all week.')).toBe('Food & Drink')
    expect(await top('Unreal finish tonight!! Two goals in stoppage time and we are top of the league #matchday')).toBe('Sports')
  })

  it('should rank by the learned head as well as by similarity, and keep the similarity calibration for unrelated text', () => {
    const semantic = createSemanticModel()
    const annotator = createAnnotator()
    const text = categoryText(semantic.vectors, annotator.annotate('The Senate passed the budget bill after Democrats and Republicans agreed on spending cuts.'))
    const withHead = rankCategories(semantic, text)
    const without = rankCategories(semantic, text, { headWeight: 0 })
    expect(withHead[0]!.node.name).toBe('Politics')
    // The head shifts the shares, never the cosines the strength is calibrated from.
    expect(withHead.find((r) => r.node.name === 'Politics')!.cosine).toBe(without.find((r) => r.node.name === 'Politics')!.cosine)
    expect(withHead.find((r) => r.node.name === 'Politics')!.share).toBeGreaterThan(without.find((r) => r.node.name === 'Politics')!.share)
    const neutral = rankCategories(semantic, categoryText(semantic.vectors, annotator.annotate('The meeting is at 3 pm on Tuesday.')))
    expect(Math.max(...neutral.map((r) => r.strength))).toBeLessThan(0.2)
  })
})

describe('auto_categories reporting for long texts', () => {
  // A match report full of names: its mean vector is only 0.2 from the Sports branch (under the cosine floor),
  // but many of its words are nearest Sports nodes (golf, birdies, putt, fairway...).
  const report =
    'Rory McIlroy leads by four in Dubai. Rory McIlroy shot a 66 on Saturday to lead by four shots going into the final round of the Dubai Desert Classic. ' +
    'The Northern Irishman, who won here in 2009, made six birdies and one bogey at the Emirates Golf Club. Alex Noren of Sweden and Lee Westwood of England ' +
    'were tied for second after rounds of 68. Martin Kaymer and Thomas Bjorn were a further shot back. McIlroy holed a long putt on the 18th green after a ' +
    'wedge from the fairway, and said he was happy with his driving and his putting all week. Westwood birdied three of the last five holes. Noren, who has ' +
    'won four times on the European Tour, said the greens were fast and the wind made the back nine hard. The final round starts on Sunday morning.'

  it('should report the first category of a long text that many of its words are near, even when its cosine is low', async () => {
    const semantic = createSemanticModel()
    const text = categoryText(semantic.vectors, createAnnotator().annotate(report))
    const cosineOnly = rankCategories(semantic, text, { wordEvidence: false })
    expect(cosineOnly[0]!.node.name).toBe('Sports')
    expect(cosineOnly[0]!.cosine).toBeLessThan(COSINE_FLOOR)
    expect(cosineOnly[0]!.strength).toBe(0)
    const ranked = rankCategories(semantic, text)
    expect(ranked[0]!.node.name).toBe('Sports')
    expect(nodeEvidence(semantic, text)[ranked[0]!.node.index]!).toBeGreaterThan(WORD_EVIDENCE_FLOOR)
    expect(ranked[0]!.strength).toBeGreaterThan(0)
    const engine = createEngine({ background: false })
    await engine.account(engine.defaultAccount).updateConfigurations({ concept_topics_threshold: 0 })
    expect((await engine.analyze(report)).auto_categories?.[0]?.title).toBe('Sports')
    // Short texts that say nothing about a category still get none, even at threshold 0.
    for (const t of ["I can't believe how bad the service was", 'The meeting is on Tuesday.']) {
      expect((await engine.analyze(t)).auto_categories, t).toBeUndefined()
    }
    await engine.close()
  })
})

describe('features per language', () => {
  it('should offer auto_categories and concept topics for English (the one language analysed today)', async () => {
    const engine = createEngine({ background: false })
    const records = await engine.account(engine.defaultAccount).features()
    expect(records.find((r) => r.id === 'en')?.detailed_mode).toMatchObject({ auto_categories: true, concept_topics: true })
    expect(records.find((r) => r.id === 'en')?.discovery_mode).toMatchObject({ concept_topics: true })
    await engine.close()
  })
})

describe('concept topics by meaning', () => {
  it('should match "the concierge was rude" to samples staff, reception, service, and not an unrelated text', async () => {
    const engine = createEngine({ background: false })
    const acct = engine.account(engine.defaultAccount)
    await acct.updateConfigurations({ document: { concept_topics: true, mentions: true } })
    await acct.createTuning('categories', [{ name: 'Hotel staff', weight: 1, samples: ['staff', 'reception', 'service'] }])
    const out = await engine.analyze('We arrived late. The concierge was rude.')
    const topic = out.topics!.find((t) => t.type === 'concept')!
    expect(topic).toMatchObject({ title: 'Hotel staff', type: 'concept', sentiment_polarity: 'negative' })
    expect(topic.strength_score).toBeGreaterThanOrEqual(0.45)
    expect(topic.mentions!.map((m) => m.label)).toEqual(['concierge'])
    const unrelated = await engine.analyze('The volcano erupted and ash covered the valley.')
    expect(unrelated.topics?.some((t) => t.type === 'concept') ?? false).toBe(false)
    await engine.close()
  })

  it('should scale the strength by a weight under 1, so a light category needs more similarity', async () => {
    const engine = createEngine({ background: false })
    const acct = engine.account(engine.defaultAccount)
    await acct.updateConfigurations({ concept_topics_threshold: 0, document: { concept_topics: true } })
    await acct.createTuning('categories', [
      { name: 'Full', weight: 1, samples: ['staff', 'reception', 'service'] },
      { name: 'Half', weight: 0.5, samples: ['staff', 'reception', 'service'] },
    ])
    const out = await engine.analyze('The concierge was rude.')
    const by = new Map(out.topics!.filter((t) => t.type === 'concept').map((t) => [t.title, t.strength_score]))
    expect(by.get('Half')!).toBeCloseTo(by.get('Full')! / 2, 3)
    await engine.close()
  })
})
