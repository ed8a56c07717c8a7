import { describe, expect, it } from 'vitest'
import { createEngine } from '../../src/engine/create-engine.ts'

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
})
