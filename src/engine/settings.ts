/**
 * Every configuration setting of the contract (client-compat §6): its default, its type and its range,
 * the older names accepted as aliases, and the parsing of untrusted wire values into a checked patch.
 * Pure functions and frozen tables only.
 */
import { POS_TYPE_NAMES } from '../pipeline/pos.ts'
import { fail, show } from '../errors.ts'
import type { BasicSettings } from '../model/account.ts'
import type { CollectionSettings, ConfigurationSettings, DocumentSettings } from '../model/configuration.ts'

/** A language the engine knows: its name as on the wire and its ISO 639-1 code. */
export interface LanguageInfo {
  readonly name: string
  readonly code: string
}

/**
 * Languages the engine can analyse. A configuration's language must be one of these AND be listed in the
 * license's `supported_languages`; anything else is ERR_LANGUAGE_FORBIDDEN (403).
 */
export const SUPPORTED_LANGUAGES: readonly LanguageInfo[] = Object.freeze([Object.freeze({ name: 'English', code: 'en' })])

/** The engine's language of this name or ISO code (case-insensitive), or undefined. */
export function findLanguage(nameOrCode: string): LanguageInfo | undefined {
  const key = nameOrCode.trim().toLowerCase()
  return SUPPORTED_LANGUAGES.find((l) => l.name.toLowerCase() === key || l.code === key)
}

/** The licensed languages as a list of lower-cased names and codes (the license sends a comma-separated string). */
function licensedSet(licensed: string | readonly string[]): Set<string> {
  const list = typeof licensed === 'string' ? licensed.split(',') : licensed
  return new Set(list.map((s) => s.trim().toLowerCase()).filter((s) => s !== ''))
}

/**
 * Check a wire `language` value and answer its canonical name ("English"). A non-string is
 * ERR_INVALID_FIELD; a language the engine or the license does not support is ERR_LANGUAGE_FORBIDDEN.
 */
export function resolveLanguage(value: unknown, path: string, licensed: string | readonly string[]): string {
  if (typeof value !== 'string' || value.trim() === '') {
    fail('ERR_INVALID_FIELD', `${path}: expected a language name such as "English", found ${show(value)}`, path)
  }
  const lang = findLanguage(value)
  const allowed = licensedSet(licensed)
  if (lang === undefined || !(allowed.has(lang.name.toLowerCase()) || allowed.has(lang.code))) {
    const names = SUPPORTED_LANGUAGES.filter((l) => allowed.has(l.name.toLowerCase()) || allowed.has(l.code)).map((l) => l.name)
    fail('ERR_LANGUAGE_FORBIDDEN', `${path}: language ${show(value)} is not supported by the license (supported: ${names.join(', ') || 'none'})`, path)
  }
  return lang.name
}

/** The type names a `pos_types` filter may list (plus "All"): exactly the types analysis produces. */
export { POS_TYPE_NAMES }

/** Defaults of the `document` block (client-compat §6). `pos_types` is unset by default. */
export const DEFAULT_DOCUMENT_SETTINGS: Readonly<DocumentSettings> = Object.freeze({
  intentions: false,
  concept_topics: false,
  query_topics: true,
  detect_language: true,
  themes: false,
  named_entities: true,
  sentiment_phrases: true,
  user_entities: true,
  relations: false,
  mentions: false,
  opinions: false,
  auto_categories: true,
  model_sentiment: false,
  summary_size: 3,
  phrases_limit: 0,
  possible_phrases_limit: 0,
  auto_categories_limit: 5,
  concept_topics_limit: 5,
  query_topics_limit: 5,
  named_entities_limit: 5,
  user_entities_limit: 5,
  entity_themes_limit: 0,
  named_mentions_limit: 0,
  user_mentions_limit: 0,
  named_relations_limit: 0,
  user_relations_limit: 0,
  named_opinions_limit: 0,
  user_opinions_limit: 0,
  themes_limit: 0,
  theme_mentions_limit: 0,
  summary_limit: 3,
})

/** Defaults of the `collection` block (client-compat §6). */
export const DEFAULT_COLLECTION_SETTINGS: Readonly<CollectionSettings> = Object.freeze({
  facets: true,
  attributes: true,
  themes: true,
  mentions: false,
  named_entities: true,
  user_entities: true,
  query_topics: true,
  concept_topics: false,
  facets_limit: 15,
  facet_atts_limit: 5,
  facet_mentions_limit: 0,
  attribute_mentions_limit: 0,
  concept_topics_limit: 5,
  named_entities_limit: 5,
  named_mentions_limit: 0,
  query_topics_limit: 5,
  themes_limit: 5,
  theme_mentions_limit: 0,
  user_entities_limit: 15,
  user_mentions_limit: 0,
})

/** Top-level defaults (client-compat §6); `callback` is unset by default. */
export const DEFAULT_TOP_SETTINGS = Object.freeze({
  is_primary: false,
  auto_response: false,
  alphanumeric_threshold: 80,
  concept_topics_threshold: 0.45,
  entities_threshold: 55,
  one_sentence_mode: false,
  process_html: false,
})

/** Name of a configuration made from defaults alone. */
export const DEFAULT_CONFIGURATION_NAME = 'Default'

/** A fresh settings object with every default, for a configuration in `language` (a canonical name). */
export function defaultConfigurationSettings(language: string): ConfigurationSettings {
  return {
    name: DEFAULT_CONFIGURATION_NAME,
    language,
    ...DEFAULT_TOP_SETTINGS,
    document: { ...DEFAULT_DOCUMENT_SETTINGS },
    collection: { ...DEFAULT_COLLECTION_SETTINGS },
  }
}

/** How one setting is checked: its type and range (a range may depend on the license's limits). */
export type SettingRule =
  | { readonly kind: 'boolean' }
  | { readonly kind: 'integer'; readonly min: number; readonly max: number | ((limits: BasicSettings) => number) }
  | { readonly kind: 'number'; readonly min: number; readonly max: number }
  | { readonly kind: 'pos_types' }
  | { readonly kind: 'url' }

const BOOL: SettingRule = { kind: 'boolean' }
const LIMIT: SettingRule = { kind: 'integer', min: 0, max: 20 }

/** Rules of the top-level settings (identity fields `name`, `is_primary`, `language` are checked by the caller). */
export const TOP_RULES: Readonly<Record<string, SettingRule>> = Object.freeze({
  auto_response: BOOL,
  callback: { kind: 'url' },
  alphanumeric_threshold: { kind: 'integer', min: 0, max: 100 },
  concept_topics_threshold: { kind: 'number', min: 0, max: 1 },
  entities_threshold: { kind: 'number', min: 0, max: 100 },
  one_sentence_mode: BOOL,
  process_html: BOOL,
})

/** Older names accepted on input, mapped to the 4.2 names. */
export const SETTING_ALIASES: Readonly<Record<string, string>> = Object.freeze({
  chars_threshold: 'alphanumeric_threshold',
  categories_threshold: 'concept_topics_threshold',
  one_sentence: 'one_sentence_mode',
  auto_responding: 'auto_response',
})

function rulesOf<T extends object>(defaults: T, extra: Record<string, SettingRule>): Readonly<Record<string, SettingRule>> {
  const rules: Record<string, SettingRule> = {}
  for (const [k, v] of Object.entries(defaults)) rules[k] = typeof v === 'boolean' ? BOOL : LIMIT
  return Object.freeze({ ...rules, ...extra })
}

/** Rules of the `document` block. */
export const DOCUMENT_RULES: Readonly<Record<string, SettingRule>> = rulesOf(DEFAULT_DOCUMENT_SETTINGS, {
  summary_size: { kind: 'integer', min: 0, max: (l) => l.summary_size_limit },
  pos_types: { kind: 'pos_types' },
})

/** Rules of the `collection` block. */
export const COLLECTION_RULES: Readonly<Record<string, SettingRule>> = rulesOf(DEFAULT_COLLECTION_SETTINGS, {})

/**
 * A checked change of settings: only members that were sent (and not null). An empty string in
 * `callback` or `document.pos_types` means "unset".
 */
export interface SettingsPatch {
  auto_response?: boolean
  callback?: string
  alphanumeric_threshold?: number
  concept_topics_threshold?: number
  entities_threshold?: number
  one_sentence_mode?: boolean
  process_html?: boolean
  document?: Partial<DocumentSettings>
  collection?: Partial<CollectionSettings>
}

/** A number from a number or a numeric string (XML and some clients send strings), else undefined. */
export function toNumber(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isFinite(value) ? value : undefined
  if (typeof value === 'string' && value.trim() !== '') {
    const n = Number(value.trim())
    return Number.isFinite(n) ? n : undefined
  }
  return undefined
}

/** A boolean from a boolean or the strings "true"/"false" (XML sends strings), else undefined. */
export function toBoolean(value: unknown): boolean | undefined {
  if (typeof value === 'boolean') return value
  if (typeof value === 'string') {
    const s = value.trim().toLowerCase()
    if (s === 'true') return true
    if (s === 'false') return false
  }
  return undefined
}

/** Canonical `pos_types`: names matched case-insensitively, de-duplicated in the given order; `All` alone. */
function parsePosTypes(value: unknown, path: string): string {
  if (typeof value !== 'string') fail('ERR_INVALID_FIELD', `${path}: expected a comma-separated list of POS type names or "All", found ${show(value)}`, path)
  const parts = value.split(',').map((s) => s.trim()).filter((s) => s !== '')
  if (parts.length === 0) return ''
  const out: string[] = []
  for (const p of parts) {
    if (p.toLowerCase() === 'all') {
      if (parts.length > 1) fail('ERR_INVALID_FIELD', `${path}: "All" cannot be combined with other POS types, found ${show(value)}`, path)
      return 'All'
    }
    const name = POS_TYPE_NAMES.find((n) => n.toLowerCase() === p.toLowerCase())
    if (name === undefined) {
      fail('ERR_INVALID_FIELD', `${path}: unknown POS type ${show(p)}; expected "All" or names from ${POS_TYPE_NAMES.join(', ')}`, path)
    }
    if (!out.includes(name)) out.push(name)
  }
  return out.join(',')
}

function parseUrl(value: unknown, path: string): string {
  if (typeof value !== 'string') fail('ERR_INVALID_FIELD', `${path}: expected an http(s) URL or an empty string, found ${show(value)}`, path)
  const s = value.trim()
  if (s === '') return ''
  let ok = false
  try {
    const u = new URL(s)
    ok = (u.protocol === 'http:' || u.protocol === 'https:') && u.hostname !== ''
  } catch {
    ok = false
  }
  if (!ok) fail('ERR_INVALID_FIELD', `${path}: expected an http(s) URL or an empty string, found ${show(value)}`, path)
  return s
}

/** Check one value against its rule; answers the stored form. */
export function checkSetting(rule: SettingRule, value: unknown, path: string, limits: BasicSettings): boolean | number | string {
  switch (rule.kind) {
    case 'boolean': {
      const b = toBoolean(value)
      if (b === undefined) fail('ERR_INVALID_FIELD', `${path}: expected true or false, found ${show(value)}`, path)
      return b
    }
    case 'integer': {
      const max = typeof rule.max === 'function' ? rule.max(limits) : rule.max
      const n = toNumber(value)
      if (n === undefined || !Number.isInteger(n) || n < rule.min || n > max) {
        fail('ERR_INVALID_FIELD', `${path}: expected an integer ${rule.min}..${max}, found ${show(value)}`, path)
      }
      return n
    }
    case 'number': {
      const n = toNumber(value)
      if (n === undefined || n < rule.min || n > rule.max) {
        fail('ERR_INVALID_FIELD', `${path}: expected a number ${rule.min}..${rule.max}, found ${show(value)}`, path)
      }
      return n
    }
    case 'pos_types':
      return parsePosTypes(value, path)
    case 'url':
      return parseUrl(value, path)
  }
}

/** True for a plain object (not an array, not null). */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

function parseBlock(value: unknown, path: string, rules: Readonly<Record<string, SettingRule>>, limits: BasicSettings): Record<string, unknown> {
  if (!isPlainObject(value)) fail('ERR_INVALID_FIELD', `${path}: expected an object, found ${show(value)}`, path)
  const out: Record<string, unknown> = {}
  for (const [key, rule] of Object.entries(rules)) {
    const v = value[key]
    if (v === undefined || v === null) continue
    out[key] = checkSetting(rule, v, `${path}.${key}`, limits)
  }
  return out
}

/**
 * Check the settings members of one wire configuration object and answer the patch they describe.
 * Identity members (`id`, `config_id`, `name`, `is_primary`, `language`, `template`, `modified`) and unknown
 * members are ignored here; `null` means "not given"; older names are read when the 4.2 name is absent.
 * `path` prefixes error messages (`configurations[1]`).
 */
export function parseSettingsPatch(input: Record<string, unknown>, path: string, limits: BasicSettings): SettingsPatch {
  const patch: Record<string, unknown> = {}
  for (const [key, rule] of Object.entries(TOP_RULES)) {
    let name = key
    let v = input[key]
    if (v === undefined || v === null) {
      const alias = Object.keys(SETTING_ALIASES).find((a) => SETTING_ALIASES[a] === key && input[a] !== undefined && input[a] !== null)
      if (alias === undefined) continue
      name = alias
      v = input[alias]
    }
    patch[key] = checkSetting(rule, v, `${path}.${name}`, limits)
  }
  if (input['document'] !== undefined && input['document'] !== null) {
    patch['document'] = parseBlock(input['document'], `${path}.document`, DOCUMENT_RULES, limits)
  }
  if (input['collection'] !== undefined && input['collection'] !== null) {
    patch['collection'] = parseBlock(input['collection'], `${path}.collection`, COLLECTION_RULES, limits)
  }
  return patch as SettingsPatch
}

/** Settings with a patch applied member-wise (nested blocks merged); empty `callback`/`pos_types` are removed. */
export function applySettingsPatch<T extends ConfigurationSettings>(settings: T, patch: SettingsPatch): T {
  const { document, collection, ...top } = patch
  const next: T = {
    ...settings,
    ...top,
    document: { ...settings.document, ...document },
    collection: { ...settings.collection, ...collection },
  }
  if (next.callback === '') delete next.callback
  if (next.document.pos_types === '') delete next.document.pos_types
  return next
}
