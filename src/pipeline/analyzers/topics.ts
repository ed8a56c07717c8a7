import type { AnnotatedDocument } from '../../nlp/types.ts'
import type { Subscription } from '../../model/account.ts'
import type { Topic } from '../../model/output.ts'
import { spanMentions } from '../mentions.ts'
import type { TaxonomyNode } from '../../model/tuning.ts'
import type { StoredConfiguration } from '../../storage/types.ts'
import { createQueryGrammar, type QueryGrammar, type QueryLimits } from '../../query/index.ts'
import { compileQuerySet, type QuerySet, type QuerySetHit } from '../../query/query-set.ts'
import { createDocumentIndex, type DocumentIndex } from '../../query/document-index.ts'
import type { QueryHit } from '../../query/match.ts'
import { need } from '../pipeline.ts'
import type { Analyzer, SentimentSection } from '../types.ts'

/** The query limits of a license. */
export function queryLimitsOf(subscription: Subscription): Partial<QueryLimits> {
  const b = subscription.basic_settings
  return { maxLength: b.query_length_limit, nearOperatorLimit: b.near_operator_limit, nearOperatorDistance: b.near_operator_distance }
}

/** Compiled query topics of a configuration. */
export interface TopicResources {
  readonly set: QuerySet
  readonly taxonomy: TaxonomyNode | undefined
}

/** A query topic found in a document, before limits. */
export interface FoundTopic {
  readonly id: string
  readonly title: string
  readonly hitcount: number
  readonly hits: readonly QueryHit[]
  readonly strength: number
  readonly sentiment: { readonly score: number; readonly polarity: 'positive' | 'negative' | 'neutral' }
}

/** The topics section: matched query topics in configuration order. */
export interface TopicsSection {
  readonly topics: readonly FoundTopic[]
}

/**
 * The document's query index, shared by every analyzer that evaluates queries (topics, `+` user
 * entities, operator sentiment phrases), so the document is indexed once.
 */
export const queryIndexAnalyzer: Analyzer = {
  name: 'query_index',
  needs: [],
  enabled: () => false,
  run: (doc) => createDocumentIndex(doc),
}

/**
 * `topics` (query topics) and `taxonomy`: the configuration's boolean queries evaluated on the
 * document. A topic's `hitcount` is the number of query-term occurrences that satisfied the query;
 * `strength_score` is hitcount over the square root of the document's words (comparable across
 * document lengths); sentiment is the mean score of the sentences holding hits.
 */
export function createTopicsAnalyzer(grammar: QueryGrammar = createQueryGrammar()): Analyzer {
  const analyzer: Analyzer & { prepare(stored: StoredConfiguration, subscription: Subscription): TopicResources } = {
    name: 'topics',
    needs: ['sentiment', 'query_index'],
    enabled: (ctx) =>
      ctx.subscription.feature_settings.document.query_topics &&
      ctx.configuration.document.query_topics &&
      ctx.configuration.document.query_topics_limit > 0,
    prepare(stored, subscription) {
      const t = stored.tuning
      const set = compileQuerySet(
        t.queries.map((q) => ({ id: q.id, name: q.name, query: q.query })),
        t.blacklist.map((b) => b.name),
        { grammar, limits: queryLimitsOf(subscription) },
      )
      return { set, taxonomy: t.taxonomy }
    },
    run(doc, sections, ctx) {
      const res = ctx.resources['topics'] as TopicResources | undefined
      if (res === undefined || res.set.size === 0) return { topics: [] }
      const sentiment = need(sections, 'sentiment')
      const index = sections['query_index'] as DocumentIndex
      const words = doc.tokens.filter((t) => t.kind === 'word').length || 1
      const topics = res.set.evaluate(doc, index).map((h) => foundTopic(doc, h, sentiment, words))
      return { topics }
    },
    toWire(value, out, ctx, doc) {
      const { topics } = value as TopicsSection
      const d = ctx.configuration.document
      const mentionsLimit = d.mentions && ctx.subscription.feature_settings.document.mentions ? 20 : 0
      const list = [...topics].sort((a, b) => b.hitcount - a.hitcount || (a.title < b.title ? -1 : a.title > b.title ? 1 : 0))
      const wired = list.slice(0, d.query_topics_limit).map((t) => topicWire(doc, t, mentionsLimit))
      if (wired.length > 0) out.topics = wired
      const res = ctx.resources['topics'] as TopicResources | undefined
      if (res?.taxonomy !== undefined) {
        const byId = new Map(topics.map((t) => [t.id, t]))
        const root = nodeWire(res.taxonomy, byId, true, doc, mentionsLimit)
        if (root !== undefined) out.taxonomy = [root]
      }
    },
  }
  return analyzer
}

function foundTopic(doc: AnnotatedDocument, h: QuerySetHit, sentiment: SentimentSection, words: number): FoundTopic {
  const sentences = [...new Set(h.hits.map((x) => doc.tokens[x.tokenStart]!.sentence))]
  let sum = 0
  for (const s of sentences) sum += sentiment.sentenceScores[s] ?? 0
  const score = sentences.length === 0 ? 0 : round4(sum / sentences.length)
  return {
    id: h.id,
    title: h.name,
    hitcount: h.hitcount,
    hits: h.hits,
    strength: round4(h.hitcount / Math.sqrt(words)),
    sentiment: { score, polarity: sentiment.polarityOf(score) },
  }
}

/** Wire form of a query topic. */
export function topicWire(doc: AnnotatedDocument, t: FoundTopic, mentionsLimit: number): Topic {
  const item: Topic = {
    id: t.id,
    title: t.title,
    type: 'query',
    hitcount: t.hitcount,
    strength_score: t.strength,
    sentiment_score: t.sentiment.score,
    sentiment_polarity: t.sentiment.polarity,
  }
  if (mentionsLimit > 0 && t.hits.length > 0) item.mentions = spanMentions(doc, t.hits, mentionsLimit)
  return item
}

/**
 * Taxonomy nodes that matched: a node matches when one of its query topics or of its child nodes
 * matched; a node with `enforce_parent_matching` is returned only when its parent matched too (the
 * root's children have no parent topic to require). Categories (concept topics) are not evaluated yet,
 * so nodes list query topics only.
 */
function taxonomyWire(node: TaxonomyNode, found: ReadonlyMap<string, FoundTopic>, parentMatched: boolean, doc: AnnotatedDocument, mentionsLimit: number): Topic[] {
  const out: Topic[] = []
  for (const child of node.nodes) {
    const t = nodeWire(child, found, parentMatched, doc, mentionsLimit)
    if (t !== undefined) out.push(t)
  }
  return out
}

function nodeWire(node: TaxonomyNode, found: ReadonlyMap<string, FoundTopic>, parentMatched: boolean, doc: AnnotatedDocument, mentionsLimit: number): Topic | undefined {
  if (node.enforce_parent_matching && !parentMatched) return undefined
  const own = node.topics.filter((t) => t.type === 'query').map((t) => found.get(t.id)).filter((t): t is FoundTopic => t !== undefined)
  const ownMatched = own.length > 0
  const children = taxonomyWire(node, found, ownMatched, doc, mentionsLimit)
  if (!ownMatched && children.length === 0) return undefined
  const topics = [...own.map((t) => topicWire(doc, t, mentionsLimit)), ...children]
  const hitcount = topics.reduce((n, t) => n + t.hitcount, 0)
  const scored = topics.filter((t) => t.hitcount > 0)
  const score = scored.length === 0 ? 0 : round4(scored.reduce((n, t) => n + t.sentiment_score * t.hitcount, 0) / hitcount)
  return {
    id: node.id,
    title: node.name,
    type: 'node',
    hitcount,
    strength_score: round4(topics.reduce((n, t) => n + t.strength_score, 0)),
    sentiment_score: score,
    sentiment_polarity: score > 0.05 ? 'positive' : score < -0.05 ? 'negative' : 'neutral',
    topics,
  }
}

function round4(x: number): number {
  const r = Math.round(x * 10_000) / 10_000
  return r === 0 ? 0 : r
}
