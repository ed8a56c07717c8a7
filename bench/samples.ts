import { appendFileSync, existsSync, readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { Engine } from '../src/engine/types.ts'

/** The data folder: the first CLI argument, else `../shared/data` beside the repository. */
export function dataDir(arg: string | undefined = process.argv[2]): string {
  const dir = arg ?? resolve(fileURLToPath(new URL('..', import.meta.url)), '..', 'shared', 'data')
  if (!existsSync(dir)) {
    process.stderr.write(`data folder not found: ${dir}\nusage: npm run bench -- <data dir>\n`)
    process.exit(2)
  }
  return dir
}

/**
 * The sample texts of `<data>/samples`: one document per line of the .txt files and the `Message`
 * column of tweets.tsv, cut to the contract's 2,048 characters.
 */
export function loadSamples(dir: string): { name: string; texts: string[] }[] {
  const s = join(dir, 'samples')
  const lines = (f: string): string[] =>
    readFileSync(join(s, f), 'utf8').split(/\r?\n/).map((l) => l.trim()).filter((l) => l !== '')
  const cut = (t: string): string => t.slice(0, 2048)
  const sets = ['short-texts.txt', 'hotel-reviews.txt', 'news-articles.txt'].map((f) => ({
    name: f.replace(/\.txt$/, ''),
    texts: lines(f).map(cut),
  }))
  const tweets = lines('tweets.tsv').slice(1).map((l) => cut(l.split('\t').at(-1) ?? ''))
  sets.push({ name: 'tweets', texts: tweets.filter((t) => t !== '') })
  return sets
}

/**
 * The three sets the speed benchmarks report (tweets, hotel reviews, news), each cut to `BENCH_DOCS` texts
 * when that is set (`npm run bench -- --docs N`).
 */
export function benchSets(dir: string): { name: string; texts: string[] }[] {
  const all = loadSamples(dir)
  const cap = Number(process.env['BENCH_DOCS'] ?? Infinity)
  const pick = (file: string, name: string): { name: string; texts: string[] } => {
    const set = all.find((s) => s.name === file)
    if (set === undefined) throw new Error(`sample set ${file} missing in ${dir}/samples`)
    return { name, texts: set.texts.slice(0, Number.isFinite(cap) && cap > 0 ? cap : set.texts.length) }
  }
  return [pick('tweets', 'tweets'), pick('hotel-reviews', 'reviews'), pick('news-articles', 'news')]
}

/** The median of `xs` (the mean of the middle two for an even count). */
export function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b)
  const m = s.length >> 1
  return s.length % 2 === 1 ? s[m]! : (s[m - 1]! + s[m]!) / 2
}

/** One figure of a benchmark, for `bench/run.ts`'s comparison with bench/baseline.json. */
export interface BenchFigure {
  readonly key: string
  readonly value: number
  readonly unit: string
  /** Whether a larger value is an improvement. */
  readonly higherIsBetter: boolean
}

/** Record a figure (appended to the file named by `BENCH_RESULTS`, when set; `bench/run.ts` sets it). */
export function record(key: string, value: number, unit: string, higherIsBetter: boolean): void {
  const file = process.env['BENCH_RESULTS']
  if (file === undefined || !Number.isFinite(value)) return
  const figure: BenchFigure = { key, value: Math.round(value * 1000) / 1000, unit, higherIsBetter }
  appendFileSync(file, JSON.stringify(figure) + '\n')
}

/** Peak resident set size of this process so far, in MiB (the kernel's high-water mark). */
export function peakRssMiB(): number {
  return process.resourceUsage().maxRSS / 1024
}

/**
 * The engine's own queue, as a client of the embedded library uses it: `texts` submitted in batches of 100 (ids
 * `<tag>-<n>`) to `account`, `drain()`, then `takeProcessedDocuments` until it hands back nothing; throws unless
 * every document came back (`bench/queue.ts`, `bench/http.ts`).
 */
export async function queueRoundTrip(engine: Engine, account: string, texts: readonly string[], tag: string): Promise<void> {
  const acct = engine.account(account)
  for (let i = 0; i < texts.length; i += 100) {
    await acct.submitDocuments(texts.slice(i, i + 100).map((text, j) => ({ id: `${tag}-${i + j}`, text })), { batch: true })
  }
  await engine.drain()
  let back = 0
  for (let got = await acct.takeProcessedDocuments({}); got.length > 0; got = await acct.takeProcessedDocuments({})) back += got.length
  if (back !== texts.length) throw new Error(`queued ${texts.length}, retrieved ${back}`)
}
