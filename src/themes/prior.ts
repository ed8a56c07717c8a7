import { readFileSync } from 'node:fs'
import { ownString } from '../own-string.ts'
import { dataPath, missingDataHint } from '../resources.ts'
import { LexiconError } from '../sentiment/lexicon.ts'

/**
 * Keyphraseness of words (`en/theme-word-prior.tsv`, written by `bench/train-themes.ts` from the even-numbered
 * documents of the development keyphrase sets): word stem -> log-odds, relative to all words, that a candidate
 * phrase holding the word is a key phrase, shrunk toward 0 for rare words (KEA's "keyphraseness", per word).
 * "method", "result", "paper" are below 0; "network", "algorithm", "protein" above. A stem the list lacks reads 0.
 */
export type ThemePrior = ReadonlyMap<string, number>

/** Parse the prior list (`stem<TAB>log-odds`, `#` comments); throws {@link LexiconError} naming a malformed line. */
export function parseThemePrior(text: string, name = 'theme-word-prior.tsv'): ThemePrior {
  const out = new Map<string, number>()
  const lines = text.split('\n')
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!.trim()
    if (line === '' || line.startsWith('#')) continue
    const [stem, value, extra] = line.split('\t')
    const v = Number(value)
    if (stem === undefined || stem === '' || extra !== undefined || value === undefined || !Number.isFinite(v)) {
      throw new LexiconError(`${name} line ${i + 1}: expected stem<TAB>log-odds, instead found ${JSON.stringify(line.slice(0, 60))}`)
    }
    // A copy of the stem (ownString): a long cut of the file text would keep the whole text alive.
    if (!out.has(stem)) out.set(ownString(stem), v)
  }
  return out
}

const cache = new Map<string, ThemePrior>()
/** Per `dataDir` argument: ranking calls this for every document, and resolving the folder costs file-system checks. */
const byArgument = new Map<string | undefined, ThemePrior>()

/** Load `en/theme-word-prior.tsv` from the data folder (see `resolveDataDir`), once per path. */
export function loadThemePrior(dataDir?: string): ThemePrior {
  const known = byArgument.get(dataDir)
  if (known !== undefined) return known
  const path = dataPath(dataDir, 'en', 'theme-word-prior.tsv')
  const hit = cache.get(path)
  if (hit !== undefined) {
    byArgument.set(dataDir, hit)
    return hit
  }
  let text: string
  try {
    text = readFileSync(path, 'utf8')
  } catch (e) {
    throw new LexiconError(`cannot read lexicon file ${path}: ${(e as Error).message} (${missingDataHint(dataDir)})`)
  }
  const prior = parseThemePrior(text)
  cache.set(path, prior)
  byArgument.set(dataDir, prior)
  return prior
}
