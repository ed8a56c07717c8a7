import { describe, expect, it } from 'vitest'
import { createEngine } from '../../src/engine/create-engine.ts'
import { aggregateParts, discoveryPart, type CollectionPart, type DiscoveryPart } from '../../src/pipeline/discovery.ts'
import type { Configuration } from '../../src/model/configuration.ts'
import type { Analyzer } from '../../src/pipeline/types.ts'
import type { Facet } from '../../src/model/output.ts'

/** Discovery output of `texts` under the default configuration changed by `collection`. */
async function discover(texts: readonly string[], collection: Record<string, unknown> = {}) {
  const engine = createEngine({ background: false })
  await engine.account(engine.defaultAccount).updateConfigurations({ collection })
  const out = await engine.analyzeCollection([...texts], { id: 'd' })
  await engine.close()
  return out
}
const facet = (facets: readonly Facet[] | undefined, label: string): Facet | undefined => facets?.find((f) => f.label === label)
const attributes = (f: Facet | undefined): Record<string, number> => Object.fromEntries((f?.attributes ?? []).map((a) => [a.label, a.count]))

const reviews = [
  'The room was clean and the staff were friendly. Great location near Central Park.',
  'Our room was clean, but the breakfast was cold. The staff were friendly.',
  'Terrible room service. The room was dirty and noisy.',
  'Tim Cook stayed here. The location is great and the staff were helpful.',
  '%%%% ####',
]

describe('Discovery mode', () => {
  it('should aggregate facets with attributes, themes and entities over a collection', async () => {
    const engine = createEngine({ background: false })
    await engine.account(engine.defaultAccount).updateConfigurations({ collection: { mentions: true, named_mentions_limit: 5, facet_mentions_limit: 2 } })
    const out = await engine.analyzeCollection(reviews, { id: 'c1' })
    expect(out).toMatchObject({ id: 'c1', status: 'PROCESSED', docs_count: 5 })
    const room = out.facets!.find((f) => f.label === 'room')!
    expect(room.count).toBeGreaterThanOrEqual(3)
    expect(room.positive_count + room.negative_count + room.neutral_count).toBe(room.count)
    expect(room.attributes?.find((a) => a.label === 'clean')?.count).toBe(2)
    const staff = out.facets!.find((f) => f.label === 'staff')!
    expect(staff.attributes?.map((a) => a.label)).toContain('friendly')
    expect(out.themes!.length).toBeGreaterThan(0)
    const tim = out.entities!.find((e) => e.title === 'Tim Cook')!
    expect(tim).toMatchObject({ type: 'named', entity_type: 'Person', count: 1 })
    const loc = tim.mentions![0]!.locations[0]!
    expect(loc.index).toBe(3)
    expect(Buffer.from(reviews[3]!).subarray(loc.offset, loc.offset + loc.length).toString()).toBe('Tim Cook')
    await engine.close()
  })

  it('should process a queued collection and fail one with nothing to analyse', async () => {
    const engine = createEngine()
    const acct = engine.account(engine.defaultAccount)
    await acct.submitCollection({ id: 'ok', documents: reviews.slice(0, 2) }, {})
    await acct.submitCollection({ id: 'bad', documents: ['%%%% ####'] }, {})
    await engine.drain()
    const got = await acct.takeProcessedCollections({})
    expect(got.map((c) => [c.id, c.status]).sort()).toEqual([
      ['bad', 'FAILED'],
      ['ok', 'PROCESSED'],
    ])
    await engine.close()
  })

  it('should count query topics over the collection', async () => {
    const engine = createEngine({ background: false })
    const acct = engine.account(engine.defaultAccount)
    await acct.createTuning('queries', [
      { name: 'Cleanliness', query: 'clean OR dirty' },
      { name: 'Parking', query: 'parking' },
    ])
    const out = await engine.analyzeCollection(reviews, { id: 'q' })
    expect(out.topics).toEqual([
      expect.objectContaining({ title: 'Cleanliness', type: 'query', hitcount: 3 }),
    ])
    await engine.close()
  })

  it('should give the same collection output twice', async () => {
    const engine = createEngine({ background: false })
    const a = JSON.stringify(await engine.analyzeCollection(reviews, { id: 'x' }))
    expect(JSON.stringify(await engine.analyzeCollection(reviews, { id: 'x' }))).toBe(a)
    await engine.close()
  })

  it('should count breakfast by what each review says of it: "terrible breakfast" and "breakfast was cold" are negative', async () => {
    const out = await discover([
      'Terrible breakfast. The room was fine.',
      'The breakfast was cold.',
      'Great breakfast and friendly staff.',
      'The breakfast was delicious.',
      'Lovely breakfast with fresh fruit.',
      'Good breakfast, good coffee.',
      'We had breakfast on the terrace.',
      'The breakfast was cold and the eggs were raw.',
    ])
    const breakfast = facet(out.facets, 'breakfast')!
    expect(breakfast).toMatchObject({ count: 8, negative_count: 3, positive_count: 4, neutral_count: 1 })
    expect(attributes(breakfast)).toEqual({ cold: 2 })
  })

  it('should give each facet mention its own negation instead of negating every mention of a label', async () => {
    const out = await discover(
      ['I would not recommend this hotel.', 'The hotel was lovely.', 'Great hotel, great staff.', 'The hotel is near the beach and the hotel bar is fun.'],
      { mentions: true, facet_mentions_limit: 5 },
    )
    const mentions = facet(out.facets, 'hotel')!.mentions!
    const negated = mentions.filter((m) => m.is_negated)
    expect(negated).toHaveLength(1)
    expect(negated[0]).toMatchObject({ label: 'hotel', negating_phrase: 'not', locations: [{ index: 0 }] })
    const plain = mentions.find((m) => !m.is_negated)!
    expect(plain.locations.map((l) => l.index)).toEqual([1, 2, 3])
  })

  it('should state location attributes said in any form: "perfect location", "the location is perfect", "central location"', async () => {
    const out = await discover([
      'Perfect location.',
      'The location is perfect and the rooms are clean.',
      'Central location and clean rooms.',
      'We loved the central location near the station.',
      'Great location!',
      'The location was great, but the room was small.',
      'The room was small and dark.',
    ])
    expect(attributes(facet(out.facets, 'location'))).toEqual({ central: 2, great: 2, perfect: 2 })
    expect(attributes(facet(out.facets, 'room'))).toEqual({ clean: 2, small: 2 })
  })

  it('should read review titles written in title case as the common words they are ("Clean Rooms And Friendly Staff")', async () => {
    const out = await discover([
      'Great Location But Noisy Rooms',
      'Friendly Staff, Clean Rooms And A Great Breakfast',
      'Worst Hotel Ever - Dirty Rooms',
      'The staff were rude and the rooms were dirty.',
      'Clean rooms and friendly staff.',
    ])
    // Read as names, the titles' "Rooms" and "Staff" outnumbered the lower-case ones and no facet was left but a "room" of two.
    expect(facet(out.facets, 'room')?.count).toBe(5)
    expect(attributes(facet(out.facets, 'room'))).toEqual({ clean: 2, dirty: 2 })
    expect(attributes(facet(out.facets, 'staff'))).toEqual({ friendly: 2 })
    expect(out.themes!.map((t) => t.title)).toEqual(expect.arrayContaining(['clean rooms', 'friendly staff']))
  })

  it('should read attributes from relative clauses, participles and negations, and not negate praise', async () => {
    const out = await discover([
      'We got a room that was clean. The staff could not have been more helpful.',
      'A room that was clean, staff who were helpful. The carpet was not clean and the rooms are dated.',
      'The carpet was not clean. The rooms are dated.',
    ])
    expect(attributes(facet(out.facets, 'room'))).toEqual({ clean: 2, dated: 2 })
    expect(attributes(facet(out.facets, 'staff'))).toEqual({ helpful: 2 })
    expect(attributes(facet(out.facets, 'carpet'))).toEqual({ 'not clean': 2 })
  })

  it('should make a compound the facet where its head mostly stands in it ("wine list"), and keep "hotel room" as "room"', async () => {
    const texts = ['The wine list was expensive.', 'An expensive wine list.', 'The room was clean. The hotel room was quiet.', 'The room was clean.']
    const out = await discover(texts, { mentions: true, facet_mentions_limit: 3 })
    const list = facet(out.facets, 'wine list')!
    expect(attributes(list)).toEqual({ expensive: 2 })
    const loc = list.mentions![0]!.locations[0]!
    expect(list.mentions![0]!.label).toBe('wine list')
    expect(Buffer.from(texts[0]!).subarray(loc.offset, loc.offset + loc.length).toString()).toBe('wine list')
    expect(facet(out.facets, 'room')!.count).toBe(3)
    expect(facet(out.facets, 'hotel room')).toBeUndefined()
  })

  it('should leave out words that are no facets ("book", "choice", "hour", "line", the "amp" of "&amp;")', async () => {
    const out = await discover([
      'Book early for the best rates. The room was clean.',
      'We waited two hours in line for the buffet. The room was nice.',
      'A good choice for families. The room was clean and quiet.',
      'There was a long line at check-in and we waited an hour. Nice room.',
      'Good choice of restaurants, but the line was long. The room was spacious.',
      'Book a room with a view. The room was clean.',
      'The pool &amp; spa were great. The room was clean.',
    ])
    const labels = (out.facets ?? []).map((f) => f.label)
    expect(labels).toContain('room')
    for (const junk of ['book', 'choice', 'hour', 'line', 'amp']) expect(labels).not.toContain(junk)
  })

  it('should respect the facet limits and report a facet+attribute pair only from two occurrences', async () => {
    const texts = ['The room was clean and the staff were friendly.', 'The room was clean and quiet.', 'The staff were friendly. The pool was warm.', 'Clean room, rude staff.']
    const all = await discover(texts)
    expect(attributes(facet(all.facets, 'room'))).toEqual({ clean: 3 })
    expect(attributes(facet(all.facets, 'staff'))).toEqual({ friendly: 2 })
    const limited = await discover(texts, { facets_limit: 1, facet_atts_limit: 1 })
    expect(limited.facets).toHaveLength(1)
    expect(limited.facets![0]!.label).toBe('room')
    const none = await discover(texts, { attributes: false })
    expect(none.facets!.every((f) => f.attributes === undefined)).toBe(true)
  })
})

/** The default account's primary configuration. */
async function primary(): Promise<Configuration> {
  const engine = createEngine({ background: false })
  const list = await engine.account(engine.defaultAccount).listConfigurations()
  await engine.close()
  return list[0]!
}

describe('Discovery aggregation', () => {
  const part = (index: number, entities: DiscoveryPart['entities']): DiscoveryPart => ({ index, words: 10, facets: [], names: [], themes: [], entities, topics: [] })
  const bellagio = (entity_type: string): DiscoveryPart['entities'][number] => ({
    type: 'named', entity_type, title: 'Bellagio', label: entity_type, polarity: 'positive', mentions: [],
  })

  it('should merge an entity split over types into one, of the type most texts gave it', async () => {
    const config = await primary()
    const parts = [
      ...[0, 1, 2, 3].map((i) => part(i, [bellagio('Place')])),
      part(4, [bellagio('Person')]),
      part(5, [bellagio('Company'), { ...bellagio('Place'), title: 'bellagio' }]),
    ]
    const out = aggregateParts(parts, config, { id: 'c', config_id: 'x', status: 'PROCESSED' }, () => 'neutral')
    expect(out.entities).toEqual([
      { title: 'Bellagio', label: 'Place', type: 'named', entity_type: 'Place', count: 6, negative_count: 0, positive_count: 6, neutral_count: 0 },
    ])
  })

  it('should keep facets the collection uses more than everyday English does, and leave names out', async () => {
    const config = await primary()
    const occurrence = (facet: string, zipf: number, casing: 'lower' | 'name' | 'initial' = 'lower') => ({
      facet, label: facet, offset: 0, length: facet.length, negated: false, polarity: 'neutral' as const, casing, zipf, attributes: [],
    })
    // 20,000 words: two occurrences are 100,000 per billion (zipf 5.0).
    const parts: DiscoveryPart[] = [0, 1].map((index) => ({
      index, words: 10_000, names: index === 0 ? ['bellagio', 'bellagio'] : [], themes: [], entities: [], topics: [],
      facets: [occurrence('buffet', 3.6), occurrence('job', 5.5), occurrence('bellagio', 1.5)],
    }))
    const out = aggregateParts(parts, config, { id: 'k', config_id: 'x', status: 'PROCESSED' }, () => 'neutral')
    expect(out.facets!.map((f) => f.label)).toEqual(['buffet'])
  })

  it('should aggregate the same from parts that crossed a thread boundary (plain JSON)', async () => {
    const texts = ['The room was clean and the staff were friendly.', 'The room was clean. I would not recommend this hotel to Tim Cook.']
    const captured: CollectionPart[] = []
    const probe: Analyzer = {
      name: 'discovery_test_probe',
      needs: ['sentiment', 'themes', 'entities', 'topics'],
      enabled: (ctx) => ctx.mode === 'discovery',
      run(doc, sections) {
        captured.push({ index: captured.length, doc, sections: { ...sections } })
        return undefined
      },
    }
    const engine = createEngine({ background: false, analyzers: [probe] })
    await engine.account(engine.defaultAccount).updateConfigurations({ collection: { mentions: true, facet_mentions_limit: 3, attribute_mentions_limit: 2 } })
    const cfg = (await engine.account(engine.defaultAccount).listConfigurations())[0]!
    const expected = await engine.analyzeCollection(texts, { id: 'j' })
    await engine.close()
    const parts = captured.map((p) => JSON.parse(JSON.stringify(discoveryPart(p, cfg))) as DiscoveryPart)
    const polarityOf = captured[0]!.sections.sentiment!.polarityOf
    const again = aggregateParts(parts, cfg, { id: 'j', config_id: cfg.config_id, status: 'PROCESSED', docs_count: 2 }, polarityOf)
    expect(again.facets).toEqual(expected.facets)
    expect(again.entities).toEqual(expected.entities)
    expect(again.themes).toEqual(expected.themes)
  })
})

