import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { isEngineError } from '../../src/errors.ts'
import type { BasicSettings } from '../../src/model/account.ts'
import type { SettingsRecord } from '../../src/storage/types.ts'
import {
  cloneConfiguration, createConfigurations, deleteConfigurations, findConfiguration, listConfigurations,
  updateConfigurations, type ConfigurationContext,
} from '../../src/engine/configurations.ts'
import { DEFAULT_COLLECTION_SETTINGS, DEFAULT_DOCUMENT_SETTINGS, defaultConfigurationSettings } from '../../src/engine/settings.ts'
import { builtinTemplateSources } from '../../src/engine/templates.ts'
import { createTuning } from '../../src/engine/tuning.ts'

const LIMITS: BasicSettings = {
  collection_limit: 1000, auto_response_batch_limit: 100, configurations_limit: 6, concept_topics_limit: 100,
  query_topics_limit: 100, user_entities_limit: 1000, callback_batch_limit: 100, concept_topic_samples_limit: 20,
  return_source_text: false, characters_limit: 2048, blacklist_limit: 100, sentiment_phrases_limit: 1000,
  incoming_batch_limit: 100, document_length: 2048, polling_batch_limit: 100, summary_size_limit: 10,
  near_operator_limit: 5, near_operator_distance: 10, query_length_limit: 1500, queries_depth_limit: 5, queries_depth_level: 5,
}

const RUNS = { seed: 20261122, numRuns: 200 }

function context(now = 2_000): ConfigurationContext {
  let n = 0
  return { limits: LIMITS, supportedLanguages: 'English', nowSeconds: now, newId: () => `id${now}-${++n}`, templates: builtinTemplateSources() }
}

function seed(): SettingsRecord {
  return {
    version: 1,
    configurations: [{
      configuration: { ...defaultConfigurationSettings('English'), name: 'Main', is_primary: true, id: 'p', config_id: 'p', modified: 1 },
      tuning: { queries: [], categories: [], phrases: [], entities: [], blacklist: [], taxonomy: undefined },
      revision: 1,
    }],
  }
}

/** Valid values of every document and collection member. */
function blockArb(defaults: object): fc.Arbitrary<Record<string, unknown>> {
  const members: Record<string, fc.Arbitrary<unknown>> = {}
  for (const [k, v] of Object.entries(defaults)) {
    members[k] = typeof v === 'boolean' ? fc.boolean() : k === 'summary_size' ? fc.integer({ min: 0, max: 10 }) : fc.integer({ min: 0, max: 20 })
  }
  return fc.record(members, { requiredKeys: [] })
}

/** A valid partial settings patch as a client would send it. */
const patchArb = fc.record({
  auto_response: fc.boolean(),
  alphanumeric_threshold: fc.integer({ min: 0, max: 100 }),
  concept_topics_threshold: fc.double({ min: 0, max: 1, noNaN: true }),
  entities_threshold: fc.integer({ min: 0, max: 100 }),
  one_sentence_mode: fc.boolean(),
  process_html: fc.boolean(),
  callback: fc.constantFrom('https://example.com/a', 'http://localhost:8080/cb'),
  document: blockArb(DEFAULT_DOCUMENT_SETTINGS),
  collection: blockArb(DEFAULT_COLLECTION_SETTINGS),
}, { requiredKeys: [] })

const nameArb = fc.oneof(fc.string({ minLength: 1, maxLength: 50 }).filter((s) => s.trim() !== ''), fc.constant(''), fc.constant('x'.repeat(51)))

/** One request of a session, ids chosen by index into the configurations present when it runs. */
type Op =
  | { kind: 'create'; items: Array<{ name: string; is_primary: boolean; language: string; alphanumeric_threshold?: number }> }
  | { kind: 'update'; items: Array<{ pick: number | null; is_primary?: boolean; name?: string; alphanumeric_threshold?: number }> }
  | { kind: 'delete'; picks: number[]; unknown: boolean }
  | { kind: 'clone'; pick: number; name: string; is_primary: boolean }

const opArb: fc.Arbitrary<Op> = fc.oneof(
  fc.record({
    kind: fc.constant('create' as const),
    items: fc.array(fc.record({
      name: nameArb, is_primary: fc.boolean(), language: fc.constantFrom('English', 'en', 'Klingon'),
      alphanumeric_threshold: fc.integer({ min: -5, max: 110 }),
    }, { requiredKeys: ['name', 'is_primary', 'language'] }), { maxLength: 3 }),
  }),
  fc.record({
    kind: fc.constant('update' as const),
    items: fc.array(fc.record({
      pick: fc.option(fc.nat(8)), is_primary: fc.boolean(), name: nameArb, alphanumeric_threshold: fc.integer({ min: -5, max: 110 }),
    }, { requiredKeys: ['pick'] }), { minLength: 1, maxLength: 3 }),
  }),
  fc.record({ kind: fc.constant('delete' as const), picks: fc.array(fc.nat(8), { maxLength: 3 }), unknown: fc.boolean() }),
  fc.record({ kind: fc.constant('clone' as const), pick: fc.nat(8), name: nameArb, is_primary: fc.boolean() }),
)

function apply(record: SettingsRecord, op: Op, ctx: ConfigurationContext): SettingsRecord {
  const ids = record.configurations.map((s) => s.configuration.config_id)
  const idAt = (i: number): string => ids[i % ids.length]!
  switch (op.kind) {
    case 'create':
      return createConfigurations(record, op.items, ctx).record
    case 'update':
      return updateConfigurations(record, op.items.map(({ pick, ...rest }) => (pick === null ? rest : { ...rest, id: idAt(pick) })), ctx).record
    case 'delete':
      return deleteConfigurations(record, [...op.picks.map(idAt), ...(op.unknown ? ['unknown-id'] : [])]).record
    case 'clone':
      return cloneConfiguration(record, { template: idAt(op.pick), name: op.name, is_primary: op.is_primary }, ctx).record
  }
}

describe('configuration invariants', () => {
  it('should keep exactly one primary after any sequence of create, update, clone and delete, and leave the record untouched on refusal', () => {
    fc.assert(
      fc.property(fc.array(opArb, { maxLength: 12 }), (ops) => {
        let record = seed()
        ops.forEach((op, step) => {
          const before = structuredClone(record)
          let next: SettingsRecord
          try {
            next = apply(record, op, context(3_000 + step))
          } catch (e) {
            if (!isEngineError(e)) throw e
            next = record
          }
          // The given record is never mutated, whether the request succeeded or not.
          expect(record).toEqual(before)
          expect(next.configurations.filter((s) => s.configuration.is_primary)).toHaveLength(1)
          expect(next.configurations.length).toBeLessThanOrEqual(LIMITS.configurations_limit)
          expect(new Set(next.configurations.map((s) => s.configuration.config_id)).size).toBe(next.configurations.length)
          for (const s of next.configurations) expect(s.configuration.id).toBe(s.configuration.config_id)
          expect(next.version).toBeGreaterThanOrEqual(record.version)
          record = next
        })
      }),
      RUNS,
    )
  })

  it('should change only what a partial update sends', () => {
    fc.assert(
      fc.property(patchArb, patchArb, (first, patch) => {
        const base = updateConfigurations(seed(), first, context(2_000)).record
        const before = listConfigurations(base)[0]!
        const after = updateConfigurations(base, { id: 'p', ...patch }, context(4_000)).result[0]!
        const { document: pd = {}, collection: pc = {}, ...top } = patch
        const expectTop = { ...before, ...top, document: { ...before.document, ...pd }, collection: { ...before.collection, ...pc } }
        expect({ ...after, modified: 0 }).toEqual({ ...expectTop, modified: 0 })
        const changed = JSON.stringify({ ...after, modified: 0 }) !== JSON.stringify({ ...before, modified: 0 })
        expect(after.modified).toBe(changed ? 4_000 : before.modified)
        expect(findConfiguration(updateConfigurations(base, { id: 'p', ...patch }, context(4_000)).record, 'p').revision)
          .toBe(findConfiguration(base, 'p').revision + (changed ? 1 : 0))
      }),
      RUNS,
    )
  })

  it('should make a clone equal to its source but for id, name and modified', () => {
    const queryArb = fc.array(fc.record({ name: fc.stringMatching(/^[a-z]{1,10}$/), query: fc.constantFrom('a OR b', 'room* NOT restroom') }), { maxLength: 4 })
      .map((qs) => qs.filter((q, i) => qs.findIndex((o) => o.name === q.name) === i))
    fc.assert(
      fc.property(patchArb, queryArb, nameArb.filter((n) => n.trim() !== '' && n.length <= 50), (patch, queries, name) => {
        const base = updateConfigurations(seed(), patch, context(2_000)).record
        let k = 0
        const stored = queries.length === 0 ? base.configurations[0]! : createTuning(base.configurations[0]!, 'queries', queries, {
          limits: LIMITS, nowSeconds: 2_500, newId: () => `q${++k}`,
        }).stored
        const record: SettingsRecord = { version: base.version, configurations: [stored] }
        const r = cloneConfiguration(record, { template: 'p', name }, context(5_000))
        const clone = findConfiguration(r.record, r.result[0]!.id)
        const src = stored.configuration
        expect({ ...clone.configuration, id: '', config_id: '', name: '', modified: 0, is_primary: true })
          .toEqual({ ...src, id: '', config_id: '', name: '', modified: 0 })
        expect(clone.configuration.name).toBe(name)
        expect(clone.configuration.config_id).not.toBe(src.config_id)
        expect(clone.tuning).toEqual(stored.tuning)
      }),
      RUNS,
    )
  })

  it('should leave the record deep-equal to before when any request is refused', () => {
    fc.assert(
      fc.property(fc.constantFrom('create', 'update', 'delete', 'clone'), fc.anything(), (kind, input) => {
        const record = createConfigurations(seed(), [{ name: 'second', is_primary: false, language: 'English' }], context()).record
        const before = structuredClone(record)
        const run = (): unknown => {
          if (kind === 'create') return createConfigurations(record, input, context())
          if (kind === 'update') return updateConfigurations(record, input, context())
          if (kind === 'clone') return cloneConfiguration(record, input, context())
          return deleteConfigurations(record, input)
        }
        try {
          run()
        } catch (e) {
          if (!isEngineError(e)) throw e
        }
        expect(record).toEqual(before)
      }),
      RUNS,
    )
  })
})
