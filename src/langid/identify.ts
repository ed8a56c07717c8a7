/**
 * createLanguageIdentifier: script prefilter, then naive-Bayes scoring of character n-grams and words
 * among the languages written in the text's dominant script, with softmax-normalised scores.
 */
import { countScripts, featuresOf, orderOf, type ScriptCounts } from './features.ts'
import { findLanguageEntry, type LanguageEntry, type ScriptGroup } from './languages.ts'
import { COST_SCALE, loadLanguageModel, type LanguageModelData } from './model.ts'

/** One ranked language. */
export interface LanguageScore {
  /** ISO 639-1 code ("en"). */
  readonly code: string
  /** English name ("English"). */
  readonly name: string
  /** Share of this language among the candidates, 0..1, rounded to 4 decimals. */
  readonly score: number
}

/** The identification of one text: the best language, its score, and every candidate ranked. */
export interface LanguageIdentification extends LanguageScore {
  /** Candidates best first (ties by code); the first entry is the answer itself. */
  readonly ranking: readonly LanguageScore[]
}

/** A language identifier holding one loaded model. */
export interface LanguageIdentifier {
  /** Identify the language of `text`; undefined when it has no letters. */
  identify(text: string): LanguageIdentification | undefined
  /** The ISO 639-1 codes the model knows. */
  readonly languages: readonly string[]
}

const SCRIPT_ORDER: readonly ScriptGroup[] = ['latin', 'cyrillic', 'greek', 'arabic', 'hebrew', 'devanagari', 'thai', 'hangul', 'cjk']

/** Round to 4 decimals (fixed rounding keeps output byte-stable). */
const round4 = (x: number): number => Math.round(x * 10000) / 10000

/**
 * The languages a text can be in, from the script holding most of its letters (ties by a fixed order).
 * Kana means Japanese, Han alone Chinese. Undefined when no letter is in a
 * script of `known`; an empty array when the text has no letters at all.
 */
function candidatesFor(counts: ScriptCounts, known: readonly LanguageEntry[]): LanguageEntry[] | undefined {
  const total = SCRIPT_ORDER.reduce((a, s) => a + counts[s], 0) + counts.kana + counts.other
  if (total === 0) return []
  let best: ScriptGroup | undefined
  let bestCount = 0
  for (const s of SCRIPT_ORDER) {
    const n = s === 'cjk' ? counts.cjk + counts.kana : counts[s]
    if (n > bestCount && known.some((l) => l.script === s)) {
      best = s
      bestCount = n
    }
  }
  if (best === undefined) return undefined
  const inScript = known.filter((l) => l.script === best)
  if (best === 'cjk') {
    // Japanese writing mixes kana into Han; Han alone is taken as Chinese (kanji-only Japanese is rare).
    const decided = inScript.filter((l) => l.code === (counts.kana > 0 ? 'ja' : 'zh'))
    if (decided.length > 0) return decided
  }
  return inScript
}

/**
 * Build an identifier from a model (the committed `lexicons/langid/model.tsv` when omitted).
 * The model is used as is (sparse costs plus per-order floors); `identify` is then a pure function of its text.
 */
export function createLanguageIdentifier(model: LanguageModelData = loadLanguageModel()): LanguageIdentifier {
  const entries: LanguageEntry[] = model.languages.map((code) => {
    const e = findLanguageEntry(code)
    if (e === undefined || e.code !== code) throw new Error(`createLanguageIdentifier: unknown language code "${code}" in the model`)
    return e
  })
  for (let o = 0; o <= model.maxOrder; o++) {
    if (model.floors[o]?.length !== entries.length) throw new Error(`createLanguageIdentifier: the model has no floor row of ${entries.length} costs for order ${o}`)
  }
  const indexOf = new Map(entries.map((e, i) => [e.code, i]))
  const maxOrder = model.maxOrder
  const temperature = model.temperature

  return Object.freeze({
    languages: Object.freeze([...model.languages]),
    identify(text: string): LanguageIdentification | undefined {
      if (typeof text !== 'string') throw new TypeError(`identify: text should be a string, found ${typeof text}`)
      const candidates = candidatesFor(countScripts(text), entries) ?? entries
      if (candidates.length === 0) return undefined
      const idx = candidates.map((c) => indexOf.get(c.code)!)
      const costs = new Float64Array(candidates.length)
      let n = 0
      if (candidates.length > 1) {
        // Position of each model language among the candidates (-1 when not a candidate).
        const at = new Int32Array(entries.length).fill(-1)
        idx.forEach((li, j) => (at[li] = j))
        for (const [f, count] of featuresOf(text, maxOrder)) {
          const sparse = model.features.get(f)
          if (sparse === undefined) continue
          const floor = model.floors[orderOf(f)]
          if (floor === undefined) continue
          n += count
          for (let j = 0; j < idx.length; j++) costs[j]! += count * floor[idx[j]!]!
          for (let e = 0; e + 1 < sparse.length; e += 2) {
            const li = sparse[e]!
            const j = at[li]!
            if (j >= 0) costs[j]! += count * (sparse[e + 1]! - floor[li]!)
          }
        }
      }
      let min = Infinity
      for (const c of costs) if (c < min) min = c
      const scale = n === 0 ? 0 : temperature / (n * COST_SCALE)
      const weights = Array.from(costs, (c) => Math.exp(-(c - min) * scale))
      const sum = weights.reduce((a, w) => a + w, 0)
      const ranking = candidates
        .map((e, j) => ({ code: e.code, name: e.name, raw: costs[j]!, score: round4(weights[j]! / sum) }))
        .sort((a, b) => a.raw - b.raw || (a.code < b.code ? -1 : a.code > b.code ? 1 : 0))
        .map(({ code, name, score }): LanguageScore => Object.freeze({ code, name, score }))
      const top = ranking[0]!
      return Object.freeze({ code: top.code, name: top.name, score: top.score, ranking: Object.freeze(ranking) })
    },
  })
}

