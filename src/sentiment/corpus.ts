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

/**
 * The SemEval-2014 Task 4 aspect-term training sets (restaurants and laptops; research use), as the data folder's
 * `aspects/` holds them: three lines per aspect item, the sentence with `$T$` where the aspect stands, the aspect term,
 * its polarity -1/0/1 (see {@link parseAspectItems}).
 */
export const ASPECT_SETS = [
  { name: 'restaurants', file: 'Restaurants_Train.xml.seg' },
  { name: 'laptops', file: 'Laptops_Train.xml.seg' },
] as const

/**
 * The SemEval-2014 aspect-term TEST sets in the same `.seg` format (as github.com/songyouwei/ABSA-PyTorch distributes them,
 * `datasets/semeval14/`): held out from every model and table of the engine.
 */
export const ASPECT_TEST_SETS = [
  { name: 'restaurants', file: 'Restaurants_Test_Gold.xml.seg', id: 'restaurants-test' },
  { name: 'laptops', file: 'Laptops_Test_Gold.xml.seg', id: 'laptops-test' },
] as const

/** The files of {@link ASPECT_SETS}, whose sentences {@link readReviewSentences} reads. */
export const REVIEW_SENTENCE_FILES: readonly string[] = ASPECT_SETS.map((s) => s.file)

/** The folder of {@link REVIEW_SENTENCE_FILES} among `dirs` or their `aspects/` folders; undefined when absent. */
export function findReviewSentenceDir(...dirs: readonly string[]): string | undefined {
  for (const d of dirs) {
    for (const c of [d, join(d, 'aspects')]) if (REVIEW_SENTENCE_FILES.every((f) => existsSync(join(c, f)))) return c
  }
  return undefined
}

/** One aspect item of a `.seg` file (see {@link parseAspectItems}). */
export interface AspectLine {
  /** The sentence with the aspect in place of `$T$`. */
  readonly sentence: string
  readonly aspect: string
  /** Where the aspect starts in `sentence` (characters). */
  readonly at: number
  /** -1, 0 or 1. */
  readonly polarity: number
  /** The item's first line, from 1. */
  readonly line: number
}

/**
 * The aspect items of a `.seg` file's text (three trimmed lines per item: the sentence with `$T$`, the aspect, the
 * polarity). A polarity other than -1, 0, 1 or a short last item throws naming `where` (the file) and the line.
 */
export function parseAspectItems(text: string, where: string): AspectLine[] {
  const lines = text.split(/\r?\n/)
  while (lines.length > 0 && (lines[lines.length - 1] ?? '').trim() === '') lines.pop()
  if (lines.length % 3 !== 0) throw new Error(`${where}: ${lines.length} lines, expected three per item (sentence, aspect, polarity)`)
  const items: AspectLine[] = []
  for (let i = 0; i < lines.length; i += 3) {
    const raw = (lines[i] ?? '').trim()
    const aspect = (lines[i + 1] ?? '').trim()
    const y = (lines[i + 2] ?? '').trim()
    if (y !== '-1' && y !== '0' && y !== '1') throw new Error(`${where}:${i + 3}: expected the polarity -1, 0 or 1, instead found "${y.slice(0, 20)}"`)
    items.push({ sentence: raw.replace('$T$', aspect), aspect, at: raw.indexOf('$T$'), polarity: Number(y), line: i + 1 })
  }
  return items
}

/**
 * Review sentences rated by their aspects, from `sets` of `dir` (by default {@link ASPECT_SETS}). A sentence (the items of one sentence give the same
 * text) is positive when an aspect of it is positive and none negative, negative the other way round, neutral when every
 * aspect is neutral, and left out when it praises one aspect and blames another. The class is mapped onto the VADER
 * scale as TweetEval's is (-2, 0, +2); `set` is the set's name, `id` `semeval14-<the set's id, else its name>-<n>`.
 */
export function readReviewSentences(
  dir: string,
  sets: readonly { readonly name: string; readonly file: string; readonly id?: string }[] = ASPECT_SETS,
): { items: (RatedText & { readonly set: string })[]; mixed: number } {
  const items: (RatedText & { readonly set: string })[] = []
  let mixed = 0
  for (const { name, file, id } of sets) {
    const bySentence = new Map<string, number[]>()
    for (const it of parseAspectItems(readFileSync(join(dir, file), 'utf8'), join(dir, file))) {
      let polarities = bySentence.get(it.sentence)
      if (polarities === undefined) bySentence.set(it.sentence, (polarities = []))
      polarities.push(it.polarity)
    }
    let n = 0
    for (const [text, polarities] of bySentence) {
      n++
      const positive = polarities.some((y) => y > 0)
      const negative = polarities.some((y) => y < 0)
      if (positive && negative) {
        mixed++
        continue
      }
      items.push({ id: `semeval14-${id ?? name}-${n}`, mean: positive ? 2 : negative ? -2 : 0, text, set: name })
    }
  }
  return { items, mixed }
}

/**
 * The SemEval 2013-2016 Task 4A (Twitter, message polarity) labelled tweets: the data TweetEval's sentiment TRAIN and
 * validation splits were drawn from (TweetEval's test split is the SemEval-2017 test set, which none of these files
 * holds). The copy read is the one downloaded by the DataStories team (Baziotis et al., SemEval-2017;
 * github.com/cbaziotis/datastories-semeval2017-task4, `dataset/Subtask_A/downloaded/`), one tweet a line:
 * `id<TAB>positive|neutral|negative<TAB>text`, non-ASCII characters written as `\uXXXX`. Twitter's terms apply
 * (the tweets' authors keep their rights); the organisers released them for research.
 */
export const SEMEVAL_TWEET_FILES = [
  'twitter-2013train-A.tsv',
  'twitter-2013dev-A.tsv',
  'twitter-2013test-A.tsv',
  'twitter-2014sarcasm-A.tsv',
  'twitter-2014test-A.tsv',
  'twitter-2015train-A.tsv',
  'twitter-2015test-A.tsv',
  'twitter-2016train-A.tsv',
  'twitter-2016dev-A.tsv',
  'twitter-2016devtest-A.tsv',
  'twitter-2016test-A.tsv',
] as const

/** The folder holding every {@link SEMEVAL_TWEET_FILES} among `dirs` (each itself or its `semeval-2013-2016/`). */
export function findSemEvalDir(...dirs: readonly string[]): string | undefined {
  for (const d of dirs) {
    for (const c of [d, join(d, 'semeval-2013-2016'), join(d, 'sentiment', 'semeval-2013-2016')]) {
      if (SEMEVAL_TWEET_FILES.every((f) => existsSync(join(c, f)))) return c
    }
  }
  return undefined
}

/**
 * A tweet as TweetEval publishes it: `\uXXXX` and `\n` escapes decoded, user mentions written `@user`, web addresses
 * removed, runs of white space made one space, trimmed.
 */
export function tweetEvalForm(raw: string): string {
  return raw
    .replace(/\\u([0-9a-fA-F]{4})/g, (_, h: string) => String.fromCharCode(parseInt(h, 16)))
    .replace(/\\n/g, ' ')
    .replace(/@\w+/g, '@user')
    .replace(/https?:\/\/\S+/g, '')
    .replace(/\s+/g, ' ')
    .trim()
}

/** Key that matches the same tweet across copies: lower case, letters and digits only. */
export function tweetKey(text: string): string {
  return tweetEvalForm(text).toLowerCase().replace(/@user/g, '').replace(/[^\p{L}\p{N}]+/gu, '')
}

/**
 * Read the SemEval 2013-2016 tweets (see {@link SEMEVAL_TWEET_FILES}) in TweetEval's form, rated as
 * {@link readTweetEval} rates them (-2 / 0 / +2). A tweet is kept once (the first file, in the order above, wins),
 * and left out when its key is in `exclude` (the TweetEval validation tweets, so that split stays held out) or when
 * its copies disagree on the label. A malformed line throws naming the file and line.
 */
export function readSemEvalTweets(dir: string, exclude: ReadonlySet<string> = new Set()): { items: RatedText[]; duplicates: number; excluded: number; conflicting: number } {
  const label: Record<string, number> = { negative: -2, neutral: 0, positive: 2 }
  const seen = new Map<string, number>()
  const items: Array<RatedText | undefined> = []
  let duplicates = 0
  let excluded = 0
  for (const f of SEMEVAL_TWEET_FILES) {
    const lines = readFileSync(join(dir, f), 'utf8').split('\n')
    lines.forEach((line, i) => {
      if (line.trim() === '') return
      const [id, y, ...rest] = line.split('\t')
      const mean = label[(y ?? '').trim()]
      if (id === undefined || mean === undefined || rest.length === 0) throw new Error(`${f}:${i + 1}: expected "id<TAB>positive|neutral|negative<TAB>text", instead found "${line.slice(0, 60)}"`)
      let text = tweetEvalForm(rest.join(' '))
      if (text.length > 1 && text.startsWith('"') && text.endsWith('"') && !text.slice(1, -1).includes('"')) text = text.slice(1, -1).trim()
      const key = tweetKey(text)
      if (key === '') return
      if (exclude.has(key)) {
        excluded++
        return
      }
      const at = seen.get(key)
      if (at !== undefined) {
        duplicates++
        const first = items[at]
        if (first !== undefined && first.mean !== mean) items[at] = undefined
        return
      }
      seen.set(key, items.length)
      items.push({ id: `semeval-${f.replace(/-A\.tsv$/, '')}-${id}`, mean, text })
    })
  }
  const kept = items.filter((x): x is RatedText => x !== undefined)
  return { items: kept, duplicates, excluded, conflicting: items.length - kept.length }
}
