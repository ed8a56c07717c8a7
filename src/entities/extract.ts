/**
 * Entity extraction over an annotated document: tagger spans, lexicon entities (Job Title, Product)
 * and pattern entities (Email, URL, Phone, Date, Money, Percentage, Hashtag, Mention), merged into one
 * entity per real-world thing with all its mentions.
 *
 * Type mapping from the tagger: PER -> Person, ORG -> Company, LOC -> Place. MISC (nationalities and
 * other adjectives such as "German", events such as "World Cup", languages, works, ideologies) has no
 * contract type and is dropped, except where a MISC span matches the product lexicon, which makes it a
 * Product (as does any product-lexicon match outside a tagger span).
 *
 * Overlaps are resolved by priority, a higher one taking the tokens first:
 * Email, URL, Phone, Mention, Hashtag > Product, lexicon or suffix-pattern Company > tagger's Person, Company,
 * Place > Job Title > Date, Money, Percentage; within a level the earlier, then the longer, match wins.
 * Companies also come from `companies.tsv` (well-known names the 1996 training news lacks) and from a
 * corporate-suffix pattern (capitalised words before Inc., Corp., Ltd, plc, LLC, GmbH, AG); a lexicon
 * company inside a longer tagger span ("Ford" in the Person "Rob Ford") is left to the tagger.
 * Known entities (`known-entities.tsv`: people, companies, bands, sports teams, places, products) outrank the
 * tagger the same way ("Paris Hilton" is a Person, "New England Patriots" a Company), and its Other entries
 * (awards, events, abbreviations such as "AI") remove the tagger spans they cover. "City, State" (a US state
 * or Canadian province after a comma) makes both places.
 * Punctuation tokens at the edges of a tagger span are trimmed off; a span of punctuation only is dropped, and
 * so is a span of common non-name words capitalised only by where it stands (first in its sentence, or in a
 * title-case headline: "Join us", "Know Sometimes What You Want").
 * One entity, one type: the tagger's mentions of the same words take the type with the most summed
 * confidence, and a single word ending a longer Person mention of the document is that Person.
 *
 * Merging (one entity per thing):
 * - Person: a mention whose tokens appear as a contiguous run inside a longer Person mention of the same
 *   document ("Cook" in "Tim Cook") belongs to that person (the nearest preceding one, else the first).
 * - Company: mentions with the same key merge, the key being the lower-cased name without a leading
 *   "the" and without corporate suffixes (Inc., Corp., Ltd, plc, ...) ("Apple Inc." and "Apple"); a
 *   shorter key that is a leading run of a longer one merges into it ("Apple" into "Apple Computer").
 * - Every other type: mentions with the same lower-cased text merge.
 * The title is the longest mention's text (ties: the first), Job Title and Product use the lexicon's
 * normalized title, and corporate suffixes are kept in a Company title ("Apple Inc.").
 *
 * Ordering: evidence (mention count) descending, then first mention position, then entity type, then title.
 *
 * `is_about` (salience, see `chooseAbout`): the most mentioned Person, Company, Place or Product, every
 * such entity with at least half its mentions (and 2 or more), and every such entity of a one-sentence text
 * or of a headline first sentence; pattern and Job Title entities are never about.
 *
 * `confidence` of a tagger entity: the mean over its mentions of a calibrated probability (x100) from the
 * tagger's margin, the span's shape and position, and agreement of the lexicons and gazetteer
 * (`calibration.json`, fitted by `bench/calibrate-ner.ts`); lexicon entities 90-95, patterns 100.
 */
import type { AnnotatedDocument, Token } from '../nlp/types.ts'
import { NAME_PARTICLES } from '../nlp/name-particles.ts'
import { DATELINE_PLACE, datelineWords } from '../nlp/datelines.ts'
import { AP_FULL_STATES, AP_STATE_ABBREVIATIONS, US_POSTAL_CODES } from '../nlp/us-states.ts'
import { createEntityTagger, nerLexiconDir, readCommonWords, readNerFile, type EntityTagger } from './tagger.ts'
import type { TaggedSpan } from './tagger-decoder.ts'
import { readGazetteer, readPhraseTable } from './gazetteer.ts'
import { fineCluster, isCapsSentence, isTitleSentence, TITLE_SMALL, type WordClusters } from './features.ts'

/** The contract's entity types produced here. */
export type ContractEntityType =
  | 'Person'
  | 'Company'
  | 'Place'
  | 'Product'
  | 'Job Title'
  | 'Email'
  | 'URL'
  | 'Phone'
  | 'Date'
  | 'Money'
  | 'Percentage'
  | 'Hashtag'
  | 'Mention'

/** One mention: a token range of the document and where it stands in the text. */
export interface EntityMention {
  /** First token (index into `doc.tokens`). */
  readonly tokenStart: number
  /** One past the last token. */
  readonly tokenEnd: number
  /** The text found. */
  readonly label: string
  /** UTF-16 offsets into `doc.text`. */
  readonly start: number
  readonly end: number
  /** Byte offset and length in the UTF-8 text (what the wire reports). */
  readonly byteOffset: number
  readonly byteLength: number
  /** Confidence of this mention, 0..100. */
  readonly confidence: number
}

/** One extracted entity with all its mentions (in text order). */
export interface ExtractedEntity {
  /** Normalized name: the longest mention (full name), or the lexicon's title. */
  readonly title: string
  readonly entity_type: ContractEntityType
  /** Number of mentions. */
  readonly evidence: number
  /** Whether the document is about this entity (see the module comment for the rule). */
  readonly is_about: boolean
  /**
   * 0..100: the mean over mentions of the tagger's confidence (logistic of the label margin) for
   * tagger entities; 100 for pattern matches (Email, URL, Phone, Date, Money, Percentage, Hashtag,
   * Mention); 90 for lexicon matches (Job Title, Product). Compare with `entities_threshold`.
   */
  readonly confidence: number
  readonly mentions: readonly EntityMention[]
}

/** A phrase lexicon: lower-cased token phrases -> normalized title. */
export interface PhraseLexicon {
  readonly phrases: ReadonlyMap<string, string>
  readonly maxTokens: number
  /** Every leading run of tokens of every phrase: matching stops as soon as none continues. */
  readonly prefixes: ReadonlySet<string>
}

/** Resources and switches of {@link extractEntities}. */
export interface ExtractOptions {
  /** Job titles. @defaultValue the committed `lexicons/en/ner/job-titles.tsv` */
  readonly jobTitles?: PhraseLexicon
  /** Products. @defaultValue the committed `lexicons/en/ner/products.tsv` */
  readonly products?: PhraseLexicon
  /** Well-known companies (found even where the tagger, trained on 1996 news, misses them). @defaultValue the committed `lexicons/en/ner/companies.tsv` */
  readonly companies?: PhraseLexicon
  /**
   * Known entities with their type (`phrase -> "Type<TAB>Title"`): people, companies, bands, sports teams, places,
   * products, and Other (awards, events, abbreviations: never an entity of ours). @defaultValue the committed
   * `lexicons/en/ner/known-entities.tsv`
   */
  readonly known?: PhraseLexicon
  /**
   * Common English words that do not look like names ({@link commonNonNameWords}). A tagger span of such words
   * alone, capitalised only by its position (first in a sentence, or in a title-case headline), is not a name.
   * @defaultValue the committed `lexicons/en/ner/common-words.txt`
   */
  readonly commonWords?: ReadonlySet<string>
  /**
   * Gazetteer phrases (places, countries) of the tagger: agreement raises a Place's probability. Only looked up: the
   * gazetteer's own phrase table serves, no second set of its 8,500 phrases. @defaultValue the committed `gazetteer.tsv`
   */
  readonly places?: Pick<ReadonlySet<string>, 'has'>
  /** Calibration of the tagger's span probabilities; without it the tagger's confidence is used as is. @defaultValue the committed `calibration.json` */
  readonly calibration?: Calibration
  /** When given, filled with what each stage did (for the loss breakdown of `bench/eval-ner.ts`). */
  readonly trace?: ExtractTrace
}

/** A span of document tokens with its contract type and where it came from, as recorded by a trace. */
export interface TracedSpan {
  readonly type: ContractEntityType | 'MISC'
  readonly start: number
  readonly end: number
  readonly source: 'tagger' | 'lexicon' | 'pattern'
  /** Calibration features of a tagger span ({@link CALIBRATION_FEATURES}). */
  readonly features?: readonly number[]
}

/** Names of the features a tagger span's probability is calibrated on, in order. */
export const CALIBRATION_FEATURES = [
  'logit of the tagger confidence (mean label margin)',
  'one token',
  'first word of its sentence',
  'in a headline (title case or capitals)',
  'every word a common non-name word',
  'a lexicon or gazetteer lists the words with the same type',
  'a lexicon lists the words with another type',
] as const

/**
 * Logistic calibration of a tagger span's probability of being right (span and type), fitted by
 * `bench/calibrate-ner.ts`: p = 1 / (1 + exp(-(bias + sum of weight x feature))).
 */
export interface Calibration {
  readonly weights: readonly number[]
  readonly bias: number
}

/** Parse `calibration.json`; throws naming what is wrong. */
export function readCalibration(text: string, source = 'calibration.json'): Calibration {
  const v = JSON.parse(text) as { weights?: unknown; bias?: unknown }
  if (!Array.isArray(v.weights) || v.weights.length !== CALIBRATION_FEATURES.length || !v.weights.every((x) => typeof x === 'number') || typeof v.bias !== 'number') {
    throw new Error(`${source}: expected { weights: ${CALIBRATION_FEATURES.length} numbers, bias: number }, instead found ${text.slice(0, 80)}`)
  }
  return { weights: v.weights as number[], bias: v.bias }
}

/** Calibrated probability (0..1) of a tagger span given its features. */
export function calibrated(c: Calibration, features: readonly number[]): number {
  let z = c.bias
  for (let k = 0; k < features.length; k++) z += (c.weights[k] ?? 0) * (features[k] ?? 0)
  return 1 / (1 + Math.exp(-z))
}

/**
 * What {@link extractEntities} did, stage by stage: the tagger's spans as decoded (type mapped, MISC kept
 * as 'MISC'), the candidates after post-processing (edge punctuation, a job title before a name), and the
 * candidates that lost their tokens to a higher-priority candidate, with the type of the one that won.
 */
export interface ExtractTrace {
  tagger: TracedSpan[]
  candidates: TracedSpan[]
  overridden: Array<TracedSpan & { readonly by: ContractEntityType; readonly bySource: TracedSpan['source'] }>
}

/** Parse a `phrase<TAB>title` lexicon (`#` comment lines). Throws naming the line when malformed. */
export function readPhraseLexicon(tsv: string, source = 'lexicon'): PhraseLexicon {
  return readPhraseTable(tsv, source, 'title', true)
}

/** Load the committed job-title and product lexicons (the defaults of {@link extractEntities}). */
export function loadEntityLexicons(dataDir?: string): Required<Omit<ExtractOptions, 'trace'>> {
  const dir = nerLexiconDir(dataDir)
  const read = (name: string): PhraseLexicon => readPhraseLexicon(readNerFile(name, dataDir).toString('utf8'), dir + name)
  const known = readPhraseTable(readNerFile('known-entities.tsv', dataDir).toString('utf8'), dir + 'known-entities.tsv', 'type<TAB>title')
  known.phrases.forEach((v, phrase) => {
    const type = v.split('\t')[0]
    if (!KNOWN_TYPES.has(type ?? '') || !v.includes('\t')) {
      throw new Error(`${dir}known-entities.tsv: "${phrase}" should have a type among ${[...KNOWN_TYPES].join(', ')} and a title, instead found ${JSON.stringify(v)}`)
    }
  })
  const places = readGazetteer(readNerFile('gazetteer.tsv', dataDir).toString('utf8'), dir + 'gazetteer.tsv').phrases
  const commonWords = readCommonWords(dataDir)
  const calibration = readCalibration(readNerFile('calibration.json', dataDir).toString('utf8'), dir + 'calibration.json')
  return { jobTitles: read('job-titles.tsv'), products: read('products.tsv'), companies: read('companies.tsv'), known, commonWords, places, calibration }
}

/**
 * Common English words that do not look like names (what `common-words.txt` holds; `bench/build-ner-common-words.ts`
 * writes it): SUBTLEX zipf >= 4.8, in a fine word cluster where under 5% of the words are words of a gazetteer
 * phrase or of a known Person, Company or Place. Sorted.
 */
export function commonNonNameWords(clusters: WordClusters, places: Iterable<string>, known: PhraseLexicon, background: ReadonlyMap<string, number>): string[] {
  const nameWords = new Set<string>()
  for (const phrase of places) for (const w of phrase.split(' ')) nameWords.add(w)
  known.phrases.forEach((v, phrase) => {
    if (!v.startsWith('Other\t') && !v.startsWith('Product\t')) for (const w of phrase.split(' ')) nameWords.add(w)
  })
  const size = new Map<number, number>()
  const names = new Map<number, number>()
  for (const [word, packed] of clusters) {
    const fine = fineCluster(packed)
    size.set(fine, (size.get(fine) ?? 0) + 1)
    if (nameWords.has(word)) names.set(fine, (names.get(fine) ?? 0) + 1)
  }
  const out: string[] = []
  for (const [word, zipf] of background) {
    if (zipf < COMMON_ZIPF) continue
    const packed = clusters.get(word)
    if (packed === undefined) continue
    const fine = fineCluster(packed)
    if ((names.get(fine) ?? 0) < NAME_CLUSTER_SHARE * (size.get(fine) ?? 1)) out.push(word)
  }
  return out.sort()
}

const US_STATES = new Set([
  'alabama', 'alaska', 'arizona', 'arkansas', 'california', 'colorado', 'connecticut', 'delaware', 'florida', 'georgia', 'hawaii',
  'idaho', 'illinois', 'indiana', 'iowa', 'kansas', 'kentucky', 'louisiana', 'maine', 'maryland', 'massachusetts', 'michigan',
  'minnesota', 'mississippi', 'missouri', 'montana', 'nebraska', 'nevada', 'new hampshire', 'new jersey', 'new mexico', 'new york',
  'north carolina', 'north dakota', 'ohio', 'oklahoma', 'oregon', 'pennsylvania', 'rhode island', 'south carolina', 'south dakota',
  'tennessee', 'texas', 'utah', 'vermont', 'virginia', 'washington', 'west virginia', 'wisconsin', 'wyoming', 'ontario', 'quebec',
  'british columbia', 'alberta',
])

const KNOWN_TYPES = new Set(['Person', 'Company', 'Place', 'Product', 'Other'])
/** SUBTLEX zipf from which a word counts as common (about the 1,000 most frequent words). */
const COMMON_ZIPF = 4.8
/** A word cluster with at least this share of name words is name-like: its common words may be names (Michael, Paris). */
const NAME_CLUSTER_SHARE = 0.05
/** Tagger confidence from which a span of common words in a title-case line is kept as a name. */
const SURE_IN_TITLE_CASE = 0.98
/** Calibrated confidence (x100) under which a headline span starting with a known name is cut to that name. */
const UNSURE_IN_HEADLINE = 50

const PATTERN_TYPES: Readonly<Record<string, ContractEntityType>> = {
  EMAIL: 'Email',
  URL: 'URL',
  DATE: 'Date',
  MONEY: 'Money',
  PERCENT: 'Percentage',
  HASHTAG: 'Hashtag',
  MENTION: 'Mention',
}

const PRIORITY: Readonly<Record<ContractEntityType, number>> = {
  Email: 6,
  URL: 6,
  Phone: 6,
  Mention: 6,
  Hashtag: 6,
  Product: 5,
  Person: 4,
  Company: 4,
  Place: 4,
  'Job Title': 3,
  Date: 2,
  Money: 2,
  Percentage: 2,
}

const TAGGER_TYPES = { PER: 'Person', ORG: 'Company', LOC: 'Place' } as const

/**
 * Phone numbers: an optional +country code, then groups of digits separated by spaces, dots, hyphens
 * or a bracketed area code; 7 to 15 digits in all, and not part of a longer number or word.
 */
const PHONE = /(?<![\w+.-])(?:\+\d{1,3}[\s.-]?)?(?:\(\d{1,4}\)[\s.-]?)?\d{2,4}(?:[\s.-]\d{2,4}){1,4}(?![\w-]|\.\d)/g

const CORPORATE_SUFFIX = new Set([
  'inc', 'inc.', 'incorporated', 'corp', 'corp.', 'corporation', 'co', 'co.', 'company', 'ltd', 'ltd.', 'limited',
  'llc', 'plc', 'ag', 'sa', 's.a.', 'nv', 'n.v.', 'gmbh', 'bv', 'b.v.', 'group', 'holdings', 'lp', 'l.p.',
])

/** A possessive ending as wink tokenizes it: 's, ’s, or a lone apostrophe after a plural. */
const POSSESSIVE = /^['’]s?$/i
const HAS_ALNUM = /[\p{L}\p{N}]/u

/** A month name or a 4-digit year: what makes a wink DURATION a date. */
const DATE_WORD = /\b(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?|1[5-9]\d\d|20\d\d)\b/i

const CORPORATE_SUFFIX_PATTERN = new Set(['Inc', 'Inc.', 'Corp', 'Corp.', 'Ltd', 'Ltd.', 'LLC', 'plc', 'PLC', 'GmbH', 'AG'])

/** Title abbreviations that stand before a name: never the last word of an organisation or place. */
const TITLE_ABBREVIATION = new Set(['Lt.', 'Lt', 'Capt.', 'Sgt.', 'Gen.', 'Col.', 'Maj.', 'Cmdr.', 'Adm.', 'Cpl.', 'Pvt.', 'Sen.', 'Rep.', 'Gov.', 'Dr.', 'Mr.', 'Mrs.', 'Ms.', 'Insp.', 'Det.', 'Supt.'])
/** Royal and honorific titles before a person's name (not job titles: "king" is also a bed size). */
const HONORIFIC = new Set(['King', 'Princess', 'Sheikh', 'Sheikha'])
/** Generational suffixes after a name. */
const GENERATIONAL = /^(?:Jr\.?|Sr\.?|III|IV)$/
/** Words that open an apposition or a relative clause after a name and a comma ("Brown, who ...", "Brown, the striker"). */
const APPOSITION_START = new Set(['who', 'whom', 'whose', 'which', 'where', 'the', 'a', 'an', 'his', 'her', 'its', 'their', 'our', 'my', 'aged', 'now', 'then', 'once', 'also', 'too', 'however', 'meanwhile', 'said', 'says', 'added', 'told', 'was', 'is', 'has', 'had', 'and', 'or', 'but', 'along', 'together', 'alongside', 'like', 'as', 'in', 'at', 'of', 'from', 'on', 'with', 'for', 'by'])
/** Capitalised government bodies after a nationality ("Chinese Government"). */
const GOVERNMENT_BODY = new Set(['Government', 'Parliament', 'Embassy', 'Army', 'Navy', 'Cabinet', 'Consulate', 'Legislature', 'Senate'])
/** Last words of a body's name: a span the tagger calls a place is an organisation ("Oberlin College"). */
const ORGANISATION_HEAD = new Set([
  'University', 'College', 'Institute', 'Society', 'Association', 'Agency', 'Commission', 'Committee', 'Council', 'Party',
  'Foundation', 'Ministry', 'Department', 'Bureau', 'Corporation', 'Network', 'Radio', 'Television', 'Opera',
  'Orchestra', 'Academy', 'League', 'Board', 'Service', 'Services', 'Police', 'Army', 'Navy', 'Government',
  // ... and of a business's name ("Jones Medical", "Daniels Pharmaceuticals", "Johnson Controls").
  'Medical', 'Pharmaceutical', 'Pharmaceuticals', 'Industries', 'Motors', 'Airlines', 'Airways', 'Bank', 'Bancorp', 'Systems',
  'Technologies', 'Technology', 'Controls', 'Energy', 'Financial', 'Capital', 'Partners', 'Securities', 'Resources',
  'Communications', 'Electric', 'Electronics', 'Petroleum', 'Foods', 'Insurance', 'Telecom', 'Entertainment', 'Software',
  'Brewing', 'Mining', 'Chemicals', 'Enterprises', 'Investments', 'Trust', 'Realty', 'Pictures', 'Records',
  // ... and of a restaurant's or a shop's, which reviews name ("Shake Shack", "Guess Jeans").
  'Shack', 'Grill', 'Cafe', 'Café', 'Bistro', 'Diner', 'Bakery', 'Pizzeria', 'Steakhouse', 'Brewery', 'Burgers', 'Jeans',
])
/** Day and month names: "Thursday and NATO" is not one name. */
const DAY_OR_MONTH = /^(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday|january|february|march|april|may|june|july|august|september|october|november|december)$/i
/** Last words of a place's name: a span the tagger calls a person or organisation is a place ("Lomsak District"). */
const PLACE_HEAD = new Set(['District', 'Province', 'Prefecture', 'Street', 'Avenue', 'Island', 'Islands', 'River', 'Strait', 'Peninsula'])
/** Last words of an event's name (a tournament, race, festival): the span is the event, not a place or body. */
const EVENT_HEAD = new Set(['Open', 'Marathon', 'Cup', 'Championship', 'Championships', 'Games', 'Olympics', 'Festival', 'Prix', 'Tournament', 'Trophy', 'Classic', 'Awards', 'Prize'])
/** The word written with one capital then lower case ("OPEN" and "Open" -> "Open"), or '' when it is not capitalised. */
const titleWord = (w: string | undefined): string => (w !== undefined && /^\p{Lu}/u.test(w) ? w.charAt(0) + w.slice(1).toLowerCase() : '')
/** Whether a capitalised word is a last word of an event's name. */
const isEventHead = (w: string | undefined): boolean => EVENT_HEAD.has(titleWord(w))
/** A Roman numeral of two letters or more (an edition after an event's name: "Super Bowl LVIII"). */
const ROMAN_NUMERAL = /^(?=[MDCLXVI]{2})M{0,3}(?:CM|CD|D?C{0,3})(?:XC|XL|L?X{0,3})(?:IX|IV|V?I{0,3})$/
/** Broadcasters in wire-service credits. */
const BROADCASTER = new Set(['Radio', 'Television', 'TV', 'Broadcasting'])

const PRODUCT_SUFFIX = /^([a-z]{0,3}\d+[a-z]*|pro|max|plus|mini|air|ultra|se|x|s|xl|fe)$/i


/**
 * A Person span, one to three lower-case name particles and a capitalised span the tagger found right after them
 * are one Person ("Prince Mohammed" + "bin" + "Salman", "Erik" + "ten" + "Hag"): the tagger cut the name at the
 * particle. `kept` is sorted by start and is changed in place.
 */
function joinNameParticles(kept: Candidate[], tokens: readonly Token[], lowers: readonly string[]): void {
  for (let k = 0; k + 1 < kept.length; k++) {
    const a = kept[k]!
    const b = kept[k + 1]!
    if (a.type !== 'Person' || b.source !== 'tagger' || !/^(Person|Place|Company)$/.test(b.type)) continue
    const gap = b.start - a.end
    if (gap < 1 || gap > 3) continue
    let particles = true
    for (let i = a.end; i < b.start; i++) if (!NAME_PARTICLES.has(lowers[i]!) || tokens[i]!.text !== lowers[i]) particles = false
    if (!particles) continue
    let capitalised = true
    for (let i = b.start; i < b.end; i++) if (!/^\p{Lu}/u.test(tokens[i]!.text)) capitalised = false
    if (!capitalised || b.end - b.start > 2) continue
    kept.splice(k, 2, { ...a, end: b.end, confidence: Math.min(a.confidence, b.confidence) })
    k--
  }
}

/**
 * A candidate mention. Every candidate has every field, in this order (made by {@link candidate} or copied whole):
 * with optional fields left out, the candidates of a document came in several hidden classes, and V8 threw away and
 * recompiled `extractEntities`, about 20 KB of bytecode, each time a new one reached its optimised code (9 compiles
 * of 160-240 ms each in a 10k-document backlog).
 */
interface Candidate {
  type: ContractEntityType
  start: number
  end: number
  confidence: number
  /** Normalized title from a lexicon, when any. */
  title: string | undefined
  /** Overlap priority when it differs from the type's (lexicon companies outrank the tagger's spans). */
  priority: number | undefined
  /** Where it came from (patterns and lexicons are certain; tagger spans carry the tagger's probability). */
  source: TracedSpan['source']
  /** Calibration features of a tagger span. */
  features: readonly number[] | undefined
}

/** A {@link Candidate} with every field (see there why). */
function candidate(
  type: ContractEntityType,
  start: number,
  end: number,
  confidence: number,
  source: TracedSpan['source'],
  priority?: number,
  title?: string,
  features?: readonly number[],
): Candidate {
  return { type, start, end, confidence, title, priority, source, features }
}

/** A span of the tagger's, as the lexicons weigh it: every field present, in this order (one hidden class). */
interface TaggerSpan {
  start: number
  end: number
  /** The contract type; undefined for the tagger's MISC. */
  type: ContractEntityType | undefined
  /** Calibrated confidence, set once the span is a candidate. */
  confidence: number | undefined
}

/**
 * Extract entities from an annotated document. Pure: the same document, tagger and lexicons give the
 * same entities in the same order. Lexicons left out of `options` are read from `lexicons/en/ner/` on
 * each call: pass {@link loadEntityLexicons}'s result, or use {@link createEntityExtractor}.
 */
export function extractEntities(doc: AnnotatedDocument, tagger: EntityTagger, options: ExtractOptions = {}): ExtractedEntity[] {
  if (doc === null || typeof doc !== 'object' || !Array.isArray(doc.tokens) || !Array.isArray(doc.sentences)) {
    throw new TypeError('extractEntities: doc should be an AnnotatedDocument with tokens and sentences')
  }
  const lex =
    options.jobTitles === undefined || options.products === undefined || options.companies === undefined || options.known === undefined || options.commonWords === undefined || options.places === undefined || options.calibration === undefined
      ? loadEntityLexicons()
      : undefined
  const jobTitles = options.jobTitles ?? lex?.jobTitles
  const products = options.products ?? lex?.products
  const companies = options.companies ?? lex?.companies
  const known = options.known ?? lex?.known
  const commonWords = options.commonWords ?? lex?.commonWords
  const places = options.places ?? lex?.places
  const calibration = options.calibration ?? lex?.calibration
  const tokens = doc.tokens
  const candidates: Candidate[] = []
  const trace = options.trace

  const lowers = tokens.map((t) => t.text.toLowerCase())
  const dateline = datelineWords(tokens)

  // 1. Tagger over the sentences' word tokens (whitespace tokens left out, indices mapped back).
  // Words joined by hyphens without spaces ("Al-Akhbar", "Amman-bound", "Kim In-so") are one tagger token, as
  // in the CoNLL data the tagger learnt from (wink splits them); `sentenceEnd` holds each word's last token + 1.
  const sentenceTokens: string[][] = []
  const sentenceIndex: number[][] = []
  const sentenceEnd: number[][] = []
  // A list number that the sentence splitter cut off ("3." before "Rose Cheruiyot ( Kenya ) 15:05.41") opens the
  // next sentence as one word, as in CoNLL: alone, the name that follows loses its context.
  let listNumber: { word: string; index: number; end: number } | undefined
  // Tagger sentences that open with such a number: their first word after it stands first ("2. Plan to visit").
  const listOpened = new Set<number>()
  for (const s of doc.sentences) {
    const words: string[] = []
    const idx: number[] = []
    const ends: number[] = []
    const first = tokens[s.tokenStart]
    const dot = tokens[s.tokenStart + 1]
    if (s.tokenEnd - s.tokenStart === 2 && first !== undefined && dot !== undefined && /^\d{1,3}$/.test(first.text) && dot.text === '.' && !dot.spaceBefore) {
      listNumber = { word: first.text + '.', index: s.tokenStart, end: s.tokenStart + 2 }
      continue
    }
    if (listNumber !== undefined) {
      listOpened.add(sentenceTokens.length)
      words.push(listNumber.word)
      idx.push(listNumber.index)
      ends.push(listNumber.end)
      listNumber = undefined
    }
    for (let i = s.tokenStart; i < s.tokenEnd; i++) {
      const t = tokens[i]
      if (t === undefined || t.kind === 'tabCRLF' || t.text.trim() === '') continue
      const next = tokens[i + 1]
      if (
        t.text === '-' && !t.spaceBefore && words.length > 0 && ends[ends.length - 1] === i && HAS_ALNUM.test(words[words.length - 1] ?? '') &&
        next !== undefined && i + 1 < s.tokenEnd && !next.spaceBefore && next.kind !== 'tabCRLF' && HAS_ALNUM.test(next.text)
      ) {
        words[words.length - 1] += '-' + next.text
        ends[ends.length - 1] = i + 2
        i++
        continue
      }
      words.push(t.text)
      idx.push(i)
      ends.push(i + 1)
    }
    if (words.length > 0) {
      sentenceTokens.push(words)
      sentenceIndex.push(idx)
      sentenceEnd.push(ends)
    }
  }
  const tagged = tagger.tagDocument(sentenceTokens)
  // Whether the writer uses capitals: some sentence opens with a capital letter.
  const writesCapitals = sentenceTokens.some((ws) => /^\p{Lu}/u.test(ws.find((w) => /\p{L}/u.test(w)) ?? ''))
  // Every tagger span after trimming, MISC included: a lexicon name inside a longer one is that span's word.
  const taggerSpans: TaggerSpan[] = []
  // Sentences written as headlines (title case or capitals), by document token: their capitals say little.
  const headline = new Uint8Array(tokens.length)
  // ... and of those, the ones in capitals.
  const capitalsLine = new Uint8Array(tokens.length)
  const titleCase = new Uint8Array(sentenceTokens.length)
  for (let si = 0; si < sentenceTokens.length; si++) {
    const words = sentenceTokens[si] ?? []
    if (isTitleSentence(words)) titleCase[si] = 1
    const ends = sentenceEnd[si] ?? []
    const caps = isCapsSentence(words)
    if (titleCase[si] === 1 || caps) for (let i = sentenceIndex[si]?.[0] ?? 0; i < (ends[ends.length - 1] ?? 0); i++) headline[i] = 1
    if (caps) for (let i = sentenceIndex[si]?.[0] ?? 0; i < (ends[ends.length - 1] ?? 0); i++) capitalsLine[i] = 1
  }
  for (let si = 0; si < tagged.length; si++) {
    const idx = sentenceIndex[si] ?? []
    const ends = sentenceEnd[si] ?? []
    const words = sentenceTokens[si] ?? []
    for (const span of splitPlaceLists(splitAtJobTitles(tagged[si] ?? [], idx, ends, words, lowers, jobTitles), words, places)) {
      const rawStart = idx[span.start]
      const rawEnd = ends[span.end - 1]
      if (trace !== undefined && rawStart !== undefined && rawEnd !== undefined) {
        trace.tagger.push({ type: span.type === 'MISC' ? 'MISC' : TAGGER_TYPES[span.type], start: rawStart, end: rawEnd, source: 'tagger' })
      }
      // Punctuation at the edges of a span is not part of a name ("!" alone is never an entity).
      let a = span.start
      let b = span.end
      while (a < b && !HAS_ALNUM.test(words[a] ?? '')) a++
      // ... but a closing bracket whose opening one is inside the span stays ("Mladost ( L )").
      while (b > a && !HAS_ALNUM.test(words[b - 1] ?? '') && !(words[b - 1] === ')' && words.slice(a, b - 1).includes('('))) b--
      // Nor is a possessive ending ("Trump's rally": the name is Trump; the tagger learnt some from CoNLL04).
      while (b > a + 1 && POSSESSIVE.test(words[b - 1] ?? '')) b--
      // Nor a title abbreviation before a person's name ("Coast Guard Lt. Steve Carleton": the name is Coast Guard).
      if (span.type !== 'PER') while (b > a + 1 && TITLE_ABBREVIATION.has(words[b - 1] ?? '') && /^\p{Lu}/u.test(words[b] ?? '')) b--
      // A person's name starts after the rank or office before it, as in CoNLL ("Col. Jeffrey Marlette", "Lt. Col. Jane
      // Doe", "Maj. Gen. Pat Ryder", which wink reads "Maj" "." "Gen."); not after Mr., Mrs., Ms. or Dr., which some names
      // keep ("Mr. Bean", "Ms. Marvel"). A span of titles alone before a name is none ("Lt." read as a company, "Adm" as
      // a place).
      if (span.type === 'PER') {
        for (let n = titleAbbreviationAt(words, a, true); n > 0 && b - a > n && /^\p{Lu}/u.test(words[a + n] ?? ''); n = titleAbbreviationAt(words, a, true)) a += n
      } else {
        let k = a
        for (let n = titleAbbreviationAt(words, k); n > 0 && k < b; n = titleAbbreviationAt(words, k)) k += n
        // (wink may end a sentence at the period of "Maj." or "Adm.": the name then opens the next one)
        if (k > a && k >= b && /^\p{Lu}/u.test((k < words.length ? words[k] : sentenceTokens[si + 1]?.[0]) ?? '')) continue
      }
      // Nor a small word that a title-case or capitals headline capitalises ("Hamilton Joins Ferrari For 2025 Season":
      // the name is Ferrari): no name ends in a preposition, article or conjunction.
      if (headline[idx[a] ?? 0] === 1) while (b > a + 1 && TITLE_SMALL.has((words[b - 1] ?? '').toLowerCase())) b--
      // Nor a word in lower case after it when the writer capitalises names ("the Eagles organisation", "First Union
      // bank", "Huize county").
      if (writesCapitals && /^\p{Ll}+$/u.test(words[b - 1] ?? '')) {
        while (b > a + 1 && /^\p{Ll}+$/u.test(words[b - 1] ?? '')) b--
        while (b > a + 1 && !HAS_ALNUM.test(words[b - 1] ?? '')) b--
      }
      if (a === b) continue
      // A verb in the past that opens the sentence is not the name's first word ("Bought Tesla stock", "Flew Delta from
      // Atlanta": a review's subject left out); one in the present may be ("Live Nation", "Shake Shack").
      if (a === (listOpened.has(si) ? 1 : 0) && b - a > 1 && tokens[idx[a] ?? 0]?.pos === 'VERB' && isPastVerb(words[a] ?? '')) {
        const phrase = joinRange(lowers, idx[a] ?? 0, ends[b - 1] ?? 0)
        if (known?.phrases.has(phrase) !== true && companies?.phrases.has(phrase) !== true) a++
      }
      // A generational suffix after a person's name is part of it ("Martin Luther King Jr.", "Ken Griffey Jr",
      // "Martin Luther King III"), as in CoNLL.
      if (span.type === 'PER' && b === span.end && GENERATIONAL.test(words[b] ?? '')) b++
      // A nationality before a government body is an organisation ("the Chinese Government", "the Angolan
      // Parliament"): the tagger reads the adjective as MISC and leaves the capitalised body out.
      if (span.type === 'MISC' && b === span.end && b - a <= 2 && GOVERNMENT_BODY.has(words[b] ?? '') && !/^\p{Lu}/u.test(words[a - 1] ?? '') && !/^\p{Lu}+$/u.test(words[b] ?? '')) {
        const bodyEnd = ends[b]
        const s0 = idx[a]
        if (bodyEnd !== undefined && s0 !== undefined) {
          taggerSpans.push({ start: s0, end: bodyEnd, type: 'Company', confidence: undefined })
          candidates.push(candidate('Company', s0, bodyEnd, 80, 'pattern', 4))
        }
        continue
      }
      // An organisation's name cut short before "and" ("Immigration and Naturalization Service", "Health and Human
      // Services"): a capitalised word mid-sentence that no tagger span holds, then "and", belong to it.
      // Only a body's name ("... Service", "... Commission"), and not a day or month ("Thursday and NATO").
      if (
        span.type === 'ORG' && a >= 3 && a === span.start && b - a >= 2 && ORGANISATION_HEAD.has(words[b - 1] ?? '') && (words[a - 1] === 'and' || words[a - 1] === '&') &&
        /^\p{Lu}\p{Ll}+$/u.test(words[a - 2] ?? '') && !DAY_OR_MONTH.test(words[a - 2] ?? '') && (tagged[si] ?? []).every((o) => o.end <= a - 2 || o.start >= a)
      ) a -= 2
      let start = idx[a]
      const lastEnd = ends[b - 1]
      if (start === undefined || lastEnd === undefined) continue
      const last = lastEnd - 1
      // A title before a name ("Mayor Rob Ford", "President Clinton") is a Job Title, not part of the Person.
      if (span.type === 'PER' && jobTitles !== undefined) {
        const titleEnd = lexiconMatchAt(lowers, start, last + 1, jobTitles)
        if (titleEnd > start && titleEnd <= last) start = titleEnd
      }
      // So is a royal or honorific title, which CoNLL leaves out of the name ("King Norodom Sihanouk", "Sheikh Hasina").
      if (span.type === 'PER' && start < last && HONORIFIC.has(tokens[start]?.text ?? '')) start++
      taggerSpans.push({ start, end: last + 1, type: span.type === 'MISC' ? undefined : TAGGER_TYPES[span.type], confidence: undefined })
      // MISC has no contract type: dropped (a product inside it is still found by the product lexicon).
      if (span.type === 'MISC') continue
      // Common words capitalised only by where they stand ("Join us", "FREE shipping", "Know Sometimes ...")
      // are not names, unless a lexicon knows them; a word in capitals in a line that is not in capitals is an
      // abbreviation written so on purpose ("Raises Prices In The US And Canada"). First in a sentence, only before a lower-case word ("Brown
      // ( 14-10 ) tied", "Reading 4 1 1" are names in lists and tables).
      const firstWord = listOpened.has(si) ? 1 : 0
      // (or before a comma and a lower-case word that opens no apposition or relative clause: "Fast, silent and cool:
      // the MacBook Air M3 ...", but not "Brown, who was injured, ...")
      const initial = a === firstWord && !isCapsSentence(words) && (/^\p{Ll}/u.test(words[b] ?? '') || (words[b] === ',' && /^\p{Ll}/u.test(words[b + 1] ?? '') && !APPOSITION_START.has(words[b + 1]!)))
      // In a title-case line, a span the tagger is sure of stays ("Guy Forget ( France )", "Buducnost 1 Red Star 3").
      if (
        commonWords !== undefined &&
        (initial || (titleCase[si] === 1 && span.confidence < SURE_IN_TITLE_CASE)) &&
        words.slice(a, b).every((w) => commonWords.has(w.toLowerCase()) && !(w.length > 1 && !isCapsSentence(words) && w === w.toUpperCase()))
      ) {
        const phrase = joinRange(lowers, start, last + 1)
        if (known?.phrases.has(phrase) !== true && companies?.phrases.has(phrase) !== true) continue
      }
      // Words all in lower case are not a name when the writer capitalises ("Two hours on the tarmac"), unless a
      // lexicon knows them; in text written all in lower case ("flying to paris") the tagger's word stands.
      if (writesCapitals && words.slice(a, b).every((w) => !/\p{Lu}/u.test(w))) {
        const phrase = joinRange(lowers, start, last + 1)
        if (known?.phrases.has(phrase) !== true && companies?.phrases.has(phrase) !== true && places?.has(phrase) !== true) continue
      }
      // A name ending in a corporate suffix is a company, whatever its first words look like ("Larami Corp.").
      let type: ContractEntityType = span.type !== 'ORG' && b - a > 1 && CORPORATE_SUFFIX.has(lowers[last] ?? '') && /^[A-Z]/.test(words[b - 1] ?? '') ? 'Company' : TAGGER_TYPES[span.type]
      // A name ending in a generational suffix is a person's ("Vinicius Jr", "Ken Griffey Jr."), whatever the tagger said.
      if (type !== 'Person' && b - a > 1 && /^(?:Jr|Sr)\.?$/.test(words[b - 1] ?? '')) type = 'Person'
      // A place whose last word names a body is the body ("Oberlin College", "Connecticut Audubon Society"), and so
      // is such a "person" ("Border Patrol Police").
      if ((type === 'Place' || type === 'Person') && b - a > 1 && ORGANISATION_HEAD.has(words[b - 1] ?? '')) type = 'Company'
      // Names joined by an ampersand are a firm ("Douglas & Lomason", "Bodman , Longely & Dahling").
      else if (type === 'Person' && b - a > 2 && words.slice(a + 1, b - 1).includes('&')) type = 'Company'
      // A "person" or organisation whose last word names a kind of place is the place ("Dan Sai District",
      // "Epps Field Airport"); County and Airport only after a "person" ("Derby County" is a football club, "Kansai
      // International Airport" issues bonds).
      else if ((type === 'Person' || type === 'Company') && b - a > 1 && (PLACE_HEAD.has(words[b - 1] ?? '') || (type === 'Person' && (words[b - 1] === 'County' || words[b - 1] === 'Airport')))) type = 'Place'
      // A name whose last word names a kind of event is the event, which has no contract type ("Hong Kong Open",
      // "Boston Marathon", "Dubai Desert Classic"), as CoNLL tags it (MISC).
      if (b - a > 1 && EVENT_HEAD.has(words[b - 1] ?? '')) continue
      // So is a storm, named like a person ("Hurricane Ian", "Tropical Storm Hilary", "Typhoon Haiyan").
      if (isStormWord(words, a) || (b - a > 1 && isStormWord(words, a + 1))) continue
      // ... and so is a place or body named just before one ("the Hong Kong Open title", "BERLIN GRAND PRIX"), but
      // not a host city before the Olympics ("the Berlin Olympics": CoNLL tags Berlin a place).
      if (span.type !== 'PER' && ((isEventHead(words[b]) && titleWord(words[b]) !== 'Olympics') || (titleWord(words[b]) === 'Grand' && titleWord(words[b + 1]) === 'Prix'))) continue
      // A dateline's place is a place ("LOS ANGELES (AP)", "SAVANNAH, Ga., Jan. 2 /PRNewswire/"; src/nlp/datelines.ts).
      if (type !== 'Place' && dateline[start] === DATELINE_PLACE && dateline[last] === DATELINE_PLACE && /^[^\p{Ll}]+$/u.test(words.slice(a, b).join(''))) type = 'Place'
      const phrase = joinRange(lowers, start, last + 1)
      const knownType = known?.phrases.get(phrase)?.split('\t')[0] ?? (companies?.phrases.has(phrase) === true ? 'Company' : places?.has(phrase) === true ? 'Place' : undefined)
      const conf = Math.min(0.9999, Math.max(0.0001, span.confidence))
      const features = [
        Math.log(conf / (1 - conf)),
        b - a === 1 ? 1 : 0,
        a === firstWord ? 1 : 0,
        headline[start] === 1 ? 1 : 0,
        commonWords !== undefined && words.slice(a, b).every((w) => commonWords.has(w.toLowerCase())) ? 1 : 0,
        knownType === type ? 1 : 0,
        knownType !== undefined && knownType !== type ? 1 : 0,
      ]
      const confidence = calibration === undefined ? span.confidence * 100 : calibrated(calibration, features) * 100
      candidates.push(candidate(type, start, last + 1, confidence, 'tagger', undefined, undefined, features))
      const own = taggerSpans[taggerSpans.length - 1]
      if (own !== undefined && own.start === start) own.confidence = confidence
    }
  }

  // A token of running text: not in a headline, and the writer capitalises names.
  const running = (i: number): boolean => headline[i] !== 1 && writesCapitals
  // 2. Lexicons: products (capitalised or as listed) and job titles (any case).
  // A tagger span that runs into a product's name ("Samsung Galaxy Watch 7") does not hide the company before it.
  const productSpans: Array<{ start: number; end: number }> = []
  const intoProduct = (c: { start: number; end: number }): boolean => productSpans.some((p) => p.start < c.end && p.end > c.start)
  if (products !== undefined) {
    // In text written all in lower case, a product name followed by a model number is found as written ("pixel 9 pro").
    const lowerModel = (_start: number, end: number): boolean => !writesCapitals && /\d/.test(tokens[end]?.text ?? '') && productEnd(tokens, end) > end
    for (const m of matchLexicon(tokens, lowers, products, true, false, lowerModel)) {
      const end = productEnd(tokens, m.end, running)
      const title = end === m.end ? m.title : m.title + ' ' + wordsOf(tokens, m.end, end).join(' ')
      productSpans.push({ start: m.start, end })
      candidates.push(candidate('Product', m.start, end, 90, 'lexicon', undefined, title))
    }
  }
  // Products by their model code ("R1S SUVs", "Dyson's V15", "the G923 wheel") and by a model word after a brand's
  // possessive ("Bose's QuietComfort Ultra"); the brand before the possessive is then a company ("Bose").
  for (const p of modelProducts(tokens, lowers, companies, (i) => productSpans.some((q) => q.start <= i && i < q.end), running)) {
    productSpans.push({ start: p.start, end: p.end })
    candidates.push(candidate('Product', p.start, p.end, 80, 'pattern', 4.5))
    if (p.brand !== undefined) candidates.push(candidate('Company', p.brand, p.brand + 1, 80, 'pattern', 4.5))
  }
  // A tagger span that starts with a lexicon name and goes on for three words or more in a headline is the
  // headline read as a name: the lexicon name wins.
  // So is one the tagger is unsure of (calibrated below 50: "Celtics Rally Past Knicks", "Haaland Double Keeps").
  const runsOn = (span: { start: number; end: number; confidence?: number | undefined }, m: { start: number; end: number }): boolean =>
    headline[m.start] === 1 && span.start === m.start && (span.end - m.end >= 3 || (span.confidence ?? 100) < UNSURE_IN_HEADLINE)
  if (companies !== undefined) {
    for (const m of matchLexicon(tokens, lowers, companies, true)) {
      // A known company name inside a longer tagger span ("Ford" in "Rob Ford") is that span's word, unless the
      // span runs on through a headline from the name ("Disney Plans Layoffs As Streaming Losses Mount").
      const inside = taggerSpans.some((c) => c.start <= m.start && c.end >= m.end && c.end - c.start > m.end - m.start && !runsOn(c, m) && !(intoProduct(c) && !intoProduct(m)))
      if (!inside) candidates.push(candidate('Company', m.start, m.end, 90, 'lexicon', 5))
    }
  }
  // Known entities (people, companies, bands, teams, places, products) outrank the tagger's type; a single-word
  // name inside a longer tagger span is left to the tagger, except in a headline. Other (awards, events,
  // abbreviations) removes the tagger spans it covers.
  const others: Array<{ start: number; end: number; capitals: boolean }> = []
  if (known !== undefined) {
    // In text written all in lower case ("just saw taylor swift"), a known name of two words or more is found as written.
    for (const m of matchLexicon(tokens, lowers, known, true, !writesCapitals)) {
      const tab = m.title.indexOf('\t')
      const type = m.title.slice(0, tab)
      const title = m.title.slice(tab + 1)
      if (type === 'Other') {
        // In a line in capitals, an Other written in capitals (shouted words FREE, NEW) only removes a span it
        // covers: "NEW YORK 1996-08-31" is still the city.
        others.push({ start: m.start, end: m.end, capitals: title === title.toUpperCase() })
        continue
      }
      // In a headline, a known name wins over a longer tagger span that only adds common words ("Bellagio Is").
      const outer = taggerSpans.find((c) => c.start <= m.start && c.end >= m.end && c.end - c.start > m.end - m.start)
      const common = (w: string): boolean => commonWords?.has(w) === true || !HAS_ALNUM.test(w)
      const onlyCommon =
        (headline[m.start] === 1 && commonWords !== undefined && (outer === undefined || (everyInRange(lowers, outer.start, m.start, common) && everyInRange(lowers, m.end, outer.end, common)))) ||
        (outer !== undefined && runsOn(outer, m))
      if (outer !== undefined && m.end - m.start < 2 && !onlyCommon) continue
      // A known name inside a longer tagger name of its type is part of it ("Red Cross" in "International Red Cross"),
      // except in a headline, where the longer span is often the headline read as a name ("Manchester United Sack").
      if (outer !== undefined && outer.type === type && !onlyCommon && headline[m.start] !== 1) continue
      let end = m.end
      if (type === 'Product') end = productEnd(tokens, end)
      // "Martin Luther King Jr.": the generational suffix stays with the known person's name.
      if (type === 'Person' && GENERATIONAL.test(tokens[end]?.text ?? '') && tokens[end]?.spaceBefore === true) end++
      const c = candidate(type as ContractEntityType, m.start, end, 95, 'lexicon', 5)
      if (type === 'Product') c.title = end === m.end ? title : title + ' ' + wordsOf(tokens, m.end, end).join(' ')
      else if (!/\p{Lu}/u.test(wordsOf(tokens, m.start, end).join(' '))) c.title = title
      candidates.push(c)
    }
  }
  if (others.length > 0) {
    for (let k = candidates.length - 1; k >= 0; k--) {
      const c = candidates[k]!
      if (c.source !== 'tagger') continue
      // Inside an Other phrase, or in a headline starting with one and going on in common words only ("Wimbledon
      // For The Seventh Time"); a longer name that starts with an Other word stays ("New Zealand", "New York").
      const covered = others.some(
        (o) =>
          (o.start <= c.start && c.end <= o.end) ||
          // The edition after an event's name ("Super Bowl LVIII") belongs to the event.
          (c.start === o.end && c.end === c.start + 1 && ROMAN_NUMERAL.test(tokens[c.start]?.text ?? '')) ||
          (headline[c.start] === 1 && o.start === c.start && !(o.capitals && capitalsLine[c.start] === 1) &&
            lowers.slice(o.end, c.end).every((w) => commonWords?.has(w) === true || !HAS_ALNUM.test(w))),
      )
      if (covered) candidates.splice(k, 1)
    }
  }
  // "Austin, Texas": capitalised words before a comma and a US state are a place, and so is the state.
  for (let i = 1; i + 1 < tokens.length; i++) {
    if (tokens[i]?.text !== ',') continue
    let stateEnd = -1
    for (let n = 2; n >= 1 && stateEnd < 0; n--) {
      if (i + n >= tokens.length) continue
      const words = wordsOf(tokens, i + 1, i + 1 + n)
      if (words.length === n && /^[A-Z]/.test(words[0] ?? '') && US_STATES.has(words.join(' ').toLowerCase())) stateEnd = i + 1 + n
    }
    // "New York Energy Desk" is not the state, nor "Ontario-based": the state ends the name.
    const after = tokens[stateEnd]
    if (stateEnd < 0 || /^[A-Z]/.test(after?.text ?? '') || (after !== undefined && !after.spaceBefore && !/^[,.;:!?)'"]/.test(after.text))) continue
    let s = i
    while (s > 0 && i - s < 3 && /^[A-Z][\p{L}.'-]*$/u.test(tokens[s - 1]?.text ?? '') && tokens[s - 1]?.kind === 'word' && tokens[s - 1]?.sentence === tokens[i]?.sentence) s--
    // A city in capitals starts at its first word in capitals: "By AP Entertainment Writer PARK CITY, Utah (AP)".
    if (!/\p{Ll}/u.test(tokens[i - 1]?.text ?? '')) while (s < i - 1 && /\p{Ll}/u.test(tokens[s]?.text ?? '')) s++
    // A person before the comma ("Harry Milling, New York") is not a city.
    if (s === i || candidates.some((c) => c.type === 'Person' && c.start < i && c.end > s)) continue
    candidates.push(candidate('Place', s, i, 90, 'pattern', 4.5))
    candidates.push(candidate('Place', i + 1, stateEnd, 90, 'pattern', 4.5))
  }
  // Broadcast credits of monitored news ("Paris Radio France International in French 1830 GMT 5 Jun 94"): the city,
  // then the broadcaster up to "in <language> <time> GMT".
  for (let i = 2; i + 3 < tokens.length; i++) {
    if (tokens[i]?.text !== 'in' || !/^\d{4}$/.test(tokens[i + 2]?.text ?? '') || tokens[i + 3]?.text !== 'GMT' || places?.has(lowers[i + 1] ?? '') !== true) continue
    let s = i
    while (s > 0 && /^\p{Lu}[\p{L}\d.'-]*$/u.test(tokens[s - 1]?.text ?? '') && !/^\p{Lu}{2}\d/u.test(tokens[s - 1]?.text ?? '') && tokens[s - 1]?.sentence === tokens[i]?.sentence) s--
    let cityEnd = s + 1
    for (let n = 3; n >= 1; n--) if (s + n < i && places?.has(lowers.slice(s, s + n).join(' ')) === true) { cityEnd = s + n; break }
    if (cityEnd >= i || !wordsOf(tokens, cityEnd, i).some((w) => BROADCASTER.has(w))) continue
    if (cityEnd === s + 1 && places?.has(lowers[s] ?? '') !== true && !BROADCASTER.has(tokens[s + 1]?.text ?? '')) continue
    candidates.push(candidate('Place', s, cityEnd, 90, 'pattern', 4.5))
    candidates.push(candidate('Company', cityEnd, i, 90, 'pattern', 4.5))
  }
  // Corporate-suffix pattern: capitalised words followed by Inc., Corp., Ltd, plc, ... ("Acme Widgets Inc.").
  for (let i = 0; i < tokens.length; i++) {
    if (!CORPORATE_SUFFIX_PATTERN.has(tokens[i]?.text ?? '')) continue
    // A tagger span that already ends at the suffix or holds it has the name's extent ("Bear Stearns & Co Inc").
    if (taggerSpans.some((c) => c.start <= i && c.end > i)) continue
    let s = i
    while (s > 0 && /^[A-Z][\p{L}\d&.'-]*$/u.test(tokens[s - 1]?.text ?? '') && tokens[s - 1]?.kind === 'word' && (tokens[s - 1]?.sentence ?? -1) === tokens[i]?.sentence) s--
    if (s < i) candidates.push(candidate('Company', s, i + 1, 90, 'pattern', 5))
  }
  if (jobTitles !== undefined) {
    for (const m of matchLexicon(tokens, lowers, jobTitles, false)) {
      candidates.push(candidate('Job Title', m.start, m.end, 90, 'lexicon', undefined, m.title))
    }
  }
  // 3. Patterns: wink's, plus phone numbers.
  for (const p of doc.patterns) {
    const type = PATTERN_TYPES[p.type]
    if (type !== undefined) candidates.push(candidate(type, p.tokenStart, p.tokenEnd, 100, 'pattern'))
    else if (p.type === 'DURATION' && DATE_WORD.test(p.text)) {
      // wink reads "since 5 March 2024" as a DURATION: the date inside it, without the leading
      // lower-case words ("since", "from", ...), is a Date.
      let start = p.tokenStart
      while (start < p.tokenEnd && /^[a-z]+$/.test(tokens[start]?.text ?? '')) start++
      if (start < p.tokenEnd) candidates.push(candidate('Date', start, p.tokenEnd, 100, 'pattern'))
    }
  }
  for (const m of doc.text.matchAll(PHONE)) {
    const digits = m[0].replace(/\D/g, '').length
    // A date written year-month-day ("1996-08-31") is not a phone number.
    if (digits < 7 || digits > 15 || /^(1[89]|20)\d\d([-./])[01]?\d\2[0-3]?\d$/.test(m[0])) continue
    const a = m.index
    const b = a + m[0].length
    const range = tokenRange(tokens, a, b)
    if (range !== undefined) candidates.push(candidate('Phone', range[0], range[1], 100, 'pattern'))
  }
  // A company named by its web address ("Amazon.com Inc.", "Booking.com"), which wink splits into "Amazon" "." "com" and
  // the tagger into a company "Amazon" and another "com Inc.": one company, with the corporate suffix after it.
  for (let i = 0; i + 2 < tokens.length; i++) {
    const dot = tokens[i + 1]!
    const tld = tokens[i + 2]!
    if (dot.text !== '.' || dot.spaceBefore || tld.spaceBefore || !WEB_COMPANY_TLD.has(tld.text) || !/^\p{Lu}[\p{L}\p{N}&-]*$/u.test(tokens[i]!.text)) continue
    if (i > 0 && !tokens[i]!.spaceBefore && HAS_ALNUM.test(tokens[i - 1]!.text)) continue
    const next = tokens[i + 3]
    const end = next !== undefined && next.spaceBefore && CORPORATE_SUFFIX_PATTERN.has(next.text) ? i + 4 : i + 3
    candidates.push(candidate('Company', i, end, 90, 'pattern', 5))
  }
  // A party affiliation after a member of Congress ("Sen. Chuck Schumer (D-N.Y.)", "Rep. Jim Jordan, R-Ohio,") says
  // who the person is, not where anything is (CoNLL04 leaves it outside every entity): the tagger's readings of it
  // ("Y." a person, "R-Texas" a company) go.
  for (const f of partyAffiliations(tokens)) {
    for (let k = candidates.length - 1; k >= 0; k--) {
      const c = candidates[k]!
      if (c.source === 'tagger' && c.start < f.end && f.start < c.end) candidates.splice(k, 1)
    }
  }

  // 4. Resolve overlaps by priority (then earlier, then longer).
  candidates.sort((x, y) => (y.priority ?? PRIORITY[y.type]) - (x.priority ?? PRIORITY[x.type]) || x.start - y.start || y.end - y.start - (x.end - x.start))
  if (trace !== undefined) for (const c of candidates) trace.candidates.push({ type: c.type, start: c.start, end: c.end, source: c.source, ...(c.features === undefined ? {} : { features: c.features }) })
  // Owner of each token: 1 + the index in `kept` of the candidate that took it (0: free).
  const taken = new Int32Array(tokens.length)
  const kept: Candidate[] = []
  for (const c of candidates) {
    let owner = c.end > c.start ? 0 : -1
    for (let i = c.start; i < c.end && owner === 0; i++) if (taken[i] !== 0) owner = taken[i]!
    if (owner !== 0) {
      const by = kept[owner - 1]
      if (trace !== undefined && by !== undefined) trace.overridden.push({ type: c.type, start: c.start, end: c.end, source: c.source, by: by.type, bySource: by.source })
      continue
    }
    kept.push(c)
    for (let i = c.start; i < c.end; i++) taken[i] = kept.length
  }
  kept.sort((x, y) => x.start - y.start)
  joinNameParticles(kept, tokens, lowers)
  consistentTypes(kept, lowers)

  // 5. Merge mentions into entities.
  interface Group { type: ContractEntityType; key: string; words: string[]; title: string | undefined; mentions: EntityMention[] }
  const groups: Group[] = []
  const byKey = new Map<string, Group>()
  for (const c of kept) {
    const mention = mentionOf(doc, c)
    if (mention === undefined) continue
    const words = wordsOf(tokens, c.start, c.end)
    let group: Group | undefined
    if (c.type === 'Person') {
      group = findPerson(groups, words)
    } else if (c.type === 'Company') {
      const key = companyKey(words)
      group = byKey.get('Company\u0000' + key) ?? findCompanyPrefix(groups, key)
    } else {
      group = byKey.get(c.type + '\u0000' + (c.title ?? mention.label).toLowerCase())
    }
    if (group === undefined) {
      const key = c.type === 'Company' ? companyKey(words) : c.type === 'Person' ? words.join(' ').toLowerCase() : (c.title ?? mention.label).toLowerCase()
      group = { type: c.type, key, words, title: c.title, mentions: [] }
      groups.push(group)
      byKey.set(c.type + '\u0000' + key, group)
    } else if (c.type === 'Person' && words.length > group.words.length) {
      group.words = words
    }
    group.mentions.push(mention)
  }

  // 6. Titles, evidence, confidence, is_about, order.
  if (groups.length === 0) return []
  // Pushed, not mapped: the array then has one elements kind whatever the count (the sort and chooseAbout see one map).
  const entities: Array<{ title: string; entity_type: ContractEntityType; evidence: number; is_about: boolean; confidence: number; mentions: EntityMention[] }> = []
  for (const g of groups) {
    let longest = g.mentions[0]
    for (const m of g.mentions) if (longest === undefined || m.label.length > longest.label.length) longest = m
    const confidence = g.mentions.reduce((a, m) => a + m.confidence, 0) / Math.max(1, g.mentions.length)
    entities.push({
      title: g.title ?? normalizeTitle(longest?.label ?? g.key),
      entity_type: g.type,
      evidence: g.mentions.length,
      is_about: false,
      confidence: Math.round(confidence * 10) / 10,
      mentions: g.mentions,
    })
  }
  entities.sort(
    (a, b) =>
      b.evidence - a.evidence ||
      (a.mentions[0]?.tokenStart ?? 0) - (b.mentions[0]?.tokenStart ?? 0) ||
      (a.entity_type < b.entity_type ? -1 : a.entity_type > b.entity_type ? 1 : 0) ||
      (a.title < b.title ? -1 : a.title > b.title ? 1 : 0),
  )
  const about = chooseAbout(entities, tokens)
  return entities.map((e, i): ExtractedEntity => ({ ...e, is_about: about.has(i) }))
}

const NAMED = new Set<ContractEntityType>(['Person', 'Company', 'Place', 'Product'])

/**
 * One entity, one type: the tagger's mentions of the same words (lower-cased) take the type with the most
 * confidence summed over them, and a single word that ends a longer Person mention of the document ("McIlroy"
 * after "Rory McIlroy") is that Person. Lexicon and pattern candidates keep their type.
 */
function consistentTypes(kept: Candidate[], lowers: readonly string[]): void {
  const NER = new Set<ContractEntityType>(['Person', 'Company', 'Place'])
  const votes = new Map<string, Map<ContractEntityType, number>>()
  const keyOf = (c: Candidate): string => lowers.slice(c.start, c.end).join(' ')
  const surnames = new Set<string>()
  for (const c of kept) {
    if (c.type === 'Person' && c.end - c.start >= 2) surnames.add(lowers[c.end - 1] ?? '')
    if (c.source !== 'tagger' || !NER.has(c.type)) continue
    const k = keyOf(c)
    const v = votes.get(k) ?? new Map<ContractEntityType, number>()
    v.set(c.type, (v.get(c.type) ?? 0) + c.confidence)
    votes.set(k, v)
  }
  for (const c of kept) {
    if (c.source !== 'tagger' || !NER.has(c.type)) continue
    if (c.end - c.start === 1 && c.type !== 'Person' && surnames.has(lowers[c.start] ?? '')) {
      c.type = 'Person'
      continue
    }
    const v = votes.get(keyOf(c))
    if (v === undefined || v.size < 2) continue
    let best: ContractEntityType = c.type
    let bestScore = -1
    for (const [t, score] of [...v].sort((a, b) => (a[0] < b[0] ? -1 : 1))) if (score > bestScore) { best = t; bestScore = score }
    c.type = best
  }
}

/**
 * Indices (in the sorted list) of the entities the document is about (salience): the most mentioned named
 * entity (Person, Company, Place, Product) when it has at least 2 mentions, else the first named entity of the
 * first sentence that has one; and besides it every named entity with at least 2 mentions and at least half
 * the top one's, and every named entity of the first sentence when the text is that one sentence or the first
 * sentence is a headline (title case or capitals). Pattern and Job Title entities are never about.
 */
function chooseAbout(entities: ReadonlyArray<{ entity_type: ContractEntityType; evidence: number; mentions: readonly EntityMention[] }>, tokens: readonly Token[]): Set<number> {
  const about = new Set<number>()
  // Sorted by evidence then position: the first named entity is the most mentioned (earliest on ties).
  const top = entities.findIndex((e) => NAMED.has(e.entity_type))
  if (top < 0) return about
  const topEvidence = entities[top]?.evidence ?? 0
  if (topEvidence >= 2) about.add(top)
  let first = -1
  let firstSentence = Infinity
  let firstStart = Infinity
  entities.forEach((e, i) => {
    if (!NAMED.has(e.entity_type)) return
    const m = e.mentions[0]
    if (m === undefined) return
    const sentence = tokens[m.tokenStart]?.sentence ?? 0
    if (sentence < firstSentence || (sentence === firstSentence && m.tokenStart < firstStart)) {
      first = i
      firstSentence = sentence
      firstStart = m.tokenStart
    }
  })
  if (about.size === 0 && first >= 0) about.add(first)
  const sentences = tokens.length === 0 ? 0 : (tokens[tokens.length - 1]?.sentence ?? 0) + 1
  const leadSentence = tokens[0]?.sentence ?? 0
  const leadWords: string[] = []
  for (const t of tokens) if (t.sentence === leadSentence && t.kind === 'word') leadWords.push(t.text)
  const lead = sentences <= 1 || isTitleSentence(leadWords) || isCapsSentence(leadWords)
  entities.forEach((e, i) => {
    if (!NAMED.has(e.entity_type)) return
    if (e.evidence >= 2 && e.evidence * 2 >= topEvidence) about.add(i)
    if (lead && e.mentions.some((m) => tokens[m.tokenStart]?.sentence === leadSentence)) about.add(i)
  })
  return about
}

/** A lower-case letter followed by a capital ("iPhone", "MacBook", "OpenAI"). */
const INNER_CAPITAL = /\p{Ll}\p{Lu}/u

/**
 * Lexicon matches over the tokens, longest first, left to right, not overlapping each other; with `needsCapital`
 * the first token is capitalised or written as in the title, or the title has a capital inside, or (with
 * `lowerPhrases`) the phrase has two tokens or more, or `allowLower` accepts the match [start, end).
 */
function matchLexicon(
  tokens: readonly Token[],
  lowers: readonly string[],
  lexicon: PhraseLexicon,
  needsCapital: boolean,
  lowerPhrases = false,
  allowLower?: (start: number, end: number) => boolean,
): Array<{ start: number; end: number; title: string }> {
  const out: Array<{ start: number; end: number; title: string }> = []
  for (let i = 0; i < tokens.length; i++) {
    let phrase = ''
    let found: { end: number; title: string } | undefined
    for (let n = 1; n <= lexicon.maxTokens && i + n <= tokens.length; n++) {
      const t = tokens[i + n - 1]
      if (t === undefined || t.kind === 'tabCRLF') break
      phrase = n === 1 ? (lowers[i] ?? '') : phrase + ' ' + (lowers[i + n - 1] ?? '')
      if (!lexicon.prefixes.has(phrase)) break
      const title = lexicon.phrases.get(phrase)
      if (title !== undefined) found = { end: i + n, title }
    }
    if (found === undefined) continue
    // Part of a hyphenated compound ("United Nations-sponsored", "Ohio-based"): not the name.
    const next = tokens[found.end]
    const prev = tokens[i - 1]
    if ((next !== undefined && next.text === '-' && !next.spaceBefore) || (prev !== undefined && prev.text === '-' && tokens[i]?.spaceBefore === false)) continue
    const first = tokens[i]?.text ?? ''
    const written = found.title.slice(found.title.lastIndexOf('\t') + 1)
    // A name written with a capital inside ("iPhone", "PlayStation", "OpenAI") is no everyday word: found in any case.
    if (needsCapital && !/^[A-Z]/.test(first) && !written.startsWith(first) && !(lowerPhrases && found.end - i >= 2) && !INNER_CAPITAL.test(written) && allowLower?.(i, found.end) !== true) continue
    out.push({ start: i, end: found.end, title: found.title })
    i = found.end - 1
  }
  return out
}

/**
 * End of a product's name found up to `end`: model words after it ("iPhone 16 Pro", "Galaxy S24 Ultra"), and one
 * capitalised word before a model number ("Galaxy Watch 7", "Pixel Buds 2"), but not a count ("iPhone Sales 20%");
 * where `running` says a token stands in running text, up to two capitalised words too.
 */
function productEnd(tokens: readonly Token[], end: number, running?: (i: number) => boolean): number {
  let names = 0
  for (;;) {
    const t = tokens[end]
    if (t === undefined || !t.spaceBefore) return end
    if (PRODUCT_SUFFIX.test(t.text)) { end++; continue }
    // In running text (not a headline, where every word is capitalised), up to two capitalised words after the
    // name are the rest of it ("Kindle Paperwhite", "V15 Detect").
    if (running?.(end) === true && names < 2 && /^\p{Lu}[\p{L}\d-]*$/u.test(t.text) && !TITLE_SMALL.has(t.text.toLowerCase())) {
      names++
      end++
      continue
    }
    const n = tokens[end + 1]
    const after = tokens[end + 2]
    if (
      /^\p{Lu}\p{Ll}+$/u.test(t.text) && !TITLE_SMALL.has(t.text.toLowerCase()) && n !== undefined && n.spaceBefore && /\d/.test(n.text) && PRODUCT_SUFFIX.test(n.text) &&
      !(after !== undefined && /^(?:%|percent|per|million|billion|thousand|units|years?|months?|days?|hours?|minutes?)$/i.test(after.text))
    ) { end += 2; continue }
    return end
  }
}

/**
 * A tagger span with a job title inside, between capitalised words, is an organisation, the title and a person
 * ("Tesla CEO Elon Musk", "Apple Chief Executive Tim Cook"): the span is cut into the organisation before the title
 * and the person after it (the title is found by the job-title lexicon). Other spans are returned as they are.
 */
function splitAtJobTitles(spans: readonly TaggedSpan[], idx: readonly number[], ends: readonly number[], words: readonly string[], lowers: readonly string[], jobTitles: PhraseLexicon | undefined): readonly TaggedSpan[] {
  if (jobTitles === undefined || !spans.some((s) => s.end - s.start >= 3 && (s.type === 'ORG' || s.type === 'PER'))) return spans
  const out: TaggedSpan[] = []
  for (const span of spans) {
    let cut: [number, number] | undefined
    if (span.end - span.start >= 3 && (span.type === 'ORG' || span.type === 'PER') && /^\p{Lu}/u.test(words[span.start] ?? '')) {
      const limit = ends[span.end - 2]
      for (let k = span.start + 1; k < span.end - 1 && cut === undefined && limit !== undefined; k++) {
        const from = idx[k]
        if (from === undefined) continue
        const titleEnd = lexiconMatchAt(lowers, from, limit, jobTitles)
        if (titleEnd <= from) continue
        for (let j = k + 1; j < span.end; j++) if (ends[j - 1] === titleEnd && /^\p{Lu}/u.test(words[j] ?? '')) cut = [k, j]
      }
    }
    if (cut === undefined) out.push(span)
    else out.push({ type: 'ORG', start: span.start, end: cut[0], confidence: span.confidence }, { type: 'PER', start: cut[1], end: span.end, confidence: span.confidence })
  }
  return out
}

/**
 * A tagger span that is two known places joined by "and" or "&" is the two places ("across Colorado and Wyoming"),
 * unless the whole is a known place itself ("Bosnia and Herzegovina", "Trinidad and Tobago"). Known places: the
 * gazetteer's and the US states. Other spans are returned as they are.
 */
function splitPlaceLists(spans: readonly TaggedSpan[], words: readonly string[], places: Pick<ReadonlySet<string>, 'has'> | undefined): readonly TaggedSpan[] {
  if (places === undefined) return spans
  const known = (from: number, to: number): boolean => {
    if (to <= from || !/^\p{Lu}/u.test(words[from] ?? '')) return false
    const phrase = words.slice(from, to).join(' ').toLowerCase()
    return places.has(phrase) || US_STATES.has(phrase)
  }
  let out: TaggedSpan[] | undefined
  spans.forEach((span, n) => {
    let cut = -1
    for (let k = span.start + 1; k < span.end - 1 && cut < 0; k++) if ((words[k] === 'and' || words[k] === '&') && known(span.start, k) && known(k + 1, span.end)) cut = k
    if (cut >= 0 && known(span.start, span.end)) cut = -1
    if (cut < 0) {
      out?.push(span)
      return
    }
    out ??= spans.slice(0, n)
    out.push({ type: 'LOC', start: span.start, end: cut, confidence: span.confidence }, { type: 'LOC', start: cut + 1, end: span.end, confidence: span.confidence })
  })
  return out ?? spans
}

/**
 * A model code: a capital, up to three more letters, an optional hyphen, digits, then up to five letters or digits
 * ("R1S", "B200", "G923", "RAV4", "VR2", "WH-1000XM5", "A380"), with two letters or two digits at least ("G7" and
 * "F1" are not), and not one of the codes of news that are no product: diseases and viruses, chemicals, summits and
 * conferences, fiscal quarters and years, roads, file formats, network generations.
 */
const MODEL_CODE = /^[A-Z][A-Za-z]{0,3}-?\d{1,5}[A-Za-z0-9]{0,5}$/
const NOT_MODEL_CODE = /^(?:COVID|SARS|MERS|H\d+N\d+|CO\d|NO\d|SO\d|PM\d|CH\d|G\d\d?$|COP\d|FY\d|Q\d|H\d$|MP\d|B2[BC]|P2P|Y2K|WW\d|T20|U\d\d$|I-?\d|A\d\d?$|M\d\d?$|N95|HTML|IPV|[34]G$)/i
const isModelCode = (t: string): boolean => MODEL_CODE.test(t) && !NOT_MODEL_CODE.test(t) && ((t.match(/\d/g)?.length ?? 0) >= 2 || (t.match(/[A-Za-z]/g)?.length ?? 0) >= 2)
/** Nouns a model code names the kind of ("R1S SUVs", "B200 chips", "the G923 wheel"). */
const PRODUCT_HEAD = new Set([
  'chip', 'chips', 'processor', 'processors', 'gpu', 'gpus', 'suv', 'suvs', 'car', 'cars', 'truck', 'trucks', 'pickup', 'pickups', 'sedan',
  'sedans', 'hybrid', 'ev', 'evs', 'phone', 'phones', 'smartphone', 'smartphones', 'handset', 'handsets', 'laptop', 'laptops', 'tablet', 'tablets',
  'headset', 'headsets', 'headphones', 'earbuds', 'console', 'consoles', 'camera', 'cameras', 'lens', 'drone', 'drones', 'jet', 'jets', 'jetliner',
  'jetliners', 'plane', 'planes', 'aircraft', 'airliner', 'airliners', 'helicopter', 'helicopters', 'wheel', 'watch', 'smartwatch', 'vacuum',
  'router', 'routers', 'modem', 'modems', 'chipset', 'chipsets', 'speaker', 'speakers', 'tv', 'tvs', 'television', 'televisions', 'robot',
  'robots', 'scooter', 'scooters', 'monitor', 'monitors', 'printer', 'printers', 'engine', 'engines', 'rifle', 'rifles', 'tank', 'tanks',
  'model', 'models',
])
const DETERMINER = new Set(['the', 'a', 'an', 'my', 'our', 'your', 'its', 'their', 'his', 'her', 'new'])
const POSSESSIVE_TOKEN = /^['’]s?$/

/**
 * Products found by their shape ({@link MODEL_CODE}), outside the product lexicon: a model code that a brand
 * ("Nvidia B200", "Dyson's V15"), a determiner ("the G923") or a kind of product after it ("R1S SUVs") marks as a
 * product, with the model words after it ("Pro", "Ultra", another code: {@link productEnd}); and after a capitalised
 * name's possessive, a word with an inner capital followed by a model word ("Bose's QuietComfort Ultra"). `brand` is
 * the name before a possessive, a company when it names a product this way.
 */
function modelProducts(
  tokens: readonly Token[],
  lowers: readonly string[],
  companies: PhraseLexicon | undefined,
  taken: (i: number) => boolean,
  running: (i: number) => boolean,
): Array<{ start: number; end: number; brand?: number }> {
  const out: Array<{ start: number; end: number; brand?: number }> = []
  const capital = (i: number): boolean => /^\p{Lu}/u.test(tokens[i]?.text ?? '')
  // The name before a possessive ending at i - 1 ("Dyson 's"), if any.
  const possessor = (i: number): number | undefined =>
    i >= 2 && POSSESSIVE_TOKEN.test(tokens[i - 1]?.text ?? '') && tokens[i - 1]?.spaceBefore === false && capital(i - 2) ? i - 2 : undefined
  for (let i = 0; i < tokens.length; i++) {
    if (taken(i)) continue
    const t = tokens[i]!.text
    let start = -1
    let brand: number | undefined
    if (isModelCode(t)) {
      let j = i - 1
      if (lowers[j] === 'new') j--
      const owner = possessor(j + 1)
      const byCompany = companies?.phrases.has(lowers[j] ?? '') === true && capital(j)
      const marked = owner !== undefined || byCompany || DETERMINER.has(lowers[i - 1] ?? '') || PRODUCT_HEAD.has(lowers[i + 1] ?? '')
      if (!marked) continue
      start = i
      brand = owner
    } else if (/^\p{Lu}\p{Ll}+\p{Lu}\p{L}*$/u.test(t) && possessor(i) !== undefined && PRODUCT_SUFFIX.test(tokens[i + 1]?.text ?? '') && tokens[i + 1]?.spaceBefore === true) {
      start = i
      brand = possessor(i)
    } else continue
    const end = productEnd(tokens, start + 1, running)
    out.push(brand === undefined ? { start, end } : { start, end, brand })
    i = end - 1
  }
  return out
}

/**
 * Party affiliations in the text: "D", "R" or "I", a hyphen and a US state (a postal code or AP style's form), written
 * without spaces after an opening bracket or a comma ("(D-N.Y.)", ", R-Ohio,"; wink splits "N.Y." into "N" "." "Y."),
 * as token ranges [start, end).
 */
function partyAffiliations(tokens: readonly Token[]): Array<{ start: number; end: number }> {
  const found: Array<{ start: number; end: number }> = []
  for (let i = 1; i + 2 < tokens.length; i++) {
    const party = tokens[i]!
    if ((party.text !== 'D' && party.text !== 'R' && party.text !== 'I') || (tokens[i - 1]!.text !== '(' && tokens[i - 1]!.text !== ',')) continue
    if (tokens[i + 1]!.text !== '-' || tokens[i + 1]!.spaceBefore || tokens[i + 2]!.spaceBefore) continue
    let state = ''
    let end = i + 2
    // The longest run of unspaced tokens that spells a state ("N" "." "Y." before ")" or ",").
    let best = -1
    while (end < tokens.length && (end === i + 2 || !tokens[end]!.spaceBefore) && end - i <= 6) {
      state += tokens[end]!.text
      end++
      if (AP_STATE_ABBREVIATIONS.has(state) || AP_FULL_STATES.has(state) || US_POSTAL_CODES.has(state)) best = end
    }
    if (best > 0) found.push({ start: i, end: best })
  }
  return found
}

/**
 * Whether `words[i]` is a storm's name after its kind: after Hurricane, Typhoon or Cyclone, or after Tropical Storm or
 * Winter Storm (not "Storm" alone, a first name: "Storm Reid").
 */
function isStormWord(words: readonly string[], i: number): boolean {
  const before = titleWord(words[i - 1])
  return /^\p{Lu}/u.test(words[i] ?? '') && (STORM_KIND.has(before) || (before === 'Storm' && STORM_SEASON.has(titleWord(words[i - 2]))))
}
const STORM_KIND = new Set(['Hurricane', 'Typhoon', 'Cyclone'])
const STORM_SEASON = new Set(['Tropical', 'Winter'])

/**
 * Verbs in the past, irregular, that open a review's or a post's sentence with its subject left out ("Bought Tesla
 * stock", "Flew Delta"), and that open no common name. Not the regular ones: "Planned Parenthood", "United Airlines",
 * "Associated Press"; nor "Met", "Won", "Lost", "Left", "Made" ("Met Office", "Lost" the series).
 */
const IRREGULAR_PAST = new Set(['flew', 'bought', 'went', 'took', 'got', 'ate', 'drove', 'sent', 'told', 'gave', 'came', 'paid', 'sold', 'brought', 'thought', 'felt', 'heard', 'wrote', 'spoke', 'chose', 'rode', 'slept', 'spent', 'threw', 'drank'])

/** Whether a capitalised word is one of {@link IRREGULAR_PAST}. */
function isPastVerb(word: string): boolean {
  return /^\p{Lu}\p{Ll}+$/u.test(word) && IRREGULAR_PAST.has(word.toLowerCase())
}

/** Top-level domains of companies named by their web address ("Amazon.com", "Booking.com"). */
const WEB_COMPANY_TLD = new Set(['com', 'net', 'org', 'io', 'ai'])

/** Courtesy titles, which some names keep ("Mr. Bean", "Ms. Marvel", "Dr. Dre"), unlike ranks and offices. */
const COURTESY_TITLE = new Set(['Mr.', 'Mrs.', 'Ms.', 'Dr.'])

/**
 * Words of a sentence that a title abbreviation takes at `i`: 1 for one in {@link TITLE_ABBREVIATION} ("Col."), 2 for
 * one wink split from its period ("Maj" "."), else 0; with `ranksOnly`, 0 for a {@link COURTESY_TITLE}.
 */
function titleAbbreviationAt(words: readonly string[], i: number, ranksOnly = false): number {
  const w = words[i] ?? ''
  const n = TITLE_ABBREVIATION.has(w) ? 1 : words[i + 1] === '.' && TITLE_ABBREVIATION.has(w + '.') ? 2 : 0
  return n > 0 && ranksOnly && COURTESY_TITLE.has(n === 1 ? w : w + '.') ? 0 : n
}

/** `words[a..b)` joined by single spaces (as `slice(a, b).join(' ')`, without the array). */
function joinRange(words: readonly string[], a: number, b: number): string {
  let s = words[a] ?? ''
  for (let i = a + 1; i < b; i++) s += ' ' + (words[i] ?? '')
  return s
}

/** Whether every word of `words[a..b)` passes `test` (true for an empty range). */
function everyInRange(words: readonly string[], a: number, b: number, test: (w: string) => boolean): boolean {
  for (let i = a; i < b; i++) if (!test(words[i]!)) return false
  return true
}

function lexiconMatchAt(lowers: readonly string[], i: number, limit: number, lexicon: PhraseLexicon): number {
  let phrase = ''
  let end = i
  for (let n = 1; n <= lexicon.maxTokens && i + n <= limit; n++) {
    phrase = n === 1 ? (lowers[i] ?? '') : phrase + ' ' + (lowers[i + n - 1] ?? '')
    if (!lexicon.prefixes.has(phrase)) break
    if (lexicon.phrases.has(phrase)) end = i + n
  }
  return end
}

/** Tokens overlapping the UTF-16 range [a, b), as a token range, or undefined. */
function tokenRange(tokens: readonly Token[], a: number, b: number): [number, number] | undefined {
  let s = -1
  let e = -1
  for (const t of tokens) {
    if (t.end <= a) continue
    if (t.start >= b) break
    if (t.kind === 'tabCRLF') continue
    if (s < 0) s = t.index
    e = t.index + 1
  }
  return s < 0 ? undefined : [s, e]
}

function mentionOf(doc: AnnotatedDocument, c: Candidate): EntityMention | undefined {
  const a = doc.tokens[c.start]
  const b = doc.tokens[c.end - 1]
  if (a === undefined || b === undefined) return undefined
  let label = doc.text.slice(a.start, b.end)
  // wink's URL tokens keep trailing sentence punctuation ("https://x.com/a,"): not part of the URL.
  const trim = c.type === 'URL' ? (/[.,;:!?)\]'"]+$/.exec(label)?.[0].length ?? 0) : 0
  if (trim > 0 && trim < label.length) label = label.slice(0, label.length - trim)
  return {
    tokenStart: c.start,
    tokenEnd: c.end,
    label,
    start: a.start,
    end: a.start + label.length,
    byteOffset: a.byteOffset,
    // The trimmed characters are ASCII: one byte each.
    byteLength: b.byteOffset + b.byteLength - a.byteOffset - (label.length < b.end - a.start ? trim : 0),
    confidence: Math.round(c.confidence * 10) / 10,
  }
}

function wordsOf(tokens: readonly Token[], start: number, end: number): string[] {
  const out: string[] = []
  for (let i = start; i < end; i++) {
    const t = tokens[i]
    if (t !== undefined && t.kind !== 'tabCRLF') out.push(t.text)
  }
  return out
}

/** A Person group whose longest name contains `words` as a contiguous run (nearest preceding first). */
function findPerson<G extends { type: ContractEntityType; words: string[] }>(groups: readonly G[], words: readonly string[]): G | undefined {
  const lw = words.map((w) => w.toLowerCase())
  for (let g = groups.length - 1; g >= 0; g--) {
    const group = groups[g]
    if (group === undefined || group.type !== 'Person') continue
    const gw = group.words.map((w) => w.toLowerCase())
    if (containsRun(gw, lw) || containsRun(lw, gw)) return group
  }
  return undefined
}

function containsRun(haystack: readonly string[], needle: readonly string[]): boolean {
  if (needle.length === 0 || needle.length > haystack.length) return false
  outer: for (let i = 0; i + needle.length <= haystack.length; i++) {
    for (let k = 0; k < needle.length; k++) if (haystack[i + k] !== needle[k]) continue outer
    return true
  }
  return false
}

/** Lower-cased company name without a leading "the", trailing corporate suffixes and punctuation. */
export function companyKey(words: readonly string[]): string {
  const w = words.map((x) => x.toLowerCase()).filter((x) => x !== ',' && x !== "'s")
  if (w[0] === 'the' && w.length > 1) w.shift()
  while (w.length > 1 && CORPORATE_SUFFIX.has(w[w.length - 1] ?? '')) w.pop()
  return w.join(' ')
}

/** A Company group whose key starts with `key` as whole words, or whose key `key` starts with. */
function findCompanyPrefix<G extends { type: ContractEntityType; key: string }>(groups: readonly G[], key: string): G | undefined {
  for (const g of groups) {
    if (g.type !== 'Company') continue
    if (g.key.startsWith(key + ' ') || key.startsWith(g.key + ' ')) return g
  }
  return undefined
}

/** Title of an entity: its text with inner whitespace collapsed and a trailing possessive removed. */
function normalizeTitle(label: string): string {
  return label.replace(/\s+/g, ' ').replace(/['’]s$/, '').trim()
}

/** An extractor holding its tagger and lexicons, loaded once (what a pipeline keeps per engine). */
export interface EntityExtractor {
  extract(doc: AnnotatedDocument): ExtractedEntity[]
  readonly tagger: EntityTagger
}

/**
 * Create an {@link EntityExtractor}: `extractEntities` with the tagger and lexicons bound, so the
 * committed files are read once here rather than on every call.
 */
export function createEntityExtractor(options: ExtractOptions & { readonly tagger?: EntityTagger; readonly dataDir?: string } = {}): EntityExtractor {
  const dataDir = options.dataDir
  const tagger = options.tagger ?? createEntityTagger(dataDir === undefined ? undefined : { dataDir })
  const lex =
    options.jobTitles === undefined || options.products === undefined || options.companies === undefined || options.known === undefined || options.commonWords === undefined || options.places === undefined || options.calibration === undefined
      ? loadEntityLexicons(dataDir)
      : undefined
  const resolved: Required<Omit<ExtractOptions, 'trace'>> = {
    jobTitles: options.jobTitles ?? (lex as NonNullable<typeof lex>).jobTitles,
    products: options.products ?? (lex as NonNullable<typeof lex>).products,
    companies: options.companies ?? (lex as NonNullable<typeof lex>).companies,
    known: options.known ?? (lex as NonNullable<typeof lex>).known,
    commonWords: options.commonWords ?? (lex as NonNullable<typeof lex>).commonWords,
    places: options.places ?? (lex as NonNullable<typeof lex>).places,
    calibration: options.calibration ?? (lex as NonNullable<typeof lex>).calibration,
  }
  return { tagger, extract: (doc) => extractEntities(doc, tagger, resolved) }
}
