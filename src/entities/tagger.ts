/**
 * Named-entity tagger: an averaged perceptron over BIO labels of the CoNLL types PER, ORG, LOC and
 * MISC, decoded greedily left to right with BIO constraints, with a document memory (the type a word
 * received earlier in the same document is a feature). Works on token strings only, so it runs on
 * CoNLL tokens and on wink tokens alike.
 */
import { readFileSync } from 'node:fs'
import { sep } from 'node:path'
import { dataPath, missingDataHint } from '../resources.ts'
import {
  LABELS,
  documentContext,
  dynamicFeatures,
  gazetteerMarks,
  isAllowedTransition,
  isCapsSentence,
  isMemorable,
  isTitleSentence,
  clusterOf,
  recall,
  rememberSentence,
  shortShape,
  staticFeatures,
  typeOfLabel,
  wordFeatures,
  type DocumentMemory,
  type EntityType,
  type Gazetteer,
  type WordClusters,
} from './features.ts'
import { decodeModel, gunzipWithMagic, type PerceptronWeights } from './model.ts'
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

const WORD_CACHE_LIMIT = 200_000
/**
 * Interned shapes stay below this count, so that cache keys combining up to three shape ids stay
 * integers; a sentence longer than fits is decoded from the feature strings directly.
 */
const SHAPE_ID_LIMIT = 1 << 13
/** Interned lower-case words stay below this count (keys of word pairs and word-shape-shape triples stay exact integers). */
const LOWER_ID_LIMIT = 1 << 20
/** A memo of feature rows is emptied (with the interned ids) when it holds this many keys. */
const MEMO_LIMIT = 1 << 19

/** What the tagger keeps per distinct token: its own features' summed weights and its derived strings. */
interface TokenInfo {
  /** Sum of the weight rows of {@link wordFeatures}, in their order. */
  readonly vec: Float64Array
  readonly lower: string
  /** Short shape. */
  readonly shape: string
  /** Rows of `w-1=<token>` and `w+1=<token>` (the token as a neighbour), -1 when unknown. */
  readonly wPrev: number
  readonly wNext: number
  /** Starts with an ASCII letter (document-context features apply). */
  readonly alpha: boolean
  /** Rows of `c-1=` and `c+1=` with this token's cluster (as a neighbour), -1 when unknown. */
  readonly cm1: number
  readonly cp1: number
  /** Rows of `l-1=`, `l+1=`, `l-2=`, `l+2=` with this token's lower case (as a neighbour). */
  readonly lm1: number
  readonly lp1: number
  readonly lm2: number
  readonly lp2: number
  /**
   * Rows filled on first use (-2 until then), at the offsets `AT_*`: `y-1l` and `y-1ss` by previous
   * label, `dt|ss` by document type, `dc=..|shape` by context, `first|`, `caps|` and `alone|` rows.
   */
  readonly lazy: Int32Array
  /** A candidate for document memory ({@link isMemorable}). */
  readonly memorable: boolean
  /** Interned id of the lower-case form, valid while `generation` equals the tagger's. */
  lowerId: number
  /** Interned id of the shape, valid while `generation` equals the tagger's. */
  shapeId: number
  generation: number
}

// Feature templates whose rows are cached by the ids of their parts (index into the tagger's memo maps).
const T_SSM1 = 0
const T_SSP1 = 1
const T_SS3 = 2
const T_LL = 3
const T_LR = 4
const T_LSS = 5
const TEMPLATE_COUNT = 6
// Offsets in TokenInfo.lazy.
const AT_Y1L = 0
const AT_Y1SS = 10
const AT_DTSS = 20
const AT_DCS = 26
const AT_FIRSTS = 30
const AT_FIRSTL = 31
const AT_CAPSS = 32
const AT_CAPSL = 33
const AT_ALONE = 34
const AT_TITLES = 35
const AT_TITLEL = 36
const LAZY_SIZE = 37

// Logistic squashing of the margin: a margin of MARGIN_UNIT (in weight units) gives 0.73.
const MARGIN_UNIT = 8

/**
 * Create a tagger. Without `model`, loads the committed weights and gazetteer (about 0.2 s).
 */
export function createEntityTagger(model?: EntityTaggerModel): EntityTagger {
  const defaults = model?.weights === undefined || model.gazetteer === undefined ? loadDefaultModel(model?.dataDir) : undefined
  const weights = model?.weights ?? defaults?.weights
  const gazetteer = model?.gazetteer ?? defaults?.gazetteer
  const clusters = model?.weights !== undefined ? model.clusters : (model?.clusters ?? defaults?.clusters)
  if (weights === undefined) throw new Error('createEntityTagger: no weights')
  const { index, weights: w } = weights
  const L = LABELS.length
  const labelNames: readonly string[] = LABELS
  // Everything below caches pure functions of the weights and of strings (a word's summed own-feature
  // weights, the row of a feature given the ids of its parts), so no cache changes a result. Rows are
  // added to the scores in exactly the order the feature strings of `features.ts` list them, so the
  // floating-point sums are the same as adding the rows of those strings. All caches are cleared
  // together, between sentences, when they grow large.
  let generation = 0
  const shapeIds = new Map<string, number>()
  const lowerIds = new Map<string, number>()
  const tokenCache = new Map<string, TokenInfo>()
  const memo: Map<number, number>[] = Array.from({ length: TEMPLATE_COUNT }, () => new Map<number, number>())
  const rowOf = (name: string): number => index.get(name) ?? -1
  const fill = (t: number, key: number, name: string): number => {
    const r = rowOf(name)
    memo[t]!.set(key, r)
    return r
  }
  const shapeId = (x: string): number => {
    let id = shapeIds.get(x)
    if (id === undefined) shapeIds.set(x, (id = shapeIds.size))
    return id
  }
  const lowerId = (x: string): number => {
    let id = lowerIds.get(x)
    if (id === undefined) lowerIds.set(x, (id = lowerIds.size))
    return id
  }
  /** Make room for the ids of a sentence of `n` tokens; false when it cannot fit even in empty tables. */
  const makeRoom = (n: number): boolean => {
    if (tokenCache.size >= WORD_CACHE_LIMIT) tokenCache.clear()
    if (n + 4 >= SHAPE_ID_LIMIT) return false
    if (shapeIds.size + n + 4 < SHAPE_ID_LIMIT && lowerIds.size + n + 4 < LOWER_ID_LIMIT && memo.every((m) => m.size < MEMO_LIMIT)) return true
    shapeIds.clear()
    lowerIds.clear()
    for (const m of memo) m.clear()
    generation++
    return true
  }
  const PREV_NAMES = ['<s>', ...LABELS] // previous label: 0 before the sentence, else label + 1
  const DOC_TYPES = ['-', 'O', 'PER', 'ORG', 'LOC', 'MISC']
  const DC = ['--', '-L', 'C-', 'CL']
  const POSITIONS = ['first', 'caps', 'mid']
  // Rows of features over small fixed domains, filled on first use (-2 until then).
  const y1Rows = new Int32Array(PREV_NAMES.length).fill(-2)
  const y2y1Rows = new Int32Array(PREV_NAMES.length * PREV_NAMES.length).fill(-2)
  const dtRows = new Int32Array(DOC_TYPES.length).fill(-2)
  const dty1Rows = new Int32Array(DOC_TYPES.length * PREV_NAMES.length).fill(-2)
  const dcpRows = new Int32Array(DC.length * POSITIONS.length).fill(-2)
  const tokenInfo = (tok: string): TokenInfo => {
    let info = tokenCache.get(tok)
    if (info !== undefined) return info
    const vec = new Float64Array(L)
    for (const f of wordFeatures(tok, clusters)) {
      const row = index.get(f)
      if (row === undefined) continue
      const base = row * L
      for (let k = 0; k < L; k++) vec[k] = (vec[k] ?? 0) + (w[base + k] ?? 0)
    }
    const lower = tok.toLowerCase()
    const shape = shortShape(tok)
    const c = tok.charCodeAt(0)
    const cl = clusters === undefined ? '' : clusterOf(clusters, lower)
    info = {
      vec, lower, shape,
      cm1: clusters === undefined ? -1 : rowOf('c-1=' + cl),
      cp1: clusters === undefined ? -1 : rowOf('c+1=' + cl),
      wPrev: rowOf('w-1=' + tok),
      wNext: rowOf('w+1=' + tok),
      alpha: (c >= 65 && c <= 90) || (c >= 97 && c <= 122),
      lm1: rowOf('l-1=' + lower),
      lp1: rowOf('l+1=' + lower),
      lm2: rowOf('l-2=' + lower),
      lp2: rowOf('l+2=' + lower),
      lazy: new Int32Array(LAZY_SIZE).fill(-2),
      memorable: isMemorable(tok),
      shapeId: -1,
      lowerId: -1,
      generation: -1,
    }
    tokenCache.set(tok, info)
    return info
  }
  const allowed = new Uint8Array(L * L)
  for (let p = 0; p < L; p++) for (let k = 0; k < L; k++) allowed[p * L + k] = isAllowedTransition(p, k) ? 1 : 0
  const rowB = rowOf('b')
  const rowLm1Start = rowOf('l-1=<s>')
  const rowLp1End = rowOf('l+1=</s>')
  const rowLm2Start = rowOf('l-2=<s>')
  const rowLp2End = rowOf('l+2=</s>')
  const rowWStart = rowOf('w-1=<s>')
  const rowWEnd = rowOf('w+1=</s>')
  const rowCStart = rowOf('c-1=<s>')
  const rowCEnd = rowOf('c+1=</s>')

  const tagDocument = (sentences: readonly (readonly string[])[]): TaggedSpan[][] => {
    if (!Array.isArray(sentences)) throw new TypeError(`tagDocument: sentences should be an array of token arrays, instead found ${typeof sentences}`)
    sentences.forEach((tokens, si) => {
      if (!Array.isArray(tokens)) throw new TypeError(`tagDocument: sentence ${si} should be an array of strings, instead found ${typeof tokens}`)
      for (let ti = 0; ti < tokens.length; ti++) {
        if (typeof tokens[ti] !== 'string') throw new TypeError(`tagDocument: token ${ti} of sentence ${si} should be a string, instead found ${typeof tokens[ti]}`)
      }
    })
    const memory: DocumentMemory = new Map()
    const scores = new Float64Array(L)
    const out: TaggedSpan[][] = []
    const context = documentContext(sentences)
    const rows: number[] = []
    const dyn: string[] = []
    for (let si = 0; si < sentences.length; si++) {
      const tokens = sentences[si] ?? []
      const n = tokens.length
      const fast = makeRoom(n)
      const infos = tokens.map(tokenInfo)
      const lowers = infos.map((x: TokenInfo) => x.lower)
      // Ids and strings of the parts, padded by two on each side: token i is at i + 2, the sentence
      // bounds ('<s>' / '</s>') before and after.
      // (Without room for the ids, the feature strings of features.ts are looked up instead.)
      const feats = fast ? undefined : staticFeatures(tokens, gazetteer, context, false, clusters)
      const shp = new Int32Array(n + 4)
      const low = new Int32Array(n + 4)
      const lowS: string[] = new Array<string>(n + 4)
      const shpS: string[] = new Array<string>(n + 4)
      if (fast) {
      shp[0] = shp[1] = shapeId('<s>')
      low[0] = low[1] = lowerId('<s>')
      lowS[0] = lowS[1] = shpS[0] = shpS[1] = '<s>'
      for (let i = 0; i < n; i++) {
        const info = infos[i]!
        lowS[i + 2] = info.lower
        shpS[i + 2] = info.shape
        if (info.generation !== generation) {
          info.shapeId = shapeId(info.shape)
          info.lowerId = lowerId(info.lower)
          info.generation = generation
        }
        shp[i + 2] = info.shapeId
        low[i + 2] = info.lowerId
      }
      shp[n + 2] = shp[n + 3] = shapeId('</s>')
      low[n + 2] = low[n + 3] = lowerId('</s>')
      }
      lowS[n + 2] = lowS[n + 3] = shpS[n + 2] = shpS[n + 3] = '</s>'
      const caps = isCapsSentence(tokens)
      const title = isTitleSentence(tokens)
      const marks = gazetteer === undefined || gazetteer.phrases.size === 0 ? undefined : gazetteerMarks(lowers, gazetteer)
      const labels = new Int32Array(n)
      const margins = new Float64Array(n)
      let prev1 = 0
      let prev2 = -1
      for (let i = 0; i < n; i++) {
        const info = infos[i]!
        const l = info.lower
        const s = info.shape
        const sId = shp[i + 2]!
        const lz = info.lazy
        if (feats !== undefined) {
          rows.length = 0
          for (const f of feats[i] ?? []) rows.push(rowOf(f))
          dynamicFeatures(i === 0 ? '<s>' : (LABELS[prev1] ?? 'O'), i < 2 ? '<s>' : (LABELS[prev2] ?? 'O'), l, s, recall(memory, tokens[i] ?? ''), dyn)
          for (const f of dyn) rows.push(rowOf(f))
        } else {
        // Static features, in the order of staticFeatures(tokens, gazetteer, context, false).
        rows.length = 0
        rows.push(rowB)
        rows.push(i >= 1 ? infos[i - 1]!.lm1 : rowLm1Start)
        rows.push(i + 1 < n ? infos[i + 1]!.lp1 : rowLp1End)
        rows.push(i >= 2 ? infos[i - 2]!.lm2 : rowLm2Start)
        rows.push(i + 2 < n ? infos[i + 2]!.lp2 : rowLp2End)
        // Word pairs and word-shape-shape triples: rows memoised by the ids of their parts (no string is built
        // for a pair seen before).
        const lId = low[i + 2]!
        let k1 = low[i + 1]! * LOWER_ID_LIMIT + lId
        rows.push(memo[T_LL]!.get(k1) ?? fill(T_LL, k1, 'l-1l=' + lowS[i + 1]! + '|' + l))
        k1 = lId * LOWER_ID_LIMIT + low[i + 3]!
        rows.push(memo[T_LR]!.get(k1) ?? fill(T_LR, k1, 'll+1=' + l + '|' + lowS[i + 3]!))
        k1 = shp[i + 1]! * SHAPE_ID_LIMIT + sId
        rows.push(memo[T_SSM1]!.get(k1) ?? fill(T_SSM1, k1, 'ss-1=' + shpS[i + 1]! + '|' + s))
        k1 = sId * SHAPE_ID_LIMIT + shp[i + 3]!
        rows.push(memo[T_SSP1]!.get(k1) ?? fill(T_SSP1, k1, 'ss+1=' + s + '|' + shpS[i + 3]!))
        k1 = (shp[i + 1]! * SHAPE_ID_LIMIT + sId) * SHAPE_ID_LIMIT + shp[i + 3]!
        rows.push(memo[T_SS3]!.get(k1) ?? fill(T_SS3, k1, 'ss3=' + shpS[i + 1]! + '|' + s + '|' + shpS[i + 3]!))
        k1 = (low[i + 1]! * SHAPE_ID_LIMIT + sId) * SHAPE_ID_LIMIT + shp[i + 3]!
        rows.push(memo[T_LSS]!.get(k1) ?? fill(T_LSS, k1, 'l-1ss+1=' + lowS[i + 1]! + '|' + s + '|' + shpS[i + 3]!))
        rows.push(i > 0 ? infos[i - 1]!.wPrev : rowWStart)
        rows.push(i + 1 < n ? infos[i + 1]!.wNext : rowWEnd)
        if (clusters !== undefined) rows.push(i > 0 ? infos[i - 1]!.cm1 : rowCStart, i + 1 < n ? infos[i + 1]!.cp1 : rowCEnd)
        if (info.alpha) {
          const d = (context.capitalisedMid.has(l) ? 2 : 0) + (context.lowerCase.has(l) ? 1 : 0)
          rows.push(lz[AT_DCS + d] !== -2 ? lz[AT_DCS + d]! : (lz[AT_DCS + d] = rowOf('dc=' + DC[d] + '|' + s)))
          const pos = i === 0 ? 0 : caps ? 1 : 2
          rows.push(dcpRows[d * POSITIONS.length + pos] !== -2 ? dcpRows[d * POSITIONS.length + pos]! : (dcpRows[d * POSITIONS.length + pos] = rowOf('dc=' + DC[d] + '|' + POSITIONS[pos])))
        }
        if (i === 0) {
          rows.push(lz[AT_FIRSTS] !== -2 ? lz[AT_FIRSTS]! : (lz[AT_FIRSTS] = rowOf('first|' + s)))
          rows.push(lz[AT_FIRSTL] !== -2 ? lz[AT_FIRSTL]! : (lz[AT_FIRSTL] = rowOf('first|' + l)))
        }
        if (caps) {
          rows.push(lz[AT_CAPSS] !== -2 ? lz[AT_CAPSS]! : (lz[AT_CAPSS] = rowOf('caps|' + s)))
          rows.push(lz[AT_CAPSL] !== -2 ? lz[AT_CAPSL]! : (lz[AT_CAPSL] = rowOf('caps|' + l)))
        }
        if (title) {
          rows.push(lz[AT_TITLES] !== -2 ? lz[AT_TITLES]! : (lz[AT_TITLES] = rowOf('title|' + s)))
          rows.push(lz[AT_TITLEL] !== -2 ? lz[AT_TITLEL]! : (lz[AT_TITLEL] = rowOf('title|' + l)))
        }
        if (n === 1) rows.push(lz[AT_ALONE] !== -2 ? lz[AT_ALONE]! : (lz[AT_ALONE] = rowOf('alone|' + s)))
        if (marks !== undefined) {
          for (const m of marks[i] ?? []) rows.push(rowOf('gz=' + m), rowOf('gz=' + m + '|' + s))
          const prevMarks = marks[i - 1]
          if (prevMarks !== undefined) for (const m of prevMarks) rows.push(rowOf('gz-1=' + m))
          const nextMarks = marks[i + 1]
          if (nextMarks !== undefined) for (const m of nextMarks) rows.push(rowOf('gz+1=' + m))
        }
        // Dynamic features, in the order of dynamicFeatures().
        const p1 = i === 0 ? 0 : prev1 + 1
        const p2 = i < 2 ? 0 : prev2 + 1
        // recall(memory, token) as an index of DOC_TYPES: '-' when unseen, else the last type remembered.
        const remembered = info.memorable ? memory.get(l) : undefined
        const dt = remembered === undefined ? 0 : (remembered[DOC_TYPES.length - 1] ?? 0) + 1
        rows.push(y1Rows[p1] !== -2 ? y1Rows[p1]! : (y1Rows[p1] = rowOf('y-1=' + PREV_NAMES[p1])))
        rows.push(y2y1Rows[p2 * PREV_NAMES.length + p1] !== -2 ? y2y1Rows[p2 * PREV_NAMES.length + p1]! : (y2y1Rows[p2 * PREV_NAMES.length + p1] = rowOf('y-2y-1=' + PREV_NAMES[p2] + '|' + PREV_NAMES[p1])))
        rows.push(lz[AT_Y1L + p1] !== -2 ? lz[AT_Y1L + p1]! : (lz[AT_Y1L + p1] = rowOf('y-1l=' + PREV_NAMES[p1] + '|' + l)))
        rows.push(lz[AT_Y1SS + p1] !== -2 ? lz[AT_Y1SS + p1]! : (lz[AT_Y1SS + p1] = rowOf('y-1ss=' + PREV_NAMES[p1] + '|' + s)))
        rows.push(dtRows[dt] !== -2 ? dtRows[dt]! : (dtRows[dt] = rowOf('dt=' + DOC_TYPES[dt])))
        rows.push(lz[AT_DTSS + dt] !== -2 ? lz[AT_DTSS + dt]! : (lz[AT_DTSS + dt] = rowOf('dt|ss=' + DOC_TYPES[dt] + '|' + s)))
        rows.push(dty1Rows[dt * PREV_NAMES.length + p1] !== -2 ? dty1Rows[dt * PREV_NAMES.length + p1]! : (dty1Rows[dt * PREV_NAMES.length + p1] = rowOf('dt|y-1=' + DOC_TYPES[dt] + '|' + PREV_NAMES[p1])))

        }
        scores.set(info.vec)
        for (let r = 0; r < rows.length; r++) {
          const row = rows[r]!
          if (row < 0) continue
          const base = row * L
          for (let k = 0; k < L; k++) scores[k] = (scores[k] ?? 0) + (w[base + k] ?? 0)
        }
        let best = -1
        let second = -Infinity
        for (let k = 0; k < L; k++) {
          if (allowed[(i === 0 ? 0 : prev1) * L + k] !== 1) continue
          const sc = scores[k] ?? 0
          if (best < 0 || sc > (scores[best] ?? 0)) {
            if (best >= 0) second = Math.max(second, scores[best] ?? 0)
            best = k
          } else if (sc > second) second = sc
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
