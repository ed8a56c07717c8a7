/**
 * Learns the theme score's weights (`DEFAULT_THEME_WEIGHTS` in src/themes/rank.ts) on the development keyphrase
 * sets: coordinate ascent over a fixed grid per weight, maximising the mean F1@10 (plus half the mean F1@5) of the
 * three sets, on the even-numbered documents of each set (in file-name order); the odd-numbered ones are printed
 * as a check on unseen documents. Deterministic: fixed grid, fixed order, ties keep the earlier value.
 * The held-out half of 500N-KPCrowd is not in the data folder and is never read.
 *
 * Run: `npx tsx bench/train-themes.ts [data dir]` (a few minutes; `TRAIN_LIMIT=n` reads the first n documents per set, default all); `--write` rewrites the defaults in
 * src/themes/rank.ts with the weights found.
 */
import { readFileSync, writeFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { createAnnotator } from '../src/nlp/annotate.ts'
import type { AnnotatedDocument } from '../src/nlp/types.ts'
import {
  DEFAULT_THEME_WEIGHTS,
  extractCandidates,
  keyThemes,
  loadBackground,
  themeTitle,
  type ThemeSpan,
  type ThemeWeights,
} from '../src/themes/index.ts'
import { dataDir } from './samples.ts'
import { KEYPHRASE_SETS, loadKeyphraseSet, meanF1, type KeyphraseDoc } from './keyphrase-data.ts'

const GRID: Record<keyof ThemeWeights, readonly number[]> = {
  lengthNorm: [-1, -0.75, -0.5, -0.25, 0, 0.25, 0.5, 0.75, 1],
  lengthNormPerLogTokens: [0, 0.2, 0.4, 0.6, 0.8, 1, 1.25, 1.5, 2, 2.5],
  phraseFrequency: [0, 0.3, 0.6, 1, 1.5, 2],
  phraseFrequencyPerLogTokens: [0, 1, 2, 4, 6],
  position: [0, 0.5, 1, 2, 4, 8],
  proper: [0, 0.25, 0.5, 1, 2],
  spread: [0, 0.3, 0.6, 1, 2],
  zipfCeiling: [5.5, 6, 7, 8, 10],
  specificity: [0.5, 1, 1.5, 2, 3],
  partOnly: [0.2, 0.35, 0.5, 0.7, 0.85, 1],
  nameZipf: [1.5, 2.5, 3.5, 4.5],
  partPhraseOnly: [0.1, 0.2, 0.35, 0.5, 0.7, 0.85, 1],
  singleOnce: [0.3, 0.5, 0.7, 0.85, 1],
  single: [0.3, 0.5, 0.7, 0.85, 1],
}

interface Prepared {
  readonly name: string
  readonly docs: KeyphraseDoc[]
  readonly annotated: AnnotatedDocument[]
  readonly candidates: ThemeSpan[][]
}

const dir = dataDir(process.argv.slice(2).find((a) => !a.startsWith('--')) ?? fileURLToPath(new URL('../../shared/data', import.meta.url)))
let annotator = createAnnotator()
const background = loadBackground()
const half = (parity: number): Prepared[] =>
  prepared.map((p) => {
    const keep = (_: unknown, i: number): boolean => i % 2 === parity
    return { name: p.name, docs: p.docs.filter(keep), annotated: p.annotated.filter(keep), candidates: p.candidates.filter(keep) }
  })
// At most this many documents per set (the first, in name order); default all.
const perSet = Number(process.env['TRAIN_LIMIT'] ?? Infinity)
const prepared: Prepared[] = KEYPHRASE_SETS.map((name) => {
  // A document the annotator fails on stays as an empty text (named on stderr), so that the even/odd halves
  // stay those of the file list that bench/eval-themes.ts reports.
  const docs = loadKeyphraseSet(dir, name, perSet)
  const annotated = docs.map((d) => {
    try {
      return annotator.annotate(d.text)
    } catch (e) {
      console.error(`${name} ${d.name}: annotation failed (${(e as Error).message}), read as an empty text`)
      annotator = createAnnotator()
      return annotator.annotate('')
    }
  })
  return { name, docs, annotated, candidates: annotated.map(extractCandidates) }
})

function scores(sets: readonly Prepared[], w: ThemeWeights): { f5: number[]; f10: number[] } {
  const f5: number[] = []
  const f10: number[] = []
  for (const s of sets) {
    const ranks = s.annotated.map((d, i) => keyThemes(d, background, 10, w, s.candidates[i]).map((t) => themeTitle(d, t.spans[0]!)))
    f5.push(meanF1(ranks, s.docs, 5))
    f10.push(meanF1(ranks, s.docs, 10))
  }
  return { f5, f10 }
}
const mean = (xs: readonly number[]): number => xs.reduce((a, b) => a + b, 0) / xs.length
const objective = (s: { f5: number[]; f10: number[] }): number => mean(s.f10) + 0.5 * mean(s.f5)

const train = half(0)
const check = half(1)
let best: ThemeWeights = { ...DEFAULT_THEME_WEIGHTS }
let bestScore = objective(scores(train, best))
console.log(`start ${bestScore.toFixed(4)}`)
for (let round = 0; round < 3; round++) {
  let improved = false
  for (const key of Object.keys(GRID) as (keyof ThemeWeights)[]) {
    for (const v of GRID[key]) {
      if (v === best[key]) continue
      const w = { ...best, [key]: v }
      const s = objective(scores(train, w))
      if (s > bestScore + 1e-9) {
        best = w
        bestScore = s
        improved = true
      }
    }
    console.log(`round ${round} ${key} = ${best[key]}  objective ${bestScore.toFixed(4)}`)
  }
  if (!improved) break
}
const show = (label: string, sets: readonly Prepared[], w: ThemeWeights): void => {
  const s = scores(sets, w)
  console.log(`${label.padEnd(28)} ` + sets.map((p, i) => `${p.name} F1@5 ${s.f5[i]!.toFixed(3)} F1@10 ${s.f10[i]!.toFixed(3)}`).join('  '))
}
show('defaults, even (train)', train, DEFAULT_THEME_WEIGHTS)
show('learned, even (train)', train, best)
show('defaults, odd (check)', check, DEFAULT_THEME_WEIGHTS)
show('learned, odd (check)', check, best)
const literal = `export const DEFAULT_THEME_WEIGHTS: ThemeWeights = {\n${Object.entries(best).map(([k, v]) => `  ${k}: ${v},`).join('\n')}\n}`
console.log(literal)
if (process.argv.includes('--write')) {
  const file = fileURLToPath(new URL('../src/themes/rank.ts', import.meta.url))
  const src = readFileSync(file, 'utf8')
  const next = src.replace(/export const DEFAULT_THEME_WEIGHTS: ThemeWeights = \{[^}]*\}/, literal)
  writeFileSync(file, next)
  console.log(`wrote ${file}`)
}
