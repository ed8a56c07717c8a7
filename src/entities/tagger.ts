/**
 * Named-entity tagger: an averaged perceptron over BIO labels of the CoNLL types PER, ORG, LOC and
 * MISC, decoded greedily left to right with BIO constraints, with a document memory (the type a word
 * received earlier in the same document is a feature). Works on token strings only, so it runs on
 * CoNLL tokens and on wink tokens alike.
 */
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import {
  LABELS,
  documentContext,
  dynamicFeatures,
  isAllowedTransition,
  recall,
  rememberSentence,
  shortShape,
  staticFeatures,
  typeOfLabel,
  wordFeatures,
  type DocumentMemory,
  type EntityType,
  type Gazetteer,
} from './features.ts'
import { decodeModel, type PerceptronWeights } from './model.ts'
import { readGazetteer } from './gazetteer.ts'

/** One recognised entity: a token range of the input (`end` exclusive). */
export interface TaggedSpan {
  readonly type: EntityType
  /** Index of the first token. */
  readonly start: number
  /** Index one past the last token. */
  readonly end: number
  /**
   * Confidence in 0..1: the logistic of the mean, over the span's tokens, of the score margin between
   * the chosen label and the best other label (margin in units of the model's median margin scale).
   */
  readonly confidence: number
}

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
}

/** Directory of the committed NER resources. */
export const NER_LEXICON_DIR = fileURLToPath(new URL('../../lexicons/en/ner/', import.meta.url))

/** Read the committed model file and gazetteer (the default of {@link createEntityTagger}). */
export function loadDefaultModel(): { weights: PerceptronWeights; gazetteer: Gazetteer } {
  const modelPath = NER_LEXICON_DIR + 'tagger.bin.gz'
  const gazPath = NER_LEXICON_DIR + 'gazetteer.tsv'
  return {
    weights: decodeModel(readFileSync(modelPath), modelPath),
    gazetteer: readGazetteer(readFileSync(gazPath, 'utf8'), gazPath),
  }
}

const WORD_CACHE_LIMIT = 200_000

// Logistic squashing of the margin: a margin of MARGIN_UNIT (in weight units) gives 0.73.
const MARGIN_UNIT = 8

/**
 * Create a tagger. Without `model`, loads the committed weights and gazetteer (about 0.2 s).
 */
export function createEntityTagger(model?: EntityTaggerModel): EntityTagger {
  const defaults = model?.weights === undefined || model.gazetteer === undefined ? loadDefaultModel() : undefined
  const weights = model?.weights ?? defaults?.weights
  const gazetteer = model?.gazetteer ?? defaults?.gazetteer
  if (weights === undefined) throw new Error('createEntityTagger: no weights')
  const { index, weights: w } = weights
  const L = LABELS.length
  const labelNames: readonly string[] = LABELS
  // Weight rows of each word's own features (a pure function of the word and the weights, so caching
  // it changes no result); cleared when it reaches WORD_CACHE_LIMIT words.
  const wordRows = new Map<string, Int32Array>()

  const tagDocument = (sentences: readonly (readonly string[])[]): TaggedSpan[][] => {
    if (!Array.isArray(sentences)) throw new TypeError(`tagDocument: sentences should be an array of token arrays, instead found ${typeof sentences}`)
    sentences.forEach((tokens, si) => {
      if (!Array.isArray(tokens)) throw new TypeError(`tagDocument: sentence ${si} should be an array of strings, instead found ${typeof tokens}`)
      for (let ti = 0; ti < tokens.length; ti++) {
        if (typeof tokens[ti] !== 'string') throw new TypeError(`tagDocument: token ${ti} of sentence ${si} should be a string, instead found ${typeof tokens[ti]}`)
      }
    })
    const memory: DocumentMemory = new Map()
    const dyn: string[] = []
    const scores = new Float64Array(L)
    const out: TaggedSpan[][] = []
    const context = documentContext(sentences)
    for (let si = 0; si < sentences.length; si++) {
      const tokens = sentences[si] ?? []
      const feats = staticFeatures(tokens, gazetteer, context, false)
      const labels = new Int32Array(tokens.length)
      const margins = new Float64Array(tokens.length)
      let prev1 = 0
      let prev2 = -1
      for (let i = 0; i < tokens.length; i++) {
        scores.fill(0)
        const tok = tokens[i] ?? ''
        let rows = wordRows.get(tok)
        if (rows === undefined) {
          const found: number[] = []
          for (const f of wordFeatures(tok)) {
            const row = index.get(f)
            if (row !== undefined) found.push(row)
          }
          rows = Int32Array.from(found)
          if (wordRows.size >= WORD_CACHE_LIMIT) wordRows.clear()
          wordRows.set(tok, rows)
        }
        for (const row of rows) {
          const base = row * L
          for (let k = 0; k < L; k++) scores[k] = (scores[k] ?? 0) + (w[base + k] ?? 0)
        }
        for (const f of feats[i] ?? []) {
          const row = index.get(f)
          if (row === undefined) continue
          const base = row * L
          for (let k = 0; k < L; k++) scores[k] = (scores[k] ?? 0) + (w[base + k] ?? 0)
        }
        const lower = tok.toLowerCase()
        const docType = recall(memory, tok)
        dynamicFeatures(
          i === 0 ? '<s>' : (labelNames[prev1] ?? 'O'),
          i < 2 ? '<s>' : (labelNames[prev2] ?? 'O'),
          lower,
          shortShape(tok),
          docType,
          dyn,
        )
        for (const f of dyn) {
          const row = index.get(f)
          if (row === undefined) continue
          const base = row * L
          for (let k = 0; k < L; k++) scores[k] = (scores[k] ?? 0) + (w[base + k] ?? 0)
        }
        let best = -1
        let second = -Infinity
        for (let k = 0; k < L; k++) {
          if (i === 0 ? !isAllowedTransition(0, k) : !isAllowedTransition(prev1, k)) continue
          const s = scores[k] ?? 0
          if (best < 0 || s > (scores[best] ?? 0)) {
            if (best >= 0) second = Math.max(second, scores[best] ?? 0)
            best = k
          } else if (s > second) second = s
        }
        labels[i] = best
        margins[i] = (scores[best] ?? 0) - second
        prev2 = i === 0 ? -1 : prev1
        prev1 = best
      }
      // Remember each capitalised word's type only after the sentence is decoded (the sentence's own
      // words are not evidence for themselves).
      rememberSentence(memory, tokens, labels)
      out.push(spansOf(labels, margins))
    }
    return out
  }

  return {
    trained: weights.trained,
    tagDocument,
    tag(tokens) {
      return tagDocument([tokens])[0] ?? []
    },
  }
}

/** Turn BIO label indices into spans (an `I-X` after another type starts a new span). */
function spansOf(labels: Int32Array, margins: Float64Array): TaggedSpan[] {
  const spans: TaggedSpan[] = []
  let start = -1
  let type: EntityType | undefined
  let sum = 0
  const close = (end: number): void => {
    if (type !== undefined && start >= 0) {
      const mean = sum / (end - start)
      spans.push({ type, start, end, confidence: Math.round((1 / (1 + Math.exp(-mean / MARGIN_UNIT))) * 1e4) / 1e4 })
    }
    type = undefined
    start = -1
    sum = 0
  }
  for (let i = 0; i < labels.length; i++) {
    const name = LABELS[labels[i] ?? 0] ?? 'O'
    const t = typeOfLabel(labels[i] ?? 0)
    if (t === undefined) {
      close(i)
      continue
    }
    if (name.startsWith('B-') || t !== type) {
      close(i)
      start = i
      type = t
    }
    sum += margins[i] ?? 0
  }
  close(labels.length)
  return spans
}
