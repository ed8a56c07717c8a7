import { existsSync, readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'

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
