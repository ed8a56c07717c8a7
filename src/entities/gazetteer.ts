/**
 * Gazetteer file format (`lexicons/en/ner/gazetteer.tsv`): one phrase a line, `phrase<TAB>class`,
 * phrases lower-cased with tokens separated by one space (tokenised like CoNLL/wink: "st. louis",
 * "u.s."); `#` starts a comment line. Classes are short names such as `country`, `city`, `first`.
 */
import { createHash } from 'node:crypto'
import { ownString } from '../own-string.ts'
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
    // Copies of what is kept (ownString): a long cut of the file text would keep the whole text alive.
    const phrase = ownString(line.slice(0, tab).toLowerCase())
    if (!phrases.has(phrase)) phrases.set(phrase, ownString(value))
    // Every leading run of tokens: the phrase up to each space, then the whole phrase (as split(' ') and join(' ')
    // of the first n tokens give, without the arrays).
    let tokens = 1
    for (let sp = phrase.indexOf(' '); sp >= 0; sp = phrase.indexOf(' ', sp + 1)) {
      prefixes.add(phrase.slice(0, sp))
      tokens++
    }
    prefixes.add(phrase)
    maxTokens = Math.max(maxTokens, tokens)
  }
  return { phrases, maxTokens, prefixes }
}

/** Parse a gazetteer TSV (`phrase<TAB>class`; the file is sorted by class priority). Throws naming the line when a line has no class. */
export function readGazetteer(tsv: string, source = 'gazetteer'): Gazetteer {
  // The tagger and the entity lexicons each read the committed gazetteer when an engine first extracts entities:
  // the second read of the same text gets the same (read-only) tables instead of parsing the file again.
  // The text is known by its SHA-256, not kept: holding it here kept the 145 KB file text alive for good.
  const digest = createHash('sha256').update(tsv).digest('base64')
  const last = lastGazetteer !== undefined && lastGazetteer.digest === digest && lastGazetteer.source === source ? lastGazetteer.gazetteer.deref() : undefined
  if (last !== undefined) return last
  const gazetteer = readPhraseTable(tsv, source, 'class')
  lastGazetteer = { digest, source, gazetteer: new WeakRef(gazetteer) }
  return gazetteer
}

/** The last gazetteer parsed and the SHA-256 of its text; the tables are kept only while something (a tagger) holds them. */
let lastGazetteer: { readonly digest: string; readonly source: string; readonly gazetteer: WeakRef<Gazetteer> } | undefined
