/**
 * The annotated document: the one shared structure every analyzer reads.
 *
 * Layout: `tokens` is a flat array in text order; sentences refer to token index ranges
 * (`tokenStart` inclusive, `tokenEnd` exclusive). Character offsets (`start`/`end`) are UTF-16
 * indices into `text`: the text as submitted (with `process_html` on, its tags blanked: spaces of the same length) with its
 * character references read as the characters they stand for ("H&amp;M" reads "H&M"; see
 * `readReferences` in annotate.ts), the same text when it has none. `byteOffset`/`byteLength` are the
 * same spans in bytes of the UTF-8 encoding of the text as submitted (a character read from a reference
 * spans the reference), which is what the wire format reports.
 */

/** One token as wink-nlp produced it, plus our normalisations. */
export interface Token {
  /** Position in `AnnotatedDocument.tokens`. */
  readonly index: number
  /** Surface form, exactly as it stands in `text` (for contractions, e.g. "n't", the value wink gives). */
  readonly text: string
  /** Lower-cased surface form (wink `normal`; contractions expanded, e.g. "n't" -> "not"). */
  readonly normal: string
  /** Lower-cased lemma (wink `lemma`). */
  readonly lemma: string
  /** Porter stem of the lower-cased surface form (`stemmer` package). */
  readonly stem: string
  /** Universal Dependencies POS tag from wink (NOUN, VERB, ADJ, PROPN, PUNCT, ...). */
  readonly pos: string
  /**
   * wink token type: word, number, punctuation, emoji, emoticon, email, url, hashtag, mention,
   * currency, ordinal, quoted_phrase, symbol, time, tabCRLF, ...
   */
  readonly kind: string
  /** wink shape, e.g. "Xxxx", "dd", "xxx@xxxx.xxx". */
  readonly shape: string
  /** UTF-16 start offset into `text`. */
  readonly start: number
  /** UTF-16 end offset (exclusive). */
  readonly end: number
  /** Byte offset of the token in the UTF-8 encoding of the text as submitted. */
  readonly byteOffset: number
  /** Length of the token in bytes of UTF-8 of the text as submitted ("H&amp;M": 7). */
  readonly byteLength: number
  /** Index of the sentence holding this token. */
  readonly sentence: number
  /** wink's negation flag: the token lies in the scope of a negation. */
  readonly negated: boolean
  /** wink's stop-word flag. */
  readonly isStopWord: boolean
  /** True when whitespace precedes the token in the text. */
  readonly spaceBefore: boolean
}

/** One sentence: a token range and its span in the text. */
export interface Sentence {
  readonly index: number
  readonly tokenStart: number
  readonly tokenEnd: number
  readonly start: number
  readonly end: number
  readonly byteOffset: number
  readonly byteLength: number
  /** The sentence's text, trimmed. */
  readonly text: string
}

/** A pattern entity recognised by wink (email, URL, date, money, ...), as a token range. */
export interface PatternSpan {
  /** wink's type name: EMAIL, URL, DATE, TIME, MONEY, PERCENT, HASHTAG, MENTION, EMOJI, EMOTICON, CARDINAL, ORDINAL, ... */
  readonly type: string
  readonly tokenStart: number
  readonly tokenEnd: number
  readonly text: string
}

/** The result of annotation. Immutable once built; analyzers write their own results elsewhere. */
export interface AnnotatedDocument {
  /** The text as read: as submitted, its character references read as characters (UTF-16 offsets refer to it). */
  readonly text: string
  readonly tokens: readonly Token[]
  readonly sentences: readonly Sentence[]
  readonly patterns: readonly PatternSpan[]
  /**
   * Tags of capitalised common words that wink reads as names for their capital alone, by token index, read from a
   * copy of their sentence with them in lower case: every such word of a title-case headline ("Friendly Staff, Clean
   * Rooms And A Great Breakfast"), and a sentence's first word tagged a proper noun that is no noun in lower case
   * ("Perfect!", "Great views"). Set by the engine's annotation step (`tagLowerCaseReadings` in
   * src/pipeline/pos.ts) and read by the theme candidates and facets; absent when there is no such word.
   */
  readonly lowerCaseTags?: ReadonlyMap<number, LowerCaseTag>
}

/** What a capitalised common word reads as in lower case (see {@link AnnotatedDocument.lowerCaseTags}). */
export interface LowerCaseTag {
  readonly pos: string
  /** Lower-cased. */
  readonly lemma: string
  /** Whether the word stands in a title-case headline (whose capitals tell nothing), not only opening a sentence. */
  readonly headline: boolean
}
