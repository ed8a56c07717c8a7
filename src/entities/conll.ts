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
