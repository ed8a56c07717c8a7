/**
 * Universal Dependencies tags (what wink-nlp produces) mapped to the contract's normalized POS type
 * names. Proper nouns count as nouns and auxiliaries as verbs, so a `pos_types` filter of
 * "Noun,Verb" keeps them, as a reader of the filter would expect.
 */
export const POS_TYPES: Readonly<Record<string, string>> = Object.freeze({
  NOUN: 'Noun',
  PROPN: 'Noun',
  VERB: 'Verb',
  AUX: 'Verb',
  ADJ: 'Adjective',
  ADV: 'Adverb',
  PRON: 'Pronoun',
  DET: 'Determiner',
  ADP: 'Preposition',
  CCONJ: 'Conjunction',
  SCONJ: 'Conjunction',
  NUM: 'Numeral',
  PART: 'Particle',
  INTJ: 'Interjection',
  SYM: 'Symbol',
  PUNCT: 'Punctuation',
  X: 'Misc',
  SPACE: 'Misc',
})

/** Every type name a `pos_types` filter may list (plus "All"). */
export const POS_TYPE_NAMES: readonly string[] = Object.freeze([...new Set(Object.values(POS_TYPES))])

/** The normalized type of a UD tag. */
export function posType(tag: string): string {
  return POS_TYPES[tag] ?? 'Misc'
}

/**
 * Parse a `pos_types` setting into the set of lower-cased type names to keep, or undefined for all.
 * Unknown names are rejected when the configuration is stored, so here they are simply ignored.
 */
export function posFilter(setting: string | undefined): ReadonlySet<string> | undefined {
  if (setting === undefined || setting.trim() === '') return undefined
  const names = setting.split(',').map((s) => s.trim().toLowerCase()).filter((s) => s !== '')
  if (names.length === 0 || names.includes('all')) return undefined
  return new Set(names)
}
