/**
 * Gazetteer file format (`lexicons/en/ner/gazetteer.tsv`): one phrase a line, `phrase<TAB>class`,
 * phrases lower-cased with tokens separated by one space (tokenised like CoNLL/wink: "st. louis",
 * "u.s."); `#` starts a comment line. Classes are short names such as `country`, `city`, `first`.
 */
import type { Gazetteer } from './features.ts'

/**
 * Parse a `phrase<TAB>value` table (gazetteers and entity lexicons): phrases lower-cased, the first value
 * listed for a phrase wins, `#` starts a comment line, and every leading run of each phrase's tokens is
 * kept so that matching can stop early. A line without a phrase or a value, or (with `singleValue`) with
 * a third column, throws naming the line.
 */
export function readPhraseTable(tsv: string, source: string, valueName: string, singleValue = false): Gazetteer {
  const phrases = new Map<string, string>()
  const prefixes = new Set<string>()
  let maxTokens = 0
  const lines = tsv.split(/\r?\n/)
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? ''
    if (line === '' || line.startsWith('#')) continue
    const tab = line.indexOf('\t')
    const value = tab < 0 ? '' : line.slice(tab + 1)
    if (tab <= 0 || value === '' || (singleValue && value.includes('\t'))) {
      throw new Error(`${source}:${i + 1}: expected "phrase<TAB>${valueName}", instead found ${JSON.stringify(line.slice(0, 80))}`)
    }
    const phrase = line.slice(0, tab).toLowerCase()
    if (!phrases.has(phrase)) phrases.set(phrase, value)
    const words = phrase.split(' ')
    maxTokens = Math.max(maxTokens, words.length)
    for (let n = 1; n <= words.length; n++) prefixes.add(words.slice(0, n).join(' '))
  }
  return { phrases, maxTokens, prefixes }
}

/** Parse a gazetteer TSV (`phrase<TAB>class`; the file is sorted by class priority). Throws naming the line when a line has no class. */
export function readGazetteer(tsv: string, source = 'gazetteer'): Gazetteer {
  return readPhraseTable(tsv, source, 'class')
}
