import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { isEngineError } from '../../src/errors.ts'
import type { BasicSettings } from '../../src/model/account.ts'
import type { TaxonomyNode } from '../../src/model/tuning.ts'
import type { StoredConfiguration } from '../../src/storage/types.ts'
import type { TuningResource } from '../../src/engine/types.ts'
import { defaultConfigurationSettings } from '../../src/engine/settings.ts'
import { TUNING_RESOURCES, createTuning, deleteTuning, listTuning, updateTuning, type TuningContext } from '../../src/engine/tuning.ts'

const LIMITS: BasicSettings = {
  collection_limit: 1000, auto_response_batch_limit: 100, configurations_limit: 10, concept_topics_limit: 6,
  query_topics_limit: 6, user_entities_limit: 6, callback_batch_limit: 100, concept_topic_samples_limit: 5,
  return_source_text: false, characters_limit: 2048, blacklist_limit: 6, sentiment_phrases_limit: 6,
  incoming_batch_limit: 100, document_length: 2048, polling_batch_limit: 100, summary_size_limit: 10,
  near_operator_limit: 5, near_operator_distance: 10, query_length_limit: 200, queries_depth_limit: 5, queries_depth_level: 5,
}

const RUNS = { seed: 20261122, numRuns: 200 }

function ids(): () => string {
  let n = 0
  return () => `id${++n}`
}

function empty(): StoredConfiguration {
  return {
    configuration: { ...defaultConfigurationSettings('English'), name: 'Main', is_primary: true, id: 'p', config_id: 'p', modified: 1 },
    tuning: { queries: [], categories: [], phrases: [], entities: [], blacklist: [], taxonomy: undefined },
    revision: 1,
  }
}

/** A configuration holding a little of everything, taxonomy included. */
function populated(): StoredConfiguration {
  const ctx: TuningContext = { limits: LIMITS, nowSeconds: 100, newId: ids() }
  let s = empty()
  s = createTuning(s, 'queries', [{ name: 'Room', query: 'room*' }, { name: 'Food', query: 'food OR meal' }], ctx).stored
  s = createTuning(s, 'categories', [{ name: 'Amenities', samples: ['pool', 'spa'] }], ctx).stored
  s = createTuning(s, 'phrases', [{ name: 'dirty room', weight: -1.5 }], ctx).stored
  s = createTuning(s, 'entities', [{ name: 'Acme', type: 'Company' }], ctx).stored
  s = createTuning(s, 'blacklist', ['spam', 'bad*'], ctx).stored
  return createTuning(s, 'taxonomy', [{ name: 'T', nodes: [{ name: 'Stay', topics: [{ id: 'id1' }, { id: 'id3', type: 'concept' }] }] }], ctx).stored
}

const wordArb = fc.stringMatching(/^[a-z]{1,8}$/)

/** Items close to valid: sometimes right, sometimes wrong in one member. */
const itemArb: fc.Arbitrary<unknown> = fc.oneof(
  fc.record({ name: wordArb, query: fc.oneof(wordArb, fc.constant(''), fc.constant('x'.repeat(201))) }),
  fc.record({ name: wordArb, samples: fc.oneof(fc.array(wordArb, { maxLength: 7 }), wordArb), weight: fc.oneof(fc.double({ noNaN: true }), fc.string()) }),
  fc.record({ name: fc.array(wordArb, { minLength: 1, maxLength: 5 }).map((w) => w.join(' ')), weight: fc.double({ min: -3, max: 3, noNaN: true }) }),
  fc.record({ name: wordArb, type: fc.option(wordArb), label: fc.option(fc.string()) }),
  fc.record({ id: fc.constantFrom('id1', 'id2', 'id3', 'id4', 'id5', 'zz'), name: fc.option(wordArb), weight: fc.option(fc.integer({ min: -3, max: 3 })) }),
  fc.record({ name: wordArb, topics: fc.array(fc.record({ id: fc.constantFrom('id1', 'id2', 'id3', 'zz'), type: fc.constantFrom('query', 'QUERY', 'concept', 'x') }), { maxLength: 3 }) }),
  wordArb,
  fc.anything(),
)

/** Valid items of each list resource, so that sequences often reach the limits. */
const validItemArb: Record<'queries' | 'categories' | 'phrases' | 'entities' | 'blacklist', fc.Arbitrary<unknown>> = {
  queries: fc.record({ name: wordArb, query: wordArb }),
  categories: fc.record({ name: wordArb, samples: fc.array(wordArb, { minLength: 1, maxLength: 5 }) }),
  phrases: fc.record({ name: wordArb, weight: fc.integer({ min: -2, max: 2 }) }),
  entities: fc.record({ name: wordArb, type: wordArb }),
  blacklist: wordArb,
}

const requestArb = fc.oneof(
  fc.record({
    resource: fc.constantFrom(...TUNING_RESOURCES),
    op: fc.constantFrom('create', 'update', 'delete'),
    input: fc.oneof(fc.array(itemArb, { maxLength: 4 }), itemArb),
  }),
  fc.constantFrom('queries', 'categories', 'phrases', 'entities', 'blacklist' as const).chain((resource) =>
    fc.record({ resource: fc.constant(resource), op: fc.constant('create'), input: fc.array(validItemArb[resource], { minLength: 1, maxLength: 4 }) })),
)

function run(s: StoredConfiguration, r: { resource: TuningResource; op: string; input: unknown }, ctx: TuningContext): StoredConfiguration {
  if (r.op === 'create') return createTuning(s, r.resource, r.input, ctx).stored
  if (r.op === 'update') return updateTuning(s, r.resource, r.input, ctx).stored
  return deleteTuning(s, r.resource, r.input, ctx).stored
}

function topicsOf(n: TaxonomyNode): Array<{ id: string; type: string }> {
  return [...n.topics, ...n.nodes.flatMap(topicsOf)]
}

describe('tuning invariants', () => {
  it('should keep limits, unique ids and valid taxonomy references after any sequence of requests, never mutating its input', () => {
    fc.assert(
      fc.property(fc.array(requestArb, { maxLength: 10 }), (requests) => {
        let s = populated()
        const ctx: TuningContext = { limits: LIMITS, nowSeconds: 500, newId: ids() }
        for (const r of requests) {
          const before = structuredClone(s)
          let next = s
          try {
            next = run(s, r, ctx)
          } catch (e) {
            if (!isEngineError(e)) throw e
          }
          expect(s).toEqual(before)
          expect(next.revision).toBeGreaterThanOrEqual(s.revision)
          s = next
          const t = s.tuning
          expect(t.queries.length).toBeLessThanOrEqual(LIMITS.query_topics_limit)
          expect(t.categories.length).toBeLessThanOrEqual(LIMITS.concept_topics_limit)
          expect(t.phrases.length).toBeLessThanOrEqual(LIMITS.sentiment_phrases_limit)
          expect(t.entities.length).toBeLessThanOrEqual(LIMITS.user_entities_limit)
          expect(t.blacklist.length).toBeLessThanOrEqual(LIMITS.blacklist_limit)
          for (const c of t.categories) expect(c.samples.length).toBeLessThanOrEqual(LIMITS.concept_topic_samples_limit)
          for (const p of t.phrases) expect(p.weight >= -2 && p.weight <= 2).toBe(true)
          for (const list of [t.queries, t.categories, t.phrases, t.entities, t.blacklist]) {
            expect(new Set(list.map((x) => x.id)).size).toBe(list.length)
          }
          for (const topic of t.taxonomy === undefined ? [] : topicsOf(t.taxonomy)) {
            expect((topic.type === 'query' ? t.queries : t.categories).some((x) => x.id === topic.id)).toBe(true)
          }
        }
      }),
      RUNS,
    )
  })

  it('should leave the configuration deep-equal to before when a request is refused', () => {
    fc.assert(
      fc.property(requestArb, (r) => {
        const s = populated()
        const before = structuredClone(s)
        try {
          run(s, r, { limits: LIMITS, nowSeconds: 500, newId: ids() })
        } catch (e) {
          if (!isEngineError(e)) throw e
          expect(s).toEqual(before)
          return
        }
        expect(s).toEqual(before)
      }),
      RUNS,
    )
  })

  it('should change only what a partial update of a phrase sends', () => {
    fc.assert(
      fc.property(fc.option(wordArb), fc.option(fc.double({ min: -2, max: 2, noNaN: true })), (name, weight) => {
        const s = populated()
        const before = listTuning(s, 'phrases')[0] as { id: string; name: string; weight: number }
        const r = updateTuning(s, 'phrases', [{ id: before.id, name, weight }], { limits: LIMITS, nowSeconds: 900, newId: ids() })
        expect(r.result).toEqual([{ id: before.id, name: name ?? before.name, weight: weight ?? before.weight, modified: 900 }])
        for (const resource of TUNING_RESOURCES.filter((x) => x !== 'phrases')) expect(listTuning(r.stored, resource)).toEqual(listTuning(s, resource))
      }),
      RUNS,
    )
  })
})
