/**
 * The language-identification model: per-language smoothed log-probabilities of character n-grams and
 * whole words (naive Bayes), pruned and quantised to integers, with its text format
 * (`lexicons/langid/model.tsv`, described in `lexicons/langid/README.md`), its training and its loading.
 */
import { readFileSync } from 'node:fs'
import { dataPath, missingDataHint } from '../resources.ts'
import { addWordFeatures, orderOf, wordsOf } from './features.ts'
import { findLanguageEntry, type ScriptGroup } from './languages.ts'

/** Costs are `round(-ln p * COST_SCALE)`: 1/16 nat resolution. */
export const COST_SCALE = 16
const FORMAT_VERSION = 1

/** A trained model in memory, as read from or written to the model file. */
export interface LanguageModelData {
  /** Highest character n-gram order (1..maxOrder are used). */
  readonly maxOrder: number
  /** Softmax temperature applied to the mean per-feature cost gap (in nats) when scoring. */
  readonly temperature: number
  /** ISO 639-1 codes, one per column. */
  readonly languages: readonly string[]
  /** `floors[order][language]`: cost of a feature of that order the language never (or too rarely) showed; order 0 is words. */
  readonly floors: readonly (readonly number[])[]
  /** feature -> sparse costs as a flat list `[language index, cost, language index, cost, ...]`, indices ascending. */
  readonly features: ReadonlyMap<string, readonly number[]>
}

/** Training options. */
export interface TrainOptions {
  /** Highest n-gram order. @defaultValue 4 */
  readonly maxOrder?: number
  /** Lidstone smoothing constant. @defaultValue 0.5 */
  readonly alpha?: number
  /** A (language, feature) pair seen fewer times is pruned to the floor. @defaultValue 2 */
  readonly minCount?: number
  /** Keep at most this many features per language, most frequent first (ties by feature). @defaultValue 6000 */
  readonly maxPerLanguage?: number
  /** Temperature stored in the model. @defaultValue 12 */
  readonly temperature?: number
}

/**
 * Train a model from samples per language (ISO 639-1 code -> lines of text). Deterministic: languages and
 * features are sorted, so the same samples give the same model.
 */
export function trainLanguageModel(samples: ReadonlyMap<string, readonly string[]>, options: TrainOptions = {}): LanguageModelData {
  const maxOrder = options.maxOrder ?? 4
  const alpha = options.alpha ?? 0.5
  const minCount = options.minCount ?? 2
  const temperature = options.temperature ?? 12
  const maxPerLanguage = options.maxPerLanguage ?? 6000
  if (!Number.isInteger(maxOrder) || maxOrder < 1 || maxOrder > 8) throw new Error(`trainLanguageModel: maxOrder should be an integer 1..8, found ${maxOrder}`)
  const languages = [...samples.keys()].sort()
  for (const code of languages) {
    if (findLanguageEntry(code)?.code !== code) throw new Error(`trainLanguageModel: unknown language code "${code}"`)
  }
  // A language alone in its script (or in CJK, told apart by kana) is decided by the prefilter: it needs
  // floors but no features, which leaves the size budget to languages sharing a script.
  const scriptOf = (code: string): ScriptGroup => findLanguageEntry(code)!.script
  const decided = new Set(languages.filter((c) => scriptOf(c) === 'cjk' || languages.filter((d) => scriptOf(d) === scriptOf(c)).length === 1))
  const counts = languages.map((code) => {
    const into = new Map<string, number>()
    for (const line of samples.get(code) ?? []) for (const w of wordsOf(line)) addWordFeatures(w, maxOrder, into)
    return into
  })
  const vocab: Set<string>[] = Array.from({ length: maxOrder + 1 }, () => new Set<string>())
  const totals = counts.map(() => new Array<number>(maxOrder + 1).fill(0))
  counts.forEach((m, li) => {
    for (const [f, c] of m) {
      const o = orderOf(f)
      vocab[o]?.add(f)
      totals[li]![o]! += c
    }
  })
  const denom = (li: number, o: number): number => totals[li]![o]! + alpha * vocab[o]!.size
  const cost = (p: number): number => Math.round(-Math.log(p) * COST_SCALE)
  const floors = Array.from({ length: maxOrder + 1 }, (_, o) => languages.map((_, li) => cost(alpha / denom(li, o))))
  const byFeature = new Map<string, number[]>()
  counts.forEach((m, li) => {
    if (decided.has(languages[li]!)) return
    const kept = [...m].filter(([, c]) => c >= minCount)
      .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))
      .slice(0, maxPerLanguage)
    for (const [f, c] of kept) {
      const o = orderOf(f)
      const k = cost((c + alpha) / denom(li, o))
      if (k >= floors[o]![li]!) continue
      let row = byFeature.get(f)
      if (row === undefined) byFeature.set(f, (row = []))
      row.push(li, k)
    }
  })
  const features = new Map([...byFeature.entries()].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0)))
  return { maxOrder, temperature, languages, floors, features }
}

/** Render a model in the text format of `lexicons/langid/model.tsv` (byte-identical for equal models). */
export function serializeLanguageModel(model: LanguageModelData, comment: readonly string[] = []): string {
  const out: string[] = comment.map((c) => `# ${c}`)
  out.push(`@version\t${FORMAT_VERSION}`, `@scale\t${COST_SCALE}`, `@max-order\t${model.maxOrder}`, `@temperature\t${model.temperature}`)
  out.push(`@languages\t${model.languages.join(' ')}`)
  model.floors.forEach((row, o) => out.push(`@floor\t${o}\t${row.join(' ')}`))
  for (const [f, row] of model.features) {
    const items: string[] = []
    for (let j = 0; j + 1 < row.length; j += 2) items.push(`${model.languages[row[j]!]}${row[j + 1]}`)
    out.push(`${f}\t${items.join(' ')}`)
  }
  return out.join('\n') + '\n'
}

/** The header of a model file: everything but the features. */
export interface ModelHeader {
  readonly maxOrder: number
  readonly temperature: number
  readonly languages: readonly string[]
  readonly floors: readonly (readonly number[])[]
}

/** Receives the parts of a model file as {@link readLanguageModelText} reads them. */
export interface ModelTextSink {
  /** Called once, at the `@languages` line (before any feature). */
  onLanguages?(languages: readonly string[]): void
  /**
   * One feature line: its key and its costs as `[language index, cost, ...]` in the first `n` numbers
   * of `row` (a buffer reused between calls). Returns the feature's order (code points of an n-gram, 0
   * for a whole word), or -1 when the key was seen before.
   */
  onFeature(key: string, row: Int32Array, n: number): number
}

/**
 * Read the model text format line by line, checking it, handing each feature to `sink`; returns the
 * header. Throws naming `source` and the line when the text is malformed.
 */
export function readLanguageModelText(text: string, source: string, sink: ModelTextSink): ModelHeader {
  const header = new Map<string, string[]>()
  const floors: number[][] = []
  let languages: string[] | undefined
  let codeIndex: Int16Array | undefined
  let row = new Int32Array(64)
  // First feature (and its line) of each order, to report features longer than @max-order.
  const firstOfOrder = new Map<number, string>()
  let maxSeen = 0
  const bad = (i: number, what: string): never => {
    throw new Error(`${source}:${i + 1}: ${what}`)
  }
  const int = (s: string | undefined, i: number): number => {
    if (s === undefined || !/^\d+$/.test(s)) bad(i, `expected a non-negative integer, found ${JSON.stringify(s)}`)
    return Number(s)
  }
  let i = -1
  for (let at = 0; at <= text.length; ) {
    i++
    let nl = text.indexOf('\n', at)
    if (nl < 0) nl = text.length
    const lineStart = at
    at = nl + 1
    if (nl === lineStart) continue
    const c0 = text.charCodeAt(lineStart)
    if (c0 === 35 /* # */ && (nl === lineStart + 1 || text.charCodeAt(lineStart + 1) === 32)) continue
    const tab = text.indexOf('\t', lineStart)
    if (c0 === 64 /* @ */) {
      const cols = text.slice(lineStart, nl).split('\t')
      const key = cols[0]!
      if (key === '@floor') {
        const o = int(cols[1], i)
        if (languages === undefined) bad(i, '@floor before @languages')
        const r = (cols[2] ?? '').split(' ').map((s) => int(s, i))
        if (r.length !== languages!.length) bad(i, `@floor ${o}: expected ${languages!.length} costs, found ${r.length}`)
        floors[o] = r
      } else if (key === '@languages') {
        languages = (cols[1] ?? '').split(' ')
        for (const c of languages) if (findLanguageEntry(c)?.code !== c) bad(i, `unknown language code ${JSON.stringify(c)}`)
        codeIndex = new Int16Array(26 * 26).fill(-1)
        languages.forEach((c, li) => (codeIndex![(c.charCodeAt(0) - 97) * 26 + c.charCodeAt(1) - 97] = li))
        sink.onLanguages?.(languages)
      } else {
        header.set(key, cols.slice(1))
      }
      continue
    }
    const tab2 = tab < 0 ? -1 : text.indexOf('\t', tab + 1)
    if (tab < 0 || tab >= nl || tab === lineStart || (tab2 >= 0 && tab2 < nl)) bad(i, 'expected "feature<TAB>costs"')
    if (codeIndex === undefined) bad(i, 'feature before @languages')
    const key = text.slice(lineStart, tab)
    if (row.length < nl - tab) row = new Int32Array(nl - tab)
    const n = parseCosts(text, tab + 1, nl, codeIndex!, row)
    if (n <= 0) bad(i, `expected "<code><cost>" items such as "en42 de57" with known codes, found ${JSON.stringify(text.slice(tab + 1, nl))}`)
    const o = sink.onFeature(key, row, n)
    if (o < 0) bad(i, `duplicate feature ${JSON.stringify(key)}`)
    if (o > maxSeen) {
      maxSeen = o
      firstOfOrder.set(o, key)
    }
  }
  const version = header.get('@version')?.[0]
  if (version !== String(FORMAT_VERSION)) throw new Error(`${source}: expected @version ${FORMAT_VERSION}, found ${JSON.stringify(version)}`)
  const scale = header.get('@scale')?.[0]
  if (scale !== String(COST_SCALE)) throw new Error(`${source}: expected @scale ${COST_SCALE}, found ${JSON.stringify(scale)}`)
  const maxOrder = Number(header.get('@max-order')?.[0])
  if (!Number.isInteger(maxOrder) || maxOrder < 1 || maxOrder > 8) throw new Error(`${source}: @max-order should be an integer 1..8`)
  const temperature = Number(header.get('@temperature')?.[0])
  if (!Number.isFinite(temperature) || temperature <= 0) throw new Error(`${source}: @temperature should be a positive number`)
  if (languages === undefined) throw new Error(`${source}: missing @languages`)
  for (let o = 0; o <= maxOrder; o++) if (floors[o] === undefined) throw new Error(`${source}: missing @floor ${o}`)
  for (const [o, f] of firstOfOrder) {
    if (o > maxOrder) throw new Error(`${source}: feature ${JSON.stringify(f)} is longer than @max-order ${maxOrder}`)
  }
  return { maxOrder, temperature, languages, floors }
}

/** Parse the model text format. Throws naming `source` and the line when the text is malformed. */
export function parseLanguageModel(text: string, source = 'language model'): LanguageModelData {
  const features = new Map<string, number[]>()
  const header = readLanguageModelText(text, source, {
    onFeature(key, row, n) {
      if (features.has(key)) return -1
      features.set(key, Array.from(row.subarray(0, n)))
      return orderOf(key)
    },
  })
  return { ...header, features }
}

/**
 * Parse `en42 de57 ...` (`s` from `from` to `to`) into `row` as `[language index, cost, ...]` by scanning
 * character codes (no per-item strings: this is the hot loop of loading). Returns the count of numbers
 * written, or -1 when an item is malformed or names an unknown code.
 */
function parseCosts(s: string, from: number, to: number, codeIndex: Int16Array, row: Int32Array): number {
  let w = 0
  let p = from
  const n = to
  while (p < n) {
    if (p + 1 >= n) return -1
    const a = s.charCodeAt(p) - 97
    const b = s.charCodeAt(p + 1) - 97
    if (a < 0 || a > 25 || b < 0 || b > 25) return -1
    const li = codeIndex[a * 26 + b]!
    if (li < 0) return -1
    p += 2
    let k = 0
    const start = p
    while (p < n) {
      const d = s.charCodeAt(p) - 48
      if (d < 0 || d > 9) break
      k = k * 10 + d
      p++
    }
    if (p === start || p - start > 6) return -1
    row[w++] = li
    row[w++] = k
    if (p < n) {
      if (s.charCodeAt(p) !== 32 || p + 1 === n) return -1
      p++
    }
  }
  return w === 0 ? -1 : w
}

/** Path of the committed model file. */
export function defaultLanguageModelPath(dataDir?: string): string {
  return dataPath(dataDir, 'langid', 'model.tsv')
}

/** Read a model file's text (the committed one by default). Throws naming the file when missing. */
export function readLanguageModelFile(path?: string, dataDir?: string): string {
  const file = path ?? defaultLanguageModelPath(dataDir)
  try {
    return readFileSync(file, 'utf8')
  } catch (e) {
    const hint = path === undefined ? missingDataHint(dataDir) : 'train it with bench/train-langid.ts'
    throw new Error(`cannot read language model ${file}: ${(e as Error).message} (${hint})`)
  }
}

/** Read and parse a model file (the committed one by default). Throws naming the file when missing or malformed. */
export function loadLanguageModel(path?: string, dataDir?: string): LanguageModelData {
  return parseLanguageModel(readLanguageModelFile(path, dataDir), path ?? defaultLanguageModelPath(dataDir))
}
