import { describe, expect, it } from 'vitest'
import { isEngineError } from '../../src/errors.ts'
import type { BasicSettings } from '../../src/model/account.ts'
import type { Category, Query, Taxonomy, UserEntity } from '../../src/model/tuning.ts'
import type { SettingsRecord, StoredConfiguration } from '../../src/storage/types.ts'
import { defaultConfigurationSettings } from '../../src/engine/settings.ts'
import {
  blacklistPattern, changeTuning, createTuning, deleteTuning, hasQueryOperators, listTuning, updateTuning,
  type QueryChecker, type TuningContext,
} from '../../src/engine/tuning.ts'

const LIMITS: BasicSettings = {
  collection_limit: 1000, auto_response_batch_limit: 100, configurations_limit: 10, concept_topics_limit: 3,
  query_topics_limit: 3, user_entities_limit: 3, callback_batch_limit: 100, concept_topic_samples_limit: 20,
  return_source_text: false, characters_limit: 2048, blacklist_limit: 4, sentiment_phrases_limit: 3,
  incoming_batch_limit: 100, document_length: 2048, polling_batch_limit: 100, summary_size_limit: 10,
  near_operator_limit: 5, near_operator_distance: 10, query_length_limit: 1500, queries_depth_limit: 5, queries_depth_level: 5,
}

function context(over: Partial<TuningContext> = {}): TuningContext {
  let n = 0
  return { limits: LIMITS, nowSeconds: 1_000, newId: () => `i${++n}`, ...over }
}

function empty(): StoredConfiguration {
  return {
    configuration: { ...defaultConfigurationSettings('English'), name: 'Main', is_primary: true, id: 'p', config_id: 'p', modified: 1 },
    tuning: { queries: [], categories: [], phrases: [], entities: [], blacklist: [], taxonomy: undefined },
    revision: 1,
  }
}

function caught(f: () => unknown): { code: string; message: string } | undefined {
  try {
    f()
  } catch (e) {
    if (isEngineError(e)) return { code: e.code, message: e.message }
    throw e
  }
  return undefined
}

/** A checker that refuses queries holding "??" at its position, as the real parser reports problems. */
const checker: QueryChecker = (text) => {
  const at = text.indexOf('??')
  return at < 0 ? [] : [{ line: 1, column: at + 1, message: 'unexpected "?"' }]
}

describe('queries', () => {
  it('creates with ids and modified, answers the stored items, bumps the revision', () => {
    const r = createTuning(empty(), 'queries', [{ name: 'Room', query: 'room* NOT restroom' }, { name: 'Food', query: 'food' }], context())
    expect(r.result).toEqual([
      { id: 'i1', name: 'Room', query: 'room* NOT restroom', modified: 1_000 },
      { id: 'i2', name: 'Food', query: 'food', modified: 1_000 },
    ])
    expect(r.stored.revision).toBe(2)
    expect(listTuning(r.stored, 'queries')).toEqual(r.result)
  })

  it('accepts one object as well as an array', () => {
    expect(createTuning(empty(), 'queries', { name: 'A', query: 'a' }, context()).result).toHaveLength(1)
  })

  it('checks names, lengths, uniqueness and the limit', () => {
    const s = empty()
    expect(caught(() => createTuning(s, 'queries', [{ query: 'a' }], context()))?.code).toBe('ERR_MISSING_FIELD')
    expect(caught(() => createTuning(s, 'queries', [{ name: 'x'.repeat(51), query: 'a' }], context()))?.code).toBe('ERR_INVALID_FIELD')
    expect(caught(() => createTuning(s, 'queries', [{ name: 'A', query: 'a'.repeat(1501) }], context()))?.message)
      .toBe('queries[0].query: 1501 characters, the limit is 1500')
    expect(createTuning(s, 'queries', [{ name: 'A', query: 'a'.repeat(1500) }], context()).result).toHaveLength(1)
    expect(caught(() => createTuning(s, 'queries', [{ name: 'A', query: 'a' }, { name: 'a', query: 'b' }], context()))?.code).toBe('ERR_INVALID_FIELD')
    const four = [1, 2, 3, 4].map((i) => ({ name: `q${i}`, query: 'x' }))
    const limit = caught(() => createTuning(s, 'queries', four, context()))
    expect(limit?.code).toBe('ERR_RESOURCE_LIMIT')
    expect(limit?.message).toContain('query_topics_limit 3')
  })

  it('fails with ERR_QUERY_SYNTAX naming the item, line and column', () => {
    const e = caught(() => createTuning(empty(), 'queries', [{ name: 'ok', query: 'a' }, { name: 'bad', query: 'a AND ??' }], context({ checkQuery: checker })))
    expect(e?.code).toBe('ERR_QUERY_SYNTAX')
    expect(e?.message).toContain('queries[1].query: syntax error at line 1, column 7')
  })

  it('updates by id, only the members sent; an unknown id changes nothing', () => {
    const s = createTuning(empty(), 'queries', [{ name: 'A', query: 'a' }, { name: 'B', query: 'b' }], context()).stored
    const r = updateTuning(s, 'queries', [{ id: 'i2', query: 'b OR c', name: null }], context({ nowSeconds: 2_000 }))
    expect(r.result).toEqual([{ id: 'i2', name: 'B', query: 'b OR c', modified: 2_000 }])
    expect((r.stored.tuning.queries[0] as Query).modified).toBe(1_000)
    const before = structuredClone(s)
    expect(caught(() => updateTuning(s, 'queries', [{ id: 'i1', name: 'Z' }, { id: 'nope', name: 'Y' }], context()))?.code).toBe('ERR_UNKNOWN_ITEM')
    expect(caught(() => updateTuning(s, 'queries', [{ name: 'Y' }], context()))?.code).toBe('ERR_MISSING_FIELD')
    expect(caught(() => updateTuning(s, 'queries', [{ id: 'i1', name: 'B' }], context()))?.code).toBe('ERR_INVALID_FIELD')
    expect(s).toEqual(before)
  })

  it('deletes by ids; an unknown id deletes nothing; the taxonomy loses deleted topics', () => {
    let s = createTuning(empty(), 'queries', [{ name: 'A', query: 'a' }, { name: 'B', query: 'b' }], context()).stored
    s = createTuning(s, 'taxonomy', [{ name: 'T', topics: [{ id: 'i1', type: 'query' }, { id: 'i2', type: 'QUERY' }] }], context({ newId: () => 'root' })).stored
    expect(caught(() => deleteTuning(s, 'queries', ['i1', 'zz'], context()))?.code).toBe('ERR_UNKNOWN_ITEM')
    expect(deleteTuning(s, 'queries', { id: ['i2', 'i1'] }, context()).result).toEqual(['i2', 'i1'])
    const r = deleteTuning(s, 'queries', ['i1'], context())
    expect(r.result).toEqual(['i1'])
    expect(listTuning(r.stored, 'queries')).toHaveLength(1)
    expect(r.stored.tuning.taxonomy?.topics).toEqual([{ id: 'i2', type: 'query' }])
  })
})

describe('categories', () => {
  it('accepts samples as an array or a comma-separated string, weight as a numeric string', () => {
    const r = createTuning(empty(), 'categories', [
      { name: 'Amenities', weight: '0.5', samples: 'pool, spa,, gym' },
      { name: 'Food', samples: ['pizza', 'pasta', 'pizza'] },
    ], context())
    expect(r.result).toEqual([
      { id: 'i1', name: 'Amenities', weight: 0.5, samples: ['pool', 'spa', 'gym'], modified: 1_000 },
      { id: 'i2', name: 'Food', weight: 1, samples: ['pizza', 'pasta'], modified: 1_000 },
    ])
  })

  it('limits samples to concept_topic_samples_limit and refuses empty or wrong samples', () => {
    const samples = Array.from({ length: 21 }, (_, i) => `s${i}`)
    expect(caught(() => createTuning(empty(), 'categories', [{ name: 'A', samples }], context()))?.code).toBe('ERR_RESOURCE_LIMIT')
    expect(createTuning(empty(), 'categories', [{ name: 'A', samples: samples.slice(0, 20) }], context()).result).toHaveLength(1)
    expect(caught(() => createTuning(empty(), 'categories', [{ name: 'A', samples: ' , ' }], context()))?.code).toBe('ERR_INVALID_FIELD')
    expect(caught(() => createTuning(empty(), 'categories', [{ name: 'A', samples: [1] }], context()))?.code).toBe('ERR_INVALID_FIELD')
    expect(caught(() => createTuning(empty(), 'categories', [{ name: 'A', samples: ['a'], weight: 'heavy' }], context()))?.code).toBe('ERR_INVALID_FIELD')
  })

  it('updates samples and keeps the weight when it is not sent', () => {
    const s = createTuning(empty(), 'categories', [{ name: 'A', weight: 2, samples: ['a'] }], context()).stored
    const r = updateTuning(s, 'categories', [{ id: 'i1', samples: 'b,c' }], context())
    expect((r.result[0] as Category)).toMatchObject({ weight: 2, samples: ['b', 'c'] })
  })
})

describe('sentiment phrases', () => {
  it('takes names of up to three words and weights -2..2, numeric strings included', () => {
    const r = createTuning(empty(), 'phrases', [{ name: 'friendly staff', weight: 1.5 }, { name: 'dirty room', weight: '-1.5' }], context())
    expect(r.result).toEqual([
      { id: 'i1', name: 'friendly staff', weight: 1.5, modified: 1_000 },
      { id: 'i2', name: 'dirty room', weight: -1.5, modified: 1_000 },
    ])
  })

  it.each([
    [{ name: 'one two three four', weight: 1 }, 'ERR_INVALID_FIELD'],
    [{ name: 'ok', weight: 2.5 }, 'ERR_INVALID_FIELD'],
    [{ name: 'ok', weight: -2.01 }, 'ERR_INVALID_FIELD'],
    [{ name: 'ok' }, 'ERR_MISSING_FIELD'],
    [{ name: 'ok', weight: 'x' }, 'ERR_INVALID_FIELD'],
    [{ weight: 1 }, 'ERR_MISSING_FIELD'],
  ])('refuses %j', (item, code) => {
    expect(caught(() => createTuning(empty(), 'phrases', [item], context()))?.code).toBe(code)
  })

  it('allows longer phrases with query operators, checked by the query checker', () => {
    expect(createTuning(empty(), 'phrases', [{ name: 'staff NEAR/3 (rude OR unfriendly OR impolite)', weight: -2 }], context()).result).toHaveLength(1)
    expect(caught(() => createTuning(empty(), 'phrases', [{ name: 'staff AND ??', weight: 1 }], context({ checkQuery: checker })))?.code).toBe('ERR_QUERY_SYNTAX')
    expect(hasQueryOperators('not bad at all')).toBe(false)
    expect(hasQueryOperators('good NOT bad')).toBe(true)
    expect(hasQueryOperators('"very good"')).toBe(true)
  })

  it('enforces sentiment_phrases_limit counting stored phrases', () => {
    const s = createTuning(empty(), 'phrases', [{ name: 'a', weight: 1 }, { name: 'b', weight: 1 }], context()).stored
    expect(caught(() => createTuning(s, 'phrases', [{ name: 'c', weight: 1 }, { name: 'd', weight: 1 }], context()))?.code).toBe('ERR_RESOURCE_LIMIT')
  })
})

describe('user entities', () => {
  it('requires name and type, keeps label and normalized, checks "+" queries', () => {
    const r = createTuning(empty(), 'entities', [
      { name: 'Acme', type: 'Company', label: 'Vendor', normalized: 'ACME Corp' },
      { name: '+(acme OR "acme corp") NOT anvil', type: 'Company' },
    ], context({ checkQuery: checker }))
    expect(r.result).toEqual([
      { id: 'i1', name: 'Acme', type: 'Company', label: 'Vendor', normalized: 'ACME Corp', modified: 1_000 },
      { id: 'i2', name: '+(acme OR "acme corp") NOT anvil', type: 'Company', modified: 1_000 },
    ])
    expect(caught(() => createTuning(empty(), 'entities', [{ name: 'Acme' }], context()))?.code).toBe('ERR_MISSING_FIELD')
    expect(caught(() => createTuning(empty(), 'entities', [{ name: '+a ??', type: 'X' }], context({ checkQuery: checker })))?.code).toBe('ERR_QUERY_SYNTAX')
    expect(caught(() => createTuning(empty(), 'entities', [{ name: '+', type: 'X' }], context()))?.code).toBe('ERR_QUERY_SYNTAX')
  })

  it('clears label with an empty string and keeps it on null', () => {
    const s = createTuning(empty(), 'entities', [{ name: 'Acme', type: 'Company', label: 'Vendor' }], context()).stored
    expect((updateTuning(s, 'entities', [{ id: 'i1', label: null, type: 'Brand' }], context()).result[0] as UserEntity))
      .toEqual({ id: 'i1', name: 'Acme', type: 'Brand', label: 'Vendor', modified: 1_000 })
    expect(updateTuning(s, 'entities', [{ id: 'i1', label: '' }], context()).result[0]).not.toHaveProperty('label')
  })
})

describe('blacklist', () => {
  it('adds strings, keeping one item per name', () => {
    const r = createTuning(empty(), 'blacklist', ['spam', 'bad*', 'SPAM'], context())
    expect(r.result).toEqual([
      { id: 'i1', name: 'spam', modified: 1_000 },
      { id: 'i2', name: 'bad*', modified: 1_000 },
      { id: 'i1', name: 'spam', modified: 1_000 },
    ])
    expect(listTuning(r.stored, 'blacklist')).toHaveLength(2)
  })

  it('enforces blacklist_limit', () => {
    expect(caught(() => createTuning(empty(), 'blacklist', ['a', 'b', 'c', 'd', 'e'], context()))?.code).toBe('ERR_RESOURCE_LIMIT')
  })

  it('on update, a pattern replaces the items it covers', () => {
    const s = createTuning(empty(), 'blacklist', ['badly', 'badness', 'good'], context()).stored
    const r = updateTuning(s, 'blacklist', ['bad*'], context({ nowSeconds: 2_000, newId: () => 'n1' }))
    expect(r.result).toEqual([{ id: 'n1', name: 'bad*', modified: 2_000 }])
    expect(listTuning(r.stored, 'blacklist')).toEqual([{ id: 'i3', name: 'good', modified: 1_000 }, { id: 'n1', name: 'bad*', modified: 2_000 }])
  })

  it('answers only items still stored when a later pattern replaces an earlier string', () => {
    const r = updateTuning(empty(), 'blacklist', ['badly', 'bad*', 'good'], context())
    expect(r.result.map((b) => (b as { name: string }).name)).toEqual(['bad*', 'good'])
    expect(listTuning(r.stored, 'blacklist').map((b) => (b as { name: string }).name)).toEqual(['bad*', 'good'])
  })

  it('deletes by name, id or pattern; a string matching nothing deletes nothing', () => {
    const s = createTuning(empty(), 'blacklist', ['badly', 'badness', 'good', 'fine'], context()).stored
    expect(deleteTuning(s, 'blacklist', ['bad*'], context()).result).toEqual(['i1', 'i2'])
    expect(deleteTuning(s, 'blacklist', ['GOOD', 'i4'], context()).result).toEqual(['i3', 'i4'])
    expect(caught(() => deleteTuning(s, 'blacklist', ['good', 'x*'], context()))?.code).toBe('ERR_UNKNOWN_ITEM')
    expect(blacklistPattern('a.b*').test('A.Bcd')).toBe(true)
    expect(blacklistPattern('a.b*').test('axb')).toBe(false)
  })
})

describe('taxonomy', () => {
  function withTopics(): StoredConfiguration {
    let k = 0
    const s = createTuning(empty(), 'queries', [{ name: 'Room', query: 'room' }, { name: 'Food', query: 'food' }], context({ newId: () => `q${++k}` }))
      .stored
    return createTuning(s, 'categories', [{ name: 'Amenities', samples: ['pool'] }], context({ newId: () => 'c1' })).stored
  }

  it('creates one taxonomy whose topics reference existing queries and categories', () => {
    const r = createTuning(withTopics(), 'taxonomy', [{
      name: 'Hotel', nodes: [
        { name: 'Stay', enforce_parent_matching: true, topics: [{ id: 'q1', type: 'QUERY' }, { id: 'c1', type: 'concept' }] },
        { name: 'Dining', topics: [{ id: 'q2', type: 'query' }] },
      ],
    }], context())
    const t = r.result[0] as Taxonomy
    expect(t).toMatchObject({ name: 'Hotel', timestamp: 1_000, topics: [] })
    expect(t.nodes.map((n) => [n.name, n.enforce_parent_matching, n.topics])).toEqual([
      ['Stay', true, [{ id: 'q1', type: 'query' }, { id: 'c1', type: 'concept' }]],
      ['Dining', false, [{ id: 'q2', type: 'query' }]],
    ])
    expect(listTuning(r.stored, 'taxonomy')).toEqual([t])
    expect(caught(() => createTuning(r.stored, 'taxonomy', [{ name: 'Again' }], context()))?.code).toBe('ERR_RESOURCE_LIMIT')
  })

  it('refuses topics that do not exist, deep trees and two taxonomies', () => {
    const s = withTopics()
    expect(caught(() => createTuning(s, 'taxonomy', [{ name: 'T', topics: [{ id: 'c1', type: 'query' }] }], context()))?.code).toBe('ERR_UNKNOWN_ITEM')
    expect(caught(() => createTuning(s, 'taxonomy', [{ name: 'T', topics: [{ id: 'q1', type: 'facet' }] }], context()))?.code).toBe('ERR_INVALID_FIELD')
    const deep = (levels: number): Record<string, unknown> => (levels === 0 ? { name: 'leaf' } : { name: `l${levels}`, nodes: [deep(levels - 1)] })
    expect(createTuning(s, 'taxonomy', [{ name: 'root', nodes: [deep(4)] }], context()).result).toHaveLength(1)
    expect(caught(() => createTuning(s, 'taxonomy', [{ name: 'root', nodes: [deep(5)] }], context()))?.code).toBe('ERR_RESOURCE_LIMIT')
    expect(caught(() => createTuning(s, 'taxonomy', [{ name: 'a' }, { name: 'b' }], context()))?.code).toBe('ERR_RESOURCE_LIMIT')
  })

  it('updates by node id: adds nodes and topics, renames, sets enforce_parent_matching', () => {
    let n = 0
    const ctx = context({ newId: () => `n${++n}` })
    const s = createTuning(withTopics(), 'taxonomy', [{ name: 'Hotel', nodes: [{ name: 'Stay', topics: [{ id: 'q1' }] }] }], ctx).stored
    // ids in document order: root n1, child n2
    const r = updateTuning(s, 'taxonomy', [
      { id: 'n2', topics: [{ id: 'q1', type: 'query' }, { id: 'c1', type: 'concept' }], enforce_parent_matching: 'true', nodes: [{ name: 'Beds' }] },
      { id: 'n1', name: 'Hotels' },
    ], context({ nowSeconds: 3_000, newId: () => 'n9' }))
    const t = r.result[0] as Taxonomy
    expect(t.name).toBe('Hotels')
    expect(t.timestamp).toBe(3_000)
    expect(t.nodes[0]).toEqual({
      id: 'n2', name: 'Stay', enforce_parent_matching: true,
      topics: [{ id: 'q1', type: 'query' }, { id: 'c1', type: 'concept' }],
      nodes: [{ id: 'n9', name: 'Beds', enforce_parent_matching: false, topics: [], nodes: [] }],
    })
    expect(caught(() => updateTuning(s, 'taxonomy', [{ id: 'zz', name: 'x' }], context()))?.code).toBe('ERR_UNKNOWN_ITEM')
    expect(caught(() => updateTuning(empty(), 'taxonomy', [{ id: 'n1' }], context()))?.code).toBe('ERR_UNKNOWN_ITEM')
  })

  it('deletes the whole taxonomy or some nodes', () => {
    let n = 0
    const s = createTuning(withTopics(), 'taxonomy', [{ name: 'Hotel', nodes: [{ name: 'A' }, { name: 'B' }] }], context({ newId: () => `n${++n}` })).stored
    expect(deleteTuning(s, 'taxonomy', undefined, context()).stored.tuning.taxonomy).toBeUndefined()
    const some = deleteTuning(s, 'taxonomy', ['n2'], context())
    expect(some.stored.tuning.taxonomy?.nodes.map((x) => x.name)).toEqual(['B'])
    expect(deleteTuning(s, 'taxonomy', ['n1'], context()).stored.tuning.taxonomy).toBeUndefined()
    expect(caught(() => deleteTuning(s, 'taxonomy', ['n2', 'zz'], context()))?.code).toBe('ERR_UNKNOWN_ITEM')
    expect(deleteTuning(empty(), 'taxonomy', undefined, context()).result).toEqual([])
  })
})

describe('changeTuning', () => {
  it('applies to the primary when no id is given, bumping the record version', () => {
    const record: SettingsRecord = { version: 7, configurations: [empty()] }
    const r = changeTuning(record, undefined, (s) => createTuning(s, 'queries', [{ name: 'A', query: 'a' }], context()))
    expect(r.record.version).toBe(8)
    expect(r.record.configurations[0]!.tuning.queries).toHaveLength(1)
    expect(record.configurations[0]!.tuning.queries).toHaveLength(0)
    expect(caught(() => changeTuning(record, 'nope', (s) => createTuning(s, 'queries', [], context())))?.code).toBe('ERR_UNKNOWN_CONFIGURATION')
    const same = changeTuning(record, 'p', (s) => createTuning(s, 'queries', [], context()))
    expect(same.record).toBe(record)
  })
})
