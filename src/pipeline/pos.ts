import type { AnnotatedDocument, LowerCaseTag, Token } from '../nlp/types.ts'
import { isTitleSentence } from '../entities/features.ts'
import { POSSESSIVE_DETERMINERS } from '../nlp/determiners.ts'

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

/**
 * Verbs whose base form opens an action item in reviews, offers and mail ("Book early", "Check out our new menu!",
 * "Call me"). wink's tagger, trained on running text, reads many of them as a noun or a proper noun when they open
 * a sentence with a capital; only a word of this list is read as a verb there.
 */
const IMPERATIVE_VERBS: ReadonlySet<string> = new Set(`
  add allow apply ask avoid bear beat book borrow bring browse buy call cancel catch celebrate change check choose
  claim clean click close come compare complete confirm consider contact continue cook copy count create cut dance
  delete deliver discover do donate download drink drive drop eat email enjoy enter escape experience explore fill
  find fix follow forget forward get give go grab head help hold hurry imagine include install invite join keep
  leave let like listen look love make mark meet message mind miss move note notice open order pack park pay pick
  plan play please post prepare press print protect pull push put read reach register relax remember remove rent
  reply report request reserve rest return review ring run save say schedule see select sell send share shop show
  sign sit skip sleep speak start stay stop subscribe swim switch take talk taste tell test text think try turn
  unlock update upgrade use visit vote wait wake walk watch wear win write`.trim().split(/\s+/))

/** Tags after which a sentence-opening word of {@link IMPERATIVE_VERBS} reads as a verb ("Book early", "Call me"). */
const AFTER_IMPERATIVE: ReadonlySet<string> = new Set(['PRON', 'DET', 'ADP', 'ADV', 'PART', 'ADJ', 'PUNCT', 'NUM', 'CCONJ', 'SCONJ', 'INTJ'])
/** Sentence openers that may stand before an imperative ("Please call", "Just check"). */
const IMPERATIVE_OPENERS: ReadonlySet<string> = new Set(['please', 'kindly', 'just', 'always', 'never', 'now', 'so', 'then', 'and'])
/** Pronoun contractions wink keeps as one token ("I'm", "I’m"). */
const PRONOUN_CONTRACTION = /^(i|you|we|they|he|she|it|that|there|here|what|who|where)['\u2019](m|re|ve|ll|d|s)$/i
/** Verbs that take a bare infinitive after their object ("let the dog run"): a noun then a base verb is a clause. */
const BARE_INFINITIVE_TAKERS: ReadonlySet<string> = new Set(['let', 'make', 'help', 'see', 'watch', 'hear', 'have', 'feel', 'bid'])
const CAPITALISED = /^\p{Lu}\p{Ll}/u
/** Tags that can open the object of a verb. */
const OBJECT_TAGS: ReadonlySet<string> = new Set(['DET', 'PRON', 'PROPN', 'NUM', 'NOUN', 'ADJ'])
/** Nouns of time that follow a noun phrase as adverbs ("the security update today"). */
const TIME_WORDS: ReadonlySet<string> = new Set(['today', 'tonight', 'tomorrow', 'yesterday', 'now', 'again'])

type MutableToken = { -readonly [K in keyof Token]: Token[K] }

/**
 * Correct the systematic errors of wink's tagger in place (a post-tagger over its tags), sentence by sentence:
 *
 * - a capitalised, uninflected word right after a proper noun, inside the sentence, continues the name
 *   ("Tim Cook": Cook is PROPN, not VERB);
 * - a base-form "verb" right after a singular common noun that follows a determiner, adjective, possessive or
 *   number, and before no object, is the head of a noun compound ("a software update": update is NOUN);
 * - a pronoun contraction wink keeps whole ("I'm") is a pronoun, never a proper noun (so it is no theme);
 * - a sentence-opening word of a list of common imperative verbs, tagged noun or proper noun, is a verb when
 *   what follows cannot continue a noun phrase ("Book early", "Check out our new menu!", "Call me", "Visit
 *   www.acme.com").
 *
 * Deterministic and local: each rule reads the tags of the words around one word.
 */
export function refineTags(doc: AnnotatedDocument): void {
  const tokens = doc.tokens as MutableToken[]
  for (const s of doc.sentences) {
    const words: MutableToken[] = []
    for (let i = s.tokenStart; i < s.tokenEnd; i++) {
      const t = tokens[i]!
      if (t.kind !== 'tabCRLF') words.push(t)
    }
    // Sentence-opening imperatives.
    let k = 0
    while (k < words.length - 1 && IMPERATIVE_OPENERS.has(words[k]!.normal) && words[k]!.kind === 'word') k++
    const first = words[k]
    if (first !== undefined && first.kind === 'word' && (first.pos === 'NOUN' || first.pos === 'PROPN') && IMPERATIVE_VERBS.has(first.normal)) {
      const next = words[k + 1]
      // Punctuation only when it ends the sentence ("Enjoy!", not "Check-in was slow"); a web or e-mail address is
      // an object ("Visit www.acme.com/pricing", which wink tags PROPN then SYM).
      const ok = next === undefined || next.kind === 'url' || next.kind === 'email' ||
        (next.pos === 'PUNCT' ? /^[.!]+$/.test(next.text) : AFTER_IMPERATIVE.has(next.pos))
      if (ok) {
        first.pos = 'VERB'
        first.lemma = first.normal
      }
    }
    for (let j = 0; j < words.length; j++) {
      const t = words[j]!
      if (t.kind !== 'word') continue
      if (PRONOUN_CONTRACTION.test(t.text)) {
        if (t.pos !== 'PRON') t.pos = 'PRON'
        continue
      }
      const prev = words[j - 1]
      // Proper-noun sequences.
      if (j > 0 && (t.pos === 'VERB' || t.pos === 'NOUN' || t.pos === 'ADJ') && CAPITALISED.test(t.text) && t.lemma === t.normal &&
        prev !== undefined && prev.pos === 'PROPN' && CAPITALISED.test(prev.text) && t.spaceBefore && !t.isStopWord) {
        t.pos = 'PROPN'
        continue
      }
      // Noun compounds: DET/ADJ/PRON/NUM + NOUN + base-form VERB with no object after it.
      if (t.pos === 'VERB' && t.lemma === t.normal && !t.normal.endsWith('ing') && prev !== undefined && prev.pos === 'NOUN' &&
        prev.lemma === prev.normal && !/\p{Lu}/u.test(t.text.slice(1))) {
        const before = words[j - 2]
        const next = words[j + 1]
        const opener = before !== undefined && (before.pos === 'DET' || before.pos === 'ADJ' || before.pos === 'NUM' || (before.pos === 'PRON' && POSSESSIVE_DETERMINERS.has(before.normal)))
        const beforeOpener = words[j - 3]
        const clause = beforeOpener !== undefined && BARE_INFINITIVE_TAKERS.has(beforeOpener.lemma)
        // An object after it makes it a verb ("profit beat analysts' estimates"); a time word does not ("update today").
        const objectFollows = next !== undefined && (OBJECT_TAGS.has(next.pos) || next.normal === 'to') && !TIME_WORDS.has(next.normal)
        if (opener && !clause && !objectFollows) {
          t.pos = 'NOUN'
          t.lemma = t.normal
        }
      }
    }
  }
}

/** Negation cues: after one, the negated phrase starts. */
const NEGATORS: ReadonlySet<string> = new Set(['not', 'no', 'never', 'without', 'nor', 'neither', 'nothing', 'nobody', 'none', 'cannot', "n't"])
/** Words between a cue and the head of the negated phrase ("not very clean", "not a good hotel", "never been"). */
const SCOPE_MODIFIERS: ReadonlySet<string> = new Set(['ADV', 'AUX', 'PART', 'DET'])

/**
 * Negation scope of the tokens `from` to `to` (a sentence): for each token, whether it lies in a negated phrase.
 * The scope starts after a negation cue and stops at the head of the negated phrase: a verb ("Do not send another
 * email": send only), an adjective or adverb phrase ("not very clean": very, clean), or a noun phrase after a
 * nominal cue or an article ("no hot water", "not a good hotel": through the head noun and its compound). wink's
 * flag, by contrast, runs to the end of the clause.
 */
export function negationScope(doc: AnnotatedDocument, from: number, to: number): boolean[] {
  const out = new Array<boolean>(to - from).fill(false)
  for (let i = from; i < to; i++) {
    const cue = doc.tokens[i]!
    if (!NEGATORS.has(cue.normal) && cue.text.toLowerCase() !== "n't") continue
    const nominal = cue.normal === 'no' || cue.normal === 'without' || cue.normal === 'neither' || cue.normal === 'nor'
    let nounPhrase = nominal
    let j = i + 1
    for (; j < to; j++) {
      const t = doc.tokens[j]!
      if (t.kind !== 'word' || NEGATORS.has(t.normal)) break
      if (SCOPE_MODIFIERS.has(t.pos)) {
        if (t.pos === 'DET') nounPhrase = true
        out[j - from] = true
        continue
      }
      if (t.pos === 'VERB') {
        out[j - from] = true
        j++
        break
      }
      if (t.pos === 'ADJ' || t.pos === 'NUM') {
        out[j - from] = true
        if (nounPhrase) continue
        j++
        break
      }
      if (t.pos === 'NOUN' || t.pos === 'PROPN') {
        out[j - from] = true
        // A compound runs on while nouns follow ("no hot water heater").
        while (j + 1 < to && (doc.tokens[j + 1]!.pos === 'NOUN' || doc.tokens[j + 1]!.pos === 'PROPN') && doc.tokens[j + 1]!.kind === 'word') {
          j++
          out[j - from] = true
        }
        j++
        break
      }
      // Pronouns and prepositions end the phrase without being negated ("not for me").
      break
    }
    i = j - 1
  }
  return out
}

/** A capitalised word written in lower case elsewhere ("Clean", "Rooms"; not "iPhone", "NASA" or "I"). */
const TITLE_WORD = /^\p{Lu}\p{Ll}+$/u

/**
 * Capitalised common words that wink tags as proper nouns for their capital alone:
 * - every capitalised word of a title-case headline ("Friendly Staff, Clean Rooms And A Great Breakfast", "Bellagio Is
 *   Simply The Best"), which made "Clean Rooms" read as a name rather than rooms that are clean;
 * - the first word of another sentence, tagged a proper noun, not before another capitalised proper noun ("Perfect!",
 *   "Excellent views", not "Tim Cook"), which made "perfect" a theme; a word alone in its sentence ("Amazing!") is tried
 *   even when `lowerWords` lacks it.
 * For each sentence with such words of `lowerWords` (words running text writes in lower case) or written in lower case
 * elsewhere in the same text ("Rude Staff" above "the staff were rude"; {@link isTitleSentence} decides what is a
 * headline), annotate a copy of the sentence with them in lower case and record the copy's tag and
 * lemma of those words as the document's `lowerCaseTags`: all of them in a headline, the first word only where the copy
 * makes it no noun (nouns read as before: "Breakfast was cold"; "Banks", a name too, stays as it was). The tokens
 * themselves are left as they are; only the theme candidates and facets read these. A copy that does not split into the
 * same tokens is ignored, as is one the annotator fails on.
 */
export function tagLowerCaseReadings(doc: AnnotatedDocument, annotate: (text: string) => AnnotatedDocument, lowerWords: ReadonlySet<string>): void {
  let tags: Map<number, LowerCaseTag> | undefined
  // Words this text itself writes in lower case ("the staff were rude" below a title "Rude Staff"), read once when needed.
  let ownLower: Set<string> | undefined
  const writtenLower = (w: string): boolean => {
    if (ownLower === undefined) {
      ownLower = new Set()
      for (const t of doc.tokens) if (t.kind === 'word' && t.text === t.normal && /^\p{Ll}+$/u.test(t.text)) ownLower.add(t.text)
    }
    return ownLower.has(w)
  }
  const lowerable = (t: Token): boolean => {
    if (t.kind !== 'word' || !TITLE_WORD.test(t.text)) return false
    const w = t.text.toLowerCase()
    return lowerWords.has(w) || writtenLower(w)
  }
  for (const s of doc.sentences) {
    let capitals = 0
    for (let i = s.tokenStart; i < s.tokenEnd && capitals < 3; i++) if (TITLE_WORD.test(doc.tokens[i]!.text)) capitals++
    const headline = capitals >= 3 && isTitleSentence(doc.tokens.slice(s.tokenStart, s.tokenEnd).map((t) => t.text))
    let lowered: Token[]
    if (headline) lowered = doc.tokens.slice(s.tokenStart, s.tokenEnd).filter(lowerable)
    else {
      let k = s.tokenStart
      while (k < s.tokenEnd && doc.tokens[k]!.kind !== 'word') k++
      const first = k < s.tokenEnd ? doc.tokens[k] : undefined
      const next = first === undefined ? undefined : doc.tokens[first.index + 1]
      const nameFollows = next !== undefined && next.sentence === s.index && next.pos === 'PROPN' && /^\p{Lu}/u.test(next.text)
      // A word that is its whole sentence ("Amazing!", "Superb.") is tried whatever the list says: few names stand so.
      const alone = next === undefined || next.sentence !== s.index || /^[.!?\u2026]+$/.test(next.text)
      lowered = first !== undefined && first.pos === 'PROPN' && TITLE_WORD.test(first.text) && (alone || lowerable(first)) && !nameFollows ? [first] : []
    }
    if (lowered.length === 0) continue
    const chars = doc.text.slice(s.start, s.end).split('')
    for (const t of lowered) chars[t.start - s.start] = chars[t.start - s.start]!.toLowerCase()
    let copy: AnnotatedDocument
    try {
      copy = annotate(chars.join(''))
    } catch {
      continue
    }
    if (copy.tokens.length !== s.tokenEnd - s.tokenStart || copy.tokens.some((c, k) => c.text.toLowerCase() !== doc.tokens[s.tokenStart + k]!.text.toLowerCase())) continue
    for (const t of lowered) {
      const c = copy.tokens[t.index - s.tokenStart]!
      if (!headline && (c.pos === 'NOUN' || c.pos === 'PROPN')) continue
      tags ??= new Map()
      tags.set(t.index, { pos: c.pos, lemma: c.lemma.toLowerCase(), headline })
    }
  }
  if (tags !== undefined) (doc as { lowerCaseTags?: ReadonlyMap<number, LowerCaseTag> }).lowerCaseTags = tags
}
