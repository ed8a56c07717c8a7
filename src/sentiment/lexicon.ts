/**
 * Sentiment lexicons: parsing of the human-edited files in `lexicons/<lang>/` (formats in
 * `lexicons/README.md`) into lookup tables keyed by normalised token sequences.
 *
 * Keys are lower-cased tokens joined by one space, with contractions split the way the tokenizer
 * normalises them ("can't" -> "can not", "don't" -> "do not"), so a lexicon phrase and the normal
 * forms of the tokens it should match produce the same key.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { dataPath, missingDataHint } from '../resources.ts'
import { ownString } from '../own-string.ts'

/** Weighted entry of a sentiment table (words, phrases, idioms, emoji). */
export interface WeightedEntry {
  /** The entry as written in the file (or by the user). */
  readonly title: string
  /** Valence on the lexicon scale -4..+4. */
  readonly weight: number
  /** Number of tokens the key spans. */
  readonly length: number
}

/** A contrastive conjunction's weights for the clauses before and after it. */
export interface ContrastEntry {
  readonly title: string
  readonly before: number
  readonly after: number
  readonly length: number
}

/** A modifier (intensifier/diminisher) with its multiplicative factor. */
export interface ModifierEntry {
  readonly title: string
  readonly factor: number
  readonly length: number
}

/** All tables a scorer needs, loaded once per scorer and never mutated. */
export interface SentimentLexicon {
  /** Single words, emoticons and multi-word phrases (sentiment.tsv). */
  readonly words: ReadonlyMap<string, WeightedEntry>
  /** Idioms and set phrases (idioms.tsv); they win over the words they contain. */
  readonly idioms: ReadonlyMap<string, WeightedEntry>
  /** Emoji (emoji.tsv), keyed by the emoji itself. */
  readonly emoji: ReadonlyMap<string, WeightedEntry>
  /** Negators (negators.txt). */
  readonly negators: ReadonlyMap<string, { readonly title: string; readonly length: number }>
  /** Intensifiers and diminishers (intensifiers.tsv). */
  readonly modifiers: ReadonlyMap<string, ModifierEntry>
  /** Contrastive conjunctions (contrast.tsv). */
  readonly contrasts: ReadonlyMap<string, ContrastEntry>
  /** Longest key length over all tables, in tokens. */
  readonly maxLength: number
}

/** Error thrown for a malformed lexicon line; the message names the file and line. */
export class LexiconError extends Error {
  override readonly name = 'LexiconError'
  /** Stable code for callers that test `e.code`. */
  readonly code = 'ERR_LEXICON_FORMAT'
}

// Stems the tokenizer produces for "<x>n't" contractions ("ca" + "n't" -> normal "can" + "not").
const CONTRACTION_BASE: Readonly<Record<string, string>> = {
  ca: 'can',
  wo: 'will',
  sha: 'shall',
  ai: 'am',
}

/** Printable ASCII other than space and A-Z. */
const SIMPLE_KEY = /^[\x21-\x40\x5b-\x7e]+$/

/**
 * Turn a phrase as a human writes it into the token key the scorer matches: lower-case, split on
 * whitespace, "n't" contractions expanded ("couldn't" -> "could not"), other apostrophe forms kept.
 */
export function phraseKey(phrase: string): string {
  // One printable ASCII token without capitals and not ending in "n't" is its own key (most lexicon lines; the
  // general path below gives the same string for it).
  if (SIMPLE_KEY.test(phrase) && !phrase.endsWith("n't")) return phrase
  const out: string[] = []
  for (const raw of phrase.toLowerCase().replace(/\u2019/g, "'").trim().split(/\s+/)) {
    if (raw === '') continue
    const m = /^([a-z]+)n't$/.exec(raw)
    if (m !== null && m[1] !== undefined) {
      out.push(CONTRACTION_BASE[m[1]] ?? m[1], 'not')
    } else {
      out.push(raw)
    }
  }
  return out.join(' ')
}

/** Number of tokens in a key. */
function keyLength(key: string): number {
  return key === '' ? 0 : key.split(' ').length
}

/** Data lines of a file: `[lineNumber, columns]`, skipping blank lines and `#` comments. */
function dataLines(text: string, file: string, columns: number): Array<[number, string[]]> {
  const out: Array<[number, string[]]> = []
  const lines = text.split(/\r?\n/)
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? ''
    if (line.trim() === '' || (line.startsWith('#') && !line.startsWith('#\t'))) continue
    const cols = line.split('\t')
    if (cols.length < columns) {
      throw new LexiconError(
        `${file}:${i + 1}: expected ${columns} tab-separated columns, instead found ${cols.length}: "${line}"`,
      )
    }
    out.push([i + 1, cols])
  }
  return out
}

function numberAt(value: string | undefined, file: string, line: number, what: string): number {
  const n = Number(value)
  if (value === undefined || value.trim() === '' || !Number.isFinite(n)) {
    throw new LexiconError(`${file}:${line}: ${what} should be a number, instead found "${value ?? ''}"`)
  }
  return n
}

/**
 * An entry's key and title as the tables keep them: strings of their own ({@link ownString}), not cuts of the file's
 * text, which would keep the whole text alive (sentiment.tsv: 106 KB, for 576 keys and titles of 13 characters or
 * more); the title is the key itself when they are equal (most lines).
 */
function kept(key: string, title: string): { key: string; title: string } {
  const k = ownString(key)
  return { key: k, title: title === k ? k : ownString(title) }
}

/** Parse a `term<TAB>weight` table (sentiment.tsv, idioms.tsv, emoji.tsv). Later lines override earlier ones. */
export function parseWeightTable(text: string, file: string, keyOf: (t: string) => string = phraseKey): Map<string, WeightedEntry> {
  const map = new Map<string, WeightedEntry>()
  for (const [line, cols] of dataLines(text, file, 2)) {
    const title = (cols[0] ?? '').trim()
    const weight = numberAt(cols[1], file, line, 'weight')
    if (weight < -4 || weight > 4) {
      throw new LexiconError(`${file}:${line}: weight should be within -4..4, instead found ${weight}`)
    }
    const key = keyOf(title)
    if (key === '') throw new LexiconError(`${file}:${line}: empty term`)
    const own = kept(key, title)
    map.set(own.key, { title: own.title, weight, length: keyLength(key) })
  }
  return map
}

/** Parse negators.txt: one negator (word or phrase) a line. */
export function parseNegators(text: string, file: string): Map<string, { title: string; length: number }> {
  const map = new Map<string, { title: string; length: number }>()
  for (const [, cols] of dataLines(text, file, 1)) {
    const title = (cols[0] ?? '').trim()
    const key = phraseKey(title)
    if (key === '') continue
    const own = kept(key, title)
    map.set(own.key, { title: own.title, length: keyLength(key) })
  }
  return map
}

/** Parse intensifiers.tsv: `modifier<TAB>factor`, factor in (0, 3]. */
export function parseModifiers(text: string, file: string): Map<string, ModifierEntry> {
  const map = new Map<string, ModifierEntry>()
  for (const [line, cols] of dataLines(text, file, 2)) {
    const title = (cols[0] ?? '').trim()
    const factor = numberAt(cols[1], file, line, 'factor')
    if (factor <= 0 || factor > 3) {
      throw new LexiconError(`${file}:${line}: factor should be within (0, 3], instead found ${factor}`)
    }
    const key = phraseKey(title)
    const own = kept(key, title)
    map.set(own.key, { title: own.title, factor, length: keyLength(key) })
  }
  return map
}

/** Parse contrast.tsv: `conjunction<TAB>before<TAB>after`. */
export function parseContrasts(text: string, file: string): Map<string, ContrastEntry> {
  const map = new Map<string, ContrastEntry>()
  for (const [line, cols] of dataLines(text, file, 3)) {
    const title = (cols[0] ?? '').trim()
    const before = numberAt(cols[1], file, line, 'before')
    const after = numberAt(cols[2], file, line, 'after')
    for (const [what, v] of [['before', before], ['after', after]] as const) {
      if (v < 0 || v > 3) throw new LexiconError(`${file}:${line}: ${what} should be within 0..3, instead found ${v}`)
    }
    const key = phraseKey(title)
    const own = kept(key, title)
    map.set(own.key, { title: own.title, before, after, length: keyLength(key) })
  }
  return map
}

/**
 * The folder holding the English lexicons shipped with the package (`lexicons/en` of the data folder, see
 * {@link resolveDataDir}: `dataDir`, else `TEXTENGINE_DATA_DIR`, else the package's own).
 */
export function defaultLexiconDir(dataDir?: string): string {
  return dataPath(dataDir, 'en')
}

/**
 * Load every sentiment table from `dir` (default: `en/` of the data folder `dataDir`, see `resolveDataDir`). Throws
 * {@link LexiconError} naming file and line for malformed content.
 */
export function loadSentimentLexicon(dir?: string, dataDir?: string): SentimentLexicon {
  const folder = dir ?? defaultLexiconDir(dataDir)
  const read = (name: string): string => {
    try {
      return readFileSync(join(folder, name), 'utf8')
    } catch (e) {
      const hint = dir === undefined ? ` (${missingDataHint(dataDir)})` : ''
      throw new LexiconError(`cannot read lexicon file ${join(folder, name)}: ${(e as Error).message}${hint}`)
    }
  }
  const words = parseWeightTable(read('sentiment.tsv'), 'sentiment.tsv')
  const idioms = parseWeightTable(read('idioms.tsv'), 'idioms.tsv')
  const emoji = parseWeightTable(read('emoji.tsv'), 'emoji.tsv', (t) => t.replace(/\ufe0f/g, ''))
  const negators = parseNegators(read('negators.txt'), 'negators.txt')
  const modifiers = parseModifiers(read('intensifiers.tsv'), 'intensifiers.tsv')
  const contrasts = parseContrasts(read('contrast.tsv'), 'contrast.tsv')
  let maxLength = 1
  for (const m of [words, idioms, negators, modifiers, contrasts] as ReadonlyArray<ReadonlyMap<string, { length: number }>>) {
    for (const e of m.values()) maxLength = Math.max(maxLength, e.length)
  }
  return { words, idioms, emoji, negators, modifiers, contrasts, maxLength }
}
