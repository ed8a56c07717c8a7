/**
 * Configurations of one account as pure functions over a {@link SettingsRecord}: list, create, update,
 * clone and delete. Each change validates the whole request first, then answers a new record (the input
 * record is never mutated) with `version` + 1 and `revision` + 1 on every configuration that changed, so the
 * facade can do load -> apply -> save-if-unchanged. Exactly one configuration is primary before and after.
 */
import { fail, show } from '../errors.ts'
import type { BasicSettings, FeatureSettings, Subscription } from '../model/account.ts'
import type { Configuration, ConfigurationSettings } from '../model/configuration.ts'
import type { Tuning } from '../model/tuning.ts'
import type { SettingsRecord, StoredConfiguration } from '../storage/types.ts'
import {
  applySettingsPatch, defaultConfigurationSettings, findLanguage, isPlainObject, parseSettingsPatch, resolveLanguage, toBoolean,
  type SettingsPatch,
} from './settings.ts'
import { builtinTemplateSources, emptyTuning, type TemplateSource } from './templates.ts'

/** What configuration changes need besides the record. */
export interface ConfigurationContext {
  /** The license's limits (`configurations_limit`, `summary_size_limit`). */
  readonly limits: BasicSettings
  /** The license's `supported_languages`: a comma-separated string or a list of names or codes. */
  readonly supportedLanguages: string | readonly string[]
  /** Epoch seconds stamped as `modified`. */
  readonly nowSeconds: number
  /** A fresh, unique configuration id. */
  readonly newId: () => string
  /** Templates that `{template, name}` may clone besides the account's own configurations. */
  readonly templates: readonly TemplateSource[]
  /**
   * The license's features. When given, explicitly switching on Discovery facets (`collection.facets` or
   * `collection.attributes` sent as true) under a license without facets is ERR_FEATURE_FORBIDDEN (403),
   * as the contract says for create. @defaultValue no feature check
   */
  readonly licenseFeatures?: FeatureSettings
}

/** Refuse a patch that switches on a feature the license forbids (only facets are named by the contract). */
function checkFeatures(patch: SettingsPatch, path: string, ctx: ConfigurationContext): void {
  if (ctx.licenseFeatures === undefined || ctx.licenseFeatures.collection.facets) return
  for (const key of ['facets', 'attributes'] as const) {
    if (patch.collection?.[key] === true) {
      fail('ERR_FEATURE_FORBIDDEN', `${path}.collection.${key}: Discovery facets are not supported by the license`, `${path}.collection.${key}`)
    }
  }
}

/** A new record and what to answer the caller. */
export interface ConfigurationChange<R> {
  readonly record: SettingsRecord
  readonly result: R
}

/** Longest configuration name. */
export const CONFIGURATION_NAME_LIMIT = 50

/** A configuration in wire order: identity first, then settings, then the nested blocks. */
export function toWireConfiguration(c: Configuration): Configuration {
  const out: Configuration = {
    id: c.id,
    config_id: c.config_id,
    name: c.name,
    is_primary: c.is_primary,
    language: c.language,
    modified: c.modified,
    auto_response: c.auto_response,
    alphanumeric_threshold: c.alphanumeric_threshold,
    concept_topics_threshold: c.concept_topics_threshold,
    entities_threshold: c.entities_threshold,
    one_sentence_mode: c.one_sentence_mode,
    process_html: c.process_html,
    document: { ...c.document },
    collection: { ...c.collection },
  }
  if (c.callback !== undefined) out.callback = c.callback
  return out
}

/** Every configuration of the record, stored order, as on the wire. */
export function listConfigurations(record: SettingsRecord): Configuration[] {
  return record.configurations.map((s) => toWireConfiguration(s.configuration))
}

/** The primary configuration of a record (there is always exactly one). */
export function primaryConfiguration(record: SettingsRecord): StoredConfiguration {
  const p = record.configurations.find((s) => s.configuration.is_primary)
  if (p === undefined) fail('ERR_INTERNAL', 'the settings record holds no primary configuration')
  return p
}

/**
 * The configuration with this id, or the primary when `configId` is undefined or empty.
 * ERR_UNKNOWN_CONFIGURATION (400) when no configuration has the id.
 */
export function findConfiguration(record: SettingsRecord, configId?: string, path = 'config_id'): StoredConfiguration {
  if (configId === undefined || configId === '') return primaryConfiguration(record)
  const found = record.configurations.find((s) => s.configuration.config_id === configId)
  if (found === undefined) fail('ERR_UNKNOWN_CONFIGURATION', `${path}: no configuration with id ${show(configId)}`, path)
  return found
}

/** The items of a create or update body: an array, or one object. */
function itemsOf(input: unknown, path: string): Record<string, unknown>[] {
  const list = Array.isArray(input) ? input : [input]
  return list.map((item, i) => {
    if (!isPlainObject(item)) fail('ERR_INVALID_FIELD', `${path}[${i}]: expected a configuration object, found ${show(item)}`, `${path}[${i}]`)
    return item
  })
}

/** A present, non-null member. */
function given(item: Record<string, unknown>, key: string): boolean {
  return item[key] !== undefined && item[key] !== null
}

/** An id given as a string or a number (ids are strings on the wire; some clients send numbers). */
function idOf(value: unknown, path: string): string {
  if (typeof value === 'string' && value.trim() !== '') return value.trim()
  if (typeof value === 'number' && Number.isFinite(value)) return String(value)
  return fail('ERR_INVALID_FIELD', `${path}: expected an id string, found ${show(value)}`, path)
}

function checkName(value: unknown, path: string): string {
  if (typeof value !== 'string' || value.trim() === '') {
    fail('ERR_INVALID_FIELD', `${path}: expected a non-empty name of at most ${CONFIGURATION_NAME_LIMIT} characters, found ${show(value)}`, path)
  }
  if (value.length > CONFIGURATION_NAME_LIMIT) {
    fail('ERR_INVALID_FIELD', `${path}: name is ${value.length} characters, the limit is ${CONFIGURATION_NAME_LIMIT}`, path)
  }
  return value
}

function checkPrimary(value: unknown, path: string): boolean {
  const b = toBoolean(value)
  if (b === undefined) fail('ERR_INVALID_FIELD', `${path}: expected true or false, found ${show(value)}`, path)
  return b
}

/** Settings only (identity stripped), e.g. of a template or a stored configuration. */
function settingsOf(c: ConfigurationSettings): ConfigurationSettings {
  const out: ConfigurationSettings = {
    name: c.name,
    is_primary: c.is_primary,
    language: c.language,
    auto_response: c.auto_response,
    alphanumeric_threshold: c.alphanumeric_threshold,
    concept_topics_threshold: c.concept_topics_threshold,
    entities_threshold: c.entities_threshold,
    one_sentence_mode: c.one_sentence_mode,
    process_html: c.process_html,
    document: structuredClone(c.document),
    collection: structuredClone(c.collection),
  }
  if (c.callback !== undefined) out.callback = c.callback
  return out
}

/** A configuration to add: its settings and tuning, validated. */
interface Planned {
  readonly settings: ConfigurationSettings
  readonly tuning: Tuning
}

/** Validate a `{template, name, …}` item against the record and the templates; answers what to add. */
function planClone(record: SettingsRecord, item: Record<string, unknown>, path: string, ctx: ConfigurationContext): Planned {
  const templateId = idOf(item['template'], `${path}.template`)
  const own = record.configurations.find((s) => s.configuration.config_id === templateId)
  const tpl = own === undefined ? ctx.templates.find((t) => t.template.config_id === templateId || t.template.id === templateId) : undefined
  if (own === undefined && tpl === undefined) {
    fail('ERR_UNKNOWN_ITEM', `${path}.template: no configuration or template with id ${show(templateId)}`, `${path}.template`)
  }
  const source = own?.configuration ?? tpl!.template
  const tuning = own?.tuning ?? tpl!.tuning
  // A template's language must still be licensed; an own configuration's language already is.
  resolveLanguage(source.language, `${path}.template`, ctx.supportedLanguages)
  const name = checkName(item['name'], `${path}.name`)
  if (given(item, 'language')) {
    const v = item['language']
    if (typeof v !== 'string' || findLanguage(v)?.name !== source.language) {
      fail('ERR_INVALID_FIELD', `${path}.language: a clone keeps the language of its source (${source.language}), found ${show(item['language'])}`, `${path}.language`)
    }
  }
  const isPrimary = given(item, 'is_primary') ? checkPrimary(item['is_primary'], `${path}.is_primary`) : false
  const patch = parseSettingsPatch(item, path, ctx.limits)
  checkFeatures(patch, path, ctx)
  const settings = applySettingsPatch({ ...settingsOf(source), name, is_primary: isPrimary }, patch)
  // The copy must fit this license's tuning limits (a template, or limits lowered since the source was tuned).
  const counts: ReadonlyArray<readonly [keyof Tuning, keyof BasicSettings]> = [
    ['queries', 'query_topics_limit'], ['categories', 'concept_topics_limit'], ['phrases', 'sentiment_phrases_limit'],
    ['entities', 'user_entities_limit'], ['blacklist', 'blacklist_limit'],
  ]
  for (const [resource, limitName] of counts) {
    const count = (tuning[resource] as readonly unknown[]).length
    const limit = ctx.limits[limitName] as number
    if (count > limit) {
      fail('ERR_RESOURCE_LIMIT', `${path}.template: the source holds ${count} ${resource}, over ${limitName} ${limit}`, `${path}.template`)
    }
  }
  return { settings, tuning: structuredClone(tuning) }
}

function planCreate(item: Record<string, unknown>, path: string, ctx: ConfigurationContext): Planned {
  if (!given(item, 'name')) fail('ERR_MISSING_FIELD', `${path}.name: a name is required`, `${path}.name`)
  const name = checkName(item['name'], `${path}.name`)
  // Clients create configurations with only a name and a language (client-compat §9): not primary unless asked.
  const isPrimary = given(item, 'is_primary') ? checkPrimary(item['is_primary'], `${path}.is_primary`) : false
  if (!given(item, 'language')) fail('ERR_MISSING_FIELD', `${path}.language: a language is required, such as "English"`, `${path}.language`)
  const language = resolveLanguage(item['language'], `${path}.language`, ctx.supportedLanguages)
  const patch = parseSettingsPatch(item, path, ctx.limits)
  checkFeatures(patch, path, ctx)
  const settings = applySettingsPatch({ ...defaultConfigurationSettings(language), name, is_primary: isPrimary }, patch)
  return { settings, tuning: emptyTuning() }
}

/** Copy of a stored configuration, demoted from primary, with a new revision and `modified`. */
function demoted(s: StoredConfiguration, now: number): StoredConfiguration {
  return { ...s, configuration: { ...s.configuration, is_primary: false, modified: now }, revision: s.revision + 1 }
}

function addAll(record: SettingsRecord, planned: readonly Planned[], ctx: ConfigurationContext): ConfigurationChange<Configuration[]> {
  if (planned.length === 0) return { record, result: [] }
  const limit = ctx.limits.configurations_limit
  if (record.configurations.length + planned.length > limit) {
    fail('ERR_RESOURCE_LIMIT', `configurations: ${record.configurations.length} stored + ${planned.length} new exceeds configurations_limit ${limit}`, 'configurations')
  }
  const primaries = planned.filter((p) => p.settings.is_primary).length
  if (primaries > 1) fail('ERR_INVALID_FIELD', `configurations: ${primaries} items have is_primary true; at most one configuration can be primary`, 'configurations')
  const now = ctx.nowSeconds
  const taken = new Set(record.configurations.map((s) => s.configuration.config_id))
  const added: StoredConfiguration[] = planned.map((p) => {
    const id = ctx.newId()
    if (taken.has(id)) fail('ERR_INTERNAL', `newId answered an id already in use: ${show(id)}`)
    taken.add(id)
    return { configuration: { ...p.settings, id, config_id: id, modified: now }, tuning: p.tuning, revision: 1 }
  })
  const kept = primaries === 1
    ? record.configurations.map((s) => (s.configuration.is_primary ? demoted(s, now) : s))
    : record.configurations
  return {
    record: { version: record.version + 1, configurations: [...kept, ...added] },
    result: added.map((s) => toWireConfiguration(s.configuration)),
  }
}

/**
 * Create configurations from an array (or one object). A plain item needs `name` (1..50 characters) and a
 * licensed `language`; `is_primary` defaults to false and every other setting is optional and defaulted. An item with
 * `template` clones (see {@link cloneConfiguration}). A new primary demotes the old one. Answers the stored
 * configurations in request order.
 */
export function createConfigurations(record: SettingsRecord, input: unknown, ctx: ConfigurationContext): ConfigurationChange<Configuration[]> {
  const items = itemsOf(input, 'configurations')
  const planned = items.map((item, i) => {
    const path = `configurations[${i}]`
    return given(item, 'template') ? planClone(record, item, path, ctx) : planCreate(item, path, ctx)
  })
  return addAll(record, planned, ctx)
}

/**
 * Clone a configuration of the record or a template: `{template: <config or template id>, name}`. The clone
 * copies every setting and every tuning resource of its source; it gets a new configuration id, the given
 * name and `modified`, and is not primary unless `is_primary: true` is sent. Tuning item ids are kept as
 * they are in the source: they are scoped by configuration, and keeping them keeps the taxonomy's topic
 * references valid without remapping. Other settings sent with the item are applied over the copy.
 */
export function cloneConfiguration(record: SettingsRecord, input: unknown, ctx: ConfigurationContext): ConfigurationChange<Configuration[]> {
  const items = itemsOf(input, 'configurations')
  const planned = items.map((item, i) => {
    const path = `configurations[${i}]`
    if (!given(item, 'template')) fail('ERR_MISSING_FIELD', `${path}.template: the id of the configuration or template to clone is required`, `${path}.template`)
    return planClone(record, item, path, ctx)
  })
  return addAll(record, planned, ctx)
}

function sameSettings(a: Configuration, b: Configuration): boolean {
  return JSON.stringify(toWireConfiguration(a)) === JSON.stringify(toWireConfiguration(b))
}

/**
 * Update configurations: each item names its configuration by `config_id` or `id` (the primary when
 * neither is sent) and carries only what changes; `null` and absent members leave values as they are;
 * `document` and `collection` merge member-wise. `language` cannot change. `is_primary: true` makes the item
 * the primary and demotes the old one; unsetting the primary is refused unless the same request makes
 * another configuration primary. Items apply in order. Answers the stored configurations, one per item.
 */
export function updateConfigurations(record: SettingsRecord, input: unknown, ctx: ConfigurationContext): ConfigurationChange<Configuration[]> {
  const items = itemsOf(input, 'configurations')
  if (items.length === 0) return { record, result: [] }
  // Work on shallow copies; stored objects are replaced, never mutated.
  const work = record.configurations.map((s) => ({ ...s, configuration: s.configuration }))
  const touched: string[] = []
  items.forEach((item, i) => {
    const path = `configurations[${i}]`
    const idKey = given(item, 'config_id') ? 'config_id' : given(item, 'id') ? 'id' : undefined
    let index: number
    if (idKey === undefined) {
      index = work.findIndex((s) => s.configuration.is_primary)
      if (index < 0) fail('ERR_PRIMARY_CONFIGURATION', `${path}: no id given and no configuration is primary at this point of the request`, path)
    } else {
      const id = idOf(item[idKey], `${path}.${idKey}`)
      index = work.findIndex((s) => s.configuration.config_id === id)
      if (index < 0) fail('ERR_UNKNOWN_CONFIGURATION', `${path}.${idKey}: no configuration with id ${show(id)}`, `${path}.${idKey}`)
    }
    const current = work[index]!.configuration
    const patch = parseSettingsPatch(item, path, ctx.limits)
    checkFeatures(patch, path, ctx)
    let next: Configuration = applySettingsPatch(current, patch)
    if (given(item, 'name')) next = { ...next, name: checkName(item['name'], `${path}.name`) }
    if (given(item, 'language')) {
      // Sending the current language (by name or code) is allowed; any other value is a change.
      const v = item['language']
      if (typeof v !== 'string' || findLanguage(v)?.name !== current.language) {
        fail('ERR_INVALID_FIELD', `${path}.language: the language of a configuration cannot change (it is ${current.language}), found ${show(item['language'])}`, `${path}.language`)
      }
    }
    if (given(item, 'is_primary')) {
      const primary = checkPrimary(item['is_primary'], `${path}.is_primary`)
      if (primary && !current.is_primary) {
        for (const w of work) if (w.configuration.is_primary) w.configuration = { ...w.configuration, is_primary: false }
      }
      next = { ...next, is_primary: primary }
    }
    work[index]!.configuration = next
    touched.push(next.config_id)
  })
  const primaries = work.filter((w) => w.configuration.is_primary).length
  if (primaries !== 1) {
    fail('ERR_PRIMARY_CONFIGURATION', 'configurations: the primary configuration cannot be unset; make another configuration primary instead', 'configurations')
  }
  let changed = false
  const configurations = work.map((w, i) => {
    const before = record.configurations[i]!
    if (sameSettings(before.configuration, w.configuration)) return before
    changed = true
    return { ...before, configuration: { ...w.configuration, modified: ctx.nowSeconds }, revision: before.revision + 1 }
  })
  const next: SettingsRecord = changed ? { version: record.version + 1, configurations } : record
  return {
    record: next,
    result: touched.map((id) => toWireConfiguration(findConfiguration(next, id).configuration)),
  }
}

/** The ids of a delete body: an array of id strings (or `{id}`/`{config_id}` objects), one id, or `{id: [...]}`. */
function deleteIdsOf(input: unknown): string[] {
  // The XML form `<configurations><id>a</id><id>b</id></configurations>` decodes to `{id: [a, b]}`.
  const wrapped = isPlainObject(input) && (Array.isArray(input['id']) || Array.isArray(input['config_id']))
    ? (Array.isArray(input['id']) ? input['id'] : input['config_id']) as unknown[]
    : undefined
  const list = wrapped ?? (Array.isArray(input) ? input : [input])
  return list.map((v, i) => {
    const path = `configurations[${i}]`
    if (isPlainObject(v)) {
      const key = given(v, 'config_id') ? 'config_id' : 'id'
      return idOf(v[key], `${path}.${key}`)
    }
    return idOf(v, path)
  })
}

/**
 * Delete configurations by id. Every id must exist and none may be the primary; otherwise nothing is
 * deleted. Answers the ids deleted (each once, in request order).
 */
export function deleteConfigurations(record: SettingsRecord, input: unknown, _ctx?: Pick<ConfigurationContext, 'nowSeconds'>): ConfigurationChange<string[]> {
  const ids = deleteIdsOf(input)
  ids.forEach((id, i) => {
    const found = record.configurations.find((s) => s.configuration.config_id === id)
    const path = `configurations[${i}]`
    if (found === undefined) fail('ERR_UNKNOWN_CONFIGURATION', `${path}: no configuration with id ${show(id)}; nothing was deleted`, path)
    if (found.configuration.is_primary) {
      fail('ERR_PRIMARY_CONFIGURATION', `${path}: configuration ${show(id)} is the primary and cannot be deleted; nothing was deleted`, path)
    }
  })
  const unique = [...new Set(ids)]
  if (unique.length === 0) return { record, result: [] }
  return {
    record: { version: record.version + 1, configurations: record.configurations.filter((s) => !unique.includes(s.configuration.config_id)) },
    result: unique,
  }
}

/** The context of every settings operation (configurations and tuning) built from a subscription. */
export interface SettingsOperationContext extends ConfigurationContext {
  /** Syntax check of boolean queries (tuning); accept everything when absent. */
  readonly checkQuery?: (text: string) => ReadonlyArray<{ readonly line: number; readonly column: number; readonly message: string }>
}

/**
 * Build the context of configuration and tuning operations from a subscription: its `basic_settings` as
 * limits and its `feature_settings.supported_languages` as the licensed languages. Templates default to
 * the built-in ones.
 */
export function settingsOperationContext(o: {
  readonly subscription: Subscription
  readonly nowSeconds: number
  readonly newId: () => string
  readonly templates?: readonly TemplateSource[]
  readonly checkQuery?: SettingsOperationContext['checkQuery']
  /** The license's own features (not the engine-narrowed ones) when facets should be checked. */
  readonly licenseFeatures?: FeatureSettings
}): SettingsOperationContext {
  return {
    limits: o.subscription.basic_settings,
    supportedLanguages: o.subscription.feature_settings.supported_languages,
    nowSeconds: o.nowSeconds,
    newId: o.newId,
    templates: o.templates ?? builtinTemplateSources(),
    ...(o.checkQuery === undefined ? {} : { checkQuery: o.checkQuery }),
    ...(o.licenseFeatures === undefined ? {} : { licenseFeatures: o.licenseFeatures }),
  }
}
