import { describe, expect, it } from 'vitest'
import { isEngineError } from '../../src/errors.ts'
import type { BasicSettings, Subscription } from '../../src/model/account.ts'
import type { SettingsRecord } from '../../src/storage/types.ts'
import {
  cloneConfiguration, createConfigurations, deleteConfigurations, findConfiguration, listConfigurations,
  settingsOperationContext, updateConfigurations, type ConfigurationContext,
} from '../../src/engine/configurations.ts'
import {
  DEFAULT_COLLECTION_SETTINGS, DEFAULT_DOCUMENT_SETTINGS, SUPPORTED_LANGUAGES, defaultConfigurationSettings, parseSettingsPatch,
} from '../../src/engine/settings.ts'
import { HOSPITALITY_TEMPLATE_ID, builtinTemplateSources } from '../../src/engine/templates.ts'
import { createTuning } from '../../src/engine/tuning.ts'

const LIMITS: BasicSettings = {
  collection_limit: 1000, auto_response_batch_limit: 100, configurations_limit: 5, concept_topics_limit: 100,
  query_topics_limit: 100, user_entities_limit: 1000, callback_batch_limit: 100, concept_topic_samples_limit: 20,
  return_source_text: false, characters_limit: 2048, blacklist_limit: 100, sentiment_phrases_limit: 1000,
  incoming_batch_limit: 100, document_length: 2048, polling_batch_limit: 100, summary_size_limit: 10,
  near_operator_limit: 5, near_operator_distance: 10, query_length_limit: 1500, queries_depth_limit: 5, queries_depth_level: 5,
}

function context(over: Partial<ConfigurationContext> = {}): ConfigurationContext {
  let n = 0
  return { limits: LIMITS, supportedLanguages: 'English', nowSeconds: 1_000, newId: () => `c${++n}`, templates: builtinTemplateSources(), ...over }
}

function seed(): SettingsRecord {
  const settings = defaultConfigurationSettings('English')
  return {
    version: 1,
    configurations: [{
      configuration: { ...settings, name: 'Main', is_primary: true, id: 'p', config_id: 'p', modified: 500 },
      tuning: { queries: [], categories: [], phrases: [], entities: [], blacklist: [], taxonomy: undefined },
      revision: 1,
    }],
  }
}

function codeOf(f: () => unknown): string | undefined {
  try {
    f()
  } catch (e) {
    if (isEngineError(e)) return e.code
    throw e
  }
  return undefined
}

function messageOf(f: () => unknown): string {
  try {
    f()
  } catch (e) {
    return (e as Error).message
  }
  return ''
}

describe('settings', () => {
  it('has the client-compat defaults', () => {
    const s = defaultConfigurationSettings('English')
    expect(s).toMatchObject({
      is_primary: false, auto_response: false, alphanumeric_threshold: 80, concept_topics_threshold: 0.45,
      entities_threshold: 55, one_sentence_mode: false, process_html: false, language: 'English',
    })
    expect(s.callback).toBeUndefined()
    expect(s.document.summary_size).toBe(3)
    expect(s.document.themes).toBe(false)
    expect(s.document.pos_types).toBeUndefined()
    expect(s.collection.facets_limit).toBe(15)
    expect(s.collection.user_entities_limit).toBe(15)
    expect(SUPPORTED_LANGUAGES[0]).toEqual({ name: 'English', code: 'en' })
  })

  it('accepts numbers and booleans sent as strings, and ignores nulls and unknown members', () => {
    const p = parseSettingsPatch({
      alphanumeric_threshold: '70', process_html: 'true', callback: null, whatever: 3,
      document: { themes_limit: '4', summary_size: 2, sentiment_phrases: null },
    }, 'c', LIMITS)
    expect(p).toEqual({ alphanumeric_threshold: 70, process_html: true, document: { themes_limit: 4, summary_size: 2 } })
  })

  it('reads the older names as aliases, the 4.2 name winning when both are sent', () => {
    expect(parseSettingsPatch({ chars_threshold: 60, categories_threshold: 0.3, one_sentence: true, auto_responding: true }, 'c', LIMITS))
      .toEqual({ alphanumeric_threshold: 60, concept_topics_threshold: 0.3, one_sentence_mode: true, auto_response: true })
    expect(parseSettingsPatch({ chars_threshold: 60, alphanumeric_threshold: 90 }, 'c', LIMITS)).toEqual({ alphanumeric_threshold: 90 })
  })

  it('names the path, the value and the range of a value out of range', () => {
    const msg = messageOf(() => createConfigurations(seed(), [
      { name: 'a', is_primary: false, language: 'English' },
      { name: 'b', is_primary: false, language: 'English', document: { themes_limit: 25 } },
    ], context()))
    expect(msg).toBe('configurations[1].document.themes_limit: expected an integer 0..20, found 25')
    expect(messageOf(() => parseSettingsPatch({ chars_threshold: 101 }, 'c', LIMITS))).toBe('c.chars_threshold: expected an integer 0..100, found 101')
  })

  it.each([
    [{ alphanumeric_threshold: 50.5 }],
    [{ alphanumeric_threshold: -1 }],
    [{ concept_topics_threshold: 1.5 }],
    [{ entities_threshold: 101 }],
    [{ auto_response: 'yes' }],
    [{ process_html: 1 }],
    [{ callback: 'ftp://example.com/x' }],
    [{ callback: 'not a url' }],
    [{ callback: 5 }],
    [{ document: 'all' }],
    [{ document: { summary_size: 11 } }],
    [{ document: { pos_types: 'Noun,Gerund' } }],
    [{ document: { pos_types: 'All,Noun' } }],
    [{ document: { named_entities_limit: '5x' } }],
    [{ collection: { facets: 'maybe' } }],
    [{ collection: [] }],
  ])('rejects a wrong setting %j', (input) => {
    expect(codeOf(() => parseSettingsPatch(input, 'c', LIMITS))).toBe('ERR_INVALID_FIELD')
  })

  it('bounds summary_size by the license', () => {
    expect(parseSettingsPatch({ document: { summary_size: 12 } }, 'c', { ...LIMITS, summary_size_limit: 12 })).toEqual({ document: { summary_size: 12 } })
  })

  it('normalizes pos_types and callbacks; an empty string unsets them', () => {
    const r = createConfigurations(seed(), { name: 'x', is_primary: false, language: 'en', callback: 'https://example.com/hook', document: { pos_types: 'noun, VERB,noun' } }, context())
    expect(r.result[0]!.document.pos_types).toBe('Noun,Verb')
    expect(r.result[0]!.callback).toBe('https://example.com/hook')
    expect(r.result[0]!.language).toBe('English')
    const u = updateConfigurations(r.record, { id: r.result[0]!.id, callback: '', document: { pos_types: '' } }, context())
    expect(u.result[0]!.callback).toBeUndefined()
    expect('callback' in u.result[0]!).toBe(false)
    expect(u.result[0]!.document.pos_types).toBeUndefined()
    expect(parseSettingsPatch({ document: { pos_types: 'all' } }, 'c', LIMITS)).toEqual({ document: { pos_types: 'All' } })
  })
})

describe('createConfigurations', () => {
  it('creates from an array or one object, echoing every stored value with id and config_id', () => {
    const r = createConfigurations(seed(), { name: 'Reviews', is_primary: false, language: 'English', document: { themes_limit: 7 } }, context())
    expect(r.result).toHaveLength(1)
    const c = r.result[0]!
    expect(c.id).toBe('c1')
    expect(c.config_id).toBe('c1')
    expect(c.modified).toBe(1_000)
    expect(c.document).toEqual({ ...DEFAULT_DOCUMENT_SETTINGS, themes_limit: 7 })
    expect(c.collection).toEqual(DEFAULT_COLLECTION_SETTINGS)
    expect(r.record.version).toBe(2)
    expect(listConfigurations(r.record).map((x) => x.id)).toEqual(['p', 'c1'])
    expect(findConfiguration(r.record, 'c1').revision).toBe(1)
  })

  it('does not mutate the record it is given', () => {
    const before = seed()
    const copy = structuredClone(before)
    createConfigurations(before, [{ name: 'New', is_primary: true, language: 'English' }], context())
    expect(before).toEqual(copy)
  })

  it('demotes the old primary when a new one is created', () => {
    const r = createConfigurations(seed(), [{ name: 'New', is_primary: true, language: 'English' }], context())
    const list = listConfigurations(r.record)
    expect(list.filter((c) => c.is_primary).map((c) => c.id)).toEqual(['c1'])
    const old = findConfiguration(r.record, 'p')
    expect(old.revision).toBe(2)
    expect(old.configuration.modified).toBe(1_000)
  })

  it.each([
    [{ is_primary: false, language: 'English' }, 'ERR_MISSING_FIELD'],
    [{ name: '', is_primary: false, language: 'English' }, 'ERR_INVALID_FIELD'],
    [{ name: '   ', is_primary: false, language: 'English' }, 'ERR_INVALID_FIELD'],
    [{ name: 'x'.repeat(51), is_primary: false, language: 'English' }, 'ERR_INVALID_FIELD'],
    [{ name: 'a', is_primary: 'sometimes', language: 'English' }, 'ERR_INVALID_FIELD'],
    [{ name: 'a', is_primary: false }, 'ERR_MISSING_FIELD'],
    [{ name: 'a', is_primary: false, language: 'Klingon' }, 'ERR_LANGUAGE_FORBIDDEN'],
    [{ name: 'a', is_primary: false, language: 7 }, 'ERR_INVALID_FIELD'],
    ['just a string', 'ERR_INVALID_FIELD'],
  ])('refuses %j with %s', (item, code) => {
    expect(codeOf(() => createConfigurations(seed(), [item], context()))).toBe(code)
  })

  it('creates a non-primary configuration from only a name and a language, as clients send it', () => {
    const r = createConfigurations(seed(), [{ name: 'a', language: 'English' }], context())
    expect(r.result).toHaveLength(1)
    expect(r.result[0]).toMatchObject({ name: 'a', is_primary: false, language: 'English' })
    expect(listConfigurations(r.record).filter((c) => c.is_primary).map((c) => c.id)).toEqual(['p'])
  })

  it('accepts a name of exactly 50 characters', () => {
    expect(createConfigurations(seed(), [{ name: 'x'.repeat(50), is_primary: false, language: 'English' }], context()).result[0]!.name).toHaveLength(50)
  })

  it('refuses a language the license does not list (403)', () => {
    const ctx = context({ supportedLanguages: 'French' })
    const f = (): unknown => createConfigurations(seed(), [{ name: 'a', is_primary: false, language: 'English' }], ctx)
    expect(codeOf(f)).toBe('ERR_LANGUAGE_FORBIDDEN')
    expect(messageOf(f)).toContain('"English"')
  })

  it('refuses switching on facets under a license without them (403), when the license features are given', () => {
    const licenseFeatures = { collection: { facets: false } } as unknown as ConfigurationContext['licenseFeatures'] & object
    const item = { name: 'a', is_primary: false, language: 'English', collection: { facets: true } }
    expect(codeOf(() => createConfigurations(seed(), [item], context({ licenseFeatures })))).toBe('ERR_FEATURE_FORBIDDEN')
    expect(codeOf(() => updateConfigurations(seed(), { collection: { attributes: 'true' } }, context({ licenseFeatures })))).toBe('ERR_FEATURE_FORBIDDEN')
    expect(codeOf(() => createConfigurations(seed(), [{ ...item, collection: { facets: false } }], context({ licenseFeatures })))).toBeUndefined()
    expect(codeOf(() => createConfigurations(seed(), [item], context()))).toBeUndefined()
  })

  it('enforces configurations_limit (406) counting what is stored', () => {
    const items = Array.from({ length: 5 }, (_, i) => ({ name: `n${i}`, is_primary: false, language: 'English' }))
    expect(codeOf(() => createConfigurations(seed(), items, context()))).toBe('ERR_RESOURCE_LIMIT')
    expect(createConfigurations(seed(), items.slice(0, 4), context()).result).toHaveLength(4)
  })

  it('refuses two primaries in one request', () => {
    const items = [{ name: 'a', is_primary: true, language: 'English' }, { name: 'b', is_primary: true, language: 'English' }]
    expect(codeOf(() => createConfigurations(seed(), items, context()))).toBe('ERR_INVALID_FIELD')
  })

  it('validates every item before anything changes', () => {
    const before = seed()
    const items = [{ name: 'ok', is_primary: true, language: 'English' }, { name: 'bad', is_primary: false, language: 'English', alphanumeric_threshold: 'x' }]
    expect(codeOf(() => createConfigurations(before, items, context()))).toBe('ERR_INVALID_FIELD')
    expect(before).toEqual(seed())
  })
})

describe('updateConfigurations', () => {
  it('merges only what is sent, nested blocks member-wise, nulls unchanged', () => {
    const r = updateConfigurations(seed(), [{ config_id: 'p', name: 'Renamed', auto_response: null, document: { themes_limit: 9, themes: null } }], context())
    const c = r.result[0]!
    expect(c.name).toBe('Renamed')
    expect(c.document).toEqual({ ...DEFAULT_DOCUMENT_SETTINGS, themes_limit: 9 })
    expect(c.auto_response).toBe(false)
    expect(c.modified).toBe(1_000)
    expect(findConfiguration(r.record, 'p').revision).toBe(2)
    expect(r.record.version).toBe(2)
  })

  it('updates the primary when no id is sent, and accepts `id` as well as `config_id`', () => {
    const created = createConfigurations(seed(), [{ name: 'other', is_primary: false, language: 'English' }], context())
    const a = updateConfigurations(created.record, { process_html: true }, context())
    expect(a.result[0]!.id).toBe('p')
    expect(a.result[0]!.process_html).toBe(true)
    const b = updateConfigurations(created.record, { id: 'c1', one_sentence: true }, context())
    expect(b.result[0]!.id).toBe('c1')
    expect(b.result[0]!.one_sentence_mode).toBe(true)
  })

  it('leaves the record as it is when nothing changes', () => {
    const record = seed()
    const r = updateConfigurations(record, { id: 'p', name: 'Main', language: 'english' }, context())
    expect(r.record).toBe(record)
    expect(r.result[0]!.modified).toBe(500)
  })

  it('refuses a language change, an unknown id, and unsetting the only primary', () => {
    expect(codeOf(() => updateConfigurations(seed(), { id: 'p', language: 'en' }, context()))).toBeUndefined()
    const change = (): unknown => updateConfigurations(seed(), { id: 'p', language: 'French' }, context({ supportedLanguages: 'English,French' }))
    expect(codeOf(change)).toBe('ERR_INVALID_FIELD')
    expect(messageOf(change)).toBe('configurations[0].language: the language of a configuration cannot change (it is English), found "French"')
    expect(codeOf(() => updateConfigurations(seed(), { id: 'zzz', name: 'x' }, context()))).toBe('ERR_UNKNOWN_CONFIGURATION')
    expect(codeOf(() => updateConfigurations(seed(), { id: 'p', is_primary: false }, context()))).toBe('ERR_PRIMARY_CONFIGURATION')
    expect(codeOf(() => updateConfigurations(seed(), { id: 'p', name: '' }, context()))).toBe('ERR_INVALID_FIELD')
  })

  it('moves the primary when another configuration is made primary', () => {
    const created = createConfigurations(seed(), [{ name: 'other', is_primary: false, language: 'English' }], context())
    const r = updateConfigurations(created.record, [{ id: 'c1', is_primary: true }], context())
    expect(listConfigurations(r.record).filter((c) => c.is_primary).map((c) => c.id)).toEqual(['c1'])
    // Unsetting the old primary in the same request is fine once another one is primary.
    const s = updateConfigurations(created.record, [{ id: 'p', is_primary: false }, { id: 'c1', is_primary: true }], context())
    expect(listConfigurations(s.record).filter((c) => c.is_primary).map((c) => c.id)).toEqual(['c1'])
  })

  it('changes nothing when a later item is invalid', () => {
    const record = seed()
    expect(codeOf(() => updateConfigurations(record, [{ id: 'p', name: 'ok' }, { id: 'p', document: { summary_limit: 21 } }], context()))).toBe('ERR_INVALID_FIELD')
    expect(record).toEqual(seed())
  })
})

describe('cloneConfiguration', () => {
  it('copies every setting and every tuning resource of an own configuration under a new id', () => {
    const tctx = { limits: LIMITS, nowSeconds: 900, newId: () => 'q1' }
    const tuned = createTuning(seed().configurations[0]!, 'queries', [{ name: 'Q', query: 'a OR b' }], tctx).stored
    const record: SettingsRecord = { version: 1, configurations: [tuned] }
    const r = createConfigurations(record, [{ template: 'p', name: 'Copy' }], context())
    const clone = findConfiguration(r.record, r.result[0]!.id)
    expect(clone.configuration.is_primary).toBe(false)
    expect(clone.configuration.name).toBe('Copy')
    expect(clone.configuration.config_id).not.toBe('p')
    expect(clone.tuning).toEqual(tuned.tuning)
    expect(clone.tuning).not.toBe(tuned.tuning)
    expect(r.result).toHaveLength(1)
  })

  it('clones the hospitality template with its queries, phrases and taxonomy', () => {
    const r = cloneConfiguration(seed(), { template: HOSPITALITY_TEMPLATE_ID, name: 'Hotels' }, context())
    const clone = findConfiguration(r.record, r.result[0]!.id)
    expect(clone.tuning.queries.map((q) => q.name)).toContain('Cleanliness')
    expect(clone.tuning.phrases).toContainEqual(expect.objectContaining({ name: 'dirty room', weight: -1.5 }))
    expect(clone.tuning.taxonomy?.name).toBe('Hospitality')
    expect(Object.keys(r.result[0]!)).not.toContain('rights')
    expect(r.result[0]!.language).toBe('English')
  })

  it('refuses a source whose tuning exceeds the license limits', () => {
    const e = messageOf(() => cloneConfiguration(seed(), { template: HOSPITALITY_TEMPLATE_ID, name: 'Hotels' }, context({ limits: { ...LIMITS, query_topics_limit: 2 } })))
    expect(e).toMatch(/^configurations\[0\]\.template: the source holds \d+ queries, over query_topics_limit 2$/)
  })

  it('refuses an unknown source, a missing name and a change of language', () => {
    expect(codeOf(() => cloneConfiguration(seed(), { template: 'nope', name: 'x' }, context()))).toBe('ERR_UNKNOWN_ITEM')
    expect(codeOf(() => cloneConfiguration(seed(), { template: 'p' }, context()))).toBe('ERR_INVALID_FIELD')
    expect(codeOf(() => cloneConfiguration(seed(), { name: 'x' }, context()))).toBe('ERR_MISSING_FIELD')
    expect(codeOf(() => cloneConfiguration(seed(), { template: 'p', name: 'x', language: 'French' }, context({ supportedLanguages: 'English,French' }))))
      .toBe('ERR_INVALID_FIELD')
    expect(cloneConfiguration(seed(), { template: 'p', name: 'x', language: 'en' }, context()).result[0]!.language).toBe('English')
  })
})

describe('deleteConfigurations', () => {
  const three = (): SettingsRecord =>
    createConfigurations(seed(), [{ name: 'a', is_primary: false, language: 'English' }, { name: 'b', is_primary: false, language: 'English' }], context()).record

  it('deletes by ids and answers them', () => {
    const r = deleteConfigurations(three(), ['c1', 'c2', 'c1'])
    expect(r.result).toEqual(['c1', 'c2'])
    expect(listConfigurations(r.record).map((c) => c.id)).toEqual(['p'])
    expect(r.record.version).toBe(3)
  })

  it('accepts objects with an id, and the decoded XML form {id: [...]}', () => {
    expect(deleteConfigurations(three(), [{ id: 'c1' }, { config_id: 'c2' }]).result).toEqual(['c1', 'c2'])
    expect(deleteConfigurations(three(), { id: ['c2', 'c1'] }).result).toEqual(['c2', 'c1'])
    expect(deleteConfigurations(three(), 'c1').result).toEqual(['c1'])
  })

  it('refuses the primary and unknown ids, deleting nothing', () => {
    const record = three()
    const copy = structuredClone(record)
    expect(codeOf(() => deleteConfigurations(record, ['c1', 'p']))).toBe('ERR_PRIMARY_CONFIGURATION')
    expect(codeOf(() => deleteConfigurations(record, ['c1', 'missing']))).toBe('ERR_UNKNOWN_CONFIGURATION')
    expect(codeOf(() => deleteConfigurations(record, [{}]))).toBe('ERR_INVALID_FIELD')
    expect(record).toEqual(copy)
  })
})

describe('settingsOperationContext', () => {
  it('takes limits and languages from a subscription and defaults to the built-in templates', () => {
    const subscription = {
      basic_settings: { ...LIMITS, configurations_limit: 2 },
      feature_settings: { supported_languages: 'English' },
    } as unknown as Subscription
    const ctx = settingsOperationContext({ subscription, nowSeconds: 7, newId: () => 'n' })
    expect(ctx.limits.configurations_limit).toBe(2)
    expect(ctx.supportedLanguages).toBe('English')
    expect(ctx.templates.map((t) => t.template.id)).toEqual(builtinTemplateSources().map((t) => t.template.id))
    expect(codeOf(() => createConfigurations(seed(), [{ name: 'a', is_primary: false, language: 'English' }, { name: 'b', is_primary: false, language: 'English' }], ctx)))
      .toBe('ERR_RESOURCE_LIMIT')
  })
})
