/**
 * Entities: the trained named-entity tagger and entity extraction over an annotated document.
 *
 * ```ts
 * const extractor = createEntityExtractor()      // loads lexicons/en/ner/ once (about 0.1 s)
 * const entities = extractor.extract(annotator.annotate(text))
 * // or, with an explicit tagger: extractEntities(doc, createEntityTagger(), loadEntityLexicons())
 * ```
 */
export { createEntityTagger, loadDefaultModel, type EntityTagger, type EntityTaggerModel, type TaggedSpan } from './tagger.ts'
export {
  createEntityExtractor,
  extractEntities,
  loadEntityLexicons,
  readPhraseLexicon,
  type ContractEntityType,
  type EntityExtractor,
  type EntityMention,
  type ExtractOptions,
  type ExtractedEntity,
  type PhraseLexicon,
} from './extract.ts'
export type { EntityType } from './features.ts'
