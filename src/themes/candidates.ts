import type { AnnotatedDocument, Token } from '../nlp/types.ts'
import { BATCH_DOCUMENTS, RecentCache } from '../nlp/recent-cache.ts'
import { NAME_PARTICLES } from '../nlp/name-particles.ts'
import { datelineWords } from '../nlp/datelines.ts'
import { POSSESSIVE_DETERMINERS } from '../nlp/determiners.ts'
import { ABBREVIATED_TITLES } from '../nlp/titles.ts'

/** One candidate theme occurrence: a noun phrase as a token range, with what ranking and facets need. */
export interface ThemeSpan {
  readonly tokenStart: number
  /** Exclusive. */
  readonly tokenEnd: number
  /** Lower-cased lemma form of the whole phrase ("friendly staff"); hyphenated words keep their hyphens. */
  readonly normalized: string
  /** Porter stems of the phrase's words, space-separated ("friendli staff"): the key occurrences are grouped by. */
  readonly stemmed: string
  /** Head noun's lemma ("staff"). */
  readonly head: string
  /** Lemmas of the adjectives in the phrase, then of predicative adjectives after it ("friendly"). */
  readonly attributes: readonly string[]
  /** Whether the head is a proper noun (a name: "Watkins Glen International", "iPhone 15 Pro"). */
  readonly isProper: boolean
  /** Per word of the phrase (hyphenated compounds are one word): lower-cased surface form. */
  readonly words: readonly string[]
  /** Per word: whether it is a proper noun. */
  readonly proper: readonly boolean[]
  /** Per word: whether it is an adjective-like modifier ("discrete", "distributed", "state-of-the-art"). */
  readonly adjective: readonly boolean[]
  /**
   * Whether this is a part of a longer noun phrase standing at the same place (a noun of "battery life", the name
   * of "Obama administration"): a candidate for ranking, not a phrase of its own for facets.
   */
  readonly isPart: boolean
}

/** Heads too vague to be a theme on their own ("lot", "way"); they still head longer phrases ("waiting time"). */
const GENERIC = new Set([
  'thing', 'things', 'lot', 'lots', 'way', 'time', 'day', 'one', 'ones', 'bit', 'kind', 'sort', 'stuff', 'something',
  'anything', 'everything', 'nothing', 'someone', 'anyone', 'everyone', 'people', 'person', 'year', 'years', 'today',
  'yesterday', 'tomorrow', 'week', 'month', 'part', 'place', 'number', 'end', 'fact', 'case', 'point', 'use', 'lot',
  'mr', 'mrs', 'ms', 'dr', 'percent', 'cent', 'times', 'others', 'other', 'etc', 'i.e', 'e.g',
])

/**
 * Days of the week and months (not "May" and "March", which are also a name and a word), as lemmas: alone they date
 * a story rather than say what it is about ("Saturday", "February"); in a name they stay ("Sunday Times").
 */
const CALENDAR = new Set([
  'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday', 'january', 'february', 'april', 'june',
  'july', 'august', 'september', 'october', 'november', 'december',
])

/** Nouns that say when, as adverbs do, written in lower case: no word of a phrase ("Fantastic Four today"). */
const DEICTIC_TIME = new Set(['today', 'yesterday', 'tomorrow', 'tonight'])

/** Abbreviations that begin names of places ("Mt. Everest", "Ft. Worth", "St. Louis"), which wink may tag as nouns. */
const PLACE_ABBREVIATIONS = new Set(['Mt.', 'Mts.', 'Ft.', 'St.', 'Pt.'])

/** Nouns a number before them counts ("4 times", "3 years", "81 points"), as lemmas. */
const COUNTED = new Set(['time', 'year', 'day', 'week', 'month', 'hour', 'minute', 'night', 'people', 'person', 'percent', 'cent', 'point', 'mile', 'kilometre', 'kilometer'])

/** Whether a lemma is a head too vague to stand alone as a theme or facet ("lot", "way", "time", "place"). */
export function isGenericHead(lemma: string): boolean {
  return GENERIC.has(lemma)
}

/**
 * Fixed expressions whose noun is not a thing the text is about: sentence adverbials ("of course", "for instance",
 * "no doubt", "on the other hand"), complex prepositions ("in terms of", "on behalf of", "in the wake of") and
 * quantifiers ("a couple of", "plenty of"), in lower case. Their words stand in no candidate, so "course",
 * "instance", "doubt" and "hand" are not themes of "Of course, for instance, no doubt, on the other hand"; the same
 * nouns elsewhere ("a golf course", "hand luggage", "the spot was perfect") still are.
 */
const FIXED_EXPRESSIONS: readonly string[] = [
  // sentence adverbials and discourse markers
  'of course', 'for example', 'for instance', 'in fact', 'no doubt', 'without a doubt', 'without doubt', 'beyond doubt',
  'no matter', 'no wonder', 'never mind',
  'beyond a doubt', 'on the other hand', 'on the one hand', 'by the way', 'at least', 'at most', 'at last', 'at first',
  'in general', 'in particular', 'in addition', 'as a result', 'in the end', 'at the end of the day', 'at the moment',
  'for the moment', 'in a moment', 'in short', 'in brief', 'in total', 'in turn', 'in a way', 'in any case',
  'in that case', 'in any event', 'at any rate', 'at times', 'at once', 'in advance', 'on purpose', 'by far',
  'by chance', 'on average', 'for sure', 'in a sense', 'in other words', 'as a matter of fact', 'at all',
  'in the meantime', 'in the first place', 'after all', 'above all', 'in return', 'on the whole', 'to some extent',
  'to a degree', 'for the most part', 'in effect', 'on the contrary', 'to my surprise', 'in my opinion', 'in my view',
  'first of all', 'all in all', 'as a whole', 'in a row', 'in the future', 'in the past', 'in the long run',
  'in the long term', 'in the short term', 'for a while', 'in a while', 'once in a while', 'to date', 'up to date',
  'at best', 'at worst', 'at random', 'in detail', 'in depth', 'make sense', 'in a hurry', 'by mistake',
  'on the spot', 'for a change', 'in mind', 'at hand', 'on hand', 'by hand', 'in hand', 'in touch', 'top notch',
  'hands down',
  // complex prepositions
  'in terms of', 'in front of', 'on behalf of', 'in spite of', 'in favour of', 'in favor of', 'in case of',
  'by means of', 'in order to', 'on top of', 'in the wake of', 'in light of', 'in the light of', 'in view of',
  'with respect to', 'with regard to', 'in regard to', 'in response to', 'for the sake of', 'in lieu of',
  'in accordance with', 'in addition to', 'in contrast to', 'in contrast with', 'by contrast', 'in comparison to',
  'in comparison with', 'by comparison', 'in the course of', 'over the course of', 'in line with', 'in the middle of',
  'in the face of', 'on account of', 'in place of', 'in charge of',
  // quantifiers
  'a couple of', 'plenty of', 'a great deal of', 'a good deal of', 'a handful of', 'a host of', 'a variety of',
  'a majority of', 'the majority of', 'a total of', 'the rest of', 'a set of', 'a series of',
]

/** {@link FIXED_EXPRESSIONS} by first lemma: the lemma sequences starting with it, longest first. */
const FIXED_BY_FIRST: ReadonlyMap<string, readonly (readonly string[])[]> = (() => {
  const m = new Map<string, string[][]>()
  for (const e of FIXED_EXPRESSIONS) {
    const words = e.split(' ')
    const list = m.get(words[0]!) ?? []
    list.push(words)
    m.set(words[0]!, list)
  }
  for (const list of m.values()) list.sort((a, b) => b.length - a.length)
  return m
})()

/**
 * Per token: whether it stands in one of the {@link FIXED_EXPRESSIONS} (words of one sentence, spaces skipped; a word
 * matches by its lemma or its normal form: "in terms of", "at times").
 */
function inFixedExpressions(toks: readonly Token[]): boolean[] {
  const marked = new Array<boolean>(toks.length).fill(false)
  for (let i = 0; i < toks.length; i++) {
    const t = toks[i]!
    if (t.kind !== 'word') continue
    // Lemmas and normal forms are in lower case already.
    const candidates = FIXED_BY_FIRST.get(t.lemma) ?? FIXED_BY_FIRST.get(t.normal)
    if (candidates === undefined) continue
    for (const words of candidates) {
      const at: number[] = [i]
      let k = i
      for (let w = 1; w < words.length; w++) {
        k++
        while (k < toks.length && (toks[k]!.kind === 'space' || toks[k]!.kind === 'tabCRLF')) k++
        const u = toks[k]
        if (u === undefined || u.sentence !== t.sentence || u.kind !== 'word' || (u.lemma !== words[w] && u.normal !== words[w])) break
        at.push(k)
      }
      if (at.length === words.length) {
        for (const k2 of at) marked[k2] = true
        break
      }
    }
  }
  return marked
}

/**
 * Whether token `i` is markup or shorthand rather than a word of the text: the name of an HTML character reference
 * left in a text as written ("notaname" of "wait &notaname; what", a name HTML does not have: the annotator reads
 * "&amp;", "&hellip;" and every other reference HTML has as their characters, see `readReferences`), a retweet's "RT" before the mention it quotes,
 * or a lone lower-case letter ("w" and "o" of "meeting w/ voters", "countries w/o rights"; "Plan B" keeps its "B"),
 * also with periods ("p.m.", "w.").
 */
function isMarkup(toks: readonly Token[], i: number): boolean {
  const t = toks[i]!
  // A lone lower-case letter, or lower-case letters each with a period ("w.", "p.m.", "a.m.").
  const text = t.text
  if ((text.length === 1 || text.charCodeAt(1) === 46) && /^\p{Ll}$|^(?:\p{Ll}\.)+$/u.test(text)) return true
  const next = toks[i + 1]
  if (!t.spaceBefore && toks[i - 1]?.text === '&' && next?.text === ';' && !next.spaceBefore && /^(?:[a-z]+\d*|#\d+|#x[\da-f]+)$/i.test(t.text)) return true
  if (t.text === 'RT') {
    let k = i + 1
    while (toks[k] !== undefined && (toks[k]!.kind === 'space' || toks[k]!.kind === 'tabCRLF')) k++
    return toks[k]?.kind === 'mention'
  }
  return false
}

/** Word class of a unit: adjective-like modifier, common noun, proper noun, number. */
type UnitClass = 'A' | 'N' | 'P' | 'D'

interface Unit {
  readonly start: number
  readonly end: number
  readonly cls: UnitClass
  /** Lower-cased surface, lemma and stem of the unit (hyphenated parts joined with "-"). */
  readonly surface: string
  readonly lemma: string
  readonly stem: string
}

/** Written like a name: "Apple", "iPhone". */
const CAPITALISED = /^(?:\p{Lu}|\p{Ll}+\p{Lu})/u
const WORDLIKE = /^[\p{L}\p{N}](?:[\p{L}\p{N}\p{M}'.&]|-(?=[\p{L}\p{N}]))*$/u
const HAS_LETTER = /\p{L}/u

/**
 * Whether a whitespace token is a line wrap inside running text (one line break, tabs or spaces around it, and a
 * word in lower case after it: "linear matrix\n\tinequalities" in a hard-wrapped abstract or e-mail). Noun
 * phrases run across it; a blank line, or a break before a capital (a title line, a new line of a list), still ends
 * one.
 */
function isLineWrap(toks: readonly Token[], k: number): boolean {
  const t = toks[k]
  if (t === undefined || t.kind !== 'tabCRLF') return false
  if (!/^[ \t]*\r?\n[ \t]*$/.test(t.text)) return false
  const next = toks[k + 1]
  return next !== undefined && next.sentence === t.sentence && /^\p{Ll}/u.test(next.text)
}

/** The token after `k`, across a line wrap. */
function nextToken(toks: readonly Token[], k: number): Token | undefined {
  return isLineWrap(toks, k + 1) ? toks[k + 2] : toks[k + 1]
}

/** The token before `k`, across a line wrap. */
function previousToken(toks: readonly Token[], k: number): Token | undefined {
  return k >= 2 && isLineWrap(toks, k - 1) ? toks[k - 2] : toks[k - 1]
}

function isHyphen(t: Token | undefined): boolean {
  return t !== undefined && (t.text === '-' || t.text === '‐' || t.text === '–') && !t.spaceBefore
}

/**
 * Split a document into units: single tokens, or hyphenated compounds written without spaces ("3-Day",
 * "state-of-the-art", "e-mail"), each with a word class. Tokens that cannot be part of a noun phrase get
 * no unit (null in the returned per-token array's run breaks).
 */
function units(doc: AnnotatedDocument, offeredOnly: boolean): (Unit | null)[] {
  const toks = doc.tokens
  const out: (Unit | null)[] = []
  // A capitalised word opening a sentence ("Breakfast was cold") is often tagged PROPN; alone, it is a noun.
  // Index of the first word or number of each sentence.
  const firstWord = doc.sentences.map((s) => {
    for (let k = s.tokenStart; k < s.tokenEnd; k++) if (toks[k]!.kind === 'word' || toks[k]!.kind === 'number') return k
    return -1
  })
  const opensSentence = (t: Token): boolean => firstWord[t.sentence] === t.index
  // Title-case headlines whose common words were re-read in lower case (withLowerCaseReadings): a capitalised word they kept
  // is a name even where it opens the headline ("H&M Profit Misses Estimates").
  const titleSentences = new Set<number>()
  if (doc.lowerCaseTags !== undefined) for (const [i, g] of doc.lowerCaseTags) if (g.headline) titleSentences.add(toks[i]!.sentence)
  const keptInTitle = (t: Token): boolean => titleSentences.has(t.sentence) && doc.lowerCaseTags?.has(t.index) !== true
  const fixed = offeredOnly ? inFixedExpressions(toks) : undefined
  const dateline = offeredOnly ? datelineWords(toks) : undefined
  // Names closed by a number word that the document writes as names somewhere ("Fantastic Four reboot"), lower-cased:
  // read as names wherever it writes them, also before a plural ("X-Men/Fantastic Four producers").
  const numberNames = new Set<string>()
  for (const t of toks) {
    if (t.pos === 'NUM' && t.kind === 'word' && CAPITALISED.test(t.text) && nameBefore(t) && !countedAfter(t)) numberNames.add(numberNameKey(t))
  }
  const classOf = (t: Token): UnitClass | null => {
    if (fixed !== undefined && (fixed[t.index] === true || isMarkup(toks, t.index) || dateline![t.index] !== 0)) return null
    if (t.kind === 'number' || t.pos === 'NUM') {
      if (/^\d[\d.,]*$/.test(t.text) || !HAS_LETTER.test(t.text)) return 'D'
      // A number word closing a name ("Fantastic Four", "Ocean's Eleven", "FANTASTIC FOUR"): a word of the name.
      if (nameBefore(t) && closesName(t)) return 'P'
      return t.pos === 'NUM' ? null : 'N'
    }
    if (t.kind !== 'word' || !WORDLIKE.test(t.text) || !HAS_LETTER.test(t.text)) return null
    if (isNameParticle(t) || isNameOf(t) || (PLACE_ABBREVIATIONS.has(t.text) && nameFollows(t))) return 'P'
    if (t.isStopWord || isTitleBeforeName(t)) return null
    const capital = CAPITALISED.test(t.text)
    switch (t.pos) {
      case 'NOUN':
        // "today" of "We saw Fantastic Four today" says when, and joins no phrase.
        return DEICTIC_TIME.has(t.text) ? null : 'N'
      case 'PROPN':
        // A lower-case "name" is a tagging slip: read it as a common word, or, before a name, as a word that
        // describes the name ("new" of "new iPhone", which then stands alone as a theme).
        if (!capital) {
          const next = nextToken(toks, t.index)
          return next?.pos === 'PROPN' && CAPITALISED.test(next.text) ? 'A' : 'N'
        }
        return opensSentence(t) && !nameFollows(t) && !keptInTitle(t) ? 'N' : 'P'
      case 'ADJ':
        return 'A'
      case 'X':
        return capital ? 'P' : null
      case 'VERB': {
        // A capitalised "verb" inside a name ("Tim Cook said"): the tagger's guess, read as a name part.
        if (capital && !opensSentence(t) && previousToken(toks, t.index)?.pos === 'PROPN') return 'P'
        // A participle modifying a noun ("distributed parameter models", "the scanning electron beam"): after a
        // determiner, preposition, adjective or punctuation (not after a subject: "we developed methods").
        if (/^\p{Ll}+(?:ed|ing)$/u.test(t.text) && t.text.length > 4) {
          const next = nextToken(toks, t.index)
          const prev = previousToken(toks, t.index)
          if (next !== undefined && next.sentence === t.sentence && (next.pos === 'NOUN' || next.pos === 'ADJ') && !next.isStopWord &&
            (prev === undefined || prev.sentence !== t.sentence || MODIFIER_AFTER.has(prev.pos))) return 'A'
        }
        return null
      }
      default:
        return null
    }
  }
  /**
   * Whether `t` is a lower-case particle inside a name ("Hotel du Lac", "Leonardo da Vinci", "Ursula von der Leyen"):
   * one of NAME_PARTICLES, at most three in a row, between two capitalised words of its sentence, one of them a proper
   * noun. Elsewhere ("da" and "de" are rare in English, "do", "la" and "van" are not) it is whatever it is tagged.
   */
  function isNameParticle(t: Token): boolean {
    if (!NAME_PARTICLES.has(t.text)) return false
    const particle = (k: number): boolean => toks[k] !== undefined && toks[k]!.sentence === t.sentence && toks[k]!.kind === 'word' && NAME_PARTICLES.has(toks[k]!.text)
    let a = t.index - 1
    while (particle(a)) a--
    let b = t.index + 1
    while (particle(b)) b++
    const before = toks[a]
    const after = toks[b]
    if (before === undefined || after === undefined || b - a - 1 > 3) return false
    const capital = (w: Token): boolean => w.sentence === t.sentence && w.kind === 'word' && /^\p{Lu}/u.test(w.text)
    return capital(before) && capital(after) && (before.pos === 'PROPN' || after.pos === 'PROPN')
  }
  /**
   * Whether `t` is a title written abbreviated before a name ("Rep." of "Rep. Martin Heinrich", "Gen." of "Gen. Steven
   * Doohen"): the theme is the full name. Before a surname alone the title stays ("Gov. Brown", not "Brown"). "Rep" and
   * its full stop written apart count too.
   */
  function isTitleBeforeName(t: Token): boolean {
    const dotted = t.text.endsWith('.')
    if (!ABBREVIATED_TITLES.has((dotted ? t.text.slice(0, -1) : t.text).toLowerCase())) return false
    let next = toks[t.index + 1]
    if (!dotted) {
      if (next?.text !== '.' || next.spaceBefore) return false
      next = toks[t.index + 2]
    }
    const name = (w: Token | undefined): boolean => w !== undefined && w.sentence === t.sentence && w.kind === 'word' && CAPITALISED.test(w.text)
    return name(next) && name(toks[next!.index + 1])
  }
  /**
   * Whether `t` is the "of" inside a name ("Bank of America", "Lake of Bays", "University of Toronto"): between two
   * capitalised proper nouns of its sentence, neither opening it.
   */
  function isNameOf(t: Token): boolean {
    if (t.text !== 'of') return false
    const before = toks[t.index - 1]
    const after = toks[t.index + 1]
    const name = (w: Token | undefined): boolean => w !== undefined && w.sentence === t.sentence && w.kind === 'word' && w.pos === 'PROPN' && /^\p{Lu}/u.test(w.text)
    return name(before) && name(after) && !opensSentence(before!)
  }
  /**
   * Whether the number `t` counts the common noun after it: a plural ("Top Four teams"), or any noun after "one" ("One
   * day"); not a singular noun the name describes ("Fantastic Four reboot"), nor "today".
   */
  function countedAfter(t: Token): boolean {
    const next = nextToken(toks, t.index)
    if (next?.pos !== 'NOUN' || DEICTIC_TIME.has(next.text)) return false
    return t.text.toLowerCase() === 'one' || (next.lemma !== next.text.toLowerCase() && /s$/i.test(next.text))
  }
  /**
   * Whether the number word `t`, after a name, closes it ("Four" of "Fantastic Four"): written capitalised, and counting
   * no plural after it ("Top Four teams") unless the document writes the same name as one elsewhere (`numberNames`).
   */
  function closesName(t: Token): boolean {
    return t.pos === 'NUM' && t.kind === 'word' && CAPITALISED.test(t.text) && (!countedAfter(t) || numberNames.has(numberNameKey(t)))
  }
  /** The lower-cased name a number word closes, with the word before it ("fantastic four"). */
  function numberNameKey(t: Token): string {
    return `${toks[t.index - 1]?.text.toLowerCase() ?? ''} ${t.text.toLowerCase()}`
  }
  /**
   * Whether a capitalised proper noun stands right before `t` in its sentence ("Fantastic" of "Fantastic Four"); a word
   * re-read in lower case (withLowerCaseReadings, which these units read) is written in lower case here, so no name.
   */
  function nameBefore(t: Token): boolean {
    const prev = toks[t.index - 1]
    return prev !== undefined && prev.sentence === t.sentence && prev.kind === 'word' && prev.pos === 'PROPN' && CAPITALISED.test(prev.text)
  }
  /** Whether a name word follows `t`, also across a name's "&" ("Procter & Gamble") or particle ("Rio de Janeiro"). */
  function nameFollows(t: Token): boolean {
    const next = nextToken(toks, t.index)
    if (next !== undefined && isNameParticle(next)) return true
    if (next?.text === '&') {
      const after = nextToken(toks, next.index)
      return after?.pos === 'PROPN' && CAPITALISED.test(after.text)
    }
    // A name closed by a number word ("Fantastic Four opens today").
    if (next !== undefined && t.pos === 'PROPN' && closesName(next)) return true
    return next?.pos === 'PROPN'
  }
  let i = 0
  while (i < toks.length) {
    const t = toks[i]!
    let j = i + 1
    // Hyphenated compound: word(-word)+ with no spaces around the hyphens, within one sentence.
    while (isHyphen(toks[j]) && toks[j + 1] !== undefined && !toks[j + 1]!.spaceBefore && toks[j + 1]!.sentence === t.sentence &&
      (toks[j + 1]!.kind === 'word' || toks[j + 1]!.kind === 'number')) j += 2
    if (j > i + 1 && (t.kind === 'word' || t.kind === 'number')) {
      if (dateline !== undefined && dateline[i] !== 0) {
        for (let k = i; k < j; k++) out.push(null)
        i = j
        continue
      }
      const parts = toks.slice(i, j).filter((x, k) => k % 2 === 0)
      const last = parts[parts.length - 1]!
      const cls: UnitClass = last.pos === 'PROPN' || parts.some((x) => /^\p{Lu}/u.test(x.text) && !opensSentence(x)) ? 'P' : last.pos === 'NOUN' ? 'N' : 'A'
      const u: Unit = {
        start: i,
        end: j,
        cls,
        surface: parts.map((x) => x.text.toLowerCase()).join('-'),
        lemma: parts.map((x) => x.lemma.toLowerCase()).join('-'),
        stem: parts.map((x) => x.stem).join('-'),
      }
      for (let k = i; k < j; k++) out.push(u)
      i = j
      continue
    }
    if (t.text === '&' && isNameAmpersand(i)) {
      out.push({ start: i, end: i + 1, cls: 'P', surface: '&', lemma: '&', stem: '&' })
      i++
      continue
    }
    const cls = classOf(t)
    // A name's particle is its own lemma (wink reads "da" of "Leonardo da Vinci" as the article "the").
    const lemma = cls === 'P' && NAME_PARTICLES.has(t.text) ? t.text : t.lemma.toLowerCase()
    out.push(cls === null ? null : { start: i, end: i + 1, cls, surface: t.text.toLowerCase(), lemma, stem: t.stem })
    i++
  }
  return out

  /**
   * Whether the "&" at token k joins two words of one name ("Procter & Gamble", "Johnson & Johnson", "Marks & Spencer"):
   * a name word before it and after it, in one sentence. Elsewhere ("salt & pepper", "Q&A" is one token) it ends the run.
   */
  function isNameAmpersand(k: number): boolean {
    const prev = out[k - 1]
    const next = toks[k + 1]
    return prev !== null && prev !== undefined && prev.cls === 'P' && next !== undefined && next.sentence === toks[k]!.sentence && classOf(next) === 'P'
  }
}

/** Tags after which a participle starts a noun phrase ("the distributed system", "of scanning electron beams"). */
const MODIFIER_AFTER = new Set(['DET', 'ADP', 'ADJ', 'PUNCT', 'CCONJ', 'SCONJ'])

/** Longest candidate, in words; longer runs keep their last words (the head and its nearest modifiers). */
const MAX_WORDS = 5

/**
 * Candidate themes of a document: maximal runs of adjectives, nouns, proper nouns and hyphenated compounds
 * within a sentence that end in a noun (YAKE and TopicRank take the same POS-pattern candidates), at most five
 * words. Numbers stand inside names ("iPhone 15 Pro") and compounds ("3-Day") only; possessives, stop words and
 * punctuation end a run ("Apple's new iPhone" gives "Apple" and "new iPhone"). A run that is a name followed by
 * common nouns ("Obama administration") also yields the name alone, and every shorter run inside it that ends
 * in a noun ("transfer function" of "discrete transfer function model") is a competing part. A participle after a
 * determiner, preposition, adjective or punctuation modifies the noun after it ("distributed parameter models").
 * Single vague heads ("lot", "way") are left out. Each candidate also carries the predicative adjectives after
 * it ("the room was clean"), for facets.
 */
export function extractCandidates(doc: AnnotatedDocument, options: CandidateOptions = {}): ThemeSpan[] {
  if (options.unoffered === true) return findCandidates(doc, false)
  // The themes and entities analyzers (and Discovery) each ask for the same document's candidates.
  let known = CANDIDATES.get(doc)
  if (known === undefined) {
    known = findCandidates(doc, true)
    CANDIDATES.set(doc, known)
  }
  return known.slice()
}

/** Options of {@link extractCandidates}. */
export interface CandidateOptions {
  /**
   * Keep the noun phrases that themes never offer: inside {@link FIXED_EXPRESSIONS} ("course" of "of course"), markup
   * ({@link isMarkup}: "notaname" of "&notaname;", a retweet's "RT"), a news dateline's place ("WASHINGTON (AP)", see
   * `datelineWords`) and a name with a count ("Bellagio 4 times", where themes
   * offer "Bellagio"). The ranker's training (bench/train-themes.ts) reads them as phrases people did not pick.
   * @defaultValue false
   */
  readonly unoffered?: boolean
}

/**
 * Candidates of the last documents asked about, computed once per pipeline run (the spans are never changed by their
 * users); a RecentCache, not a WeakMap, for the reason its comment gives.
 */
const CANDIDATES = new RecentCache<AnnotatedDocument, readonly ThemeSpan[]>(BATCH_DOCUMENTS)

/**
 * The document as theme candidates and facets read it: a capitalised common word that wink read as a name for its
 * capital alone (of a title-case headline, "Clean Rooms And A Great Breakfast", or opening a sentence, "Perfect!") with
 * the tag and lemma it has in lower case (`lowerCaseTags`, see tagLowerCaseReadings in src/pipeline/pos.ts), written in
 * lower case, so that it is read as the common word it is, not as part of a name.
 * Token indexes and offsets are those of `doc`.
 */
export function withLowerCaseReadings(doc: AnnotatedDocument): AnnotatedDocument {
  const tags = doc.lowerCaseTags
  if (tags === undefined) return doc
  const tokens = doc.tokens.map((t) => {
    const g = tags.get(t.index)
    return g === undefined ? t : { ...t, text: t.text.toLowerCase(), pos: g.pos, lemma: g.lemma }
  })
  return { ...doc, tokens }
}

function findCandidates(original: AnnotatedDocument, offeredOnly: boolean): ThemeSpan[] {
  const doc = withLowerCaseReadings(original)
  const us = units(doc, offeredOnly)
  const toks = doc.tokens
  const out: ThemeSpan[] = []
  let i = 0
  while (i < us.length) {
    const first = us[i]
    if (first === null || first === undefined) {
      i++
      continue
    }
    // Collect the run of units.
    const run: Unit[] = [first]
    let k = first.end
    while (k < us.length) {
      // A line wrap inside a sentence does not end the phrase.
      if (us[k] === null && isLineWrap(toks, k)) k++
      const u = us[k]
      if (u === null || u === undefined || toks[k]!.sentence !== toks[first.start]!.sentence) break
      run.push(u)
      k = u.end
    }
    i = k
    // A number stands only after a name ("iPhone 15"): elsewhere it splits the run.
    let part: Unit[] = []
    const flush = (): void => {
      emit(part)
      part = []
    }
    for (let r = 0; r < run.length; r++) {
      const u = run[r]!
      // A number after a name stays in it ("iPhone 15 case"), unless a unit of counting follows it ("Bellagio 4 times",
      // "Paris 3 years ago", "Bryant 81 points"): a count, not a model number (a phrase themes never offer).
      const next = run[r + 1]
      const count = offeredOnly && next !== undefined && next.cls === 'N' && COUNTED.has(next.lemma)
      if (u.cls === 'D' && (part.length === 0 || part[part.length - 1]!.cls !== 'P' || count)) {
        flush()
        continue
      }
      // A verb read as a noun after its subject, before its object's article or possessive: "chess champ spreads her
      // passion", "Apple shares the spotlight" ("champ" and "passion" are the phrases, not "chess champ spreads").
      if (part.length > 0 && isVerbAfterSubject(u, part[part.length - 1]!)) {
        flush()
        continue
      }
      part.push(u)
    }
    flush()
  }
  /**
   * Whether `u`, a one-word common noun in the third person's -s form ("spreads", "shapes"; not "boss"), is the verb
   * of the singular subject `before` ("champ", a name): the next word opens its object with an article or a possessive
   * ("the", "a", "her", "their"). Plural compounds ("sports car", "sales team") are followed by their head noun instead.
   */
  function isVerbAfterSubject(u: Unit, before: Unit): boolean {
    if (u.cls !== 'N' || u.end !== u.start + 1 || !/^\p{Ll}{2,}[^s']s$/u.test(toks[u.start]!.text)) return false
    if (before.cls !== 'P' && (before.cls !== 'N' || before.surface.endsWith('s'))) return false
    const next = toks[u.end]
    return next !== undefined && next.sentence === toks[u.start]!.sentence && (next.pos === 'DET' || (next.pos === 'PRON' && POSSESSIVE_DETERMINERS.has(next.normal)))
  }
  function emit(whole: readonly Unit[]): void {
    let end = whole.length
    while (end > 0 && whole[end - 1]!.cls !== 'N' && whole[end - 1]!.cls !== 'P') end--
    if (end === 0) return
    const run = whole.slice(0, end)
    // A name after common words ("pop singer Bruno Mars", "movie Jamon Jamon", "Fame star Irene Cara") is a theme of
    // its own, and so is the description before it; lower-case adjectives before a name describe it ("opposite
    // Meryl Streep", "5-year-old Mary", "new iPhone"), except before a name in capitals ("robust MPC").
    let t = run.length
    while (t > 0 && (run[t - 1]!.cls === 'P' || run[t - 1]!.cls === 'D')) t--
    while (t < run.length && run[t]!.cls === 'D') t++
    if (t > 0 && t < run.length) {
      const before = run.slice(0, t)
      const name = run.slice(t)
      if (before.some((u) => u.cls === 'N')) {
        emitPhrase(before)
        emitPhrase(name)
        return
      }
      if (before.every((u) => u.cls === 'A' && !/^\p{Lu}/u.test(toks[u.start]!.text)) && name.some((u) => /\p{Ll}/u.test(toks[u.start]!.text))) {
        emitPhrase(name)
        return
      }
    }
    emitPhrase(run)
  }
  function emitPhrase(run: readonly Unit[]): void {
    let end = run.length
    while (end > 0 && run[end - 1]!.cls !== 'N' && run[end - 1]!.cls !== 'P') end--
    if (end === 0) return
    let start = Math.max(0, end - MAX_WORDS)
    // A cut inside a name ("Johnson & Johnson report quarterly earnings", six words) would leave its last words to
    // stand for it ("Johnson report quarterly earnings"): the name is a candidate of its own, the phrase starts after it.
    if (start > 0 && run[start - 1]!.cls === 'P' && run[start]!.cls === 'P') {
      let from = start - 1
      while (from > 0 && run[from - 1]!.cls === 'P') from--
      let to = start
      while (to < end && run[to]!.cls === 'P') to++
      push(run.slice(from, to), true)
      start = to
    }
    let words = run.slice(start, end)
    // Drop leading numbers left by the cut.
    while (words.length > 0 && words[0]!.cls === 'D') words = words.slice(1)
    if (words.length === 0) return
    push(words, false)
    if (words.length === 1) return
    // Each word of a name also competes on its own: news repeats "Malick" after "Terrence Malick" once.
    for (const u of words) if (u.cls === 'P' && u.lemma.length > 1) push([u], true)
    if (words.every((u) => u.cls !== 'N')) return
    // Parts of a longer phrase compete as candidates too (TopicRank groups them; redundancy removal keeps the
    // better of "battery" and "battery life"): each common noun, and a name before common nouns ("Obama
    // administration" -> "Obama").
    const p = words.findIndex((u) => u.cls === 'P')
    if (p >= 0) {
      let q = p
      while (q < words.length && (words[q]!.cls === 'P' || words[q]!.cls === 'D')) q++
      while (q > p && words[q - 1]!.cls === 'D') q--
      if (q < words.length) push(words.slice(p, q), true)
    }
    for (const u of words) if (u.cls === 'N') push([u], true)
    // Shorter phrases inside the run compete too ("transfer function" of "discrete transfer function model"):
    // people often pick a phrase inside a longer run.
    for (let a = 0; a < words.length; a++) {
      // No shorter phrase starts or ends at a name's "&" ("& Johnson report", "Procter &").
      if (words[a]!.cls === 'D' || words[a]!.lemma === '&') continue
      for (let b = a + 2; b <= words.length; b++) {
        if (b - a === words.length) continue
        const last = words[b - 1]!.cls
        if ((last !== 'N' && last !== 'P') || words[b - 1]!.lemma === '&') continue
        if (words.slice(a, b).every((u) => u.cls === 'P')) continue
        push(words.slice(a, b), true)
      }
    }
  }
  function push(words: readonly Unit[], isPart: boolean): void {
    const head = words[words.length - 1]!
    if (words.length === 1 && (GENERIC.has(head.lemma) || head.lemma.length < 2)) return
    // Alone, a day or month dates the story, and an initial ("V.", "W.") names no one.
    if (offeredOnly && words.length === 1 && (CALENDAR.has(head.lemma) || /^\p{L}\.$/u.test(toks[head.start]!.text))) return
    const tokenStart = words[0]!.start
    const tokenEnd = head.end
    out.push({
      tokenStart,
      tokenEnd,
      normalized: words.map((u) => u.lemma).join(' '),
      stemmed: words.map((u) => u.stem).join(' '),
      head: head.lemma,
      attributes: [...words.filter((u) => u.cls === 'A').map((u) => u.lemma), ...(isPart ? [] : predicates(doc, tokenEnd))],
      isProper: head.cls === 'P',
      words: words.map((u) => u.surface),
      proper: words.map((u) => u.cls === 'P'),
      adjective: words.map((u) => u.cls === 'A'),
      isPart,
    })
  }
  out.sort((a, b) => a.tokenStart - b.tokenStart || a.tokenEnd - b.tokenEnd)
  return out
}

const LINKING = new Set(['be', 'seem', 'look', 'feel', 'remain', 'become', 'get', 'appear', 'stay'])

/**
 * Predicative adjectives of a noun phrase ending before token `end`: "the room was (very) clean",
 * "staff seemed friendly and helpful" give clean; friendly, helpful.
 */
function predicates(doc: AnnotatedDocument, end: number): string[] {
  const toks = doc.tokens
  let k = end
  const sentence = toks[end - 1]?.sentence
  const at = (i: number): Token | undefined => (toks[i]?.sentence === sentence ? toks[i] : undefined)
  const verb = at(k)
  if (verb === undefined || !(verb.pos === 'AUX' || verb.pos === 'VERB') || !LINKING.has(verb.lemma)) return []
  k++
  const out: string[] = []
  for (let guard = 0; guard < 8; guard++) {
    const t = at(k)
    if (t === undefined) break
    if (t.pos === 'ADV' || t.pos === 'PART' || t.pos === 'CCONJ' || t.text === ',') {
      k++
      continue
    }
    if (t.pos !== 'ADJ') break
    out.push(t.lemma.toLowerCase())
    k++
  }
  return out
}
