/**
 * The annotator as it was before issue 17 (nine `.out()` column reads per document, through wink's public API),
 * kept as the reference the one-pass annotator is compared with (test/nlp/annotate-equivalence.test.ts).
 */
import winkNLP from 'wink-nlp'
import type { ItemEntity, ItemSentence } from 'wink-nlp'
import model from 'wink-eng-lite-web-model'
import { stemmer } from 'stemmer'
import type { AnnotatedDocument, PatternSpan, Sentence, Token } from '../../src/nlp/types.ts'
import { blankTags, metaCerModel, readReferences, sourcePosition, utf8Length, type AnnotateOptions } from '../../src/nlp/annotate.ts'
import { joinBrokenSentences } from '../../src/nlp/sentences.ts'

interface Annotator {
  annotate(text: string, options?: AnnotateOptions): AnnotatedDocument
  readRaw(text: string): number
}

/**
 * Create an annotator. Each call builds its own wink-nlp instance so that two engines never share
 * mutable NLP state (custom entities, for instance, are per instance).
 */
export function createReferenceAnnotator(): Annotator {
  // The one change: the custom-entity meta model made once (see metaCerModel), so many instances can be built.
  const nlp = winkNLP({ ...model, metaCER: metaCerModel } as typeof model, ['sbd', 'negation', 'pos', 'ner'])
  const its = nlp.its
  const stemCache = new Map<string, string>()
  const stemOf = (word: string): string => {
    let s = stemCache.get(word)
    if (s === undefined) {
      s = /^[a-z]+$/.test(word) ? stemmer(word) : word
      if (stemCache.size > 200_000) stemCache.clear()
      stemCache.set(word, s)
    }
    return s
  }

  return {
    readRaw(text) {
      return nlp.readDoc(text).tokens().length()
    },
    annotate(source, options = {}) {
      // The same reading of character references as the annotator's (the one step it shares with it).
      const decoded = readReferences(options.html === true ? blankTags(source) : source)
      const text = decoded.text
      const clean = decoded.text
      const at = (k: number): number => sourcePosition(decoded.shifts, k)
      const doc = nlp.readDoc(clean)
      const tokenList = doc.tokens()
      // wink's typings declare `out` per its-function; one loose accessor keeps the casts in one place.
      const col = <T>(f: unknown): T[] => tokenList.out(f as never) as unknown as T[]
      const values = col<string>(its.value)
      const normals = col<string>(its.normal)
      const lemmas = col<string>(its.lemma)
      const poses = col<string>(its.pos)
      const types = col<string>(its.type)
      const shapes = col<string>(its.shape)
      const negs = col<boolean>(its.negationFlag)
      const stops = col<boolean>(its.stopWordFlag)
      const spaces = col<string>(its.precedingSpaces)

      // Sentence membership by token index: wink's sentences are contiguous token ranges.
      const sentenceOfToken = new Int32Array(values.length)
      const sentenceRanges: Array<[number, number]> = []
      // wink has no sentence for a text without tokens (it throws when asked for the first token of one).
      if (values.length > 0) doc.sentences().each((s: ItemSentence) => {
        const toks = s.tokens()
        const first = toks.itemAt(0)
        if (first === undefined) return
        const startIdx = first.index()
        const endIdx = startIdx + toks.length()
        sentenceRanges.push([startIdx, endIdx])
      })

      const tokens: Token[] = []
      let pos = 0 // UTF-16 cursor into clean (same positions as `text`)
      let bytePos = 0 // byte cursor into `source`
      let byteAt = 0 // UTF-16 position of `source` bytePos corresponds to
      const advanceBytes = (to: number): number => {
        bytePos += utf8Length(source, byteAt, to)
        byteAt = to
        return bytePos
      }
      for (let i = 0; i < values.length; i++) {
        const value = values[i] ?? ''
        const pre = spaces[i] ?? ''
        let start = pos + pre.length
        if (clean.startsWith(value, start) === false) {
          // wink occasionally normalises spacing; fall back to searching forward.
          const found = clean.indexOf(value, pos)
          start = found >= 0 ? found : start
        }
        const end = Math.min(start + value.length, clean.length)
        pos = end
        const byteOffset = advanceBytes(at(start))
        const byteEnd = advanceBytes(at(end))
        const normal = (normals[i] ?? value).toLowerCase()
        tokens.push({
          index: i,
          text: text.slice(start, end),
          normal,
          lemma: (lemmas[i] ?? normal).toLowerCase(),
          stem: stemOf(value.toLowerCase()),
          pos: poses[i] ?? 'X',
          kind: types[i] ?? 'word',
          shape: shapes[i] ?? '',
          start,
          end,
          byteOffset,
          byteLength: byteEnd - byteOffset,
          sentence: 0,
          negated: negs[i] === true,
          isStopWord: stops[i] === true,
          spaceBefore: pre.length > 0,
        })
      }

      let ranges = sentenceRanges
      if (options.oneSentence === true || ranges.length === 0) ranges = [[0, tokens.length]]
      // wink's wrong breaks (web addresses, decimals, abbreviations) joined as the annotator joins them.
      else ranges = joinBrokenSentences(tokens, ranges)
      const sentences: Sentence[] = []
      for (const [ts, te] of ranges) {
        // Skip leading/trailing whitespace tokens (tabCRLF) when computing the span.
        let a = ts
        let b = te
        while (a < b && tokens[a]?.kind === 'tabCRLF') a++
        while (b > a && tokens[b - 1]?.kind === 'tabCRLF') b--
        const first = tokens[a]
        const last = tokens[b - 1]
        const index = sentences.length
        for (let k = ts; k < te; k++) sentenceOfToken[k] = index
        const start = first?.start ?? 0
        const end = last?.end ?? start
        const byteOffset = first?.byteOffset ?? 0
        const byteEnd = last !== undefined ? last.byteOffset + last.byteLength : byteOffset
        sentences.push({
          index,
          tokenStart: ts,
          tokenEnd: te,
          start,
          end,
          byteOffset,
          byteLength: byteEnd - byteOffset,
          text: text.slice(start, end),
        })
      }
      for (const t of tokens) (t as { sentence: number }).sentence = sentenceOfToken[t.index] ?? 0

      const patterns: PatternSpan[] = []
      if (values.length > 0) doc.entities().each((e: ItemEntity) => {
        const toks = e.tokens()
        const first = toks.itemAt(0)
        if (first === undefined) return
        const tokenStart = first.index()
        const tokenEnd = tokenStart + toks.length()
        const a = tokens[tokenStart]
        const b = tokens[tokenEnd - 1]
        if (a === undefined || b === undefined) return
        patterns.push({ type: String(e.out(its.type)), tokenStart, tokenEnd, text: text.slice(a.start, b.end) })
      })
      return { text, tokens, sentences, patterns }
    },
  }
}

