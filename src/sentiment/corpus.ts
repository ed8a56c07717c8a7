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

/**
 * TweetEval sentiment (Barbieri et al. 2020; SemEval-2017 Task 4A tweets) validation split, as in
 * `sentiment/tweeteval/` of the data folder: `val_text.txt` (one tweet a line) and `val_labels.txt`
 * (0 negative, 1 neutral, 2 positive). Only the validation split is read: the test split is the held-out judge.
 */
export const TWEETEVAL_FILES = { text: 'val_text.txt', labels: 'val_labels.txt' } as const

/**
 * The TweetEval folder next to the VADER files (`dir/tweeteval`) or under `dataDir/sentiment/tweeteval`; undefined
 * when absent.
 */
export function findTweetEvalDir(...dirs: readonly string[]): string | undefined {
  for (const d of dirs) {
    for (const c of [join(d, 'tweeteval'), join(d, 'sentiment', 'tweeteval')]) {
      if (existsSync(join(c, TWEETEVAL_FILES.text)) && existsSync(join(c, TWEETEVAL_FILES.labels))) return c
    }
  }
  return undefined
}

/**
 * Read the TweetEval validation tweets as rated texts: the class is mapped onto the VADER rating scale as
 * -2 (negative), 0 (neutral), +2 (positive), i.e. -0.5 / 0 / +0.5 once divided by 4, so that the ±0.05 rule
 * gives back the class. A label other than 0, 1, 2 or a count mismatch throws naming the file and line.
 */
export function readTweetEval(dir: string): RatedText[] {
  const texts = readFileSync(join(dir, TWEETEVAL_FILES.text), 'utf8').split('\n')
  const labels = readFileSync(join(dir, TWEETEVAL_FILES.labels), 'utf8').split('\n')
  while (labels.length > 0 && (labels[labels.length - 1] ?? '').trim() === '') labels.pop()
  if (texts.length < labels.length) throw new Error(`${TWEETEVAL_FILES.text}: ${texts.length} lines, but ${TWEETEVAL_FILES.labels} has ${labels.length} labels`)
  return labels.map((l, i) => {
    const y = l.trim()
    if (y !== '0' && y !== '1' && y !== '2') throw new Error(`${TWEETEVAL_FILES.labels}:${i + 1}: expected 0, 1 or 2, instead found "${l.slice(0, 20)}"`)
    return { id: `tweeteval-val-${i + 1}`, mean: (Number(y) - 1) * 2, text: texts[i] ?? '' }
  })
}
