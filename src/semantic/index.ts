import { createHash } from 'node:crypto'
import { existsSync, readFileSync } from 'node:fs'
import { dataPath } from '../resources.ts'
import { decodeWordVectors, type WordVectors } from './vectors.ts'
import { decodeNearestTable, parseTaxonomyModel, semanticInputsDigest, type SemanticIndex, type TaxonomyModel } from './taxonomy.ts'
import { parseCategoryHead, type CategoryHead } from './head.ts'

export { loadWordVectors, decodeWordVectors, encodeWordVectors, type WordVectors } from './vectors.ts'
export { spanVector, phraseVector, samplesVector, termWeight, dot, normalize, type TermWeighting, type TextVector } from './embed.ts'
export { documentVectors, compileSamples, matchSamples, type DocumentVectors, type SampleSet, type ConceptMatch } from './concepts.ts'
export { parseCategoryHead, headProbabilities, type CategoryHead, type CategoryModelFile } from './head.ts'
export { loadTaxonomyModel, parseTaxonomyModel, nearestTable, type TaxonomyModel, type TaxonomyModelNode } from './taxonomy.ts'

/**
 * The semantic layer of one engine: English word vectors and the built-in taxonomy, each read from the data
 * folder the first time something asks for it (only concept topics and auto-categories do), then kept.
 */
export interface SemanticModel {
  readonly vectors: WordVectors
  /** SHA-1 (hex) of the `vectors.bin` that {@link SemanticModel.vectors} were read from (models trained on vectors name it). */
  readonly vectorsSha1: string
  readonly taxonomy: TaxonomyModel
  /**
   * The learned head of `auto_categories` (`lexicons/en/category-model.json`), when that file exists and was
   * trained on these vectors; undefined otherwise (the categories are then ranked by similarity alone).
   */
  readonly head?: CategoryHead | undefined
}

function readData(path: string, what: string): Buffer {
  try {
    return readFileSync(path)
  } catch (e) {
    throw new Error(`cannot read ${what} ${path}: ${(e as Error).message}`)
  }
}

/**
 * A lazily loaded {@link SemanticModel} over `lexicons/en/vectors.bin` and `lexicons/en/iab-taxonomy.tsv`, with
 * the nearest taxonomy node of every word and the nodes' vectors from `lexicons/en/iab-nearest.bin` when that
 * file was computed from these two files (`bench/build-semantic-index.ts`; otherwise the node vectors are computed
 * at load and each word's nearest node when first needed, with the same results), and the learned head of
 * `auto_categories` from `lexicons/en/category-model.json` when that file exists and was trained on these vectors.
 */
export function createSemanticModel(dataDir?: string): SemanticModel {
  let vectors: WordVectors | undefined
  let vectorsDigest: Uint8Array | undefined
  let taxonomy: TaxonomyModel | undefined
  let head: CategoryHead | undefined | null = null
  const model: SemanticModel = {
    get vectors() {
      if (vectors === undefined) {
        const path = dataPath(dataDir, 'en', 'vectors.bin')
        const bytes = readData(path, 'word vectors')
        vectors = decodeWordVectors(bytes, path)
        vectorsDigest = new Uint8Array(createHash('sha1').update(bytes).digest())
      }
      return vectors
    },
    get vectorsSha1() {
      void model.vectors
      return Buffer.from(vectorsDigest!).toString('hex')
    },
    get taxonomy() {
      if (taxonomy === undefined) {
        const v = model.vectors
        const path = dataPath(dataDir, 'en', 'iab-taxonomy.tsv')
        const text = readData(path, 'taxonomy').toString('utf8')
        const tablePath = dataPath(dataDir, 'en', 'iab-nearest.bin')
        let index: SemanticIndex | undefined
        if (existsSync(tablePath)) {
          // The node count is that of the file's data lines (checked again by the parser).
          const nodes = text.split('\n').filter((l) => l.trim() !== '' && !l.startsWith('#')).length
          index = decodeNearestTable(readData(tablePath, 'nearest-node table'), semanticInputsDigest(vectorsDigest!, text), nodes, v.dims, tablePath)
        }
        taxonomy = parseTaxonomyModel(text, v, path, index === undefined ? {} : { nearestTable: index.nearest, nodeVectors: index })
      }
      return taxonomy
    },
    get head() {
      if (head === null) {
        const t = model.taxonomy
        const path = dataPath(dataDir, 'en', 'category-model.json')
        head = existsSync(path) ? parseCategoryHead(readData(path, 'category model').toString('utf8'), t, model.vectors.dims, Buffer.from(vectorsDigest!).toString('hex'), path) : undefined
      }
      return head
    },
  }
  return model
}
