/**
 * Gazetteer file format (`lexicons/en/ner/gazetteer.tsv`): one phrase a line, `phrase<TAB>class`,
 * phrases lower-cased with tokens separated by one space (tokenised like CoNLL/wink: "st. louis",
 * "u.s."); `#` starts a comment line. Classes are short names such as `country`, `city`, `first`.
 */
import type { Gazetteer } from './features.ts'

/** Parse a gazetteer TSV. Throws naming the line when a line has no class. */
export function readGazetteer(tsv: string, source = 'gazetteer'): Gazetteer {
  const phrases = new Map<string, string>()
  const prefixes = new Set<string>()
  let maxTokens = 0
  const lines = tsv.split(/\r?\n/)
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? ''
    if (line === '' || line.startsWith('#')) continue
    const tab = line.indexOf('\t')
    if (tab <= 0 || tab === line.length - 1) {
      throw new Error(`${source}:${i + 1}: expected "phrase<TAB>class", instead found ${JSON.stringify(line.slice(0, 80))}`)
    }
    const phrase = line.slice(0, tab).toLowerCase()
    const cls = line.slice(tab + 1)
    // The first class listed for a phrase wins (the file is sorted by class priority).
    if (!phrases.has(phrase)) phrases.set(phrase, cls)
    const words = phrase.split(' ')
    maxTokens = Math.max(maxTokens, words.length)
    for (let n = 1; n <= words.length; n++) prefixes.add(words.slice(0, n).join(' '))
  }
  return { phrases, maxTokens, prefixes }
}
