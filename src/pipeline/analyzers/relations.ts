import type { AnnotatedDocument } from '../../nlp/types.ts'
import { BATCH_DOCUMENTS, RecentCache } from '../../nlp/recent-cache.ts'
import type { Relation } from '../../model/output.ts'
import type { EntityExtractor, ExtractedEntity } from '../../entities/extract.ts'
import { findRelations, type RelationEntity, type RelationResources } from '../../relations/index.ts'
import type { AnalyzeContext, Analyzer } from '../types.ts'
import { literalMatches, type EntityResources } from './entities.ts'

/** An entity of the document as the relation and opinion analyzers see it: named or user, with token mentions. */
export interface DocumentEntity extends RelationEntity {
  readonly type: 'named' | 'user'
}

/**
 * An entity extractor that remembers its results for the last documents it was asked about (a batch's worth: the
 * pipeline runs each analyzer over a batch before the next), so that the entities, relations and opinions analyzers of
 * one engine run the tagger once per document. Per engine (no module state). A RecentCache, not a WeakMap, for the
 * reason its comment gives.
 */
export function shareExtraction(extractor: EntityExtractor): EntityExtractor {
  const cache = new RecentCache<AnnotatedDocument, ExtractedEntity[]>(BATCH_DOCUMENTS)
  return {
    extract(doc) {
      let v = cache.get(doc)
      if (v === undefined) {
        v = extractor.extract(doc)
        cache.set(doc, v)
      }
      return v
    },
    get tagger() {
      return extractor.tagger
    },
  }
}

/** Whether the configuration's language is English (the only language these models and rules cover). */
export function isEnglish(ctx: AnalyzeContext): boolean {
  return ctx.configuration.language.toLowerCase() === 'english'
}

/**
 * The entities of a document with their token mentions, as the entities analyzer finds them: the configuration's
 * literal user entities (case-insensitive token matches, longest first) and the extractor's named entities on
 * tokens no user entity took, those under `minConfidence` (0..100) left out. Boolean-query user entities (`+...`)
 * are left out here.
 */
export function documentEntities(doc: AnnotatedDocument, extractor: EntityExtractor, ctx: AnalyzeContext, minConfidence = 0): DocumentEntity[] {
  const d = ctx.configuration.document
  const f = ctx.subscription.feature_settings.document
  const res = ctx.resources['entities'] as EntityResources | undefined
  const user: DocumentEntity[] = []
  const taken = new Set<number>()
  if (d.user_entities && f.user_entities && res !== undefined && res.literals.length > 0) {
    const found = literalMatches(doc, res.literals)
    for (const list of found.values()) for (const m of list) for (let k = m.tokenStart; k < m.tokenEnd; k++) taken.add(k)
    for (const lit of res.literals) {
      const mentions = found.get(lit)
      if (mentions !== undefined) user.push({ type: 'user', title: lit.title, entity_type: lit.entity_type, mentions })
    }
  }
  const named: DocumentEntity[] = []
  if (d.named_entities && f.named_entities) {
    for (const e of extractor.extract(doc)) {
      if (e.confidence < minConfidence) continue
      const mentions = e.mentions
        .filter((m) => {
          for (let i = m.tokenStart; i < m.tokenEnd; i++) if (taken.has(i)) return false
          return true
        })
        .map((m) => ({ tokenStart: m.tokenStart, tokenEnd: m.tokenEnd }))
      if (mentions.length > 0) named.push({ type: 'named', title: e.title, entity_type: e.entity_type, mentions })
    }
  }
  return [...user, ...named]
}

/** The relations section: wire items, named ones then user ones, each list already limited. */
export type RelationsSection = Relation[]

/**
 * `relations`: relations between the document's entities (see `src/relations/find.ts`): a classifier trained on
 * CoNLL04 (employment, residence, place within place, organisation location, killing) plus hand rules (job-title
 * appositions, acquisitions, founders, "based in"). A relation is `user` when both arguments are user entities,
 * else `named`; `named_relations_limit` and `user_relations_limit` cap each (0 turns it off), highest confidence
 * first, ties in argument order. Named entities under `entities_threshold` are no argument. English only.
 */
export function createRelationsAnalyzer(extractor: EntityExtractor, resources: () => RelationResources): Analyzer {
  return {
    name: 'relations',
    // Entities come from the shared extraction (`shareExtraction`), not from the wire section, which is limited and
    // may be off: nothing here reads another section.
    needs: [],
    enabled: (ctx) => {
      const d = ctx.configuration.document
      // Discovery output has no relations field.
      return ctx.mode !== 'discovery' && isEnglish(ctx) && d.relations && ctx.subscription.feature_settings.document.relations && (d.named_relations_limit > 0 || d.user_relations_limit > 0)
    },
    run(doc, _sections, ctx): RelationsSection {
      const d = ctx.configuration.document
      // Arguments are the entities the engine is confident of (`entities_threshold`, as `confident` says): on CoNLL04
      // dev, scored with models that never saw it, end-to-end F1 0.578 -> 0.584 at the default 55 (9 fewer wrong
      // relations, 1 fewer right one).
      const entities = documentEntities(doc, extractor, ctx, ctx.configuration.entities_threshold)
      if (entities.length < 2) return []
      const r = resources()
      const named: Relation[] = []
      const user: Relation[] = []
      for (const found of findRelations(doc, entities, r.model, r.triggers, r.jobTitles)) {
        const a = entities[found.args[0]]!
        const b = entities[found.args[1]]!
        const type = a.type === 'user' && b.type === 'user' ? 'user' : 'named'
        const item: Relation = {
          type,
          relation_type: found.relation_type,
          confidence_score: found.confidence,
          extra: found.extra,
          entities: [
            { title: a.title, entity_type: a.entity_type },
            { title: b.title, entity_type: b.entity_type },
          ],
        }
        ;(type === 'user' ? user : named).push(item)
      }
      return [...named.slice(0, d.named_relations_limit), ...user.slice(0, d.user_relations_limit)]
    },
    toWire(value, out) {
      const list = value as RelationsSection
      if (list.length > 0) out.relations = list
    },
  }
}
