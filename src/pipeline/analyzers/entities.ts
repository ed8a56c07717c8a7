import type { AnnotatedDocument } from '../../nlp/types.ts'
import type { Entity, Theme } from '../../model/output.ts'
import { contextSentiment, spanMentions } from '../spans.ts'
import { entityThemes as themesNear, extractCandidates, lazyBackground, rankThemes, themeWire } from './themes.ts'
import { loadThemePrior, type Background, type ThemePrior } from '../../themes/index.ts'
import type { StoredConfiguration } from '../../storage/types.ts'
import { createEntityExtractor, type EntityExtractor, type ExtractedEntity } from '../../entities/extract.ts'
import { need } from '../pipeline.ts'
import type { Subscription } from '../../model/account.ts'
import { createQueryGrammar, type QueryGrammar } from '../../query/index.ts'
import { compileQuerySet, isQueryEntityName, type QuerySet } from '../../query/query-set.ts'
import type { DocumentIndex } from '../../query/document-index.ts'
import { queryLimitsOf } from './topics.ts'
import type { Analyzer } from '../types.ts'

/**
 * Entity types whose mentions are names (a person, an organisation, a place), a role (a job title) or an address (a web
 * or e-mail address, a phone number): they take a polarity only from evaluative words of the lexicon around them, not
 * from the words-only aspect reading learnt on reviews ("Visit http://example.com/pricing." gave the address +0.34
 * from "visit").
 */
const NAME_TYPES: ReadonlySet<string> = new Set(['Person', 'Company', 'Organization', 'Place', 'Job Title', 'URL', 'Email', 'Phone'])

/** A mention as a token range, before it is grouped for the wire. */
interface SpanMention {
  readonly tokenStart: number
  readonly tokenEnd: number
  readonly label: string
}

/** An entity found in a document, named (tagger, lexicons, patterns) or user (configuration). */
export interface FoundEntity {
  readonly type: 'named' | 'user'
  readonly title: string
  readonly label: string
  readonly entity_type: string
  readonly evidence: number
  readonly confidence: number
  readonly is_about: boolean
  readonly mentions: readonly SpanMention[]
}

/** A literal user entity compiled for matching: its lower-cased token sequence. */
interface LiteralUserEntity {
  readonly words: readonly string[]
  readonly title: string
  readonly label: string
  readonly entity_type: string
}

/** Compiled user entities of a configuration: literal names, and `+` boolean queries as one query set. */
export interface EntityResources {
  readonly literals: readonly LiteralUserEntity[]
  readonly queries: QuerySet
  /** The query entities by the id given to the query set. */
  readonly queryEntities: ReadonlyMap<string, Omit<LiteralUserEntity, 'words'>>
}

/**
 * `entities`: named entities from our tagger (Person, Company, Place), lexicons (Job Title, Product,
 * well-known companies) and patterns (Email, URL, Phone, Date, Money, Percentage, Hashtag, Mention),
 * plus the configuration's user entities, which override a named result on the same span.
 * Sentiment of an entity is the mean sentiment of the sentences that mention it.
 */
export function createEntitiesAnalyzer(
  extractor: EntityExtractor = createEntityExtractor(),
  grammar: QueryGrammar = createQueryGrammar(),
  background: () => Background = lazyBackground(),
  prior: () => ThemePrior = () => loadThemePrior(),
): Analyzer {
  const analyzer: Analyzer & { prepare(stored: StoredConfiguration, subscription: Subscription): EntityResources } = {
    name: 'entities',
    needs: ['sentiment', 'query_index'],
    enabled: (ctx) => {
      const d = ctx.configuration.document
      const f = ctx.subscription.feature_settings.document
      return (d.named_entities && f.named_entities && d.named_entities_limit > 0) || (d.user_entities && f.user_entities && d.user_entities_limit > 0)
    },
    prepare(stored, subscription) {
      // Entities whose name is a boolean query (leading "+") are matched by the query language.
      const queryEntities = new Map<string, Omit<LiteralUserEntity, 'words'>>()
      const defs = stored.tuning.entities
        .filter((e) => isQueryEntityName(e.name))
        .map((e) => {
          queryEntities.set(e.id, { title: e.normalized ?? e.name.slice(1).trim(), label: e.label ?? e.type, entity_type: e.type })
          return { id: e.id, name: e.name, query: e.name.slice(1) }
        })
      const queries = compileQuerySet(defs, stored.tuning.blacklist.map((b) => b.name), { grammar, limits: queryLimitsOf(subscription) })
      const literals = stored.tuning.entities
        .filter((e) => !e.name.startsWith('+'))
        .map((e) => ({
          words: e.name.toLowerCase().split(/\s+/).filter((w) => w !== ''),
          title: e.normalized ?? e.name,
          label: e.label ?? e.type,
          entity_type: e.type,
        }))
        .filter((e) => e.words.length > 0)
      return { literals, queries, queryEntities }
    },
    run(doc, sections, ctx) {
      const d = ctx.configuration.document
      const f = ctx.subscription.feature_settings.document
      const res = ctx.resources['entities'] as EntityResources | undefined
      const user: FoundEntity[] = []
      if (d.user_entities && f.user_entities && res !== undefined) {
        user.push(...matchLiterals(doc, res.literals))
        if (res.queries.size > 0) {
          for (const hit of res.queries.evaluate(doc, sections['query_index'] as DocumentIndex)) {
            const e = res.queryEntities.get(hit.id)
            if (e === undefined) continue
            const mentions = hit.hits.map((h) => ({ tokenStart: h.tokenStart, tokenEnd: h.tokenEnd, label: h.text }))
            user.push({ type: 'user', ...e, evidence: mentions.length, confidence: 100, is_about: false, mentions })
          }
        }
      }
      const taken = new Set<number>()
      for (const u of user) for (const m of u.mentions) for (let i = m.tokenStart; i < m.tokenEnd; i++) taken.add(i)
      const named: FoundEntity[] =
        d.named_entities && f.named_entities
          ? extractor.extract(doc)
              .map((e) => dropTaken(e, taken))
              .filter((e): e is FoundEntity => e !== undefined)
          : []
      const sentiment = need(sections, 'sentiment')
      const withMentions = d.mentions && f.mentions
      const threshold = ctx.configuration.entities_threshold
      // Themes about an entity: the document's themes that stand in a sentence mentioning it.
      const themesLimit = d.entity_themes_limit > 0 && f.themes ? d.entity_themes_limit : 0
      const docThemes = themesLimit > 0 ? rankThemes(doc, extractCandidates(doc), sentiment, background(), Infinity, prior()) : []
      const entityThemes = (e: FoundEntity): Theme[] =>
        themesNear(doc, docThemes, e.mentions, themesLimit).map((t) => themeWire(doc, t, false, withMentions ? d.theme_mentions_limit : 0))
      const wire = (e: FoundEntity, mentionsLimit: number): Entity => {
        // People, organisations and places take a polarity only from evaluative words around them (see
        // aspectMentionScore); products and user entities are aspects like any other.
        const score = contextSentiment(doc, e.mentions, sentiment, { names: e.type === 'named' && NAME_TYPES.has(e.entity_type) })
        const item: Entity = {
          type: e.type,
          title: e.title,
          label: e.label,
          entity_type: e.entity_type,
          evidence: e.evidence,
          confident: e.confidence >= threshold,
          is_about: e.is_about,
          sentiment_score: score.score,
          sentiment_polarity: score.polarity,
        }
        if (withMentions && mentionsLimit > 0) item.mentions = spanMentions(doc, e.mentions, mentionsLimit)
        if (themesLimit > 0) {
          const themes = entityThemes(e)
          if (themes.length > 0) item.themes = themes
        }
        return item
      }
      return [
        ...(d.user_entities_limit > 0 ? user.slice(0, d.user_entities_limit).map((e) => wire(e, d.user_mentions_limit)) : []),
        ...named.slice(0, d.named_entities_limit).map((e) => wire(e, d.named_mentions_limit)),
      ]
    },
    toWire(value, out) {
      const list = value as Entity[]
      if (list.length > 0) out.entities = list
    },
  }
  return analyzer
}

function dropTaken(e: ExtractedEntity, taken: ReadonlySet<number>): FoundEntity | undefined {
  const mentions = e.mentions.filter((m) => {
    for (let i = m.tokenStart; i < m.tokenEnd; i++) if (taken.has(i)) return false
    return true
  })
  if (mentions.length === 0) return undefined
  return {
    type: 'named',
    title: e.title,
    label: e.entity_type,
    entity_type: e.entity_type,
    evidence: mentions.length,
    confidence: e.confidence,
    is_about: e.is_about,
    mentions: mentions.map((m) => ({ tokenStart: m.tokenStart, tokenEnd: m.tokenEnd, label: m.label })),
  }
}

/**
 * Case-insensitive, token-boundary matches of literal user entities (longest first at each position; a match's
 * tokens are not matched again). Shared by the entities analyzer and the relations/opinions arguments.
 */
export function literalMatches<L extends Pick<LiteralUserEntity, 'words'>>(doc: AnnotatedDocument, literals: readonly L[]): Map<L, { tokenStart: number; tokenEnd: number }[]> {
  const found = new Map<L, { tokenStart: number; tokenEnd: number }[]>()
  if (literals.length === 0) return found
  const sorted = [...literals].sort((a, b) => b.words.length - a.words.length)
  const toks = doc.tokens
  for (let i = 0; i < toks.length; i++) {
    for (const lit of sorted) {
      const n = lit.words.length
      if (i + n > toks.length) continue
      let ok = true
      for (let k = 0; k < n && ok; k++) ok = toks[i + k]!.text.toLowerCase() === lit.words[k]
      if (!ok) continue
      const list = found.get(lit) ?? []
      list.push({ tokenStart: i, tokenEnd: i + n })
      found.set(lit, list)
      i += n - 1
      break
    }
  }
  return found
}

function matchLiterals(doc: AnnotatedDocument, literals: readonly LiteralUserEntity[]): FoundEntity[] {
  if (literals.length === 0) return []
  const spans = literalMatches(doc, literals)
  const toks = doc.tokens
  const found = new Map<LiteralUserEntity, SpanMention[]>(
    [...spans].map(([lit, list]) => [lit, list.map((m) => ({ ...m, label: doc.text.slice(toks[m.tokenStart]!.start, toks[m.tokenEnd - 1]!.end) }))]),
  )
  return literals
    .filter((l) => found.has(l))
    .map((l) => {
      const mentions = found.get(l)!
      return { type: 'user' as const, title: l.title, label: l.label, entity_type: l.entity_type, evidence: mentions.length, confidence: 100, is_about: false, mentions }
    })
}
