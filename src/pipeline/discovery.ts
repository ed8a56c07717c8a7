import type { Configuration } from '../model/configuration.ts'
import type {
  CollectionEntity,
  CollectionOutput,
  CollectionTheme,
  CollectionTopic,
  Entity,
  Facet,
  FacetAttribute,
  Location,
  Mention,
  Polarity,
} from '../model/output.ts'
import type { AnnotatedDocument, Token } from '../nlp/types.ts'
import type { SentimentSection, Sections } from './types.ts'
import { round4, spanMentions } from './spans.ts'
import type { ThemesSection, ThemeSpan } from './analyzers/themes.ts'
import type { TopicsSection } from './analyzers/topics.ts'
import { UNSEEN_ZIPF, type Background } from '../themes/background.ts'
import { isGenericHead, withLowerCaseReadings } from '../themes/candidates.ts'
import { ATTRIBUTE_POLARITY } from './attribute-polarity.ts'
import { LINKING_VERBS } from '../nlp/linking-verbs.ts'

/**
 * The Detailed configuration a collection's texts are analysed under: the collection block's switches
 * decide which sections run, with the most results per text so that aggregation sees everything, and
 * Detailed-only outputs (summary, phrases, details) off.
 */
export function discoveryConfiguration(c: Configuration): Configuration {
  const col = c.collection
  return {
    ...c,
    document: {
      ...c.document,
      named_entities: col.named_entities,
      user_entities: col.user_entities,
      query_topics: col.query_topics,
      concept_topics: col.concept_topics,
      themes: col.themes || col.facets,
      mentions: true,
      named_entities_limit: col.named_entities && col.named_entities_limit > 0 ? 20 : 0,
      user_entities_limit: col.user_entities && col.user_entities_limit > 0 ? 20 : 0,
      named_mentions_limit: 20,
      user_mentions_limit: 20,
      themes_limit: (col.themes && col.themes_limit > 0) || (col.facets && col.facets_limit > 0) ? 20 : 0,
      theme_mentions_limit: 20,
      query_topics_limit: col.query_topics && col.query_topics_limit > 0 ? 20 : 0,
      concept_topics_limit: col.concept_topics && col.concept_topics_limit > 0 ? 20 : 0,
      phrases_limit: 0,
      possible_phrases_limit: 0,
      summary_limit: 0,
      model_sentiment: false,
      entity_themes_limit: 0,
    },
  }
}

/** What one text of a collection contributed: its annotation and the sections the pipeline computed. */
export interface CollectionPart {
  readonly index: number
  readonly doc: AnnotatedDocument
  readonly sections: Partial<Sections>
}

/** A mention of one text, without the text's position (the aggregation adds `index`). */
interface PartMention {
  readonly label: string
  readonly is_negated: boolean
  readonly negating_phrase?: string
  readonly locations: readonly { readonly offset: number; readonly length: number }[]
}

/** One attribute word attached to a facet occurrence ("clean" of "the room was clean"). */
export interface PartAttribute {
  /** Lemma of the adjective, "not " before it when negated ("not clean"). */
  readonly label: string
  /** The attribute as written, and its UTF-8 byte location. */
  readonly text: string
  readonly offset: number
  readonly length: number
}

/** One occurrence of a facet in one text. */
export interface PartFacet {
  /** Lemma of the head noun: the facet ("room"). */
  readonly facet: string
  /**
   * The head with the common noun before it ("wine list", "air conditioning", "hotel room"), when there is one: the
   * collection's facet when most occurrences of the head come in that compound (see {@link facetOf}).
   */
  readonly compound?: string
  /** The compound as written ("wine list") and its byte span: the facet's mention when the compound is the facet. */
  readonly compoundLabel?: string
  readonly compoundOffset?: number
  readonly compoundLength?: number
  /** The head as written ("rooms"), its byte location, and whether a negation governs the phrase. */
  readonly label: string
  readonly offset: number
  readonly length: number
  readonly negated: boolean
  readonly negatingPhrase?: string
  /** Aspect polarity of the occurrence (the words attached to it, not its sentence). */
  readonly polarity: Polarity
  /** How the head is written: lower case, capitalised inside a sentence (a name), or capitalised at a sentence start. */
  readonly casing: 'lower' | 'name' | 'initial'
  /** Zipf frequency of the head in everyday English (the themes' background list). */
  readonly zipf: number
  readonly attributes: readonly PartAttribute[]
}

/**
 * What aggregation needs from one text, as plain data (no functions, no document): the facet occurrences,
 * themes, entities and topics with their mentions. {@link discoveryPart} computes it from a text's analysis, so
 * that texts can be analysed anywhere (a worker) and {@link aggregateParts} stays a pure function of these.
 */
export interface DiscoveryPart {
  readonly index: number
  /** Word tokens of the text (the collection's size for facet specificity). */
  readonly words: number
  readonly facets: readonly PartFacet[]
  /** Lower-cased words of the names (proper-noun phrases) of the text, one per occurrence: "Bellagio" is no facet. */
  readonly names: readonly string[]
  readonly themes: readonly { readonly normalized: string; readonly title: string; readonly phrases: number; readonly score: number; readonly mentions: readonly PartMention[] }[]
  readonly entities: readonly { readonly type: Entity['type']; readonly entity_type: string; readonly title: string; readonly label: string; readonly polarity: Polarity; readonly mentions: readonly PartMention[] }[]
  readonly topics: readonly { readonly kind: 'query' | 'concept'; readonly id: string; readonly title: string; readonly hitcount: number; readonly score: number }[]
}

const NEGATORS = new Set(['not', "n't", 'no', 'never', 'without', 'nothing', 'none', 'neither', 'nor', 'hardly', 'barely', 'cannot', 'nobody', 'nt'])
/** Degree words the tagger may read as nouns or adjectives ("super friendly", "pretty good"): skipped like adverbs. */
const DEGREE = new Set(['super', 'very', 'really', 'so', 'too', 'quite', 'extremely', 'incredibly', 'pretty', 'rather', 'totally', 'absolutely', 'fairly', 'most', 'mega', 'real', 'awfully', 'exceptionally', 'amazingly', 'truly', 'overly', 'somewhat'])

/** Adjectives that place or count a thing rather than describe it ("next day", "whole stay"): never attributes. */
const NOT_ATTRIBUTES = new Set([
  'next', 'last', 'first', 'second', 'third', 'previous', 'whole', 'entire', 'main', 'only', 'own', 'various', 'certain',
  'several', 'many', 'few', 'much', 'more', 'most', 'other', 'same', 'such', 'additional', 'particular', 'overall',
  'general', 'following', 'late', 'early', 'recent', 'final', 'total', 'usual', 'daily', 'nightly', 'extra', 'able',
])

/** Whether a token is an adjective for attribute purposes (a capitalised evaluative word opening a sentence counts). */
function adjectival(doc: AnnotatedDocument, t: Token | undefined, sentiment: SentimentSection | undefined): boolean {
  if (t === undefined || t.kind !== 'word' || !/^\p{L}[\p{L}'-]*$/u.test(t.text)) return false
  if (t.pos === 'ADJ') return true
  // "Terrible breakfast", "Central location", "Clean and quiet rooms": the tagger reads a capitalised first word as a
  // name (or an imperative verb); an evaluative word (lexicon, attribute table) or an adjective ending ("Spacious",
  // "Comfortable") is read as what it is.
  const opens = firstWord(doc, t.sentence) === t.index
  if (!opens || !(t.pos === 'PROPN' || t.pos === 'NOUN' || t.pos === 'VERB') || !/^\p{Lu}\p{Ll}+$/u.test(t.text)) return false
  const lower = t.text.toLowerCase()
  return (sentiment?.tokenScores[t.index] ?? 0) !== 0 || ATTRIBUTE_POLARITY.has(lower) || /(ous|ful|ive|able|ible|less)$/.test(lower)
}

function firstWord(doc: AnnotatedDocument, sentence: number): number {
  const s = doc.sentences[sentence]
  if (s === undefined) return -1
  for (let k = s.tokenStart; k < s.tokenEnd; k++) if (doc.tokens[k]!.kind === 'word' || doc.tokens[k]!.kind === 'number') return k
  return -1
}

/**
 * Attribute label of an adjective token: its lemma, or the word as written where the lemma is another word ("best",
 * not "good"); a participle as written ("dated").
 */
function attributeLabel(t: Token): string {
  const surface = t.text.toLowerCase()
  if (t.pos === 'VERB') return surface // a participle: "dated", not "date"
  const lemma = t.lemma.toLowerCase()
  return lemma.slice(0, 3) === surface.slice(0, 3) ? lemma : surface
}

const isNegator = (t: Token | undefined): boolean => t !== undefined && (NEGATORS.has(t.normal) || NEGATORS.has(t.text.toLowerCase()))

/** The negator's words as written: "didn't" for the "n't" of "did" + "n't", else the word. */
function negatorText(doc: AnnotatedDocument, t: Token): string {
  const prev = doc.tokens[t.index - 1]
  if (!t.spaceBefore && prev !== undefined && prev.sentence === t.sentence && /^n['’]t$/i.test(t.text)) return doc.text.slice(prev.start, t.end)
  return t.text
}

/**
 * The negator governing a noun phrase, if any: "no", "not", "never", "without" or "n't" shortly before it in
 * its clause ("I would not recommend this hotel", "there was no breakfast"), with at most one verb and no
 * punctuation, conjunction or preposition between. "The hotel was not clean" does not negate the hotel.
 */
function governingNegator(doc: AnnotatedDocument, ph: ThemeSpan): Token | undefined {
  const sentence = doc.tokens[ph.tokenStart]!.sentence
  let verbs = 0
  for (let k = ph.tokenStart - 1, n = 0; k >= 0 && n < 5; k--, n++) {
    const t = doc.tokens[k]!
    if (t.sentence !== sentence) return undefined
    if (isNegator(t)) return t
    if (t.kind === 'punctuation' || t.pos === 'PUNCT' || t.pos === 'CCONJ' || t.pos === 'SCONJ' || t.pos === 'ADP') return undefined
    if (t.pos === 'VERB' && ++verbs > 1) return undefined
    if (t.pos === 'NOUN' || t.pos === 'PROPN') return undefined
  }
  return undefined
}

/**
 * Predicative adjectives after a noun phrase ending before token `end`: "the room was (not) clean", "staff
 * seemed friendly and helpful", "breakfast wasn't very good", "rooms are clean, quiet and spacious", "a room that
 * was clean", "the rooms are dated". A negation
 * between verb and adjective makes the label "not X".
 */
function predicateAttributes(doc: AnnotatedDocument, end: number, sentiment: SentimentSection | undefined): { token: Token; negated: boolean }[] {
  const toks = doc.tokens
  const sentence = toks[end - 1]?.sentence
  const at = (i: number): Token | undefined => (toks[i]?.sentence === sentence ? toks[i] : undefined)
  let k = end
  // A relative clause: "a room that was clean", "staff who were helpful".
  if (/^(that|which|who)$/i.test(at(k)?.text ?? '') && (at(k + 1)?.pos === 'AUX' || at(k + 1)?.pos === 'VERB')) k++
  let negated = false
  let linked = false
  let modal = false
  let more = false
  // Auxiliaries and the linking verb: "was", "has been", "could have been", "wasn't", "did not seem".
  for (let guard = 0; guard < 5; guard++) {
    const t = at(k)
    if (t === undefined) return []
    if (isNegator(t) && (t.pos === 'PART' || t.pos === 'ADV' || t.normal === 'not')) {
      negated = true
      k++
      continue
    }
    if ((t.pos === 'AUX' || t.pos === 'VERB') && (LINKING_VERBS.has(t.lemma) || ['have', 'do', 'will', 'would', 'can', 'could', 'might', 'may', 'should', 'must'].includes(t.lemma))) {
      if (LINKING_VERBS.has(t.lemma)) linked = true
      if (t.lemma === 'can' || t.lemma === 'could') modal = true
      k++
      continue
    }
    break
  }
  if (!linked) {
    // Without a verb: "staff very helpful", "our rooms, very clean and comfortable." — an intensified or
    // comma-set adjective run that closes the clause.
    const t = at(end)
    let j = end
    const comma = t?.text === ','
    if (comma) j++
    let adverbs = 0
    while (at(j)?.pos === 'ADV' || (DEGREE.has(at(j)?.normal ?? '') && at(j + 1)?.pos === 'ADJ')) {
      j++
      adverbs++
    }
    if ((!comma && adverbs === 0) || at(j)?.pos !== 'ADJ') return []
    const run: { token: Token; negated: boolean }[] = []
    for (; at(j) !== undefined; j++) {
      const u = at(j)!
      if (u.pos === 'ADJ') run.push({ token: u, negated: false })
      else if (!(u.pos === 'ADV' || u.pos === 'CCONJ' || u.text === ',')) break
    }
    const closing = at(j)
    return closing === undefined || closing.pos === 'PUNCT' || closing.kind === 'punctuation' ? run : []
  }
  const out: { token: Token; negated: boolean }[] = []
  for (let guard = 0; guard < 10; guard++) {
    const t = at(k)
    if (t === undefined) break
    if (isNegator(t)) {
      negated = true
      k++
      continue
    }
    // "pretty" and "super" are degree words only before an adjective ("pretty good"; not "the view was pretty").
    const degree = DEGREE.has(t.normal) && at(k + 1)?.pos === 'ADJ'
    if (t.pos === 'ADV' || t.text === ',' || t.pos === 'CCONJ' || t.text === '&' || degree) {
      if (t.normal === 'more' || t.normal === 'any') more = true
      k++
      continue
    }
    // A participle that closes the clause describes a state: "the rooms are dated", "the sauna was closed".
    const next = at(k + 1)
    const participle = t.pos === 'VERB' && /\p{L}ed$/u.test(t.text) && (next === undefined || next.pos === 'PUNCT' || next.pos === 'CCONJ')
    if (!participle && (!adjectival(doc, t, sentiment) || t.pos !== 'ADJ')) break
    // "could not have been more helpful", "couldn't be better": praise, not a negation.
    const comparative = t.text.toLowerCase() !== t.lemma && /er$/i.test(t.text)
    out.push({ token: t, negated: negated && !(modal && (more || comparative)) })
    k++
  }
  return out
}

/**
 * Adjectives before a noun phrase joined to its own by "and", "or" or commas: "clean and quiet rooms" gives
 * clean (the phrase itself is "quiet rooms"), "a perfect, central location" gives perfect.
 */
function coordinatedModifiers(doc: AnnotatedDocument, start: number, sentiment: SentimentSection | undefined): Token[] {
  const toks = doc.tokens
  const sentence = toks[start]!.sentence
  const out: Token[] = []
  let k = start - 1
  for (let guard = 0; guard < 6; guard++) {
    const joiner = toks[k]
    if (joiner === undefined || joiner.sentence !== sentence || !(joiner.text === ',' || joiner.text === '&' || /^(and|or)$/i.test(joiner.text))) break
    let j = k - 1
    while (toks[j] !== undefined && toks[j]!.sentence === sentence && toks[j]!.pos === 'ADV') j--
    const adj = toks[j]
    if (adj === undefined || adj.sentence !== sentence || !adjectival(doc, adj, sentiment)) break
    out.push(adj)
    k = j - 1
  }
  return out
}

/** Whether a token stands next to a hyphen (a part of "well-kept", "5-star"), which is not a word of its own. */
function inCompound(doc: AnnotatedDocument, i: number): boolean {
  const t = doc.tokens[i]!
  const prev = doc.tokens[i - 1]
  const next = doc.tokens[i + 1]
  return (!t.spaceBefore && prev?.text === '-') || (next !== undefined && !next.spaceBefore && next.text === '-')
}

/**
 * The facet occurrences of one text: every common-noun phrase of the themes' candidates ("the same noun-phrase
 * candidates as themes"), keyed by its head's lemma, with the adjectives attached to it (modifiers "clean room",
 * "clean and quiet rooms"; predicates "the room was clean", "staff were friendly and helpful"; a predicate after
 * "X of/at/in Y" belongs to X: "the staff at the desk were helpful"), its aspect polarity (the words attached to
 * it, contrast and negation; `SentimentSection.aspect`; when that finds no evidence, the attributes' learned
 * polarity: "the breakfast was cold") and its own negation. Left out: names, vague heads ("thing", "time"), words for
 * time, quantity, choice and the writer's trip ("hour", "choice", "line", "trip"), measures ("2 hours"), imperatives
 * the tagger read as nouns ("Book early"), evaluative words read as nouns ("Clean and quiet rooms").
 */
export function documentFacets(doc: AnnotatedDocument, phrases: readonly ThemeSpan[], sentiment: SentimentSection | undefined, background: Background | undefined): PartFacet[] {
  const toks = doc.tokens
  const list = phrases.filter((p) => !p.isPart)
  // Predicates after each phrase, moved to the phrase before an "of/at/in/from" complement.
  const predicates = list.map((p) => predicateAttributes(doc, p.tokenEnd, sentiment))
  for (let i = 1; i < list.length; i++) {
    const prev = list[i - 1]!
    const cur = list[i]!
    if (predicates[i]!.length === 0 || toks[cur.tokenStart]!.sentence !== toks[prev.tokenStart]!.sentence) continue
    let k = prev.tokenEnd
    if (toks[k]?.pos !== 'ADP') continue
    k++
    while (k < cur.tokenStart && (toks[k]!.pos === 'DET' || toks[k]!.pos === 'PRON' || toks[k]!.pos === 'ADJ' || toks[k]!.pos === 'NUM')) k++
    if (k === cur.tokenStart && !prev.isProper) {
      predicates[i - 1] = [...predicates[i - 1]!, ...predicates[i]!]
      predicates[i] = []
    }
  }
  // Coordinated subjects share their predicate: "Rooms, elevator and common areas are simple but clean".
  for (let i = list.length - 1; i > 0; i--) {
    const prev = list[i - 1]!
    const cur = list[i]!
    if (predicates[i]!.length === 0 || predicates[i - 1]!.length > 0) continue
    const between = toks.slice(prev.tokenEnd, cur.tokenStart)
    if (between.length >= 1 && between.length <= 2 && between.every((t) => t.text === ',' || /^(and|or|&)$/i.test(t.text) || t.pos === 'DET')) {
      if (!between.some((t) => t.text === ',' || /^(and|or|&)$/i.test(t.text))) continue
      predicates[i - 1] = predicates[i]!
    }
  }
  const out: PartFacet[] = []
  list.forEach((ph, i) => {
    if (ph.isProper) return
    const head = toks[ph.tokenEnd - 1]!
    if (!/^\p{L}[\p{L}'-]*$/u.test(head.text) || ph.head.length < 2) return
    // A capitalised evaluative word tagged as a noun ("Clean and quiet rooms"), or a head inside a compound ("5-star").
    if (head.pos !== 'NOUN' && (sentiment?.tokenScores[head.index] ?? 0) !== 0) return
    if (inCompound(doc, head.index) || isGenericHead(ph.head) || NOT_FACETS.has(ph.head) || DEGREE.has(ph.head)) return
    if (isMeasure(doc, ph) || isImperative(doc, ph)) return
    // A character reference left as written ("&notaname;", a name HTML does not have: the annotator reads "&amp;" and "&hellip;" as characters) is no word.
    if (!head.spaceBefore && toks[head.index - 1]?.text === '&') return
    const attributes: PartAttribute[] = []
    const addAttr = (t: Token, negated: boolean): void => {
      const label = attributeLabel(t)
      if (NOT_ATTRIBUTES.has(label) || label.length < 2 || label === ph.head) return
      attributes.push({ label: negated ? `not ${label}` : label, text: t.text, offset: t.byteOffset, length: t.byteLength })
    }
    for (const t of coordinatedModifiers(doc, ph.tokenStart, sentiment).reverse()) addAttr(t, false)
    for (let k = ph.tokenStart; k < ph.tokenEnd - 1; k++) {
      const t = toks[k]!
      if (!inCompound(doc, k) && adjectival(doc, t, sentiment)) addAttr(t, false)
    }
    for (const p of predicates[i]!) addAttr(p.token, p.negated)
    const negator = governingNegator(doc, ph)
    const opens = firstWord(doc, head.sentence) === head.index
    const casing = /^\p{Lu}/u.test(head.text) ? (opens ? 'initial' : 'name') : 'lower'
    const score = sentiment?.aspect([ph]).score ?? 0
    let polarity = sentiment?.polarityOf(score) ?? 'neutral'
    // No evidence in the lexicon ("the breakfast was cold", "slow service"): the attributes' learned polarity.
    if (polarity === 'neutral' && score === 0 && sentiment !== undefined) {
      let sum = 0
      for (const a of attributes) {
        const negated = a.label.startsWith('not ')
        const w = ATTRIBUTE_POLARITY.get(negated ? a.label.slice(4) : a.label) ?? 0
        sum += negated ? -w : w
      }
      if (sum !== 0) polarity = sentiment.polarityOf(Math.max(-1, Math.min(1, sum)))
    }
    // A plural opening a sentence, tagged as a name, keeps its plural as lemma ("Prices are reasonable"): the
    // singular when everyday English uses it at least as much.
    let key = ph.head
    if (casing === 'initial' && head.pos !== 'NOUN' && background !== undefined && /[^s]s$/.test(key)) {
      const singular = key.endsWith('ies') ? `${key.slice(0, -3)}y` : key.slice(0, -1)
      if ((background.get(singular) ?? 0) >= (background.get(key) ?? 0)) key = singular
    }
    const modifier = toks[ph.tokenEnd - 2]
    const compound =
      ph.tokenEnd - ph.tokenStart >= 2 && modifier !== undefined && modifier.pos === 'NOUN' && !inCompound(doc, modifier.index) && /^\p{Ll}+$/u.test(modifier.text)
        ? `${modifier.lemma} ${key}`
        : undefined
    const item: PartFacet = {
      facet: key,
      ...(compound !== undefined && modifier !== undefined
        ? {
            compound,
            compoundLabel: doc.text.slice(modifier.start, head.end),
            compoundOffset: modifier.byteOffset,
            compoundLength: head.byteOffset + head.byteLength - modifier.byteOffset,
          }
        : {}),
      label: head.text,
      offset: head.byteOffset,
      length: head.byteLength,
      negated: negator !== undefined,
      ...(negator !== undefined ? { negatingPhrase: negatorText(doc, negator) } : {}),
      polarity,
      casing,
      zipf: background?.get(key) ?? background?.get(head.text.toLowerCase()) ?? UNSEEN_ZIPF,
      attributes,
    }
    out.push(item)
  })
  return out
}

/**
 * Nouns for time, quantity, choice and the writer's own trip ("hour", "choice", "line", "trip"): reviews use them
 * around what they evaluate, but a person listing what a collection talks about does not list them.
 */
const NOT_FACETS = new Set([
  'hour', 'minute', 'second', 'night', 'morning', 'evening', 'afternoon', 'week', 'weekend', 'month', 'moment', 'while',
  'trip', 'visit', 'stay', 'vacation', 'holiday', 'journey', 'choice', 'option', 'line', 'kind', 'type', 'book',
  'reason', 'idea', 'problem', 'issue', 'side', 'top', 'bottom', 'front', 'back', 'rest', 'half', 'lot', 'plenty', 'amount',
  'check', 'money', 'stop', 'review', 'star', 'guy', 'friend', 'husband', 'wife', 'family', 'kid', 'child', 'daughter', 'son',
])

const QUANTIFIERS = new Set(['few', 'several', 'couple', 'many', 'dozen', 'half', 'each', 'every', 'per'])

/** A noun used as a measure, not a thing described: "2 hours", "three nights", "a few minutes", "every day". */
function isMeasure(doc: AnnotatedDocument, ph: ThemeSpan): boolean {
  if (ph.tokenEnd - ph.tokenStart > 1 && ph.words.length > 1) return false
  const prev = doc.tokens[ph.tokenStart - 1]
  if (prev === undefined || prev.sentence !== doc.tokens[ph.tokenStart]!.sentence) return false
  if (prev.kind === 'number' || prev.pos === 'NUM' || prev.kind === 'ordinal') return true
  if (QUANTIFIERS.has(prev.normal)) return true
  return prev.normal === 'of' && QUANTIFIERS.has(doc.tokens[ph.tokenStart - 2]?.normal ?? '')
}

/** A verb opening an imperative that the tagger read as a noun: "Book early", "Check the rates". */
function isImperative(doc: AnnotatedDocument, ph: ThemeSpan): boolean {
  if (ph.tokenEnd - ph.tokenStart !== 1 || firstWord(doc, doc.tokens[ph.tokenStart]!.sentence) !== ph.tokenStart) return false
  const next = doc.tokens[ph.tokenEnd]
  return next !== undefined && next.sentence === doc.tokens[ph.tokenStart]!.sentence && ['DET', 'PRON', 'ADV', 'ADJ'].includes(next.pos)
}

/** Plain mentions of one text (without `index`). */
function plainMentions(mentions: readonly Mention[] | undefined): PartMention[] {
  return (mentions ?? []).map((m) => ({
    label: m.label,
    is_negated: m.is_negated,
    ...(m.negating_phrase !== undefined ? { negating_phrase: m.negating_phrase } : {}),
    locations: m.locations.map((l) => ({ offset: l.offset, length: l.length })),
  }))
}

/** The plain data aggregation needs from one analysed text (see {@link DiscoveryPart}). */
export function discoveryPart(part: CollectionPart, config: Configuration): DiscoveryPart {
  const col = config.collection
  const { doc, sections } = part
  const themesSection = sections['themes'] as ThemesSection | undefined
  const sentiment = sections.sentiment
  const withMentions = col.mentions
  const phrases = themesSection?.phrases ?? []
  const facets = col.facets && col.facets_limit > 0 ? documentFacets(withLowerCaseReadings(doc), phrases, sentiment, themesSection?.background) : []
  const names: string[] = []
  if (col.facets && col.facets_limit > 0) {
    for (const p of phrases) if (p.isProper) p.words.forEach((w, k) => p.proper[k] === true && names.push(w))
  }
  const themes =
    col.themes && col.themes_limit > 0
      ? (themesSection?.themes ?? []).map((t) => ({
          normalized: t.normalized,
          title: t.title,
          phrases: t.spans.length,
          score: t.sentiment.score,
          mentions: withMentions ? plainMentions(spanMentions(doc, t.spans, Infinity)) : [],
        }))
      : []
  const entities = ((sections['entities'] as Entity[] | undefined) ?? []).map((e) => ({
    type: e.type,
    entity_type: e.entity_type,
    title: e.title,
    label: e.label,
    polarity: e.sentiment_polarity,
    mentions: withMentions ? plainMentions(e.mentions) : [],
  }))
  const topicsSection = sections['topics'] as TopicsSection | undefined
  const topics: DiscoveryPart['topics'][number][] = []
  for (const kind of ['query', 'concept'] as const) {
    for (const t of (kind === 'query' ? topicsSection?.topics : topicsSection?.concepts) ?? []) {
      topics.push({ kind, id: t.id, title: t.title, hitcount: t.hitcount, score: t.sentiment.score })
    }
  }
  let words = 0
  for (const t of doc.tokens) if (t.kind === 'word') words++
  return { index: part.index, words, facets, names, themes, entities, topics }
}

interface Tally {
  count: number
  positive: number
  negative: number
  neutral: number
}
const tally = (): Tally => ({ count: 0, positive: 0, negative: 0, neutral: 0 })
const add = (t: Tally, p: Polarity): void => {
  t.count++
  t[p]++
}
const byText = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0)

/**
 * Collection mentions: one per label and negation (a negated "hotel" and a plain one are two mentions, so one
 * negation never marks every occurrence), locations with the text's `index`, in order of first appearance.
 */
class MentionSet {
  private readonly byKey = new Map<string, Mention>()
  add(m: PartMention, index: number): void {
    const key = `${m.label}\u0000${m.is_negated ? 1 : 0}\u0000${m.negating_phrase ?? ''}`
    let entry = this.byKey.get(key)
    if (entry === undefined) {
      entry = { label: m.label, is_negated: m.is_negated, locations: [] as Location[] }
      if (m.negating_phrase !== undefined) entry.negating_phrase = m.negating_phrase
      this.byKey.set(key, entry)
    }
    for (const l of m.locations) entry.locations.push({ index, offset: l.offset, length: l.length })
  }
  list(limit: number): Mention[] {
    return [...this.byKey.values()].slice(0, limit)
  }
}

/** Aggregate the analysed texts of a collection into the Discovery output (see {@link aggregateParts}). */
export function aggregateCollection(parts: readonly CollectionPart[], config: Configuration, base: CollectionOutput): CollectionOutput {
  const sentiment = parts.find((p) => p.sections.sentiment !== undefined)?.sections.sentiment
  const polarityOf = (score: number): Polarity => sentiment?.polarityOf(score) ?? 'neutral'
  return aggregateParts(parts.map((p) => discoveryPart(p, config)), config, base, polarityOf)
}

/**
 * The facet each occurrence counts towards: its compound ("wine list", "air conditioning") when most occurrences of
 * its head in the collection stand in that compound, else its head ("hotel room" counts as "room" where rooms are
 * mostly just rooms).
 */
export function facetOf(parts: readonly DiscoveryPart[]): (o: PartFacet) => string {
  const heads = new Map<string, number>()
  const compounds = new Map<string, number>()
  for (const p of parts) {
    for (const o of p.facets) {
      heads.set(o.facet, (heads.get(o.facet) ?? 0) + 1)
      if (o.compound !== undefined) compounds.set(o.compound, (compounds.get(o.compound) ?? 0) + 1)
    }
  }
  return (o) => (o.compound !== undefined && 2 * (compounds.get(o.compound) ?? 0) > (heads.get(o.facet) ?? 0) ? o.compound : o.facet)
}

/** A facet's standing in the collection, for the choice of facets. */
interface FacetEntry {
  readonly facet: string
  readonly t: Tally
  readonly texts: Set<number>
  lower: number
  names: number
  zipf: number
  readonly atts: Map<string, { count: number; mentions: MentionSet }>
  readonly mentions: MentionSet
}

/**
 * Whether a facet is a thing the collection talks about rather than an everyday word that happens to recur ("job",
 * "head", "future"): it must be more frequent in the collection than in everyday English (the themes' background
 * list: keyness in zipf units, so the more common a word is, the more often the collection must use it). Heads
 * written capitalised inside sentences at least as often as in lower case are names ("Bellagio"), which are
 * entities, not facets. (Occurrences that are no facets, "2 hours", "Book early", "a good choice", never get here:
 * see {@link documentFacets}.)
 */
function isFacet(f: FacetEntry, collectionWords: number): boolean {
  if (f.lower === 0 || f.names >= f.lower) return false
  const perBillion = (f.t.count / Math.max(1, collectionWords)) * 1e9
  return Math.log10(perBillion) - f.zipf >= FACET_MIN_KEYNESS
}

/** Least keyness (zipf in the collection minus zipf in everyday English) of a facet. */
export const FACET_MIN_KEYNESS = 0.5

/**
 * Aggregate per-text results into the Discovery output, a pure function of its arguments:
 * - entities, one per title and type (named or user), with the entity type most texts gave it ("Bellagio" as a
 *   Place in 48 texts and a Person in 13 is one Place), counted per text by the entity's own polarity;
 * - themes with the texts and phrases that hold them, sentiment the mean over those texts;
 * - facets (head nouns of the common-noun phrases the collection evaluates), counted per occurrence by the
 *   occurrence's aspect polarity, with the attributes attached to them anywhere in the collection (a pair is
 *   reported when it occurs at least twice);
 * - query and concept topics with their hits.
 * Each list is ordered by count, then title; limits are the configuration's collection limits.
 */
export function aggregateParts(parts: readonly DiscoveryPart[], config: Configuration, base: CollectionOutput, polarityOf: (score: number) => Polarity): CollectionOutput {
  const col = config.collection
  const out: CollectionOutput = { ...base }
  const withMentions = col.mentions

  if ((col.named_entities && col.named_entities_limit > 0) || (col.user_entities && col.user_entities_limit > 0)) {
    interface EntityEntry {
      type: Entity['type']
      key: string
      t: Tally
      types: Map<string, number>
      titles: Map<string, number>
      labels: Map<string, number>
      mentions: MentionSet
    }
    const byKey = new Map<string, EntityEntry>()
    for (const p of parts) {
      const seen = new Set<string>()
      for (const e of p.entities) {
        const key = `${e.type}\u0000${e.title.toLowerCase()}`
        let entry = byKey.get(key)
        if (entry === undefined) {
          entry = { type: e.type, key, t: tally(), types: new Map(), titles: new Map(), labels: new Map(), mentions: new MentionSet() }
          byKey.set(key, entry)
        }
        for (const m of e.mentions) entry.mentions.add(m, p.index)
        if (seen.has(key)) continue
        seen.add(key)
        add(entry.t, e.polarity)
        entry.types.set(e.entity_type, (entry.types.get(e.entity_type) ?? 0) + 1)
        entry.titles.set(e.title, (entry.titles.get(e.title) ?? 0) + 1)
        entry.labels.set(e.label, (entry.labels.get(e.label) ?? 0) + 1)
      }
    }
    const majority = (m: Map<string, number>): string => [...m].sort((a, b) => b[1] - a[1] || byText(a[0], b[0]))[0]![0]
    const rank = (list: EntityEntry[], limit: number, mentionsLimit: number): CollectionEntity[] =>
      list
        .map((e) => ({ e, title: majority(e.titles) }))
        .sort((a, b) => b.e.t.count - a.e.t.count || byText(a.title, b.title))
        .slice(0, limit)
        .map(({ e, title }) => {
          const item: CollectionEntity = {
            title,
            label: majority(e.labels),
            type: e.type,
            entity_type: majority(e.types),
            count: e.t.count,
            negative_count: e.t.negative,
            positive_count: e.t.positive,
            neutral_count: e.t.neutral,
          }
          if (withMentions && mentionsLimit > 0) item.mentions = e.mentions.list(mentionsLimit)
          return item
        })
    const all = [...byKey.values()]
    const user = col.user_entities ? rank(all.filter((x) => x.type === 'user'), col.user_entities_limit, col.user_mentions_limit) : []
    const named = col.named_entities ? rank(all.filter((x) => x.type === 'named'), col.named_entities_limit, col.named_mentions_limit) : []
    if (user.length + named.length > 0) out.entities = [...user, ...named]
  }

  if (col.themes && col.themes_limit > 0) {
    const byTheme = new Map<string, { title: string; texts: number; phrases: number; sum: number; mentions: MentionSet }>()
    for (const p of parts) {
      for (const t of p.themes) {
        const entry = byTheme.get(t.normalized) ?? { title: t.title, texts: 0, phrases: 0, sum: 0, mentions: new MentionSet() }
        entry.texts++
        entry.phrases += t.phrases
        entry.sum += t.score
        for (const m of t.mentions) entry.mentions.add(m, p.index)
        byTheme.set(t.normalized, entry)
      }
    }
    const themes: CollectionTheme[] = [...byTheme.values()]
      .sort((a, b) => b.texts - a.texts || b.phrases - a.phrases || byText(a.title, b.title))
      .slice(0, col.themes_limit)
      .map((t) => {
        const score = round4(t.sum / t.texts)
        const item: CollectionTheme = {
          title: t.title,
          phrases_count: t.phrases,
          themes_count: t.texts,
          sentiment_score: score,
          sentiment_polarity: polarityOf(score),
        }
        if (withMentions && col.theme_mentions_limit > 0) item.mentions = t.mentions.list(col.theme_mentions_limit)
        return item
      })
    if (themes.length > 0) out.themes = themes
  }

  if (col.facets && col.facets_limit > 0) {
    const facets = new Map<string, FacetEntry>()
    const keyOf = facetOf(parts)
    const nameCounts = new Map<string, number>()
    let words = 0
    for (const p of parts) {
      words += p.words
      for (const n of p.names) nameCounts.set(n, (nameCounts.get(n) ?? 0) + 1)
      for (const o of p.facets) {
        const key = keyOf(o)
        let f = facets.get(key)
        if (f === undefined) {
          f = { facet: key, t: tally(), texts: new Set(), lower: 0, names: 0, zipf: o.zipf, atts: new Map(), mentions: new MentionSet() }
          facets.set(key, f)
        }
        add(f.t, o.polarity)
        f.texts.add(p.index)
        if (o.casing === 'lower') f.lower++
        else if (o.casing === 'name') f.names++
        const asCompound = key === o.compound && o.compoundLabel !== undefined
        const label = asCompound ? o.compoundLabel! : o.label
        const location = asCompound ? { offset: o.compoundOffset!, length: o.compoundLength! } : o
        f.mentions.add({ label, is_negated: o.negated, ...(o.negatingPhrase !== undefined ? { negating_phrase: o.negatingPhrase } : {}), locations: [location] }, p.index)
        const seen = new Set<string>()
        for (const a of o.attributes) {
          if (seen.has(a.label)) continue
          seen.add(a.label)
          let att = f.atts.get(a.label)
          if (att === undefined) {
            att = { count: 0, mentions: new MentionSet() }
            f.atts.set(a.label, att)
          }
          att.count++
          att.mentions.add({ label: a.text, is_negated: a.label.startsWith('not '), locations: [a] }, p.index)
        }
      }
    }
    for (const f of facets.values()) f.names += nameCounts.get(f.facet) ?? 0
    const list: Facet[] = [...facets.values()]
      .filter((f) => isFacet(f, words))
      .sort((a, b) => b.t.count - a.t.count || byText(a.facet, b.facet))
      .slice(0, col.facets_limit)
      .map((f) => {
        const item: Facet = {
          label: f.facet,
          count: f.t.count,
          negative_count: f.t.negative,
          positive_count: f.t.positive,
          neutral_count: f.t.neutral,
        }
        if (col.attributes && col.facet_atts_limit > 0) {
          const atts: FacetAttribute[] = [...f.atts]
            .filter(([, a]) => a.count >= 2)
            .sort((a, b) => b[1].count - a[1].count || byText(a[0], b[0]))
            .slice(0, col.facet_atts_limit)
            .map(([label, a]) => {
              const att: FacetAttribute = { label, count: a.count }
              if (withMentions && col.attribute_mentions_limit > 0) att.mentions = a.mentions.list(col.attribute_mentions_limit)
              return att
            })
          if (atts.length > 0) item.attributes = atts
        }
        if (withMentions && col.facet_mentions_limit > 0) item.mentions = f.mentions.list(col.facet_mentions_limit)
        return item
      })
    if (list.length > 0) out.facets = list
  }

  const topics: CollectionTopic[] = []
  for (const kind of ['query', 'concept'] as const) {
    const limit = kind === 'query' ? (col.query_topics ? col.query_topics_limit : 0) : col.concept_topics ? col.concept_topics_limit : 0
    if (limit <= 0) continue
    const byId = new Map<string, { title: string; hitcount: number; texts: number; sum: number }>()
    for (const p of parts) {
      for (const t of p.topics) {
        if (t.kind !== kind) continue
        const entry = byId.get(t.id) ?? { title: t.title, hitcount: 0, texts: 0, sum: 0 }
        entry.hitcount += t.hitcount
        entry.texts++
        entry.sum += t.score
        byId.set(t.id, entry)
      }
    }
    for (const [id, t] of [...byId].sort((a, b) => b[1].hitcount - a[1].hitcount || byText(a[1].title, b[1].title)).slice(0, limit)) {
      const score = round4(t.sum / t.texts)
      topics.push({ id, title: t.title, type: kind, hitcount: t.hitcount, sentiment_score: score, sentiment_polarity: polarityOf(score) })
    }
  }
  if (topics.length > 0) out.topics = topics
  return out
}
