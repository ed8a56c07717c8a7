/**
 * A lightweight AnnotatedDocument for query tests: words separated by blanks, `.` ending a sentence,
 * `,` as punctuation; lemmas from a small table (so inflection rules can be tested without wink).
 */
import type { AnnotatedDocument, Sentence, Token } from '../../src/nlp/types.ts'

const lemmas: Record<string, string> = { apples: 'apple', pies: 'pie', ran: 'run', running: 'run', runs: 'run', better: 'good' }

/** Build a document from blank-separated words; `.` and `,` are punctuation tokens, `.` ends a sentence. */
export function fakeDocument(words: readonly string[]): AnnotatedDocument {
  const tokens: Token[] = []
  const sentences: Sentence[] = []
  let text = ''
  let sentence = 0
  let sentenceStart = 0
  let sentenceChar = 0
  for (const w of words) {
    const punct = w === '.' || w === ','
    const spaceBefore = text.length > 0 && !punct
    if (spaceBefore) text += ' '
    const start = text.length
    text += w
    const lower = w.toLowerCase()
    tokens.push({
      index: tokens.length, text: w, normal: lower, lemma: lemmas[lower] ?? lower, stem: lower,
      pos: punct ? 'PUNCT' : 'NOUN', kind: punct ? 'punctuation' : 'word', shape: 'xxx', start, end: text.length,
      byteOffset: Buffer.byteLength(text.slice(0, start)), byteLength: Buffer.byteLength(w),
      sentence, negated: false, isStopWord: false, spaceBefore,
    })
    if (w === '.') {
      sentences.push(sentenceOf(sentence, sentenceStart, tokens.length, sentenceChar, text))
      sentence++
      sentenceStart = tokens.length
      sentenceChar = text.length + 1
    }
  }
  if (sentenceStart < tokens.length) sentences.push(sentenceOf(sentence, sentenceStart, tokens.length, sentenceChar, text))
  return { text, tokens, sentences, patterns: [] }
}

function sentenceOf(index: number, tokenStart: number, tokenEnd: number, start: number, text: string): Sentence {
  const s = text.slice(start)
  return { index, tokenStart, tokenEnd, start, end: text.length, byteOffset: Buffer.byteLength(text.slice(0, start)), byteLength: Buffer.byteLength(s), text: s.trim() }
}
