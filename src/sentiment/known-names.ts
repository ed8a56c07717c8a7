/**
 * Known names that hold a sentiment word ("Super Bowl", "Supreme Court", "Grand Canyon", "Amazon", "Bad Bunny"):
 * the entity lexicons' companies, known entities and products (lexicons/en/ner/) whose phrase holds a word of the
 * sentiment lexicon. The scorer reads such a word as a word of a name wherever the name stands written as a name,
 * including where it opens its sentence, which the capitalisation rule of `inName` (scorer.ts) cannot tell from an
 * evaluation that opens a sentence ("Super Bowl tickets are on sale." against "Great service!").
 */
import { readPhraseTable } from '../entities/gazetteer.ts'
import { nerLexiconDir, readNerFile } from '../entities/tagger.ts'
import type { Token } from '../nlp/types.ts'

/** Known names by their first word: each name's words (lower case, as the tokenizer's `normal`), longest first. */
export type KnownNames = ReadonlyMap<string, readonly (readonly string[])[]>

/** Words of a name that stay lower case in it ("Statue of Liberty", "Securities and Exchange Commission"). */
const NAME_FUNCTION_WORDS: ReadonlySet<string> = new Set(['of', 'and', 'the', '&', 'de', 'for', 'on'])

/** Parts of speech after a one-word name that read it as a verb's imperative ("Marvel at", "Excel in your job"). */
const IMPERATIVE_OBJECT_POS: ReadonlySet<string> = new Set(['ADP', 'DET', 'PRON'])

/**
 * The known names of the entity lexicons (`companies.tsv`, `known-entities.tsv`, `products.tsv` under `dataDir`'s
 * `en/ner/`) that hold a key of `words`, the sentiment lexicon. Single words of the type Other ("FREE", "LOL": shouted
 * words the entity layer drops, evaluations all the same) are left out.
 */
export function loadKnownNames(words: { has(key: string): boolean }, dataDir?: string): KnownNames {
  const dir = nerLexiconDir(dataDir)
  const phrases: string[] = []
  for (const file of ['companies.tsv', 'products.tsv', 'known-entities.tsv']) {
    const table = readPhraseTable(readNerFile(file, dataDir).toString('utf8'), dir + file, file === 'known-entities.tsv' ? 'type<TAB>title' : 'title', file !== 'known-entities.tsv')
    table.phrases.forEach((value, phrase) => {
      const parts = phrase.split(' ')
      if (parts.length === 1 && value.startsWith('Other\t')) return
      if (parts.some((w) => words.has(w))) phrases.push(phrase)
    })
  }
  const byFirst = new Map<string, string[][]>()
  for (const phrase of [...new Set(phrases)].sort()) {
    const parts = phrase.split(' ')
    const list = byFirst.get(parts[0] as string) ?? []
    list.push(parts)
    byFirst.set(parts[0] as string, list)
  }
  for (const list of byFirst.values()) list.sort((a, b) => b.length - a.length || a.join(' ').localeCompare(b.join(' ')))
  return byFirst
}

/**
 * Token indices of `tokens` inside a known name written as a name: consecutive words of one sentence whose `normal`s
 * are the name's words, each capitalised but for lower-case function words inside it ("of", "and"); a one-word name
 * only where the tagger reads a proper noun in mixed case, not before a preposition, determiner or pronoun ("Amazon
 * said", not "Marvel at the view" nor "KIA").
 * The longest name starting at a token wins; names do not overlap.
 */
export function knownNameTokens(tokens: readonly Token[], names: KnownNames): Set<number> {
  const inside = new Set<number>()
  if (names.size === 0) return inside
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i] as Token
    const candidates = t.kind === 'word' && /^\p{Lu}/u.test(t.text) ? names.get(t.normal) : undefined
    if (candidates === undefined) continue
    for (const parts of candidates) {
      if (i + parts.length > tokens.length) continue
      let ok = true
      for (let k = 0; k < parts.length && ok; k++) {
        const w = tokens[i + k] as Token
        ok =
          w.normal === parts[k] &&
          w.sentence === t.sentence &&
          (/^\p{Lu}/u.test(w.text) || (k > 0 && k < parts.length - 1 && NAME_FUNCTION_WORDS.has(w.normal)))
      }
      // One word: a proper noun in mixed case, not a verb's imperative before its object ("Marvel at the view!").
      if (ok && parts.length === 1) ok = t.pos === 'PROPN' && /\p{Ll}/u.test(t.text) && !IMPERATIVE_OBJECT_POS.has(tokens[i + 1]?.pos ?? '')
      if (!ok) continue
      for (let k = 0; k < parts.length; k++) inside.add(i + k)
      i += parts.length - 1
      break
    }
  }
  return inside
}
