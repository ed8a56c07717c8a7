import { describe, expect, it } from 'vitest'
import { createEngine } from '../../src/engine/create-engine.ts'
import { isEngineError } from '../../src/errors.ts'

describe('query topics', () => {
  it('should report matching queries with hitcount, sentiment and byte mentions', async () => {
    const engine = createEngine({ background: false })
    const acct = engine.account(engine.defaultAccount)
    await acct.updateConfigurations({ document: { mentions: true } })
    await acct.createTuning('queries', [
      { name: 'Breakfast', query: 'breakfast OR buffet' },
      { name: 'Staff', query: 'staff NEAR/3 (friendly OR rude)' },
      { name: 'Pool', query: 'pool NOT "pool table"' },
    ])
    const text = 'The breakfast buffet was awful. The staff were very rude. We played at the pool table.'
    const out = await engine.analyze(text)
    const titles = out.topics!.map((t) => t.title)
    expect(titles).toEqual(['Breakfast', 'Staff'])
    const breakfast = out.topics![0]!
    expect(breakfast).toMatchObject({ type: 'query', hitcount: 2, sentiment_polarity: 'negative' })
    const loc = breakfast.mentions![0]!.locations[0]!
    expect(Buffer.from(text).subarray(loc.offset, loc.offset + loc.length).toString()).toBe('breakfast')
    await engine.close()
  })

  it('should refuse a query with a syntax error, naming line and column, and store nothing', async () => {
    const engine = createEngine({ background: false })
    const acct = engine.account(engine.defaultAccount)
    try {
      await acct.createTuning('queries', [{ name: 'ok', query: 'a OR b' }, { name: 'bad', query: 'room AND (clean' }])
      expect.unreachable()
    } catch (e) {
      expect(isEngineError(e) && e.code).toBe('ERR_QUERY_SYNTAX')
      expect((e as Error).message).toMatch(/line 1, column \d+/)
    }
    expect(await acct.listTuning('queries')).toEqual([])
    await expect(acct.createTuning('entities', [{ name: '+apple AND', type: 'Company' }])).rejects.toThrow(/syntax error/)
    await engine.close()
  })

  it('should nest taxonomy nodes and honour enforce_parent_matching', async () => {
    const engine = createEngine({ background: false })
    const acct = engine.account(engine.defaultAccount)
    const [food, coffee] = (await acct.createTuning('queries', [
      { name: 'Food', query: 'food OR breakfast' },
      { name: 'Coffee', query: 'coffee' },
    ])) as { id: string }[]
    await acct.createTuning('taxonomy', [
      {
        name: 'Hotel',
        nodes: [
          { name: 'Dining', topics: [{ id: food!.id, type: 'query' }], nodes: [{ name: 'Drinks', enforce_parent_matching: true, topics: [{ id: coffee!.id, type: 'query' }] }] },
        ],
      },
    ])
    const both = await engine.analyze('Breakfast was fine and the coffee was great.')
    const dining = both.taxonomy![0]!.topics!.find((t) => t.title === 'Dining')!
    expect(dining.topics!.map((t) => t.title)).toEqual(['Food', 'Drinks'])
    const coffeeOnly = await engine.analyze('The coffee was great.')
    expect(coffeeOnly.taxonomy).toBeUndefined()
    await engine.close()
  })

  it('should find topics of the hospitality template in a clone of it', async () => {
    const engine = createEngine({ background: false })
    const acct = engine.account(engine.defaultAccount)
    const [clone] = await acct.createConfigurations([{ name: 'hotels', template: 'hospitality-reviews-en' }])
    const out = await engine.analyze('The room was dirty but the staff at the front desk were lovely.', { configId: clone!.config_id })
    expect(out.topics!.map((t) => t.title)).toEqual(expect.arrayContaining(['Room', 'Staff', 'Cleanliness']))
    await engine.close()
  })
})

describe('the query language in user entities and sentiment phrases', () => {
  it('should find a + user entity by its query and label it as the configuration says', async () => {
    const engine = createEngine({ background: false })
    const acct = engine.account(engine.defaultAccount)
    await acct.createTuning('entities', [
      { name: '+"front desk" OR reception*', type: 'Department', label: 'Front office', normalized: 'Reception' },
      { name: 'Bellagio', type: 'Hotel' },
    ])
    const out = await engine.analyze('The receptionist at the Bellagio was kind, and the front desk was quick.')
    const users = out.entities!.filter((e) => e.type === 'user')
    expect(users.map((e) => [e.title, e.entity_type, e.label, e.evidence])).toEqual([
      ['Bellagio', 'Hotel', 'Hotel', 1],
      ['Reception', 'Department', 'Front office', 2],
    ])
    await engine.close()
  })

  it('should apply the weight of a sentiment phrase with operators to the words that matched it', async () => {
    const engine = createEngine({ background: false })
    const acct = engine.account(engine.defaultAccount)
    const text = 'The balcony is nice and faces the parking lot.'
    const before = await engine.analyze(text)
    await acct.createTuning('phrases', [{ name: 'balcony NEAR/8 "parking lot"', weight: -2 }])
    const after = await engine.analyze(text)
    expect(before.sentiment_polarity).toBe('positive')
    expect(after.sentiment_polarity).toBe('negative')
    expect(after.sentiment_score!).toBeLessThan(before.sentiment_score!)
    await engine.close()
  })
})

describe('concept topics', () => {
  it('should report a category whose samples occur, above concept_topics_threshold, and nest it in the taxonomy', async () => {
    const engine = createEngine({ background: false })
    const acct = engine.account(engine.defaultAccount)
    await acct.updateConfigurations({ document: { concept_topics: true } })
    const [wellness, nightlife] = (await acct.createTuning('categories', [
      { name: 'Wellness', weight: 1, samples: ['spa', 'massage', 'sauna', 'yoga'] },
      { name: 'Nightlife', weight: 1, samples: ['bar', 'club', 'cocktail'] },
    ])) as { id: string }[]
    await acct.createTuning('taxonomy', [{ name: 'Leisure', nodes: [{ name: 'Relax', topics: [{ id: wellness!.id, type: 'concept' }] }] }])
    const out = await engine.analyze('The spa was lovely and the massage even better. We skipped the bar.')
    const concepts = out.topics!.filter((t) => t.type === 'concept')
    // By meaning: the sentence about the spa and the massage is close to Wellness's samples (cosine 0.88);
    // "We skipped the bar." is close to Nightlife's (0.56), both over the 0.45 threshold; strongest first.
    expect(concepts.map((t) => [t.title, t.hitcount, t.strength_score])).toEqual([['Wellness', 2, 0.8761], ['Nightlife', 1, 0.5649]])
    expect(out.taxonomy![0]!.topics![0]!).toMatchObject({ title: 'Relax', type: 'node' })
    expect(out.taxonomy![0]!.topics![0]!.topics![0]!).toMatchObject({ title: 'Wellness', type: 'concept' })
    void nightlife
    const off = await engine.analyze('The spa was lovely and the massage even better.', {})
    expect(off.topics?.some((t) => t.type === 'concept')).toBe(true)
    await acct.updateConfigurations({ document: { concept_topics: false } })
    const none = await engine.analyze('The spa was lovely and the massage even better.')
    expect(none.topics?.some((t) => t.type === 'concept') ?? false).toBe(false)
    await engine.close()
  })
})
