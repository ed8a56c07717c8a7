/**
 * Named-entity tagger: an averaged perceptron over BIO labels of the CoNLL types PER, ORG, LOC and
 * MISC, decoded greedily left to right with BIO constraints, with a document memory (the type a word
 * received earlier in the same document is a feature). Works on token strings only, so it runs on
 * CoNLL tokens and on wink tokens alike.
 *
 * With a second set of weights trained on reversed sentences (`tagger-rev.bin.gz`), the document is also decoded
 * right to left and the two directions' spans are combined ({@link combineSpans}): each greedy pass sees only the
 * labels on one side of a word, and the two make different mistakes.
 */
import { existsSync, readFileSync } from 'node:fs'
import { sep } from 'node:path'
import { dataPath, missingDataHint } from '../resources.ts'
import { ownString } from '../own-string.ts'
import { isTitleSentence, type Gazetteer, type WordClusters } from './features.ts'
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
  /**
   * Weights of the right-to-left tagger (`npm run train:ner -- --reverse`), decoded over each document reversed
   * (last sentence first, last token first); its spans are combined with the left-to-right ones by
   * {@link combineSpans}. `null`: left to right only. @defaultValue with `weights` given, none; else the committed
   * reverse file of the default weights ({@link reverseFileName}) when it exists
   */
  readonly reverseWeights?: PerceptronWeights | null
  /**
   * The words running text writes in lower case ({@link readLowerWords}): a title-case headline's words among them
   * are put in lower case before tagging ({@link truecaseHeadline}). `null`: headlines are tagged as written.
   * @defaultValue with `weights` given, none; else the committed `lower-words.txt`
   */
  readonly lowerWords?: ReadonlySet<string> | null
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

/** The right-to-left weights that go with a weights file: `tagger.bin.gz` -> `tagger-rev.bin.gz`. */
export function reverseFileName(file: string): string {
  return file.replace(/\.bin\.gz$/, '') + '-rev.bin.gz'
}

/**
 * Read the committed model file ({@link taggerFileName}), its right-to-left partner ({@link reverseFileName}) when the
 * data folder has one, and the gazetteer (the default of {@link createEntityTagger}).
 */
export function loadDefaultModel(dataDir?: string): { weights: PerceptronWeights; reverse?: PerceptronWeights; gazetteer: Gazetteer; clusters?: WordClusters } {
  const dir = nerLexiconDir(dataDir)
  const file = taggerFileName()
  const weights = decodeModel(readNerFile(file, dataDir), dir + file)
  const revFile = reverseFileName(file)
  const reverse = existsSync(dir + revFile) ? decodeModel(readNerFile(revFile, dataDir), dir + revFile) : undefined
  if (reverse !== undefined && reverse.trained['clusters'] !== weights.trained['clusters']) {
    throw new Error(`${dir + revFile}: trained with clusters ${String(reverse.trained['clusters'])}, but ${file} with ${String(weights.trained['clusters'])}`)
  }
  const gazetteer = readGazetteer(readNerFile('gazetteer.tsv', dataDir).toString('utf8'), dir + 'gazetteer.tsv')
  const clusterFile = weights.trained['clusters']
  const both = reverse === undefined ? { weights } : { weights, reverse }
  if (typeof clusterFile !== 'string') return { ...both, gazetteer }
  return { ...both, gazetteer, clusters: readClusters(readNerFile(clusterFile, dataDir), dir + clusterFile) }
}

/**
 * Combine the spans of the left-to-right and right-to-left passes over one sentence (both indexed left to right).
 * A span both give (same bounds and type) comes first, with the mean of the two confidences; then the spans only one
 * gives, surest first, each kept unless it overlaps one already kept. Ties go to the earlier span, then the
 * left-to-right one. Returned in text order. (The confidence of a span only one pass gives is its own, so that it
 * stays on the scale the calibration of extract.ts and its headline rules read.)
 */
export function combineSpans(forward: readonly TaggedSpan[], backward: readonly TaggedSpan[]): TaggedSpan[] {
  const same = (a: TaggedSpan, b: TaggedSpan): boolean => a.start === b.start && a.end === b.end && a.type === b.type
  const cands: { span: TaggedSpan; agreed: boolean; order: number }[] = []
  forward.forEach((f, i) => {
    const b = backward.find((x) => same(x, f))
    cands.push(b === undefined
      ? { span: f, agreed: false, order: i }
      : { span: { type: f.type, start: f.start, end: f.end, confidence: Math.round(((f.confidence + b.confidence) / 2) * 1e4) / 1e4 }, agreed: true, order: i })
  })
  backward.forEach((b, i) => {
    if (!forward.some((f) => same(f, b))) cands.push({ span: b, agreed: false, order: forward.length + i })
  })
  cands.sort((x, y) => Number(y.agreed) - Number(x.agreed) || y.span.confidence - x.span.confidence || x.span.start - y.span.start || x.order - y.order)
  const kept: TaggedSpan[] = []
  for (const { span } of cands) if (!kept.some((k) => k.start < span.end && span.start < k.end)) kept.push(span)
  return kept.sort((x, y) => x.start - y.start)
}

/** Spans found on a sentence of `length` tokens read backwards, indexed on the sentence read forwards. */
export function mirrorSpans(spans: readonly TaggedSpan[], length: number): TaggedSpan[] {
  return spans.map((s) => ({ type: s.type, start: length - s.end, end: length - s.start, confidence: s.confidence }))
}

/** Left-to-right span confidence from which a sentence is not decoded right to left (when it has no other capitalised word). */
const SURE = 0.99

/**
 * Whether the right-to-left pass may change a sentence's spans. Not when all its left-to-right spans are sure and
 * it has no capitalised word of two letters or more outside them after its first word, other than a word of
 * `quiet` (lower-cased: common words that do not look like names, day and month names); nor in a title-case
 * headline (its left-to-right spans are kept). It costs no F1 on eng.testa (0.930 tagger alone per sentence either
 * way); on the sample tweets, hotel reviews and news the second pass then reads 43%, 40% and 51% of the tokens.
 */
export function worthReversing(tokens: readonly string[], spans: readonly TaggedSpan[], quiet?: ReadonlySet<string>, title?: boolean): boolean {
  let open = false
  for (const s of spans) if (s.confidence < SURE) open = true
  let k = 0
  for (let i = 1; i < tokens.length && !open; i++) {
    while (k < spans.length && spans[k]!.end <= i) k++
    if (k < spans.length && spans[k]!.start <= i) continue
    const t = tokens[i]!
    if (t.length < 2) continue
    const c = t.charCodeAt(0)
    if (!((c >= 65 && c <= 90) || (c > 127 && t !== t.toLowerCase()))) continue
    if (quiet === undefined || !quiet.has(t.toLowerCase())) open = true
  }
  // Checked last: most sentences are settled without it (`title`, when the caller knows it already).
  return open && !(title ?? isTitleSentence(tokens))
}

/** The words running text writes in lower case (`lower-words.txt`, built by bench/build-ner-truecase.ts). */
export function readLowerWords(dataDir?: string): Set<string> {
  return readWordList('lower-words.txt', dataDir)
}

/** A word list of the NER data folder: one word a line, `#` comments. */
function readWordList(name: string, dataDir?: string): Set<string> {
  const out = new Set<string>()
  // A copy of each word (ownString): a long cut of the file text would keep the whole text alive.
  for (const line of readNerFile(name, dataDir).toString('utf8').split('\n')) if (line !== '' && !line.startsWith('#')) out.add(ownString(line))
  return out
}

/** Whether a sentence is a title-case headline; false when a token is not a string (the decoder rejects those, naming where). */
function titleOf(tokens: readonly string[]): boolean {
  for (const t of tokens) if (typeof t !== 'string') return false
  return isTitleSentence(tokens)
}

/**
 * Fewest words a headline must have put in lower case to be tagged so. Lines of names in title case ("2. Jearl
 * Miles ( U.S. ) 50.42", tables of results) have one or none, and lowering a name that is also a word costs them
 * the name: on eng.testa, with the weights trained without it, lowering from one word on cost 0.3 point per sentence
 * and from two or three on nothing; 3 also made one error fewer than 1 or 2 on the two headline sets (114 and 86
 * entities), with either weights.
 */
const MIN_TRUECASED = 3

/**
 * A title-case headline ("Deutsche Bank Posts Surprise Profit") as running text would write it: its words that
 * running text writes in lower case put in lower case, the first word and every other word left alone ("Deutsche
 * Bank posts surprise profit"), when there are at least {@link MIN_TRUECASED} of them. Any other sentence is
 * returned as it is.
 */
export function truecaseHeadline(tokens: readonly string[], lowerWords: ReadonlySet<string>, title = titleOf(tokens)): readonly string[] {
  if (!title) return tokens
  const out = tokens.slice()
  let changed = 0
  for (let i = 1; i < out.length; i++) {
    const t = out[i]!
    const c = t.charCodeAt(0)
    if (c < 65 || c > 90 || t.length < 2) continue
    const lower = t.toLowerCase()
    if (t === lower[0]!.toUpperCase() + lower.slice(1) && lowerWords.has(lower)) {
      out[i] = lower
      changed++
    }
  }
  return changed >= MIN_TRUECASED ? out : tokens
}

/** Day and month names ("on Tuesday", "in March"): capitalised in mid-sentence, never one of the tagger's names. */
const CALENDAR = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday', 'january', 'february', 'march', 'april', 'june', 'july', 'august', 'september', 'october', 'november', 'december']

/** The words whose capitalised form does not make a sentence worth reading backwards: common words, day and month names. */
export function quietWords(dataDir?: string): Set<string> {
  return new Set([...readCommonWords(dataDir), ...CALENDAR])
}

/**
 * The common English words that do not look like names (`common-words.txt`, written by
 * `bench/build-ner-common-words.ts`), lower-cased, one a line, `#` comments.
 */
export function readCommonWords(dataDir?: string): Set<string> {
  return readWordList('common-words.txt', dataDir)
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
  const reverse = model?.reverseWeights === null ? undefined : (model?.reverseWeights ?? (model?.weights === undefined ? defaults?.reverse : undefined))
  const forward = createDecoder(weights, gazetteer, clusters)
  const backward = reverse === undefined ? undefined : createDecoder(reverse, gazetteer, clusters)
  const quiet = reverse === undefined ? undefined : quietWords(model?.dataDir)
  const lowerWords = model?.lowerWords === null ? undefined : (model?.lowerWords ?? (model?.weights === undefined ? readLowerWords(model?.dataDir) : undefined))
  // Whether each sentence is a title-case headline is found once and read by truecasing and by worthReversing.
  const recase = (sentences: readonly (readonly string[])[], titles: readonly boolean[]): readonly (readonly string[])[] =>
    lowerWords === undefined ? sentences : sentences.map((t, i) => truecaseHeadline(t, lowerWords, titles[i]))
  const tagDocument = backward === undefined ? (sentences: readonly (readonly string[])[]): TaggedSpan[][] => forward(lowerWords === undefined ? sentences : recase(sentences, sentences.map(titleOf))) : (original: readonly (readonly string[])[]): TaggedSpan[][] => {
    // (without truecasing, worthReversing finds it itself, for the few sentences that reach its last check)
    const titles = lowerWords === undefined ? [] : original.map(titleOf)
    const sentences = recase(original, titles)
    const left = forward(sentences)
    // The right-to-left pass is only run over the sentences where it may change something (worthReversing). A
    // title-case headline keeps its left-to-right spans (of its truecased words): the passes disagree most there, and
    // the headline rules of extract.ts were written against this direction ("New AI", "Bowl LVII" came from the
    // other; measured again with truecasing, before its list had inflections: both directions gave the development
    // headlines 0.960 against 0.965 and the fresh ones 0.907 against 0.919).
    const out = left.slice()
    const picked: number[] = []
    for (let i = 0; i < sentences.length; i++) if (worthReversing(original[i]!, left[i]!, quiet, titles[i])) picked.push(i)
    if (picked.length === 0) return out
    const n = picked.length
    const mirrored = new Array<string[]>(n)
    for (let k = 0; k < n; k++) mirrored[k] = [...sentences[picked[n - 1 - k]!]!].reverse()
    const right = backward(mirrored)
    for (let k = 0; k < n; k++) {
      const i = picked[k]!
      out[i] = combineSpans(left[i]!, mirrorSpans(right[n - 1 - k] ?? [], sentences[i]!.length))
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
