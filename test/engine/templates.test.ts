import { describe, expect, it } from 'vitest'
import type { BasicSettings } from '../../src/model/account.ts'
import type { TaxonomyNode } from '../../src/model/tuning.ts'
import type { StoredConfiguration } from '../../src/storage/types.ts'
import { SUPPORTED_LANGUAGES, defaultConfigurationSettings, parseSettingsPatch } from '../../src/engine/settings.ts'
import {
  HOSPITALITY_TEMPLATE_ID, builtinTemplateSources, builtinTemplates, emptyTuning, languageDefaultTemplateId,
} from '../../src/engine/templates.ts'
import { createTuning } from '../../src/engine/tuning.ts'

const LIMITS: BasicSettings = {
  collection_limit: 1000, auto_response_batch_limit: 100, configurations_limit: 10, concept_topics_limit: 100,
  query_topics_limit: 100, user_entities_limit: 1000, callback_batch_limit: 100, concept_topic_samples_limit: 20,
  return_source_text: false, characters_limit: 2048, blacklist_limit: 100, sentiment_phrases_limit: 1000,
  incoming_batch_limit: 100, document_length: 2048, polling_batch_limit: 100, summary_size_limit: 10,
  near_operator_limit: 5, near_operator_distance: 10, query_length_limit: 1500, queries_depth_limit: 5, queries_depth_level: 5,
}

/** Balanced quotes and parentheses, and no operator at either end of a group (client-compat §8). */
function looksLikeAQuery(q: string): boolean {
  if ((q.match(/"/g) ?? []).length % 2 !== 0) return false
  let depth = 0
  for (const ch of q.replace(/"[^"]*"/g, '""')) {
    if (ch === '(') depth++
    if (ch === ')') depth--
    if (depth < 0) return false
  }
  if (depth !== 0) return false
  const op = /^(AND|OR|NOT|WITH|NOTWITH|NEAR\/\d+)$/
  const words = q.replace(/"[^"]*"/g, 'TERM').replace(/([()])/g, ' $1 ').trim().split(/\s+/)
  return words.every((w, i) => !op.test(w) || (i > 0 && i < words.length - 1 && words[i - 1] !== '(' && words[i + 1] !== ')' && !op.test(words[i + 1]!)))
}

describe('built-in templates', () => {
  it('has a language default for every supported language, with the default settings', () => {
    const templates = builtinTemplates()
    for (const lang of SUPPORTED_LANGUAGES) {
      const t = templates.find((x) => x.id === languageDefaultTemplateId(lang.code))
      expect(t).toBeDefined()
      const { id, config_id, name, modified, rights, version, type, is_free, ...settings } = t!
      expect(config_id).toBe(id)
      expect(type).toBe('language-default')
      expect({ ...settings, name: 'x' }).toEqual({ ...defaultConfigurationSettings(lang.name), name: 'x' })
      expect(name).toContain(lang.name)
      expect(Number.isInteger(modified)).toBe(true)
      expect(Array.isArray(rights)).toBe(true)
      expect(typeof version).toBe('string')
      expect(is_free).toBe(true)
    }
  })

  it('has a hotel and restaurant pack whose settings pass the setting checks', () => {
    const pack = builtinTemplateSources().find((s) => s.template.id === HOSPITALITY_TEMPLATE_ID)!
    expect(pack.template.type).toBe('vertical-pack')
    expect(pack.template.is_primary).toBe(false)
    const { document, collection } = pack.template
    expect(parseSettingsPatch({ document, collection }, 'pack', LIMITS)).toEqual({ document, collection })
    expect(pack.tuning.queries.map((q) => q.name)).toEqual(expect.arrayContaining(['Cleanliness', 'Staff', 'Food', 'Price', 'Location', 'Room']))
    expect(pack.tuning.phrases).toEqual(expect.arrayContaining([
      expect.objectContaining({ name: 'friendly staff', weight: 1.5 }),
      expect.objectContaining({ name: 'dirty room', weight: -1.5 }),
    ]))
  })

  it('holds tuning that the tuning checks accept, queries in the boolean query syntax', () => {
    for (const { template, tuning } of builtinTemplateSources()) {
      const stored: StoredConfiguration = {
        configuration: { ...template, id: 'x', config_id: 'x' }, tuning: emptyTuning(), revision: 1,
      }
      let n = 0
      const ctx = { limits: LIMITS, nowSeconds: 1, newId: () => `t${++n}`, checkQuery: (q: string) => (looksLikeAQuery(q) ? [] : [{ line: 1, column: 1, message: 'malformed' }]) }
      let s = stored
      for (const resource of ['queries', 'categories', 'phrases', 'entities'] as const) {
        if (tuning[resource].length > 0) s = createTuning(s, resource, tuning[resource], ctx).stored
      }
      expect(s.tuning.queries.map((q) => q.query)).toEqual(tuning.queries.map((q) => q.query))
      // Every taxonomy topic points at a query or category of the template.
      const topics = (node: TaxonomyNode): Array<{ id: string; type: string }> => [...node.topics, ...node.nodes.flatMap(topics)]
      for (const topic of tuning.taxonomy === undefined ? [] : topics(tuning.taxonomy)) {
        const pool = topic.type === 'query' ? tuning.queries : tuning.categories
        expect(pool.map((x) => x.id)).toContain(topic.id)
      }
      // Item ids are unique within each resource.
      for (const list of [tuning.queries, tuning.categories, tuning.phrases]) expect(new Set(list.map((x) => x.id)).size).toBe(list.length)
    }
  })

  it('gives every caller its own copy', () => {
    const a = builtinTemplateSources()
    a[0]!.template.document.themes_limit = 20
    a[1]!.tuning.queries.length = 0
    const b = builtinTemplateSources()
    expect(b[0]!.template.document.themes_limit).toBe(0)
    expect(b[1]!.tuning.queries.length).toBeGreaterThan(0)
  })

  it('the test query shape check refuses malformed queries', () => {
    expect(looksLikeAQuery('a OR (b AND c)')).toBe(true)
    expect(looksLikeAQuery('a OR (b AND c')).toBe(false)
    expect(looksLikeAQuery('OR a')).toBe(false)
    expect(looksLikeAQuery('"a b')).toBe(false)
    expect(looksLikeAQuery('(a AND) b')).toBe(false)
  })
})
