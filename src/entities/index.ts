/**
 * Entities: the trained named-entity tagger and entity extraction over an annotated document.
 *
 * ```ts
 * const tagger = createEntityTagger()            // loads lexicons/en/ner/tagger.bin.gz once
 * const entities = extractEntities(annotator.annotate(text), tagger)
 * ```
 */
export { createEntityTagger, loadDefaultModel, type EntityTagger, type EntityTaggerModel, type TaggedSpan } from './tagger.ts'
export {
  extractEntities,
  loadEntityLexicons,
  readPhraseLexicon,
  type ContractEntityType,
  type EntityMention,
  type ExtractOptions,
  type ExtractedEntity,
  type PhraseLexicon,
} from './extract.ts'
export type { EntityType } from './features.ts'
