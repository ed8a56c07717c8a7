/**
 * Reader for CoNLL-2003 files (`word POS chunk NER` per line, IOB1 tags, blank line between sentences,
 * `-DOCSTART-` between documents). Only the word and NER columns are kept: at run time the tagger
 * sees token strings only.
 */
import { LABELS, type EntityType } from './features.ts'

/** One sentence: its tokens and their labels as indices into {@link LABELS} (BIO). */
export interface ConllSentence {
  readonly tokens: string[]
  readonly labels: number[]
}

/** One document: its sentences in order. */
export interface ConllDocument {
  readonly sentences: ConllSentence[]
}

/** Gold or predicted entity span within a sentence (`end` exclusive). */
export interface TypedSpan {
  readonly type: EntityType
  readonly start: number
  readonly end: number
}

/** Parse a CoNLL-2003 file into documents; IOB1 tags become BIO label indices. */
export function readConll(text: string, source = 'CoNLL file'): ConllDocument[] {
  const docs: ConllDocument[] = []
  let doc: ConllSentence[] = []
  let tokens: string[] = []
  let tags: string[] = []
  const endSentence = (): void => {
    if (tokens.length > 0) doc.push({ tokens, labels: iob1ToBio(tags) })
    tokens = []
    tags = []
  }
  const lines = text.split(/\r?\n/)
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? ''
    if (line.trim() === '') {
      endSentence()
      continue
    }
    const cols = line.split(' ')
    if (cols[0] === '-DOCSTART-') {
      endSentence()
      if (doc.length > 0) docs.push({ sentences: doc })
      doc = []
      continue
    }
    const tag = cols[cols.length - 1] ?? ''
    if (cols.length < 2 || !/^(O|[IB]-(PER|ORG|LOC|MISC))$/.test(tag)) {
      throw new Error(`${source}:${i + 1}: expected "word ... TAG" with an IOB tag, instead found ${JSON.stringify(line)}`)
    }
    tokens.push(cols[0] ?? '')
    tags.push(tag)
  }
  endSentence()
  if (doc.length > 0) docs.push({ sentences: doc })
  return docs
}

/** Character offsets of each token in the text made by joining `tokens` with single spaces, starting at `at`. */
export function tokenStarts(tokens: readonly string[], at = 0): number[] {
  const starts: number[] = []
  for (const t of tokens) {
    starts.push(at)
    at += t.length + 1
  }
  return starts
}

/** IOB1 -> BIO: an `I-X` that does not continue an X span becomes `B-X`. */
export function iob1ToBio(tags: readonly string[]): number[] {
  const out: number[] = []
  let prevType = 'O'
  for (const tag of tags) {
    let bio = tag
    if (tag.startsWith('I-') && prevType !== tag.slice(2)) bio = 'B-' + tag.slice(2)
    const idx = (LABELS as readonly string[]).indexOf(bio)
    out.push(idx < 0 ? 0 : idx)
    prevType = tag === 'O' ? 'O' : tag.slice(2)
  }
  return out
}

/** Spans of a BIO label sequence. */
export function spansOfLabels(labels: readonly number[]): TypedSpan[] {
  const spans: TypedSpan[] = []
  let start = -1
  let type: EntityType | undefined
  for (let i = 0; i <= labels.length; i++) {
    const name = i < labels.length ? (LABELS[labels[i] ?? 0] ?? 'O') : 'O'
    const t = name === 'O' ? undefined : (name.slice(2) as EntityType)
    if (type !== undefined && (t !== type || name.startsWith('B-'))) {
      spans.push({ type, start, end: i })
      type = undefined
    }
    if (t !== undefined && type === undefined) {
      type = t
      start = i
    }
  }
  return spans
}

/** How {@link readTagged} reads a token-per-line NER corpus other than CoNLL-2003's own files. */
export interface TaggedFormat {
  /** Column of the word (0-based); columns are split on tabs when the line has one, else on spaces. @defaultValue 0 */
  readonly wordColumn?: number
  /** Column of the tag; negative counts from the end. @defaultValue -1 (the last) */
  readonly tagColumn?: number
  /** Corpus entity type -> ours (PER, ORG, LOC, MISC); a type not listed becomes `O`. */
  readonly types: Readonly<Record<string, EntityType>>
  /** Every sentence a document of its own (tweets, CoNLL04 sentences). @defaultValue false */
  readonly sentencePerDocument?: boolean
  /** A span whose words are all in this set (lower case) becomes `O` (role words a corpus tags: "Borrower"). */
  readonly dropWords?: ReadonlySet<string>
  /**
   * Tags are bare types without `B-`/`I-` (Few-NERD: `person-actor`, `O`): a run of tokens with the same type is one
   * span. @defaultValue false
   */
  readonly bareTags?: boolean
  /**
   * Keep only sentences whose every capitalised word carries a corpus tag, mapped or not, besides "I", month and
   * day names, and a word first in its sentence (or after an opening quote, bracket, colon or full stop) that the
   * corpus also writes in lower case ("The"): for corpora annotated with part of their types only (Few-NERD's
   * INTER splits), where an untagged name is no evidence of a non-name. @defaultValue false
   */
  readonly completeCapitals?: boolean
}

const NOT_NAMES = new Set(['i', 'january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november', 'december', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'])
const OPENERS = new Set(['.', '"', '``', ':', '(', '-', '--', "'", '['])

/**
 * Parse a token-per-line NER corpus (IOB1 or BIO tags in the last column or the one named, blank line between sentences,
 * `-DOCSTART-` or `#doc` lines between documents), mapping its entity types onto CoNLL's. Used for the openly
 * licensed training corpora (BTC, WNUT17, SEC filings) and CoNLL04.
 */
export function readTagged(text: string, format: TaggedFormat, source = 'NER file'): ConllDocument[] {
  const docs: ConllDocument[] = []
  let doc: ConllSentence[] = []
  let tokens: string[] = []
  let tags: string[] = []
  // The corpus's own tags of the sentence's tokens, and whether a capitalised word mid-sentence has none.
  let rawTags: string[] = []
  let incomplete = false
  const wordColumn = format.wordColumn ?? 0
  // `completeCapitals`: words the corpus writes in lower case somewhere; a capitalised untagged word first in its
  // sentence (or after an opening mark) passes only when it is one of them ("The", "After"; not "London").
  const lowerWords = new Set<string>()
  if (format.completeCapitals === true) {
    for (const m of text.matchAll(/^(\p{Ll}[^\t ]*)[\t ]/gmu)) lowerWords.add(m[1] ?? '')
  }
  const endDocument = (): void => {
    if (doc.length > 0) docs.push({ sentences: doc })
    doc = []
  }
  const endSentence = (): void => {
    if (tokens.length > 0 && !incomplete) {
      const labels = iob1ToBio(tags)
      if (format.dropWords !== undefined) {
        for (const s of spansOfLabels(labels)) {
          let all = true
          for (let i = s.start; i < s.end; i++) if (!format.dropWords.has((tokens[i] ?? '').toLowerCase())) all = false
          if (all) for (let i = s.start; i < s.end; i++) labels[i] = 0
        }
      }
      doc.push({ tokens, labels })
      if (format.sentencePerDocument === true) endDocument()
    }
    tokens = []
    tags = []
    rawTags = []
    incomplete = false
  }
  const lines = text.split(/\r?\n/)
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? ''
    if (line.trim() === '') {
      endSentence()
      continue
    }
    if (line.startsWith('-DOCSTART-') || line.startsWith('#doc')) {
      endSentence()
      endDocument()
      continue
    }
    const cols = line.includes('\t') ? line.split('\t') : line.split(' ')
    const word = cols[wordColumn] ?? ''
    const tagColumn = format.tagColumn ?? -1
    const raw = cols[tagColumn < 0 ? cols.length + tagColumn : tagColumn] ?? ''
    const prevRaw = rawTags[rawTags.length - 1]
    // Bare tags: a token continues the span of the token before when both have the same type.
    const tag = format.bareTags !== true || raw === 'O' ? raw : `${prevRaw === raw && tokens.length > 0 ? 'I' : 'B'}-${raw}`
    if (format.completeCapitals === true && raw === 'O' && /^\p{Lu}/u.test(word) && !NOT_NAMES.has(word.toLowerCase())) {
      const first = tokens.length === 0 || OPENERS.has(tokens[tokens.length - 1] ?? '')
      if (!first || !lowerWords.has(word.toLowerCase())) incomplete = true
    }
    const m = /^([IB])-(.+)$/.exec(tag)
    if (cols.length < 2 || (tag !== 'O' && m === null)) {
      throw new Error(`${source}:${i + 1}: expected a word and an IOB tag, instead found ${JSON.stringify(line)}`)
    }
    // BTC has a few tokens that are only whitespace: left out.
    if (word.trim() === '') continue
    const type = m === null ? undefined : format.types[m[2] ?? '']
    // Whitespace inside a token (none in CoNLL) would break the text the tagger is given.
    tokens.push(word.replace(/\s+/g, '_'))
    rawTags.push(raw)
    tags.push(type === undefined ? 'O' : `${m?.[1] ?? 'I'}-${type}`)
  }
  endSentence()
  endDocument()
  return docs
}
