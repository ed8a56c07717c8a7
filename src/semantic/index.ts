import { dataPath } from '../resources.ts'
import { loadWordVectors, type WordVectors } from './vectors.ts'
import { loadTaxonomyModel, type TaxonomyModel } from './taxonomy.ts'

export { loadWordVectors, decodeWordVectors, encodeWordVectors, type WordVectors } from './vectors.ts'
export { spanVector, phraseVector, samplesVector, termWeight, dot, normalize, type TermWeighting, type TextVector } from './embed.ts'
export { documentVectors, compileSamples, matchSamples, type DocumentVectors, type SampleSet, type ConceptMatch } from './concepts.ts'
export { loadTaxonomyModel, parseTaxonomyModel, type TaxonomyModel, type TaxonomyModelNode } from './taxonomy.ts'

/**
 * The semantic layer of one engine: English word vectors and the built-in taxonomy, each read from the data
 * folder the first time something asks for it (only concept topics and auto-categories do), then kept.
 */
export interface SemanticModel {
  readonly vectors: WordVectors
  readonly taxonomy: TaxonomyModel
}

/** A lazily loaded {@link SemanticModel} over `lexicons/en/vectors.bin` and `lexicons/en/iab-taxonomy.tsv`. */
export function createSemanticModel(dataDir?: string): SemanticModel {
  let vectors: WordVectors | undefined
  let taxonomy: TaxonomyModel | undefined
  const model: SemanticModel = {
    get vectors() {
      vectors ??= loadWordVectors(dataPath(dataDir, 'en', 'vectors.bin'))
      return vectors
    },
    get taxonomy() {
      taxonomy ??= loadTaxonomyModel(dataPath(dataDir, 'en', 'iab-taxonomy.tsv'), model.vectors)
      return taxonomy
    },
  }
  return model
}
