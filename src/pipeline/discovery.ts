import type { Configuration } from '../model/configuration.ts'
import type {
  CollectionEntity,
  CollectionOutput,
  CollectionTheme,
  CollectionTopic,
  Entity,
  Facet,
  FacetAttribute,
  Location,
  Mention,
  Polarity,
} from '../model/output.ts'
import type { AnnotatedDocument } from '../nlp/types.ts'
import type { Sections } from './types.ts'
import { round4, spanMentions } from './spans.ts'
import type { ThemesSection } from './analyzers/themes.ts'
import type { TopicsSection } from './analyzers/topics.ts'

/**
 * The Detailed configuration a collection's texts are analysed under: the collection block's switches
 * decide which sections run, with the most results per text so that aggregation sees everything, and
 * Detailed-only outputs (summary, phrases, details) off.
 */
export function discoveryConfiguration(c: Configuration): Configuration {
  const col = c.collection
  return {
    ...c,
    document: {
      ...c.document,
      named_entities: col.named_entities,
      user_entities: col.user_entities,
      query_topics: col.query_topics,
      concept_topics: col.concept_topics,
      themes: col.themes || col.facets,
      mentions: true,
      named_entities_limit: col.named_entities && col.named_entities_limit > 0 ? 20 : 0,
      user_entities_limit: col.user_entities && col.user_entities_limit > 0 ? 20 : 0,
      named_mentions_limit: 20,
      user_mentions_limit: 20,
      themes_limit: (col.themes && col.themes_limit > 0) || (col.facets && col.facets_limit > 0) ? 20 : 0,
      theme_mentions_limit: 20,
      query_topics_limit: col.query_topics && col.query_topics_limit > 0 ? 20 : 0,
      concept_topics_limit: col.concept_topics && col.concept_topics_limit > 0 ? 20 : 0,
      phrases_limit: 0,
      possible_phrases_limit: 0,
      summary_limit: 0,
      model_sentiment: false,
      entity_themes_limit: 0,
    },
  }
}

/** What one text of a collection contributed. */
export interface CollectionPart {
  readonly index: number
  readonly doc: AnnotatedDocument
  readonly sections: Partial<Sections>
}

interface Tally {
  count: number
  positive: number
  negative: number
  neutral: number
}
const tally = (): Tally => ({ count: 0, positive: 0, negative: 0, neutral: 0 })
const add = (t: Tally, p: Polarity): void => {
  t.count++
  t[p]++
}

/** Merge per-text mentions into collection mentions (grouped by label, locations with `index`). */
function mergeMentions(into: Map<string, Mention>, mentions: readonly Mention[] | undefined, index: number): void {
  for (const m of mentions ?? []) {
    const prev = into.get(m.label) ?? { label: m.label, is_negated: false, locations: [] as Location[] }
    prev.is_negated ||= m.is_negated
    for (const l of m.locations) prev.locations.push({ index, offset: l.offset, length: l.length })
    into.set(m.label, prev)
  }
}

/**
 * Aggregate the parts of a collection into the Discovery output: entities and themes with counts by
 * polarity, facets (head nouns of noun phrases) with their attributes (adjectives; a pair is reported
 * when it occurs at least twice), each list ordered by count, then title.
 */
export function aggregateCollection(parts: readonly CollectionPart[], config: Configuration, base: CollectionOutput): CollectionOutput {
  const col = config.collection
  const out: CollectionOutput = { ...base }
  // Aggregated scores get the polarity the scorer gives any score (its thresholds are configurable).
  const polarity = (score: number): Polarity => parts[0]?.sections.sentiment?.polarityOf(score) ?? 'neutral'
  const withMentions = col.mentions

  // Entities: one per (type, entity_type, title); count = texts mentioning it, by the text-level polarity of the entity.
  if ((col.named_entities && col.named_entities_limit > 0) || (col.user_entities && col.user_entities_limit > 0)) {
    const byKey = new Map<string, { e: Entity; t: Tally; mentions: Map<string, Mention> }>()
    for (const p of parts) {
      for (const e of (p.sections['entities'] as Entity[] | undefined) ?? []) {
        const key = `${e.type}\u0000${e.entity_type}\u0000${e.title.toLowerCase()}`
        const entry = byKey.get(key) ?? { e, t: tally(), mentions: new Map<string, Mention>() }
        add(entry.t, e.sentiment_polarity)
        mergeMentions(entry.mentions, e.mentions, p.index)
        byKey.set(key, entry)
      }
    }
    const rank = (list: { e: Entity; t: Tally; mentions: Map<string, Mention> }[], limit: number, mentionsLimit: number): CollectionEntity[] =>
      list
        .sort((a, b) => b.t.count - a.t.count || (a.e.title < b.e.title ? -1 : a.e.title > b.e.title ? 1 : 0))
        .slice(0, limit)
        .map(({ e, t, mentions }) => {
          const item: CollectionEntity = {
            title: e.title,
            label: e.label,
            type: e.type,
            entity_type: e.entity_type,
            count: t.count,
            negative_count: t.negative,
            positive_count: t.positive,
            neutral_count: t.neutral,
          }
          if (withMentions && mentionsLimit > 0) item.mentions = [...mentions.values()].slice(0, mentionsLimit)
          return item
        })
    const all = [...byKey.values()]
    const user = col.user_entities ? rank(all.filter((x) => x.e.type === 'user'), col.user_entities_limit, col.user_mentions_limit) : []
    const named = col.named_entities ? rank(all.filter((x) => x.e.type === 'named'), col.named_entities_limit, col.named_mentions_limit) : []
    if (user.length + named.length > 0) out.entities = [...user, ...named]
  }

  // Themes: count of texts and of phrases; sentiment is the mean over the texts that hold the theme.
  if (col.themes && col.themes_limit > 0) {
    const byTheme = new Map<string, { title: string; texts: number; phrases: number; sum: number; mentions: Map<string, Mention> }>()
    for (const p of parts) {
      const section = p.sections['themes'] as ThemesSection | undefined
      for (const t of section?.themes ?? []) {
        const entry = byTheme.get(t.normalized) ?? { title: t.title, texts: 0, phrases: 0, sum: 0, mentions: new Map<string, Mention>() }
        entry.texts++
        entry.phrases += t.spans.length
        entry.sum += t.sentiment.score
        if (withMentions) mergeMentions(entry.mentions, spanMentions(p.doc, t.spans, Infinity), p.index)
        byTheme.set(t.normalized, entry)
      }
    }
    const themes: CollectionTheme[] = [...byTheme.values()]
      .filter((t) => t.texts >= 1)
      .sort((a, b) => b.texts - a.texts || b.phrases - a.phrases || (a.title < b.title ? -1 : a.title > b.title ? 1 : 0))
      .slice(0, col.themes_limit)
      .map((t) => {
        const score = round4(t.sum / t.texts)
        const item: CollectionTheme = {
          title: t.title,
          phrases_count: t.phrases,
          themes_count: t.texts,
          sentiment_score: score,
          sentiment_polarity: polarity(score),
        }
        if (withMentions && col.theme_mentions_limit > 0) item.mentions = [...t.mentions.values()].slice(0, col.theme_mentions_limit)
        return item
      })
    if (themes.length > 0) out.themes = themes
  }

  // Facets: head nouns of noun phrases, counted per aspect polarity of each phrase; attributes are their adjectives.
  if (col.facets && col.facets_limit > 0) {
    const facets = new Map<string, { t: Tally; atts: Map<string, { count: number; mentions: Map<string, Mention> }>; mentions: Map<string, Mention>; lower: boolean }>()
    for (const p of parts) {
      const section = p.sections['themes'] as ThemesSection | undefined
      const sentiment = p.sections.sentiment
      for (const ph of section?.phrases ?? []) {
        // Facets are things the texts describe (room, staff), not names: "Central Park" is an entity.
        if (ph.isProper) continue
        const entry = facets.get(ph.head) ?? { t: tally(), atts: new Map(), mentions: new Map<string, Mention>(), lower: false }
        const score = sentiment?.aspect([ph]).score ?? 0
        add(entry.t, polarity(score))
        const headTok = p.doc.tokens[ph.tokenEnd - 1]!
        entry.lower ||= !/^\p{Lu}/u.test(headTok.text)
        mergeMentions(entry.mentions, [{ label: headTok.text, is_negated: headTok.negated, locations: [{ offset: headTok.byteOffset, length: headTok.byteLength }] }], p.index)
        if (col.attributes) {
          for (const a of ph.attributes) {
            const att = entry.atts.get(a) ?? { count: 0, mentions: new Map<string, Mention>() }
            att.count++
            mergeMentions(att.mentions, spanMentions(p.doc, [ph], Infinity), p.index)
            entry.atts.set(a, att)
          }
        }
        facets.set(ph.head, entry)
      }
    }
    // A head never written in lower case ("Bellagio" opening every sentence it is in) is a name, not a facet.
    const list: Facet[] = [...facets]
      .filter(([, f]) => f.lower)
      .sort((a, b) => b[1].t.count - a[1].t.count || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))
      .slice(0, col.facets_limit)
      .map(([label, f]) => {
        const item: Facet = {
          label,
          count: f.t.count,
          negative_count: f.t.negative,
          positive_count: f.t.positive,
          neutral_count: f.t.neutral,
        }
        if (col.attributes && col.facet_atts_limit > 0) {
          const atts: FacetAttribute[] = [...f.atts]
            .filter(([, a]) => a.count >= 2)
            .sort((a, b) => b[1].count - a[1].count || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))
            .slice(0, col.facet_atts_limit)
            .map(([attLabel, a]) => {
              const att: FacetAttribute = { label: attLabel, count: a.count }
              if (withMentions && col.attribute_mentions_limit > 0) att.mentions = [...a.mentions.values()].slice(0, col.attribute_mentions_limit)
              return att
            })
          if (atts.length > 0) item.attributes = atts
        }
        if (withMentions && col.facet_mentions_limit > 0) {
          item.mentions = [...f.mentions.values()].slice(0, col.facet_mentions_limit).map((m) => ({ label: m.label, is_negated: m.is_negated, locations: m.locations }))
        }
        return item
      })
    if (list.length > 0) out.facets = list
  }
  // Query and concept topics: hitcount summed over the texts; sentiment is the mean over the texts that matched.
  const topics: CollectionTopic[] = []
  for (const kind of ['query', 'concept'] as const) {
    const limit = kind === 'query' ? (col.query_topics ? col.query_topics_limit : 0) : col.concept_topics ? col.concept_topics_limit : 0
    if (limit <= 0) continue
    const byId = new Map<string, { title: string; hitcount: number; texts: number; sum: number }>()
    for (const p of parts) {
      const section = p.sections['topics'] as TopicsSection | undefined
      for (const t of (kind === 'query' ? section?.topics : section?.concepts) ?? []) {
        const entry = byId.get(t.id) ?? { title: t.title, hitcount: 0, texts: 0, sum: 0 }
        entry.hitcount += t.hitcount
        entry.texts++
        entry.sum += t.sentiment.score
        byId.set(t.id, entry)
      }
    }
    for (const [id, t] of [...byId]
      .sort((a, b) => b[1].hitcount - a[1].hitcount || (a[1].title < b[1].title ? -1 : a[1].title > b[1].title ? 1 : 0))
      .slice(0, limit)) {
      const score = round4(t.sum / t.texts)
      topics.push({ id, title: t.title, type: kind, hitcount: t.hitcount, sentiment_score: score, sentiment_polarity: polarity(score) })
    }
  }
  if (topics.length > 0) out.topics = topics
  return out
}


