/**
 * Readers for the labelled sentiment corpora used by the training and evaluation scripts (the VADER
 * ground truth files: `id<TAB>mean<TAB>text`, CRLF, mean rating of 20 raters on -4..+4).
 */
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'

/** One rated text. */
export interface RatedText {
  readonly id: string
  /** Mean human rating, -4..+4. */
  readonly mean: number
  readonly text: string
}

/** The corpora of the VADER ground truth, by name, with their file names. */
export const VADER_CORPORA = [
  { name: 'tweets', file: 'tweets_GroundTruth.txt' },
  { name: 'movie reviews', file: 'movieReviewSnippets_GroundTruth.txt' },
] as const

/** Parse a ground-truth file; a malformed line throws naming the file and line. */
export function parseGroundTruth(text: string, file: string): RatedText[] {
  const out: RatedText[] = []
  const lines = text.split(/\r?\n/)
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? ''
    if (line.trim() === '') continue
    const a = line.indexOf('\t')
    const b = a < 0 ? -1 : line.indexOf('\t', a + 1)
    const mean = b < 0 ? NaN : Number(line.slice(a + 1, b))
    if (b < 0 || !Number.isFinite(mean) || mean < -4 || mean > 4) {
      throw new Error(`${file}:${i + 1}: expected "id<TAB>mean(-4..4)<TAB>text", instead found "${line.slice(0, 60)}"`)
    }
    out.push({ id: line.slice(0, a), mean, text: line.slice(b + 1) })
  }
  return out
}

/**
 * Find the folder holding the ground-truth files: `dir` itself or `dir/sentiment`. Returns undefined
 * when neither holds them.
 */
export function findSentimentDir(dir: string): string | undefined {
  for (const d of [dir, join(dir, 'sentiment')]) {
    if (VADER_CORPORA.every((c) => existsSync(join(d, c.file)))) return d
  }
  return undefined
}

/** Read every VADER corpus from `dir` (as found by {@link findSentimentDir}). */
export function readVaderCorpora(dir: string): Array<{ name: string; items: RatedText[] }> {
  return VADER_CORPORA.map((c) => ({ name: c.name, items: parseGroundTruth(readFileSync(join(dir, c.file), 'utf8'), c.file) }))
}
