import type { AnnotatedDocument } from '../../nlp/types.ts'
import type { Subscription } from '../../model/account.ts'
import type { Polarity, Topic } from '../../model/output.ts'
import { contextSentiment, round4, spanMentions } from '../spans.ts'
import type { TaxonomyNode } from '../../model/tuning.ts'
import type { StoredConfiguration } from '../../storage/types.ts'
import { createQueryGrammar, type QueryGrammar, type QueryLimits } from '../../query/index.ts'
import { compileQuerySet, type QuerySet, type QuerySetHit } from '../../query/query-set.ts'
import { createDocumentIndex, type DocumentIndex } from '../../query/document-index.ts'
import type { QueryHit } from '../../query/match.ts'
import { compileSamples, documentVectors, matchSamples, type ConceptMatch, type SampleSet, type SemanticModel } from '../../semantic/index.ts'
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
  /** Categories (concept topics): each one's samples OR'ed into one query. */
  readonly concepts: QuerySet
  /** The categories with samples, in configuration order (item ids are unique). */
  readonly categories: readonly ConceptCategory[]
  readonly taxonomy: TaxonomyNode | undefined
}

/** A category (concept topic) of a configuration. */
export interface ConceptCategory {
  readonly id: string
  readonly name: string
  readonly samples: number
  readonly weight: number
  /** Its samples' vector, computed on first use and kept with the configuration revision's resources. */
  readonly sampleSet: (semantic: SemanticModel) => SampleSet
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

/** The topics section: matched query topics and concept topics, in configuration order. */
export interface TopicsSection {
  readonly topics: readonly FoundTopic[]
  readonly concepts: readonly FoundTopic[]
  /** The scorer's polarity rule, for the scores of taxonomy nodes. */
  readonly polarityOf: (score: number) => Polarity
}

/** A sample term as a query term: quoted unless it is one plain word (a trailing `*` is kept). */
function sampleTerm(sample: string): string {
  const s = sample.trim()
  if (/^[\p{L}][\p{L}'&_-]*\*?$/u.test(s) && !/^(AND|OR|NOT|NEAR|WITH|NOTWITH)$/.test(s)) return s
  return `"${s.replace(/"/g, '')}"`
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
 *
 * Concept topics (categories) match by meaning when `semantic` is given and the configuration is English: a
 * category's similarity is the cosine between its samples' vector and the text's (or its best sentence's)
 * vector (`src/semantic/`); other languages match the samples word for word (the share of distinct samples
 * found, saturating at three). `strength_score` is that similarity (or share) times the category's weight when
 * the weight is between 0 and 1 (weights of 1 or more, and 0, leave it as is); the category is reported when
 * the strength reaches `concept_topics_threshold`. Its mentions are the samples found word for word and the
 * words most similar to the samples in the sentences that carry it; its sentiment is that of those sentences.
 */
export function createTopicsAnalyzer(grammar: QueryGrammar = createQueryGrammar(), semantic?: SemanticModel): Analyzer {
  const analyzer: Analyzer & { prepare(stored: StoredConfiguration, subscription: Subscription): TopicResources } = {
    name: 'topics',
    needs: ['sentiment', 'query_index'],
    enabled: (ctx) => {
      const d = ctx.configuration.document
      const f = ctx.subscription.feature_settings.document
      return (f.query_topics && d.query_topics && d.query_topics_limit > 0) || (f.concept_topics && d.concept_topics && d.concept_topics_limit > 0)
    },
    prepare(stored, subscription) {
      const t = stored.tuning
      const set = compileQuerySet(
        t.queries.map((q) => ({ id: q.id, name: q.name, query: q.query })),
        t.blacklist.map((b) => b.name),
        { grammar, limits: queryLimitsOf(subscription) },
      )
      const withSamples = t.categories.filter((c) => c.samples.some((x) => x.trim() !== ''))
      const concepts = compileQuerySet(
        withSamples.map((c) => ({ id: c.id, name: c.name, query: c.samples.filter((x) => x.trim() !== '').map(sampleTerm).join(' OR ') })),
        t.blacklist.map((b) => b.name),
        { grammar, limits: { ...queryLimitsOf(subscription), maxLength: Number.MAX_SAFE_INTEGER } },
      )
      const categories = withSamples.map((c): ConceptCategory => {
        const samples = c.samples.filter((x) => x.trim() !== '')
        let set: SampleSet | undefined
        const sampleSet = (m: SemanticModel): SampleSet => (set ??= compileSamples(m.vectors, samples))
        return { id: c.id, name: c.name, samples: c.samples.length, weight: c.weight, sampleSet }
      })
      return { set, concepts, categories, taxonomy: t.taxonomy }
    },
    run(doc, sections, ctx) {
      const res = ctx.resources['topics'] as TopicResources | undefined
      const sentiment = need(sections, 'sentiment')
      if (res === undefined) return { topics: [], concepts: [], polarityOf: sentiment.polarityOf }
      const index = sections['query_index'] as DocumentIndex
      const words = doc.tokens.filter((t) => t.kind === 'word').length || 1
      const d = ctx.configuration.document
      const f = ctx.subscription.feature_settings.document
      const topics = res.set.size === 0 ? [] : res.set.evaluate(doc, index).map((h) => foundTopic(doc, h, sentiment, words))
      const concepts: FoundTopic[] = []
      if (res.concepts.size > 0 && f.concept_topics && d.concept_topics) {
        const threshold = ctx.configuration.concept_topics_threshold
        const bySense = semantic !== undefined && ctx.configuration.language.toLowerCase() === 'english'
        const scale = (c: { weight: number }): number => (c.weight > 0 ? Math.min(1, c.weight) : 1)
        // By meaning, the strength is the similarity alone and the samples found word for word only add
        // mentions: the samples are looked up in the text (a query over the whole text) only when some
        // category passes the threshold.
        let matches: Map<string, ConceptMatch> | undefined
        if (bySense) {
          const dv = documentVectors(semantic.vectors, doc)
          matches = new Map()
          for (const c of res.categories) {
            const id = c.id
            const m = matchSamples(semantic.vectors, dv, c.sampleSet(semantic), threshold)
            const strength = round4(Math.max(0, m.similarity) * scale(c))
            if (strength > 0 && strength >= threshold) matches.set(id, m)
          }
        }
        const lexical = matches === undefined || matches.size > 0 ? new Map(res.concepts.evaluate(doc, index).map((h) => [h.id, h])) : new Map<string, QuerySetHit>()
        for (const c of res.categories) {
          const id = c.id
          const m = matches?.get(id)
          if (matches !== undefined && m === undefined) continue
          const h = lexical.get(id)
          // Word for word: the share of distinct samples found, saturating at three.
          const distinct = h === undefined ? 0 : new Set(h.hits.map((x) => doc.tokens[x.tokenStart]!.lemma)).size
          const byWord = Math.min(1, distinct / Math.min(3, c.samples))
          const strength = round4(Math.max(0, m !== undefined ? m.similarity : byWord) * scale(c))
          if (strength <= 0 || strength < threshold) continue
          const hits = conceptHits(doc, h?.hits ?? [], m?.drivers ?? [])
          if (hits.length === 0) continue
          concepts.push({ ...foundTopic(doc, { id, name: c.name, matched: true, hitcount: hits.length, hits }, sentiment, words), strength })
        }
      }
      return { topics, concepts, polarityOf: sentiment.polarityOf }
    },
    toWire(value, out, ctx, doc) {
      const { topics, concepts, polarityOf } = value as TopicsSection
      const d = ctx.configuration.document
      const f = ctx.subscription.feature_settings.document
      const mentionsLimit = d.mentions && f.mentions ? 20 : 0
      const byHits = (a: FoundTopic, b: FoundTopic): number => b.hitcount - a.hitcount || (a.title < b.title ? -1 : a.title > b.title ? 1 : 0)
      const queryList = f.query_topics && d.query_topics ? [...topics].sort(byHits).slice(0, d.query_topics_limit) : []
      const conceptList = [...concepts].sort((a, b) => b.strength - a.strength || byHits(a, b)).slice(0, d.concept_topics_limit)
      const wired = [...queryList.map((t) => topicWire(doc, t, mentionsLimit)), ...conceptList.map((t) => topicWire(doc, t, mentionsLimit, 'concept'))]
      if (wired.length > 0) out.topics = wired
      const res = ctx.resources['topics'] as TopicResources | undefined
      if (res?.taxonomy !== undefined) {
        const found: Found = { query: new Map(topics.map((t) => [t.id, t])), concept: new Map(concepts.map((t) => [t.id, t])), polarityOf }
        const root = nodeWire(res.taxonomy, found, true, doc, mentionsLimit)
        if (root !== undefined) out.taxonomy = [root]
      }
    },
  }
  return analyzer
}

/** A category's hits: the samples found word for word, then the words that drove its similarity, in text order. */
function conceptHits(doc: AnnotatedDocument, lexical: readonly QueryHit[], drivers: readonly number[]): QueryHit[] {
  const covered = new Set<number>()
  for (const h of lexical) for (let i = h.tokenStart; i < h.tokenEnd; i++) covered.add(i)
  const hits = [...lexical]
  for (const i of drivers) {
    if (covered.has(i)) continue
    const t = doc.tokens[i]!
    hits.push({ tokenStart: i, tokenEnd: i + 1, start: t.start, end: t.end, byteOffset: t.byteOffset, byteLength: t.byteLength, text: t.text })
  }
  return hits.sort((a, b) => a.tokenStart - b.tokenStart)
}

function foundTopic(doc: AnnotatedDocument, h: QuerySetHit, sentiment: SentimentSection, words: number): FoundTopic {
  const { score, polarity } = contextSentiment(doc, h.hits, sentiment)
  return {
    id: h.id,
    title: h.name,
    hitcount: h.hitcount,
    hits: h.hits,
    strength: round4(h.hitcount / Math.sqrt(words)),
    sentiment: { score, polarity },
  }
}

/** Wire form of a query topic. */
export function topicWire(doc: AnnotatedDocument, t: FoundTopic, mentionsLimit: number, type: 'query' | 'concept' = 'query'): Topic {
  const item: Topic = {
    id: t.id,
    title: t.title,
    type,
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
 * root's children have no parent topic to require). A node lists its matched query and concept topics,
 * then its matched child nodes.
 */
type Found = {
  readonly query: ReadonlyMap<string, FoundTopic>
  readonly concept: ReadonlyMap<string, FoundTopic>
  readonly polarityOf: (score: number) => Polarity
}

function taxonomyWire(node: TaxonomyNode, found: Found, parentMatched: boolean, doc: AnnotatedDocument, mentionsLimit: number): Topic[] {
  const out: Topic[] = []
  for (const child of node.nodes) {
    const t = nodeWire(child, found, parentMatched, doc, mentionsLimit)
    if (t !== undefined) out.push(t)
  }
  return out
}

function nodeWire(node: TaxonomyNode, found: Found, parentMatched: boolean, doc: AnnotatedDocument, mentionsLimit: number): Topic | undefined {
  if (node.enforce_parent_matching && !parentMatched) return undefined
  const own: Topic[] = []
  for (const ref of node.topics) {
    const t = found[ref.type].get(ref.id)
    if (t !== undefined) own.push(topicWire(doc, t, mentionsLimit, ref.type))
  }
  const ownMatched = own.length > 0
  const children = taxonomyWire(node, found, ownMatched, doc, mentionsLimit)
  if (!ownMatched && children.length === 0) return undefined
  const topics = [...own, ...children]
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
    sentiment_polarity: found.polarityOf(score),
    topics,
  }
}

