/**
 * The built-in, read-only templates: a language default for every language the engine supports, and a
 * vertical pack for hotel and restaurant reviews with its own query topics, concept topics, sentiment
 * phrases and taxonomy. Built fresh on every call (callers may own and change what they get).
 */
import type { Template } from '../model/configuration.ts'
import type { Category, Query, SentimentPhrase, Taxonomy, Tuning } from '../model/tuning.ts'
import { SUPPORTED_LANGUAGES, applySettingsPatch, defaultConfigurationSettings } from './settings.ts'

/** A template with the tuning a clone of it receives. */
export interface TemplateSource {
  readonly template: Template
  readonly tuning: Tuning
}

/** Epoch seconds stamped on built-in templates and their items (the date they were written). */
export const TEMPLATES_MODIFIED = 1795305600

/** Id of the language-default template of a language (by ISO code): `default-en`. */
export function languageDefaultTemplateId(code: string): string {
  return `default-${code}`
}

/** Id of the hotel and restaurant reviews pack. */
export const HOSPITALITY_TEMPLATE_ID = 'hospitality-reviews-en'

/** An empty tuning. */
export function emptyTuning(): Tuning {
  return { queries: [], categories: [], phrases: [], entities: [], blacklist: [], taxonomy: undefined }
}

function languageDefault(name: string, code: string): TemplateSource {
  const id = languageDefaultTemplateId(code)
  const settings = defaultConfigurationSettings(name)
  return {
    template: {
      id,
      config_id: id,
      ...settings,
      name: `${name} default`,
      modified: TEMPLATES_MODIFIED,
      rights: ['read', 'clone'],
      version: '1.0',
      type: 'language-default',
      is_free: true,
    },
    tuning: emptyTuning(),
  }
}

/** Query topics of the hospitality pack, in the boolean query syntax (client-compat §8). */
const HOSPITALITY_QUERIES: ReadonlyArray<readonly [string, string]> = [
  ['Cleanliness', 'clean* OR dirty OR filthy OR spotless OR stain* OR dust* OR hygien* OR smell* OR mold OR mould OR cockroach*'],
  ['Staff', 'staff OR receptionist* OR waiter* OR waitress* OR "front desk" OR concierge OR housekeep* OR bartender* OR host OR hostess'],
  ['Food', '(food OR breakfast OR dinner OR lunch OR brunch OR meal* OR dish* OR menu OR cuisine OR dessert* OR buffet) NOT "food court"'],
  ['Price', 'price* OR pricey OR expensive OR cheap OR overpriced OR cost* OR bill OR "value for money" OR (value NEAR/3 good) OR afford*'],
  ['Location', 'location OR located OR neighborhood OR neighbourhood OR "walking distance" OR downtown OR nearby OR (close WITH beach)'],
  ['Room', '(room* OR suite* OR bed OR beds OR bathroom* OR shower*) NOT ("dining room" OR restroom*)'],
  ['Service', 'service OR (staff NEAR/5 (helpful OR rude OR friendly OR attentive)) OR "checked in" OR check-in OR "check in"'],
  ['Noise', 'noise OR noisy OR loud OR quiet OR "thin walls"'],
]

/** Concept topics of the hospitality pack. */
const HOSPITALITY_CATEGORIES: ReadonlyArray<readonly [string, number, readonly string[]]> = [
  ['Amenities', 1, ['pool', 'spa', 'gym', 'wifi', 'parking', 'sauna', 'minibar']],
  ['Ambience', 1, ['atmosphere', 'decor', 'music', 'lighting', 'cozy', 'romantic']],
]

/** Sentiment phrases of the hospitality pack (weights -2..2). */
const HOSPITALITY_PHRASES: ReadonlyArray<readonly [string, number]> = [
  ['friendly staff', 1.5],
  ['helpful staff', 1.5],
  ['rude staff', -1.5],
  ['dirty room', -1.5],
  ['spotless', 1],
  ['great location', 1.5],
  ['good value', 1.2],
  ['overpriced', -1],
  ['cold food', -1],
  ['long wait', -1],
  ['tiny room', -1],
  ['bed bugs', -2],
  ['highly recommend', 1.5],
  ['never again', -2],
]

function hospitalityPack(): TemplateSource {
  const id = HOSPITALITY_TEMPLATE_ID
  const base = defaultConfigurationSettings('English')
  const settings = applySettingsPatch(base, {
    document: { query_topics: true, concept_topics: true, sentiment_phrases: true, phrases_limit: 10, query_topics_limit: 10 },
    collection: { query_topics: true, concept_topics: true, query_topics_limit: 10 },
  })
  const slug = (s: string): string => s.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '')
  const queries: Query[] = HOSPITALITY_QUERIES.map(([name, query]) => ({ id: `q-${slug(name)}`, name, query, modified: TEMPLATES_MODIFIED }))
  const categories: Category[] = HOSPITALITY_CATEGORIES.map(([name, weight, samples]) => ({
    id: `c-${slug(name)}`, name, weight, samples: [...samples], modified: TEMPLATES_MODIFIED,
  }))
  const phrases: SentimentPhrase[] = HOSPITALITY_PHRASES.map(([name, weight]) => ({ id: `p-${slug(name)}`, name, weight, modified: TEMPLATES_MODIFIED }))
  const q = (name: string): { id: string; type: 'query' } => ({ id: `q-${slug(name)}`, type: 'query' })
  const node = (name: string, topics: Array<{ id: string; type: 'query' | 'concept' }>): Taxonomy['nodes'][number] => ({
    id: `n-${slug(name)}`, name, enforce_parent_matching: false, topics, nodes: [],
  })
  const taxonomy: Taxonomy = {
    id: 't-hospitality',
    name: 'Hospitality',
    timestamp: TEMPLATES_MODIFIED,
    enforce_parent_matching: false,
    topics: [],
    nodes: [
      node('Stay', [q('Room'), q('Cleanliness'), q('Noise'), { id: 'c-amenities', type: 'concept' }]),
      node('Dining', [q('Food'), { id: 'c-ambience', type: 'concept' }]),
      node('People', [q('Staff'), q('Service')]),
      node('Value', [q('Price')]),
      node('Place', [q('Location')]),
    ],
  }
  return {
    template: {
      id,
      config_id: id,
      ...settings,
      name: 'Hotel and restaurant reviews',
      modified: TEMPLATES_MODIFIED,
      rights: ['read', 'clone'],
      version: '1.0',
      type: 'vertical-pack',
      is_free: true,
    },
    tuning: { queries, categories, phrases, entities: [], blacklist: [], taxonomy },
  }
}

/** Every built-in template with its tuning: the language defaults (in SUPPORTED_LANGUAGES order), then the packs. */
export function builtinTemplateSources(): TemplateSource[] {
  return [...SUPPORTED_LANGUAGES.map((l) => languageDefault(l.name, l.code)), hospitalityPack()]
}

/** The built-in template records as `GET /templates` lists them. */
export function builtinTemplates(): Template[] {
  return builtinTemplateSources().map((s) => s.template)
}
