import { readFileSync } from 'node:fs'
import { dataPath, missingDataHint } from '../resources.ts'
import { LexiconError } from '../sentiment/lexicon.ts'

/**
 * Background word frequencies (`en/word-frequency.tsv`, compiled by `bench/build-theme-background.ts` from
 * SUBTLEXus): lower-cased word -> zipf (log10 per billion words, 1.0 to 7.6). A word the list lacks is rarer
 * than any listed one.
 */
export type Background = ReadonlyMap<string, number>

/** Zipf of a word the background list does not hold: rarer than the rarest listed word. */
export const UNSEEN_ZIPF = 1.5

/** Parse the background list; throws {@link LexiconError} naming the line of a malformed entry. */
export function parseBackground(text: string, name = 'word-frequency.tsv'): Background {
  const out = new Map<string, number>()
  const lines = text.split('\n')
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!.trim()
    if (line === '' || line.startsWith('#')) continue
    // indexOf instead of split: no array per line (36k lines read on a cold start); same checks as split's columns.
    const tab = line.indexOf('\t')
    const word = tab < 0 ? line : line.slice(0, tab)
    const zipf = tab < 0 ? undefined : line.slice(tab + 1)
    const extra = zipf !== undefined && zipf.includes('\t') ? '' : undefined
    const z = Number(zipf)
    if (word === '' || extra !== undefined || zipf === undefined || !Number.isFinite(z)) {
      throw new LexiconError(`${name} line ${i + 1}: expected word<TAB>zipf, instead found ${JSON.stringify(line.slice(0, 60))}`)
    }
    if (!out.has(word)) out.set(word, z)
  }
  return out
}

/** Load `en/word-frequency.tsv` from the data folder (see `resolveDataDir`). */
export function loadBackground(dataDir?: string): Background {
  const path = dataPath(dataDir, 'en', 'word-frequency.tsv')
  let text: string
  try {
    text = readFileSync(path, 'utf8')
  } catch (e) {
    throw new LexiconError(`cannot read lexicon file ${path}: ${(e as Error).message} (${missingDataHint(dataDir)})`)
  }
  return parseBackground(text)
}
