/**
 * The engine's language decision for one document under a configuration's language: the n-gram identifier
 * (`identify.ts`) read on a bounded sample, with a prior for the configuration's language that word-level and
 * script evidence must overcome when the text is too short for n-grams to be trusted.
 *
 * - Script first: a text whose letters are all in another script than the configuration's language is in that
 *   script's language (the identifier's prefilter), however short.
 * - Long texts (at least {@link MEDIUM_LETTERS} letters in the sample): the identifier's answer as it is.
 * - Medium texts ({@link SHORT_LETTERS} to {@link MEDIUM_LETTERS} letters): the identifier's answer, unless the
 *   configuration's language has at least two function words and more than the answer's.
 * - Short texts (fewer than {@link SHORT_LETTERS} letters): the configuration's language, with a low score, unless
 *   another language has more function words than it (at least {@link MIN_FUNCTION_WORDS}), or, for a
 *   configuration language with a vocabulary, none of the words is in that vocabulary, at least two lower-case
 *   words are unknown to it and the identifier is confident of one other language.
 *
 * `decisive` tells whether the answer rests on enough evidence to fail a document written in another language
 * than the configuration's (the wrong-language rule); the answer of a short text is decisive only when it names
 * another language on word or script evidence. Same text and configuration, same decision.
 */
import type { LanguageIdentifier, LanguageScore } from './identify.ts'
import { findLanguageEntry } from './languages.ts'
import { FUNCTION_WORDS } from './words.ts'

/** Only this many UTF-16 units of a text are read (cut back to a space): bounded time on long documents. */
export const SAMPLE_CHARS = 8192
/** Below this many letters a text is short: n-grams alone never decide it. */
export const SHORT_LETTERS = 40
/** From this many letters on, the identifier's answer stands as it is. */
export const MEDIUM_LETTERS = 200
/** A word at least this frequent (zipf) in the vocabulary belongs to the configuration's language. */
const VOCABULARY_ZIPF = 3
/**
 * A function word of another language that is at least this frequent in the configuration's vocabulary ("die",
 * "war", "come", "son", "la") is half the evidence for that other language.
 */
const SHARED_ZIPF = 4.5
/** ... and still counts as a word of the configuration's language when at least this frequent. */
const SHARED_SUPPORT_ZIPF = 5
/**
 * Function words another language needs in a short text (a word shared with a frequent word of the configuration's
 * language counts half): "das ... war" (1.5), "muy bien" (2), but not "Hotel du Lac" (1).
 */
const MIN_FUNCTION_WORDS = 1.5
/** Lowest identifier share of another language before unknown words alone may name it. */
const UNKNOWN_WORDS_SHARE = 0.8
/** Words read for word-level evidence. */
const MAX_EVIDENCE_WORDS = 64

/** The decision for one text. */
export interface LanguageDecision extends LanguageScore {
  /** Enough evidence to fail a document that is not in the configuration's language. */
  readonly decisive: boolean
  /** Letters in the sample read, counted up to {@link MEDIUM_LETTERS} (more letters are not counted). */
  readonly letters: number
  /** What decided: the identifier alone, the script, function words, unknown words, or the prior. */
  readonly basis: 'model' | 'script' | 'words' | 'unknown-words' | 'prior' | 'names'
}

/** Word frequencies (lower-cased word -> zipf) of a language, such as `lexicons/en/word-frequency.tsv`. */
export type Vocabulary = ReadonlyMap<string, number>

/** Options of {@link createLanguageDecider}. */
export interface LanguageDeciderOptions {
  /** Vocabulary per ISO 639-1 code, read on first use. English's is the theme background list. */
  readonly vocabularies?: Readonly<Record<string, () => Vocabulary>>
}

/** Decides the language of documents under a configuration's language. */
export interface LanguageDecider {
  /** The decision for `text` under the configuration language `configured` (ISO code or English name); undefined when the text has no letters. */
  decide(text: string, configured: string): LanguageDecision | undefined
}

/** Function word -> the languages listing it (in the order of {@link FUNCTION_WORDS}). */
const FUNCTION_WORD_LANGUAGES: ReadonlyMap<string, readonly string[]> = (() => {
  const m = new Map<string, string[]>()
  for (const [code, words] of FUNCTION_WORDS) {
    for (const w of words) {
      const l = m.get(w)
      if (l === undefined) m.set(w, [code])
      else l.push(code)
    }
  }
  return m
})()

const round4 = (x: number): number => Math.round(x * 10000) / 10000
const LETTER = /\p{L}/u
const LATIN = /\p{Script=Latin}/u
const WORD_CHAR = /[\p{L}\p{M}]/u
const UPPER = /^\p{Lu}/u

/** The first {@link SAMPLE_CHARS} of a text, cut back to the last whitespace when one is near. */
export function languageSample(text: string): string {
  if (text.length <= SAMPLE_CHARS) return text
  let end = SAMPLE_CHARS
  // Do not split a surrogate pair.
  const c = text.charCodeAt(end - 1)
  if (c >= 0xd800 && c <= 0xdbff) end--
  for (let i = end; i > end - 256 && i > 0; i--) {
    const ch = text.charCodeAt(i)
    if (ch === 32 || ch === 10 || ch === 9 || ch === 13) return text.slice(0, i)
  }
  return text.slice(0, end)
}

interface Evidence {
  letters: number
  latin: number
  /**
   * Words in order: lower-cased NFC form, whether capitalised, whether a clitic after an apostrophe, whether it
   * opens a sentence (first word, or after `.`, `!`, `?` or a line break), whether written in capitals throughout
   * (two letters or more), whether it touches a digit ("21st", "U-21"), and its letters.
   */
  words: Array<{ w: string; cap: boolean; clitic: boolean; start: boolean; upper: boolean; num: boolean; letters: number }>
}

const DIGIT = /\p{Nd}/u
const ALL_UPPER = /^[\p{Lu}\p{M}]+$/u
/** Whether the word at `start` opens a sentence: only spaces, quotes and brackets back to `.!?`, a line break or the text's start. */
function opensSentence(s: string, start: number): boolean {
  for (let j = start - 1; j >= 0; j--) {
    const ch = s[j]!
    if (ch === '\n' || ch === '.' || ch === '!' || ch === '?') return true
    if (ch === ' ' || ch === '\t' || ch === '\r' || ch === '"' || ch === "'" || ch === '(' || ch === '[' || ch === '\u201c' || ch === '\u2018' || ch === '\u00bf' || ch === '\u00a1') continue
    return false
  }
  return true
}

/**
 * Count letters (up to MEDIUM_LETTERS) and, when `collect`, collect the first words of `s`, without a regex over the
 * whole text. The counts do not depend on `collect`: a decision that needs no word reads the text once, cheaply.
 */
function evidenceOf(s: string, collect: boolean): Evidence {
  let letters = 0
  let latin = 0
  const words: Evidence['words'] = []
  let i = 0
  while (i < s.length && letters < MEDIUM_LETTERS) {
    const cp = s.charCodeAt(i)
    if (cp < 0x80) {
      if (!((cp >= 65 && cp <= 90) || (cp >= 97 && cp <= 122))) {
        i++
        continue
      }
    } else {
      const full = s.codePointAt(i)!
      if (!WORD_CHAR.test(String.fromCodePoint(full))) {
        i += full > 0xffff ? 2 : 1
        continue
      }
    }
    const start = i
    const before = letters
    let ascii = true
    while (i < s.length) {
      const c = s.charCodeAt(i)
      if (c < 0x80) {
        if (!((c >= 65 && c <= 90) || (c >= 97 && c <= 122))) break
        letters++
        latin++
        i++
      } else {
        const full = s.codePointAt(i)!
        const x = String.fromCodePoint(full)
        if (!WORD_CHAR.test(x)) break
        ascii = false
        if (LETTER.test(x)) {
          letters++
          if (LATIN.test(x)) latin++
        }
        i += full > 0xffff ? 2 : 1
      }
    }
    if (collect && words.length < MAX_EVIDENCE_WORDS) {
      const raw = s.slice(start, i)
      const prev = start > 0 ? s.charCodeAt(start - 1) : 0
      const clitic = (prev === 39 || prev === 0x2019) && start > 1 && WORD_CHAR.test(s[start - 2]!)
      const num = (start > 0 && DIGIT.test(s[start - 1]!)) || (i < s.length && DIGIT.test(s[i]!))
      words.push({
        w: (ascii ? raw : raw.normalize('NFC')).toLowerCase(), cap: ascii ? raw.charCodeAt(0) <= 90 : UPPER.test(raw), clitic,
        start: opensSentence(s, start), upper: raw.length >= 2 && ALL_UPPER.test(raw), num, letters: letters - before,
      })
    }
  }
  return { letters, latin, words }
}

/** Lower-case words that join the parts of a name or two names ("Aravinda de Silva", "Joost van der Westhuizen", "Fife v Clydebank"). */
const NAME_PARTICLES: ReadonlySet<string> = new Set(
  'de da di do dos das del della van von der den ter ten du le la al el bin ibn y e v vs af av zu'.split(' '),
)
/** A text is in title case when at least this many words are capitalised and every lower-case one is a function word of the configuration's language. */
const TITLE_CASE_WORDS = 3

/**
 * Which words are names or numbers rather than words of a language, and so little evidence of one: a capitalised
 * word that does not open a sentence, every capitalised word of a title-case text ("Adele Extends Las Vegas
 * Residency At Caesars Palace"), a word in capitals throughout ("ISRAEL BEAT BULGARIA"), a word touching a digit
 * ("21st", "U-21"), and a lower-case function word of another language than `own` between two names ("East Fife v
 * Clydebank", "Aravinda de Silva", "Joost van der Westhuizen").
 */
function namesOf(words: Evidence['words'], own: ReadonlySet<string> | undefined): boolean[] {
  let capitals = 0
  let lowerContent = false
  for (const x of words) {
    if (x.num) continue
    if (x.cap) capitals++
    else if (own?.has(x.w) !== true) lowerContent = true
  }
  const title = capitals >= TITLE_CASE_WORDS && !lowerContent
  const names = words.map((x) => x.num || x.upper || (x.cap && (title || !x.start)))
  const particle = (k: number): boolean => {
    const x = words[k]!
    return !x.cap && !x.num && !x.clitic && NAME_PARTICLES.has(x.w) && own?.has(x.w) !== true
  }
  for (let k = 1; k < words.length - 1; k++) {
    if (!particle(k) || !(names[k - 1]! && words[k - 1]!.cap)) continue
    let j = k
    while (j < words.length && particle(j)) j++
    if (j < words.length && names[j]! && words[j]!.cap) for (let m = k; m < j; m++) names[m] = true
    k = j - 1
  }
  return names
}

/** {@link findLanguageEntry}, remembered per argument (a configuration names a few languages). */
const entryCache = new Map<string, ReturnType<typeof findLanguageEntry>>()
function entryOf(codeOrName: string): ReturnType<typeof findLanguageEntry> {
  let e = entryCache.get(codeOrName)
  if (e === undefined && !entryCache.has(codeOrName)) {
    e = findLanguageEntry(codeOrName)
    if (entryCache.size > 1000) entryCache.clear()
    entryCache.set(codeOrName, e)
  }
  return e
}

/**
 * A decider over `identifier`. English's vocabulary (zipf per word) lets short English texts whose words are all
 * known stay English, and lets unknown words point elsewhere.
 */
export function createLanguageDecider(identifier: LanguageIdentifier, options: LanguageDeciderOptions = {}): LanguageDecider {
  const vocabularies = options.vocabularies ?? {}
  // The identifier's languages are read on the first decision: reading them loads the model, and createEngine
  // reads no model (test/package/data-dir.test.ts).
  let knownSet: Set<string> | undefined
  const known = (): Set<string> => (knownSet ??= new Set(identifier.languages))
  return {
    decide(text, configured) {
      const sample = languageSample(text)
      let id = identifier.identify(sample)
      if (id === undefined) return undefined
      // Letters and script first: most decisions need no word (a long text, another script, or a text of at
      // least SHORT_LETTERS letters the identifier puts in the configuration's language).
      let ev = evidenceOf(sample, false)
      // Letters of evidence: all letters, or only those of ordinary words once names are set aside (below).
      let letters = ev.letters
      const model = (decisive: boolean, basis: LanguageDecision['basis'] = 'model'): LanguageDecision =>
        ({ code: id!.code, name: id!.name, score: id!.score, decisive, letters, basis })
      const c = entryOf(configured)
      if (c === undefined || !known().has(c.code)) return model(ev.letters >= SHORT_LETTERS)
      const top = entryOf(id.code)!
      if (top.script !== c.script) {
        // Another script holds most letters: decisive when the configuration's script is absent altogether.
        const foreignOnly = c.script === 'latin' ? ev.latin === 0 : false
        return model(ev.letters >= SHORT_LETTERS || (foreignOnly && ev.letters >= 2), 'script')
      }
      if (ev.letters >= MEDIUM_LETTERS) return model(true)
      // The configuration's language named by the identifier: function words can only confirm it.
      if (ev.letters >= SHORT_LETTERS && id.code === c.code) return model(true)
      ev = evidenceOf(sample, true)
      const names = namesOf(ev.words, FUNCTION_WORDS.get(c.code))
      // The identifier's answer on the whole text, for a text whose ordinary words do not overturn it (below).
      const whole = { id, letters }
      let reduced = false
      if (id.code !== c.code && letters >= SHORT_LETTERS) {
        // Names, numbers and capitals are little evidence of a language: a list of players or a title-case
        // headline is read by its ordinary words alone, and too few of them leave it to the short-text rules.
        let ordinary = 0
        const kept: string[] = []
        ev.words.forEach((x, k) => {
          if (names[k]) return
          ordinary += x.letters
          kept.push(x.w)
        })
        if (ordinary < letters) {
          letters = ordinary
          const again = kept.length === 0 ? undefined : identifier.identify(kept.join(' '))
          if (again === undefined) return { code: c.code, name: c.name, score: 0, decisive: false, letters, basis: 'names' }
          id = again
          if (letters >= SHORT_LETTERS) {
            if (id.code === c.code) return model(false, 'names')
            id = whole.id
            letters = whole.letters
          } else reduced = true
        }
      }

      const vocabulary = vocabularies[c.code]?.()
      // Each word's zipf, read once (the vocabulary is a large map).
      const zipfs = ev.words.map((x) => vocabulary?.get(x.w) ?? 0)
      const fw = new Map<string, number>()
      let support = 0
      let content = 0
      let unknown = 0
      let unknownLower = 0
      const own = FUNCTION_WORDS.get(c.code)
      const lowerUnknown = ev.words.some((x, k) => !names[k] && !x.cap && !x.clitic && zipfs[k]! < VOCABULARY_ZIPF && !FUNCTION_WORD_LANGUAGES.has(x.w))
      for (let k = 0; k < ev.words.length; k++) {
        const { w, clitic } = ev.words[k]!
        // A lower-case word touching a digit ("21st") or joining two names ("Fife v Clydebank"): no evidence.
        if (names[k] && !ev.words[k]!.cap) continue
        // A capitalised unknown word is a name, except the first word of a text of several ("Zimmer schmutzig").
        const cap = (ev.words[k]!.cap && !(k === 0 && ev.words.length > 1)) || names[k]!
        if (clitic && w.length <= 2 && own?.has(w) !== true) continue // "'s", "'t", "'m" after an apostrophe
        const z = zipfs[k]!
        // A capitalised function word inside a title or before a name ("Bellagio Las Vegas", "Las Vegas") is part of the name.
        const next = ev.words[k + 1]
        // German nouns are capitalised too: "Das Zimmer war sauber" keeps "das" when a lower-case word is unknown.
        const inName = names[k]! || (ev.words[k]!.cap && (k > 0 || (next !== undefined && next.cap && zipfs[k + 1]! < VOCABULARY_ZIPF && !lowerUnknown)))
        let foreign = false
        for (const code of FUNCTION_WORD_LANGUAGES.get(w) ?? []) {
          if (code === c.code) {
            fw.set(code, (fw.get(code) ?? 0) + 1)
            continue
          }
          foreign = true
          // Shared with a frequent word of the configuration's language: half the evidence.
          if (!inName) fw.set(code, (fw.get(code) ?? 0) + (z < SHARED_ZIPF ? 1 : 0.5))
        }
        const mine = own?.has(w) === true || (z >= VOCABULARY_ZIPF && (!foreign || z >= SHARED_SUPPORT_ZIPF))
        if (mine) {
          support++
          content++
        } else if (!cap || foreign) {
          content++
          if (!foreign) {
            unknown++
            if (!ev.words[k]!.cap) unknownLower++
          }
        }
        // A capitalised word nobody knows is a name: evidence for no language.
      }
      const fwC = fw.get(c.code) ?? 0

      if (letters >= SHORT_LETTERS) {
        const fwA = fw.get(id.code) ?? 0
        if (id.code !== c.code && fwC >= 2 && fwC > fwA) {
          return { code: c.code, name: c.name, score: round4(fwC / (fwC + fwA + 1)), decisive: false, letters, basis: 'words' }
        }
        return model(true)
      }

      const rank = new Map(id.ranking.map((r, i) => [r.code, i]))
      const share = new Map(id.ranking.map((r) => [r.code, r.score]))
      // Short text: another language needs more function words than the configuration's; a lower-case word the
      // configuration's vocabulary lacks adds half a word to the identifier's answer ("Hotel muy limpio").
      if (vocabulary !== undefined && id.code !== c.code && unknownLower > 0) fw.set(id.code, (fw.get(id.code) ?? 0) + unknownLower / 2)
      let best: string | undefined
      for (const [code, n] of fw) {
        if (code === c.code || n <= fwC || !rank.has(code)) continue
        if (best === undefined) best = code
        else {
          const b = fw.get(best)!
          if (n > b || (n === b && rank.get(code)! < rank.get(best)!)) best = code
        }
      }
      if (best !== undefined) {
        const n = fw.get(best)!
        if (n >= MIN_FUNCTION_WORDS) {
          let sum = 0
          for (const [code, k] of fw) if (k === n) sum += share.get(code) ?? 0
          const e = findLanguageEntry(best)!
          const score = round4(sum > 0 ? (share.get(best) ?? 0) / sum : 1 / [...fw.values()].filter((k) => k === n).length)
          return { code: e.code, name: e.name, score, decisive: true, letters, basis: 'words' }
        }
      }
      if (vocabulary !== undefined && support === 0 && fwC === 0 && unknown >= 2 && id.code !== c.code && id.score >= UNKNOWN_WORDS_SHARE) {
        return model(true, 'unknown-words')
      }
      if (reduced && content > 0 && support < unknown) {
        // Names set aside, the ordinary words are mostly unknown to the configuration's language: the whole text's answer.
        id = whole.id
        letters = whole.letters
        return model(true)
      }
      // Too little evidence: the configuration's language, scored by the letters seen and the words it knows.
      const q = Math.max((support + 1) / (content + 1), share.get(c.code) ?? 0)
      return { code: c.code, name: c.name, score: round4((letters / SHORT_LETTERS) * q), decisive: false, letters, basis: 'prior' }
    },
  }
}
