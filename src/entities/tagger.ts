/**
 * Named-entity tagger: an averaged perceptron over BIO labels of the CoNLL types PER, ORG, LOC and
 * MISC, decoded greedily left to right with BIO constraints, with a document memory (the type a word
 * received earlier in the same document is a feature). Works on token strings only, so it runs on
 * CoNLL tokens and on wink tokens alike.
 */
import { readFileSync } from 'node:fs'
import { sep } from 'node:path'
import { dataPath, missingDataHint } from '../resources.ts'
import type { Gazetteer, WordClusters } from './features.ts'
import { decodeModel, gunzipWithMagic, type PerceptronWeights } from './model.ts'
import { readGazetteer } from './gazetteer.ts'
import { WordIndexMap, sortedWords } from '../sorted-words.ts'
import { createDecoder, type TaggedSpan } from './tagger-decoder.ts'

export type { TaggedSpan } from './tagger-decoder.ts'

/** A trained tagger. Each call is a document of its own; only a cache of per-word weight rows persists. */
export interface EntityTagger {
  /** Tag one sentence (a document of one sentence). */
  tag(tokens: readonly string[]): TaggedSpan[]
  /**
   * Tag a document given as sentences of tokens; the type given to a word earlier in the document is
   * a feature for its later occurrences. Returns one list per sentence, spans indexed within the sentence.
   */
  tagDocument(sentences: readonly (readonly string[])[]): TaggedSpan[][]
  /** Provenance of the weights (training data, epochs). */
  readonly trained: Readonly<Record<string, string | number>>
}

/** Where a tagger's weights and gazetteer come from. */
export interface EntityTaggerModel {
  /** Weights (decoded). @defaultValue the committed `lexicons/en/ner/tagger.bin.gz` */
  readonly weights?: PerceptronWeights
  /** Gazetteer the weights were trained with. @defaultValue the committed `lexicons/en/ner/gazetteer.tsv` */
  readonly gazetteer?: Gazetteer
  /**
   * Word clusters the weights were trained with. @defaultValue the committed `lexicons/en/ner/clusters.bin.gz`
   * when the weights name it (`trained.clusters`), else none
   */
  readonly clusters?: WordClusters
  /** Data folder of the committed weights and gazetteer. @defaultValue see `resolveDataDir` */
  readonly dataDir?: string
}

/**
 * Parse a clusters file (written by `bench/build-ner-clusters.ts`): gzip of the 8 bytes `TENERCL1`, a uint32 LE
 * word count N, N bytes of fine clusters, N bytes of coarse clusters, and the N words joined by newlines.
 */
export function readClusters(bytes: Uint8Array, source = 'clusters'): WordClusters {
  const raw = gunzipWithMagic(bytes, 'TENERCL1', 12, source, 'clusters file')
  const n = raw.readUInt32LE(8)
  // Sorted ASCII words are read in place (see sorted-words.ts); anything else is split into a Map.
  const sorted = raw.length >= 12 + 2 * n ? sortedWords(raw.subarray(12 + 2 * n), n) : undefined
  if (sorted !== undefined) return new WordIndexMap(sorted, (i) => raw[12 + i]! * 65536 + raw[12 + n + i]!)
  const words = raw.length >= 12 + 2 * n ? raw.toString('utf8', 12 + 2 * n).split('\n') : []
  if (words.length !== n) throw new Error(`${source}: header says ${n} words, instead found ${words.length}`)
  const out = new Map<string, number>()
  for (let i = 0; i < n; i++) out.set(words[i]!, raw[12 + i]! * 65536 + raw[12 + n + i]!)
  return out
}

/** Directory of the committed NER resources (`en/ner/` of the data folder, see `resolveDataDir`), ending in a separator. */
export function nerLexiconDir(dataDir?: string): string {
  return dataPath(dataDir, 'en', 'ner') + sep
}

/** Directory of the committed NER resources, resolved when this module loads; {@link nerLexiconDir} resolves per call. */
export const NER_LEXICON_DIR = nerLexiconDir()

/** Read a committed NER data file; a missing one names the file and how to point the engine at the data. */
export function readNerFile(name: string, dataDir?: string): Buffer {
  const path = nerLexiconDir(dataDir) + name
  try {
    return readFileSync(path)
  } catch (e) {
    throw new Error(`cannot read NER data file ${path}: ${(e as Error).message} (${missingDataHint(dataDir)})`)
  }
}

/**
 * The tagger weights file to read: `tagger.bin.gz` (trained on CoNLL-2003, research use, with wikigold), or with
 * `TEXTENGINE_NER_WEIGHTS=open` `tagger-open.bin.gz` (trained on openly licensed corpora only: wikigold, BTC,
 * WNUT17 CC BY 4.0 and SEC filings CC BY 3.0; less accurate, see lexicons/en/ner/README.md).
 */
export function taggerFileName(env: Readonly<Record<string, string | undefined>> = typeof process === 'undefined' ? {} : process.env): string {
  const v = env['TEXTENGINE_NER_WEIGHTS']
  if (v === undefined || v === '' || v === 'default') return 'tagger.bin.gz'
  if (v === 'open') return 'tagger-open.bin.gz'
  throw new Error(`TEXTENGINE_NER_WEIGHTS should be "default" or "open", instead found ${JSON.stringify(v)}`)
}

/** Read the committed model file ({@link taggerFileName}) and gazetteer (the default of {@link createEntityTagger}). */
export function loadDefaultModel(dataDir?: string): { weights: PerceptronWeights; gazetteer: Gazetteer; clusters?: WordClusters } {
  const dir = nerLexiconDir(dataDir)
  const file = taggerFileName()
  const weights = decodeModel(readNerFile(file, dataDir), dir + file)
  const gazetteer = readGazetteer(readNerFile('gazetteer.tsv', dataDir).toString('utf8'), dir + 'gazetteer.tsv')
  const clusterFile = weights.trained['clusters']
  if (typeof clusterFile !== 'string') return { weights, gazetteer }
  return { weights, gazetteer, clusters: readClusters(readNerFile(clusterFile, dataDir), dir + clusterFile) }
}

/**
 * Create a tagger. Without `model`, loads the committed weights and gazetteer (about 0.2 s).
 */
export function createEntityTagger(model?: EntityTaggerModel): EntityTagger {
  const defaults = model?.weights === undefined || model.gazetteer === undefined ? loadDefaultModel(model?.dataDir) : undefined
  const weights = model?.weights ?? defaults?.weights
  const gazetteer = model?.gazetteer ?? defaults?.gazetteer
  const clusters = model?.weights !== undefined ? model.clusters : (model?.clusters ?? defaults?.clusters)
  if (weights === undefined) throw new Error('createEntityTagger: no weights')
  const tagDocument = createDecoder(weights, gazetteer, clusters)
  return {
    trained: weights.trained,
    tagDocument,
    tag(tokens) {
      return tagDocument([tokens])[0] ?? []
    },
  }
}
