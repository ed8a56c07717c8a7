/**
 * Shared by bench/train-aspects.ts and bench/eval-aspects.ts: the SemEval-2014 Task 4 aspect-term sets
 * (`aspects/Restaurants_Train.xml.seg`, `aspects/Laptops_Train.xml.seg`; three lines per item: the sentence
 * with `$T$` where the aspect stands, the aspect term, its polarity -1/0/1) annotated and scored by the
 * lexicon engine, with each aspect's token span and its feature vector.
 */
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { aspectFeatures, type AspectEvidence, type AspectSpan, type AspectVector } from '../src/sentiment/aspect.ts'
import { createSentimentScorer } from '../src/sentiment/scorer.ts'
import { createSafeAnnotate } from './sentiment-data.ts'

export const ASPECT_SETS = [
  { name: 'restaurants', file: 'Restaurants_Train.xml.seg' },
  { name: 'laptops', file: 'Laptops_Train.xml.seg' },
] as const

/** One aspect item with what the engine sees of it. */
export interface AspectItem {
  readonly text: string
  readonly aspect: string
  /** 0 negative, 1 neutral, 2 positive. */
  readonly label: number
  readonly evidence: AspectEvidence
  readonly span: AspectSpan
  /** Features (undefined only if the span were outside the text). */
  readonly x: AspectVector | undefined
  /** Lexicon score of the aspect's sentence (today's approach before aspect sentiment). */
  readonly sentence: number
}

/** The aspects folder under `dataArg` (default ../shared/data); exits naming it when absent. */
export function aspectDirOrExit(dataArg: string = fileURLToPath(new URL('../../shared/data', import.meta.url))): string {
  for (const d of [join(dataArg, 'aspects'), dataArg]) if (existsSync(join(d, ASPECT_SETS[0].file))) return d
  console.error(`no SemEval-2014 aspect files (${ASPECT_SETS.map((s) => s.file).join(', ')}) in ${dataArg} or ${dataArg}/aspects`)
  process.exit(1)
}

/** Read, annotate and featurise one set. Texts repeated for several aspects are annotated once. */
export function readAspectSet(file: string): AspectItem[] {
  const annotate = createSafeAnnotate()
  const scorer = createSentimentScorer({ model: false, aspectModel: false })
  const lines = readFileSync(file, 'utf8').split(/\r?\n/)
  const cache = new Map<string, { evidence: AspectEvidence }>()
  const items: AspectItem[] = []
  for (let i = 0; i + 2 < lines.length + 1 && (lines[i] ?? '').trim() !== ''; i += 3) {
    const raw = (lines[i] ?? '').trim()
    const aspect = (lines[i + 1] ?? '').trim()
    const polarity = Number((lines[i + 2] ?? '').trim())
    if (![-1, 0, 1].includes(polarity)) throw new Error(`${file}:${i + 3}: polarity should be -1, 0 or 1, instead found ${lines[i + 2]}`)
    const at = raw.indexOf('$T$')
    const text = raw.replace('$T$', aspect)
    let entry = cache.get(text)
    if (entry === undefined) {
      const doc = annotate(text)
      const r = scorer.score(doc)
      entry = { evidence: { doc, phrases: r.phrases, contrastTokens: r.contrastTokens, sentenceScores: r.sentences.map((s) => s.sentiment_score) } }
      cache.set(text, entry)
    }
    const toks = entry.evidence.doc.tokens
    const inside = toks.filter((t) => t.start < at + aspect.length && t.end > at)
    if (inside.length === 0) throw new Error(`${file}:${i + 1}: no token at the aspect "${aspect}"`)
    const span = { tokenStart: inside[0]!.index, tokenEnd: inside[inside.length - 1]!.index + 1 }
    items.push({
      text,
      aspect,
      label: polarity + 1,
      evidence: entry.evidence,
      span,
      x: aspectFeatures(entry.evidence, span),
      sentence: entry.evidence.sentenceScores[toks[span.tokenStart]!.sentence] ?? 0,
    })
  }
  return items
}
