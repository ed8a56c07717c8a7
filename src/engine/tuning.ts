/**
 * Tuning resources of one configuration as pure functions over a {@link StoredConfiguration}: queries,
 * categories (concept topics), sentiment phrases, user entities, blacklist and taxonomy, each with
 * list/create/update/delete. A request is validated in full before anything changes; a change answers a new
 * StoredConfiguration (`revision` + 1) and never mutates its input. Ids and `modified` are set here.
 */
import { fail, show } from '../errors.ts'
import type { BasicSettings } from '../model/account.ts'
import type {
  BlacklistItem, Category, Query, SentimentPhrase, Taxonomy, TaxonomyNode, TaxonomyTopic, Tuning, UserEntity,
} from '../model/tuning.ts'
import type { SettingsRecord, StoredConfiguration } from '../storage/types.ts'
import type { TuningResource } from './types.ts'
import type { ConfigurationChange } from './configurations.ts'
import { findConfiguration } from './configurations.ts'
import { hasQuerySyntax } from '../query/query-set.ts'
import { isPlainObject, toNumber } from './settings.ts'

/** One problem a query checker reports, 1-based line and column. */
export interface QueryProblem {
  readonly line: number
  readonly column: number
  readonly message: string
}

/** Checks the syntax of a boolean query; answers no problems when it is valid. */
export type QueryChecker = (text: string) => readonly QueryProblem[]

/** What tuning changes need besides the configuration. */
export interface TuningContext {
  /** The license's limits (`query_topics_limit`, `concept_topics_limit`, `concept_topic_samples_limit`, …). */
  readonly limits: BasicSettings
  /** Epoch seconds stamped as `modified` (and the taxonomy's `timestamp`). */
  readonly nowSeconds: number
  /** A fresh, unique item id. */
  readonly newId: () => string
  /** Syntax check of queries, `+` user entities and phrases with operators. @defaultValue accept everything */
  readonly checkQuery?: QueryChecker
}

/** A new stored configuration and what to answer the caller. */
export interface TuningChange<R> {
  readonly stored: StoredConfiguration
  readonly result: R
}

/** Every tuning resource name, in wire order. */
export const TUNING_RESOURCES: readonly TuningResource[] = Object.freeze(['queries', 'categories', 'phrases', 'entities', 'blacklist', 'taxonomy'])

/** Longest name of a category, phrase, entity, blacklist item or taxonomy node (spec, Limits). */
export const ITEM_NAME_LIMIT = 50
/** Longest query name (spec, Query). */
export const QUERY_NAME_LIMIT = 50
/** Deepest taxonomy node below the root. */
export const TAXONOMY_DEPTH_LIMIT = 5
/** Most words in a sentiment phrase without query operators. */
export const PHRASE_WORDS_LIMIT = 3
/** Lowest and highest sentiment phrase weight. */
export const PHRASE_WEIGHT_RANGE = Object.freeze({ min: -2, max: 2 })

type Obj = Record<string, unknown>

function given(o: Obj, key: string): boolean {
  return o[key] !== undefined && o[key] !== null
}

function listOf(input: unknown, path: string): unknown[] {
  if (input === undefined || input === null) fail('ERR_MISSING_FIELD', `${path}: a body is required`, path)
  return Array.isArray(input) ? input : [input]
}

function objectsOf(input: unknown, path: string): Obj[] {
  return listOf(input, path).map((v, i) => {
    if (!isPlainObject(v)) fail('ERR_INVALID_FIELD', `${path}[${i}]: expected an object, found ${show(v)}`, `${path}[${i}]`)
    return v
  })
}

function text(v: unknown, path: string, limit: number, what = 'a non-empty string'): string {
  if (typeof v !== 'string' || v.trim() === '') fail('ERR_INVALID_FIELD', `${path}: expected ${what} of at most ${limit} characters, found ${show(v)}`, path)
  const s = v.trim()
  if (s.length > limit) fail('ERR_INVALID_FIELD', `${path}: ${s.length} characters, the limit is ${limit}`, path)
  return s
}

function required(o: Obj, key: string, path: string): unknown {
  if (!given(o, key)) fail('ERR_MISSING_FIELD', `${path}.${key}: required`, `${path}.${key}`)
  return o[key]
}

function idOf(v: unknown, path: string): string {
  if (typeof v === 'string' && v.trim() !== '') return v.trim()
  if (typeof v === 'number' && Number.isFinite(v)) return String(v)
  return fail('ERR_INVALID_FIELD', `${path}: expected an id string, found ${show(v)}`, path)
}

function checkSyntax(query: string, path: string, ctx: TuningContext): void {
  const problems = ctx.checkQuery?.(query) ?? []
  const first = problems[0]
  if (first === undefined) return
  const more = problems.length > 1 ? ` (and ${problems.length - 1} more)` : ''
  fail('ERR_QUERY_SYNTAX', `${path}: syntax error at line ${first.line}, column ${first.column}: ${first.message}${more}; query ${show(query)}`, path)
}

/** True when a phrase uses query operators (upper-case operator words, grouping, quotes or a wildcard). */
export function hasQueryOperators(name: string): boolean {
  // The query language's own test, so validation and analysis agree on which phrases are queries.
  return hasQuerySyntax(name)
}

function newIds(ctx: TuningContext, taken: Set<string>, count: number): string[] {
  const ids: string[] = []
  for (let i = 0; i < count; i++) {
    const id = ctx.newId()
    if (taken.has(id)) fail('ERR_INTERNAL', `newId answered an id already in use: ${show(id)}`)
    taken.add(id)
    ids.push(id)
  }
  return ids
}

function limitCheck(resource: string, limitName: keyof BasicSettings, limit: number, count: number): void {
  if (count > limit) fail('ERR_RESOURCE_LIMIT', `${resource}: ${count} items would exceed ${String(limitName)} ${limit}`, resource)
}

/** A configuration with changed tuning and the next revision. */
function withTuning(stored: StoredConfiguration, tuning: Partial<Tuning>): StoredConfiguration {
  return { ...stored, tuning: { ...stored.tuning, ...tuning }, revision: stored.revision + 1 }
}

// ---------------------------------------------------------------------------------------------------------
// Item resources with an id and a name: queries, categories, phrases, entities.

interface Item {
  id: string
  name: string
  modified: number
}

/** How one item resource parses, merges and prints its items. */
interface ItemSpec<T extends Item> {
  readonly resource: 'queries' | 'categories' | 'phrases' | 'entities'
  readonly limitName: keyof BasicSettings
  /** Names must be unique (case-insensitive) within the configuration. */
  readonly uniqueNames: boolean
  /** The values of a new item (everything but id and modified). */
  create(o: Obj, path: string, ctx: TuningContext): Omit<T, 'id' | 'modified'>
  /** The item with the sent members changed (absent and null members keep their value). */
  update(o: Obj, path: string, ctx: TuningContext, current: T): T
  wire(item: T): T
}

function checkQueryText(v: unknown, path: string, ctx: TuningContext): string {
  const q = text(v, path, ctx.limits.query_length_limit, 'a boolean query')
  checkSyntax(q, path, ctx)
  return q
}

const queries: ItemSpec<Query> = {
  resource: 'queries',
  limitName: 'query_topics_limit',
  uniqueNames: true,
  create(o, path, ctx) {
    return {
      name: text(required(o, 'name', path), `${path}.name`, QUERY_NAME_LIMIT),
      query: checkQueryText(required(o, 'query', path), `${path}.query`, ctx),
    }
  },
  update(o, path, ctx, cur) {
    return {
      ...cur,
      ...(given(o, 'name') ? { name: text(o['name'], `${path}.name`, QUERY_NAME_LIMIT) } : {}),
      ...(given(o, 'query') ? { query: checkQueryText(o['query'], `${path}.query`, ctx) } : {}),
    }
  },
  wire: (q) => ({ id: q.id, name: q.name, query: q.query, modified: q.modified }),
}

function weightOf(v: unknown, path: string, min = -Infinity, max = Infinity): number {
  const n = toNumber(v)
  if (n === undefined || n < min || n > max) {
    const range = Number.isFinite(min) ? ` ${min}..${max}` : ''
    fail('ERR_INVALID_FIELD', `${path}: expected a number${range}, found ${show(v)}`, path)
  }
  return n
}

function samplesOf(v: unknown, path: string, ctx: TuningContext): string[] {
  let list: unknown[]
  if (typeof v === 'string') list = v.split(',')
  else if (Array.isArray(v)) list = v
  else return fail('ERR_INVALID_FIELD', `${path}: expected an array of strings or a comma-separated string, found ${show(v)}`, path)
  const out: string[] = []
  list.forEach((s, i) => {
    if (typeof s !== 'string') fail('ERR_INVALID_FIELD', `${path}[${i}]: expected a string, found ${show(s)}`, `${path}[${i}]`)
    const t = s.trim()
    if (t.length > ITEM_NAME_LIMIT) fail('ERR_INVALID_FIELD', `${path}[${i}]: ${t.length} characters, the limit is ${ITEM_NAME_LIMIT}`, `${path}[${i}]`)
    if (t !== '' && !out.includes(t)) out.push(t)
  })
  if (out.length === 0) fail('ERR_INVALID_FIELD', `${path}: at least one sample is required, found ${show(v)}`, path)
  const limit = ctx.limits.concept_topic_samples_limit
  if (out.length > limit) fail('ERR_RESOURCE_LIMIT', `${path}: ${out.length} samples exceed concept_topic_samples_limit ${limit}`, path)
  return out
}

const categories: ItemSpec<Category> = {
  resource: 'categories',
  limitName: 'concept_topics_limit',
  uniqueNames: true,
  create(o, path, ctx) {
    return {
      name: text(required(o, 'name', path), `${path}.name`, ITEM_NAME_LIMIT),
      weight: given(o, 'weight') ? weightOf(o['weight'], `${path}.weight`) : 1,
      samples: samplesOf(required(o, 'samples', path), `${path}.samples`, ctx),
    }
  },
  update(o, path, ctx, cur) {
    return {
      ...cur,
      ...(given(o, 'name') ? { name: text(o['name'], `${path}.name`, ITEM_NAME_LIMIT) } : {}),
      ...(given(o, 'weight') ? { weight: weightOf(o['weight'], `${path}.weight`) } : {}),
      ...(given(o, 'samples') ? { samples: samplesOf(o['samples'], `${path}.samples`, ctx) } : {}),
    }
  },
  wire: (c) => ({ id: c.id, name: c.name, weight: c.weight, samples: [...c.samples], modified: c.modified }),
}

/** Words of a phrase: blank-separated pieces holding a letter or a digit (a lone `-`, `&` or `/` is not a word). */
export function phraseWordCount(phrase: string): number {
  return phrase.split(/\s+/).filter((w) => /[\p{L}\p{N}]/u.test(w)).length
}

function phraseName(v: unknown, path: string, ctx: TuningContext): string {
  if (typeof v === 'string' && hasQueryOperators(v)) return checkQueryText(v, path, ctx)
  const s = text(v, path, ITEM_NAME_LIMIT)
  const words = phraseWordCount(s)
  if (words > PHRASE_WORDS_LIMIT) {
    fail('ERR_INVALID_FIELD', `${path}: a phrase has at most ${PHRASE_WORDS_LIMIT} words unless it uses query operators, found ${words} in ${show(s)}`, path)
  }
  return s
}

const phrases: ItemSpec<SentimentPhrase> = {
  resource: 'phrases',
  limitName: 'sentiment_phrases_limit',
  uniqueNames: true,
  create(o, path, ctx) {
    return {
      name: phraseName(required(o, 'name', path), `${path}.name`, ctx),
      weight: weightOf(required(o, 'weight', path), `${path}.weight`, PHRASE_WEIGHT_RANGE.min, PHRASE_WEIGHT_RANGE.max),
    }
  },
  update(o, path, ctx, cur) {
    return {
      ...cur,
      ...(given(o, 'name') ? { name: phraseName(o['name'], `${path}.name`, ctx) } : {}),
      ...(given(o, 'weight') ? { weight: weightOf(o['weight'], `${path}.weight`, PHRASE_WEIGHT_RANGE.min, PHRASE_WEIGHT_RANGE.max) } : {}),
    }
  },
  wire: (p) => ({ id: p.id, name: p.name, weight: p.weight, modified: p.modified }),
}

function entityName(v: unknown, path: string, ctx: TuningContext): string {
  if (typeof v === 'string' && v.trim().startsWith('+')) {
    const s = text(v, path, ctx.limits.query_length_limit + 1, 'a boolean query after "+"')
    const query = s.slice(1).trim()
    if (query === '') fail('ERR_QUERY_SYNTAX', `${path}: a "+" must be followed by a boolean query, found ${show(v)}`, path)
    checkSyntax(query, path, ctx)
    return s
  }
  return text(v, path, ITEM_NAME_LIMIT)
}

/** An optional string member: '' clears it (answered as undefined). */
function optionalText(v: unknown, path: string): string | undefined {
  if (typeof v !== 'string') fail('ERR_INVALID_FIELD', `${path}: expected a string of at most ${ITEM_NAME_LIMIT} characters, found ${show(v)}`, path)
  const s = v.trim()
  if (s.length > ITEM_NAME_LIMIT) fail('ERR_INVALID_FIELD', `${path}: ${s.length} characters, the limit is ${ITEM_NAME_LIMIT}`, path)
  return s === '' ? undefined : s
}

function withOptional(e: UserEntity, key: 'label' | 'normalized', value: string | undefined): UserEntity {
  const out = { ...e }
  if (value === undefined) delete out[key]
  else out[key] = value
  return out
}

const entities: ItemSpec<UserEntity> = {
  resource: 'entities',
  limitName: 'user_entities_limit',
  uniqueNames: false,
  create(o, path, ctx) {
    let e = {
      id: '',
      modified: 0,
      name: entityName(required(o, 'name', path), `${path}.name`, ctx),
      type: text(required(o, 'type', path), `${path}.type`, ITEM_NAME_LIMIT),
    } as UserEntity
    if (given(o, 'label')) e = withOptional(e, 'label', optionalText(o['label'], `${path}.label`))
    if (given(o, 'normalized')) e = withOptional(e, 'normalized', optionalText(o['normalized'], `${path}.normalized`))
    const { id: _id, modified: _m, ...rest } = e
    return rest
  },
  update(o, path, ctx, cur) {
    let e: UserEntity = { ...cur }
    if (given(o, 'name')) e.name = entityName(o['name'], `${path}.name`, ctx)
    if (given(o, 'type')) e.type = text(o['type'], `${path}.type`, ITEM_NAME_LIMIT)
    if (given(o, 'label')) e = withOptional(e, 'label', optionalText(o['label'], `${path}.label`))
    if (given(o, 'normalized')) e = withOptional(e, 'normalized', optionalText(o['normalized'], `${path}.normalized`))
    return e
  },
  wire(e) {
    const out: UserEntity = { id: e.id, name: e.name, type: e.type, modified: e.modified }
    if (e.label !== undefined) out.label = e.label
    if (e.normalized !== undefined) out.normalized = e.normalized
    // Keep wire order id, name, type, label, normalized, modified.
    const { modified, ...head } = out
    return { ...head, modified }
  },
}

const ITEM_SPECS = { queries, categories, phrases, entities } as const

/** Refuse a final list that holds one name twice; `origin` maps an item id to the request path that set it. */
function checkUniqueNames<T extends Item>(spec: ItemSpec<T>, items: readonly T[], origin: ReadonlyMap<string, string>): void {
  if (!spec.uniqueNames) return
  const seen = new Map<string, T>()
  for (const item of items) {
    const key = item.name.toLowerCase()
    const other = seen.get(key)
    if (other !== undefined) {
      const path = origin.get(item.id) ?? origin.get(other.id) ?? spec.resource
      fail('ERR_INVALID_FIELD', `${path}.name: ${spec.resource} are referred to by name and ${show(item.name)} is already used (id ${other.id})`, `${path}.name`)
    }
    seen.set(key, item)
  }
}

function createItems<T extends Item>(spec: ItemSpec<T>, stored: StoredConfiguration, input: unknown, ctx: TuningContext): TuningChange<T[]> {
  const objs = objectsOf(input, spec.resource)
  const current = stored.tuning[spec.resource] as unknown as T[]
  const values = objs.map((o, i) => spec.create(o, `${spec.resource}[${i}]`, ctx))
  const limit = ctx.limits[spec.limitName] as number
  limitCheck(spec.resource, spec.limitName, limit, current.length + values.length)
  if (values.length === 0) return { stored, result: [] }
  const ids = newIds(ctx, new Set(current.map((c) => c.id)), values.length)
  const added = values.map((v, i) => ({ ...v, id: ids[i]!, modified: ctx.nowSeconds }) as T)
  const origin = new Map(added.map((a, i) => [a.id, `${spec.resource}[${i}]`]))
  const all = [...current, ...added]
  checkUniqueNames(spec, all, origin)
  return { stored: withTuning(stored, { [spec.resource]: all }), result: added.map((a) => spec.wire(a)) }
}

function updateItems<T extends Item>(spec: ItemSpec<T>, stored: StoredConfiguration, input: unknown, ctx: TuningContext): TuningChange<T[]> {
  const objs = objectsOf(input, spec.resource)
  const work = [...(stored.tuning[spec.resource] as unknown as T[])]
  const origin = new Map<string, string>()
  const touched: string[] = []
  objs.forEach((o, i) => {
    const path = `${spec.resource}[${i}]`
    const id = idOf(required(o, 'id', path), `${path}.id`)
    const index = work.findIndex((w) => w.id === id)
    if (index < 0) fail('ERR_UNKNOWN_ITEM', `${path}.id: no item of ${spec.resource} with id ${show(id)}; nothing was changed`, `${path}.id`)
    work[index] = { ...spec.update(o, path, ctx, work[index]!), id, modified: ctx.nowSeconds }
    origin.set(id, path)
    if (!touched.includes(id)) touched.push(id)
  })
  checkUniqueNames(spec, work, origin)
  if (objs.length === 0) return { stored, result: [] }
  return {
    stored: withTuning(stored, { [spec.resource]: work }),
    result: touched.map((id) => spec.wire(work.find((w) => w.id === id)!)),
  }
}

/** Ids of a delete body: id strings (or numbers), objects with an `id`, or `{id: [...]}`. */
function deleteIdsOf(input: unknown, resource: string): string[] {
  // The XML form `<queries><id>a</id><id>b</id></queries>` decodes to `{id: [a, b]}`.
  const list = isPlainObject(input) && Array.isArray(input['id']) ? (input['id'] as unknown[]) : listOf(input, resource)
  return list.map((v, i) => {
    const path = `${resource}[${i}]`
    return isPlainObject(v) ? idOf(v['id'], `${path}.id`) : idOf(v, path)
  })
}

/** The taxonomy without topics that point at removed queries or categories. */
function pruneTopics(taxonomy: Taxonomy | undefined, type: TaxonomyTopic['type'], removed: ReadonlySet<string>): Taxonomy | undefined {
  if (taxonomy === undefined) return undefined
  const prune = <N extends TaxonomyNode>(n: N): N => ({
    ...n,
    topics: n.topics.filter((t) => !(t.type === type && removed.has(t.id))),
    nodes: n.nodes.map(prune),
  })
  return prune(taxonomy)
}

function deleteItems<T extends Item>(spec: ItemSpec<T>, stored: StoredConfiguration, input: unknown): TuningChange<string[]> {
  const ids = deleteIdsOf(input, spec.resource)
  const current = stored.tuning[spec.resource] as unknown as T[]
  ids.forEach((id, i) => {
    if (!current.some((c) => c.id === id)) {
      fail('ERR_UNKNOWN_ITEM', `${spec.resource}[${i}]: no item of ${spec.resource} with id ${show(id)}; nothing was deleted`, `${spec.resource}[${i}]`)
    }
  })
  const removed = new Set(ids)
  if (removed.size === 0) return { stored, result: [] }
  const change: Partial<Tuning> = { [spec.resource]: current.filter((c) => !removed.has(c.id)) }
  // Deleting a query or category also removes it from the taxonomy, which may only reference existing ones.
  if (spec.resource === 'queries') change.taxonomy = pruneTopics(stored.tuning.taxonomy, 'query', removed)
  if (spec.resource === 'categories') change.taxonomy = pruneTopics(stored.tuning.taxonomy, 'concept', removed)
  return { stored: withTuning(stored, change), result: [...removed] }
}

// ---------------------------------------------------------------------------------------------------------
// Blacklist: plain strings, `*` wildcards.

/** A regular expression for a blacklist pattern: `*` matches any run of characters, case-insensitive, whole name. */
export function blacklistPattern(pattern: string): RegExp {
  const body = pattern.split('*').map((p) => p.replace(/[.+?^${}()|[\]\\]/g, '\\$&')).join('.*')
  return new RegExp(`^${body}$`, 'i')
}

/** A blacklist entry as sent: a plain string, or an object `{name}` or `{id, name}` (some clients send objects). */
interface BlacklistEntry {
  readonly id: string | undefined
  readonly name: string
  readonly path: string
}

function blacklistEntries(input: unknown): BlacklistEntry[] {
  return listOf(input, 'blacklist').map((v, i) => {
    const path = `blacklist[${i}]`
    if (isPlainObject(v)) {
      const id = given(v, 'id') ? idOf(v['id'], `${path}.id`) : undefined
      return { id, name: text(required(v, 'name', path), `${path}.name`, ITEM_NAME_LIMIT), path }
    }
    return { id: undefined, name: text(v, path, ITEM_NAME_LIMIT), path }
  })
}

const blacklistWire = (b: BlacklistItem): BlacklistItem => ({ id: b.id, name: b.name, modified: b.modified })

/**
 * Add (create) or upsert (update) blacklist entries, sent as strings or as `{name}` / `{id, name}` objects.
 * A name already stored (case-insensitive) keeps its item; on update its `modified` is renewed, and a wildcard
 * name also replaces the stored items its pattern covers (they are redundant beside it). On update an entry with
 * an `id` renames that item (ERR_UNKNOWN_ITEM when there is none), and another item already holding the new name
 * is dropped so that no duplicate is left behind. An `id` on create is ignored, as for every other resource.
 * Answers the stored item of every entry sent, in request order.
 */
function putBlacklist(stored: StoredConfiguration, input: unknown, ctx: TuningContext, update: boolean): TuningChange<BlacklistItem[]> {
  const entries = blacklistEntries(input)
  let work = [...stored.tuning.blacklist]
  const taken = new Set(work.map((b) => b.id))
  const answer: BlacklistItem[] = []
  let changed = false
  for (const { id, name, path } of entries) {
    const key = name.toLowerCase()
    if (update && name.includes('*')) {
      const re = blacklistPattern(name)
      const before = work.length
      work = work.filter((b) => b.name.toLowerCase() === key || b.id === id || !re.test(b.name))
      changed ||= work.length !== before
    }
    if (update && id !== undefined) {
      const index = work.findIndex((b) => b.id === id)
      if (index < 0) fail('ERR_UNKNOWN_ITEM', `${path}.id: no blacklist item with id ${show(id)}; nothing was changed`, `${path}.id`)
      const renamed: BlacklistItem = { id, name, modified: ctx.nowSeconds }
      work = work.flatMap((b, i) => (i === index ? [renamed] : b.name.toLowerCase() === key ? [] : [b]))
      answer.push(renamed)
      changed = true
      continue
    }
    const index = work.findIndex((b) => b.name.toLowerCase() === key)
    if (index >= 0) {
      if (update) {
        work[index] = { ...work[index]!, modified: ctx.nowSeconds }
        changed = true
      }
      answer.push(work[index]!)
      continue
    }
    const [newId] = newIds(ctx, taken, 1)
    const item: BlacklistItem = { id: newId!, name, modified: ctx.nowSeconds }
    work.push(item)
    answer.push(item)
    changed = true
  }
  limitCheck('blacklist', 'blacklist_limit', ctx.limits.blacklist_limit, work.length)
  if (!changed) return { stored, result: answer.map(blacklistWire) }
  // Answer the final stored item of each entry; one that a later entry replaced or renamed away has none.
  const final = answer.flatMap((a) => work.filter((w) => w.id === a.id && w.name === a.name))
  return { stored: withTuning(stored, { blacklist: work }), result: final.map(blacklistWire) }
}

/**
 * Delete blacklist items by strings: an id, an exact name (case-insensitive), or a `*` pattern removing
 * every item whose name it matches; objects name the item by `id` (or by `name` when they have no id). A
 * string that matches nothing is an error and nothing is deleted.
 */
function deleteBlacklist(stored: StoredConfiguration, input: unknown): TuningChange<string[]> {
  const strings = listOf(input, 'blacklist').map((v, i) => {
    const path = `blacklist[${i}]`
    if (isPlainObject(v)) return given(v, 'id') ? idOf(v['id'], `${path}.id`) : text(v['name'], `${path}.name`, ITEM_NAME_LIMIT)
    return typeof v === 'number' ? idOf(v, path) : text(v, path, ITEM_NAME_LIMIT)
  })
  const current = stored.tuning.blacklist
  const removed = new Set<string>()
  strings.forEach((s, i) => {
    const re = blacklistPattern(s)
    const hits = current.filter((b) => b.id === s || b.name.toLowerCase() === s.toLowerCase() || (s.includes('*') && re.test(b.name)))
    if (hits.length === 0) fail('ERR_UNKNOWN_ITEM', `blacklist[${i}]: ${show(s)} matches no blacklist item; nothing was deleted`, `blacklist[${i}]`)
    for (const h of hits) removed.add(h.id)
  })
  if (removed.size === 0) return { stored, result: [] }
  return { stored: withTuning(stored, { blacklist: current.filter((b) => !removed.has(b.id)) }), result: [...removed] }
}

// ---------------------------------------------------------------------------------------------------------
// Taxonomy: one tree per configuration.

function nodeWire(n: TaxonomyNode): TaxonomyNode {
  return {
    id: n.id,
    name: n.name,
    enforce_parent_matching: n.enforce_parent_matching,
    topics: n.topics.map((t) => ({ id: t.id, type: t.type })),
    nodes: n.nodes.map(nodeWire),
  }
}

function taxonomyWire(t: Taxonomy): Taxonomy {
  const { id, name, enforce_parent_matching, topics, nodes } = nodeWire(t)
  return { id, name, timestamp: t.timestamp, enforce_parent_matching, topics, nodes }
}

function topicType(v: unknown, path: string): TaxonomyTopic['type'] {
  const s = typeof v === 'string' ? v.trim().toLowerCase() : ''
  if (s === 'query') return 'query'
  if (s === 'concept' || s === 'category') return 'concept'
  return fail('ERR_INVALID_FIELD', `${path}: expected "query" or "concept", found ${show(v)}`, path)
}

/** Checked topics of a node: each must name an existing query or category of the configuration. */
function topicsOf(v: unknown, path: string, tuning: Tuning): TaxonomyTopic[] {
  if (!Array.isArray(v)) fail('ERR_INVALID_FIELD', `${path}: expected an array of {id, type}, found ${show(v)}`, path)
  const out: TaxonomyTopic[] = []
  v.forEach((t, i) => {
    const p = `${path}[${i}]`
    if (!isPlainObject(t)) fail('ERR_INVALID_FIELD', `${p}: expected {id, type}, found ${show(t)}`, p)
    const id = idOf(required(t, 'id', p), `${p}.id`)
    const type = given(t, 'type') ? topicType(t['type'], `${p}.type`) : 'query'
    const exists = type === 'query' ? tuning.queries.some((q) => q.id === id) : tuning.categories.some((c) => c.id === id)
    if (!exists) {
      fail('ERR_UNKNOWN_ITEM', `${p}.id: no ${type === 'query' ? 'query' : 'category'} with id ${show(id)} in this configuration; create it first`, `${p}.id`)
    }
    if (!out.some((o) => o.id === id && o.type === type)) out.push({ id, type })
  })
  return out
}

function boolOf(v: unknown, path: string): boolean {
  if (typeof v === 'boolean') return v
  if (v === 'true' || v === 'false') return v === 'true'
  return fail('ERR_INVALID_FIELD', `${path}: expected true or false, found ${show(v)}`, path)
}

/** A new node (and its subtree) at `level` (the root is 0). */
function parseNode(o: unknown, path: string, level: number, tuning: Tuning, ctx: TuningContext, taken: Set<string>): TaxonomyNode {
  if (!isPlainObject(o)) fail('ERR_INVALID_FIELD', `${path}: expected a node object, found ${show(o)}`, path)
  if (level > TAXONOMY_DEPTH_LIMIT) fail('ERR_RESOURCE_LIMIT', `${path}: level ${level} is deeper than the taxonomy limit of ${TAXONOMY_DEPTH_LIMIT} levels`, path)
  const name = text(required(o, 'name', path), `${path}.name`, ITEM_NAME_LIMIT)
  const enforce = given(o, 'enforce_parent_matching') ? boolOf(o['enforce_parent_matching'], `${path}.enforce_parent_matching`) : false
  const topics = given(o, 'topics') ? topicsOf(o['topics'], `${path}.topics`, tuning) : []
  // Ids in document order: a node before its children.
  const [id] = newIds(ctx, taken, 1)
  let children: TaxonomyNode[] = []
  if (given(o, 'nodes')) {
    const list = o['nodes']
    if (!Array.isArray(list)) fail('ERR_INVALID_FIELD', `${path}.nodes: expected an array of nodes, found ${show(list)}`, `${path}.nodes`)
    children = list.map((c, i) => parseNode(c, `${path}.nodes[${i}]`, level + 1, tuning, ctx, taken))
  }
  return { id: id!, name, enforce_parent_matching: enforce, topics, nodes: children }
}

function allNodeIds(n: TaxonomyNode, into: Set<string>): Set<string> {
  into.add(n.id)
  for (const c of n.nodes) allNodeIds(c, into)
  return into
}

function createTaxonomy(stored: StoredConfiguration, input: unknown, ctx: TuningContext): TuningChange<Taxonomy[]> {
  const list = listOf(input, 'taxonomy')
  if (list.length !== 1) fail('ERR_RESOURCE_LIMIT', `taxonomy: a configuration holds one taxonomy, found ${list.length} in the request`, 'taxonomy')
  if (stored.tuning.taxonomy !== undefined) {
    fail('ERR_RESOURCE_LIMIT', `taxonomy: this configuration already holds taxonomy ${show(stored.tuning.taxonomy.id)}; update or delete it`, 'taxonomy')
  }
  const root = parseNode(list[0], 'taxonomy[0]', 0, stored.tuning, ctx, new Set())
  const taxonomy: Taxonomy = { ...root, timestamp: ctx.nowSeconds }
  return { stored: withTuning(stored, { taxonomy }), result: [taxonomyWire(taxonomy)] }
}

/** The node with this id and its level, searched depth-first. */
function findNode(n: TaxonomyNode, id: string, level = 0): { node: TaxonomyNode; level: number } | undefined {
  if (n.id === id) return { node: n, level }
  for (const c of n.nodes) {
    const hit = findNode(c, id, level + 1)
    if (hit !== undefined) return hit
  }
  return undefined
}

/** A copy of the tree with the node of this id replaced. */
function replaceNode<N extends TaxonomyNode>(n: N, id: string, next: TaxonomyNode): N {
  if (n.id === id) return { ...n, ...next }
  return { ...n, nodes: n.nodes.map((c) => replaceNode(c, id, next)) }
}

/**
 * Update the taxonomy: each item names an existing node (the root included) by `id` and may rename it,
 * set `enforce_parent_matching`, add `topics` (existing ones are kept, duplicates ignored) and add child
 * `nodes` (new ids). Answers the whole stored taxonomy.
 */
function updateTaxonomy(stored: StoredConfiguration, input: unknown, ctx: TuningContext): TuningChange<Taxonomy[]> {
  const objs = objectsOf(input, 'taxonomy')
  let tree = stored.tuning.taxonomy
  if (tree === undefined) fail('ERR_UNKNOWN_ITEM', 'taxonomy: this configuration holds no taxonomy; create one first', 'taxonomy')
  if (objs.length === 0) return { stored, result: [taxonomyWire(tree)] }
  const taken = allNodeIds(tree, new Set())
  objs.forEach((o, i) => {
    const path = `taxonomy[${i}]`
    const id = idOf(required(o, 'id', path), `${path}.id`)
    const hit = findNode(tree!, id)
    if (hit === undefined) fail('ERR_UNKNOWN_ITEM', `${path}.id: no taxonomy node with id ${show(id)}; nothing was changed`, `${path}.id`)
    const node = { ...hit.node }
    if (given(o, 'name')) node.name = text(o['name'], `${path}.name`, ITEM_NAME_LIMIT)
    if (given(o, 'enforce_parent_matching')) node.enforce_parent_matching = boolOf(o['enforce_parent_matching'], `${path}.enforce_parent_matching`)
    if (given(o, 'topics')) {
      const added = topicsOf(o['topics'], `${path}.topics`, stored.tuning)
      node.topics = [...node.topics, ...added.filter((a) => !node.topics.some((t) => t.id === a.id && t.type === a.type))]
    }
    if (given(o, 'nodes')) {
      const list = o['nodes']
      if (!Array.isArray(list)) fail('ERR_INVALID_FIELD', `${path}.nodes: expected an array of nodes, found ${show(list)}`, `${path}.nodes`)
      node.nodes = [...node.nodes, ...list.map((c, j) => parseNode(c, `${path}.nodes[${j}]`, hit.level + 1, stored.tuning, ctx, taken))]
    }
    tree = replaceNode(tree!, id, node)
  })
  const taxonomy: Taxonomy = { ...tree, timestamp: ctx.nowSeconds }
  return { stored: withTuning(stored, { taxonomy }), result: [taxonomyWire(taxonomy)] }
}

/** The tree without the nodes of these ids (and their subtrees). */
function withoutNodes<N extends TaxonomyNode>(n: N, ids: ReadonlySet<string>): N {
  return { ...n, nodes: n.nodes.filter((c) => !ids.has(c.id)).map((c) => withoutNodes(c, ids)) }
}

/**
 * Delete the taxonomy (no body, or an empty array, or the root's id) or some of its nodes (their ids).
 * An unknown node id is an error and nothing is deleted. Deleting when there is no taxonomy is a no-op.
 */
function deleteTaxonomy(stored: StoredConfiguration, input: unknown, ctx: TuningContext): TuningChange<string[]> {
  const tree = stored.tuning.taxonomy
  const ids = input === undefined || input === null ? [] : deleteIdsOf(input, 'taxonomy')
  if (tree === undefined) {
    if (ids.length > 0) fail('ERR_UNKNOWN_ITEM', `taxonomy[0]: this configuration holds no taxonomy; nothing was deleted`, 'taxonomy[0]')
    return { stored, result: [] }
  }
  ids.forEach((id, i) => {
    if (findNode(tree, id) === undefined) fail('ERR_UNKNOWN_ITEM', `taxonomy[${i}]: no taxonomy node with id ${show(id)}; nothing was deleted`, `taxonomy[${i}]`)
  })
  if (ids.length === 0 || ids.includes(tree.id)) return { stored: withTuning(stored, { taxonomy: undefined }), result: [tree.id] }
  const set = new Set(ids)
  return { stored: withTuning(stored, { taxonomy: { ...withoutNodes(tree, set), timestamp: ctx.nowSeconds } }), result: [...set] }
}

// ---------------------------------------------------------------------------------------------------------
// Dispatch by resource.

/** The stored items of a resource, as on the wire (the taxonomy as a list of zero or one). */
export function listTuning(stored: StoredConfiguration, resource: TuningResource): unknown[] {
  switch (resource) {
    case 'blacklist':
      return stored.tuning.blacklist.map(blacklistWire)
    case 'taxonomy':
      return stored.tuning.taxonomy === undefined ? [] : [taxonomyWire(stored.tuning.taxonomy)]
    default: {
      const spec = ITEM_SPECS[resource] as ItemSpec<Item>
      return (stored.tuning[resource] as Item[]).map((i) => spec.wire(i))
    }
  }
}

/**
 * Create items (an array, or one object; the blacklist takes strings). Checks every item, the resource's
 * limit (ERR_RESOURCE_LIMIT, 406) and query syntax (ERR_QUERY_SYNTAX) before changing anything; answers
 * the stored items.
 */
export function createTuning(stored: StoredConfiguration, resource: TuningResource, input: unknown, ctx: TuningContext): TuningChange<unknown[]> {
  switch (resource) {
    case 'blacklist':
      return putBlacklist(stored, input, ctx, false)
    case 'taxonomy':
      return createTaxonomy(stored, input, ctx)
    default:
      return createItems(ITEM_SPECS[resource] as ItemSpec<Item>, stored, input, ctx)
  }
}

/**
 * Update items by `id` (members sent replace stored values; null or absent keep them). An unknown id is
 * ERR_UNKNOWN_ITEM and nothing changes. The blacklist upserts strings; the taxonomy adds nodes and topics.
 */
export function updateTuning(stored: StoredConfiguration, resource: TuningResource, input: unknown, ctx: TuningContext): TuningChange<unknown[]> {
  switch (resource) {
    case 'blacklist':
      return putBlacklist(stored, input, ctx, true)
    case 'taxonomy':
      return updateTaxonomy(stored, input, ctx)
    default:
      return updateItems(ITEM_SPECS[resource] as ItemSpec<Item>, stored, input, ctx)
  }
}

/**
 * Delete items by id (the blacklist also by name or `*` pattern; the taxonomy whole, or nodes by id).
 * Every id must exist, otherwise nothing is deleted. Deleted queries and categories leave the taxonomy too.
 * Answers the ids deleted.
 */
export function deleteTuning(stored: StoredConfiguration, resource: TuningResource, input: unknown, ctx: TuningContext): TuningChange<string[]> {
  switch (resource) {
    case 'blacklist':
      return deleteBlacklist(stored, input)
    case 'taxonomy':
      return deleteTaxonomy(stored, input, ctx)
    default:
      return deleteItems(ITEM_SPECS[resource] as ItemSpec<Item>, stored, input)
  }
}

/**
 * Apply a tuning change to the configuration `configId` (the primary when absent) of a record. Answers the
 * same record when nothing changed, else a new record with `version` + 1.
 */
export function changeTuning<R>(
  record: SettingsRecord,
  configId: string | undefined,
  change: (stored: StoredConfiguration) => TuningChange<R>,
): ConfigurationChange<R> {
  const stored = findConfiguration(record, configId)
  const { stored: next, result } = change(stored)
  if (next === stored) return { record, result }
  return {
    record: { version: record.version + 1, configurations: record.configurations.map((s) => (s === stored ? next : s)) },
    result,
  }
}
