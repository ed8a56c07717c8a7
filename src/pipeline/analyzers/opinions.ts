import { ABBREVIATED_TITLES } from '../../nlp/titles.ts'
import type { AnnotatedDocument } from '../../nlp/types.ts'
import type { Opinion } from '../../model/output.ts'
import type { EntityExtractor } from '../../entities/extract.ts'
import { need } from '../pipeline.ts'
import { round4 } from '../spans.ts'
import type { Analyzer, SentimentSection } from '../types.ts'
import { documentEntities, isEnglish, type DocumentEntity } from './relations.ts'
import { NAME_PARTICLES } from '../../nlp/name-particles.ts'

/**
 * `opinions` (English): quotations attributed to a speaker, in the forms news uses:
 * - direct quotes in straight or curly double quotes, or single ones as the outer quotes (`‘…,’ said Cook`),
 *   attributed after (`"…," said Cook`, `"…," Cook said`, `"…," he added`, `"…," Cook, Apple's chief executive,
 *   told analysts`, `"…," according to Cook`) or before (`Cook said: "…"`, `Cook said, "…"`, `Cook told the
 *   summit: "…"`, `Cook: "…"` opening a sentence, `Starmer was more cautious: "…"`); a quote may span sentences
 *   and paragraphs (an opening mark on each paragraph, the closing one on the last only, double or single quotes:
 *   the quotation reads as one, the blank lines and reopening marks left out); a quote broken by its attribution
 *   (`"This ruling," Judge Mehta said, "sends a message."`) gives one opinion per part, as the fixture sets
 *   before fresh5 expect; quotes inside
 *   it (single or nested) stay part of it; a quote with no attribution that follows an attributed one of the same
 *   paragraph continues that speaker's words;
 * - reported speech: `X says that …`, `X said that …`, `X told reporters that …` (the clause to the sentence end;
 *   `…, adding that …` starts a second opinion of the same speaker);
 * - `according to X, …` and `…, according to X.`, X also the author of a document or data ("according to a
 *   statement from Unilever", "a poll by New Jersey's Fairleigh Dickinson University");
 * - inverted attributions without quote marks: `CLAUSE, said X(, who …)` and `CLAUSE, X said (to reporters).`
 *   (a clause of three words or more with a verb, from the sentence start or its last line break).
 *
 * The speaker is resolved to an entity of the document: the entity with a mention on the speaker's words (the
 * extractor already merges "Cook" into "Tim Cook"; a surname it keeps apart, "Mr. Musk", becomes the nearest
 * Person named before with that surname), or, for he/she, the nearest Person mentioned before outside quotations
 * (no such Person: no opinion); a spokesperson speaks for the organisation ("a spokesperson for Shell said" ->
 * Shell); a role set off before a name is not the speaker ("the defendant, Liam Carter, told the jury" -> Liam
 * Carter); titles, roles and a possessor before the name are not part of it ("Prosecutor Daniel Romero", "said
 * Georgia's secretary of state, Brad Raffensperger"), and so are role words the recogniser took into an entity
 * ("Siemens Chief Financial Officer Ralf Thomas" -> "Ralf Thomas"); in a run of names the Person heads it
 * ("Pfizer Chief Executive Albert Bourla"); a name after a preposition is no speaker when a plain noun heads the
 * subject ("Analysts at Morgan Stanley said"); a capitalised name the recogniser missed stands as written
 * (but not a lone word opening a sentence: "Customers say"); anything else (a common noun, "a spokesman",
 * "analysts", "it") gives no opinion, and so does a quotation with no attribution at all.
 * `type` is `user` when the speaker is a user entity. `topic` is what the quotation names first: an entity other
 * than the speaker (not a date, amount, percentage, job title or contact) or a run of nouns (adjectives before it,
 * time words and generic nouns such as "company" or "people" left out). Sentiment is the sentiment section's span sentiment of
 * the quotation's tokens. `named_opinions_limit` and `user_opinions_limit` cap each kind, in text order.
 */
export type OpinionsSection = Opinion[]

const SPEECH = new Set([
  'said', 'says', 'say', 'added', 'adds', 'told', 'tells', 'explained', 'explains', 'noted', 'notes', 'asked', 'asks', 'wrote', 'writes',
  'argued', 'argues', 'insisted', 'insists', 'claimed', 'claims', 'stated', 'states', 'warned', 'warns', 'declared', 'replied', 'recalled',
  'continued', 'acknowledged', 'admitted', 'announced', 'commented', 'remarked', 'observed', 'suggested', 'predicted', 'conceded', 'confirmed',
  'promised', 'countered', 'joked', 'tweeted', 'posted',
  // Manner-of-speaking and news reporting verbs, past and present.
  'shouted', 'yelled', 'cried', 'screamed', 'whispered', 'stressed', 'emphasised', 'emphasized', 'boasted', 'complained', 'lamented', 'quipped',
  'mused', 'urged', 'pleaded', 'demanded', 'responded', 'answered', 'agreed', 'concluded', 'reported', 'revealed', 'cautioned', 'reiterated',
  'maintained', 'contended', 'assured', 'vowed', 'pledged', 'recounted', 'wondered', 'sighed', 'told', 'informed', 'testified', 'reckoned',
  'stresses', 'emphasises', 'emphasizes', 'complains', 'urges', 'concludes', 'reports', 'reveals', 'cautions', 'maintains', 'contends', 'recalls',
  'predicts', 'announces', 'admits', 'confirms', 'acknowledges', 'replies', 'responds', 'tweets', 'posts', 'jokes', 'vows', 'reckons',
])
/** Speech verbs whose reported clause may follow without "that" ("Cook said the phone would ship", "She argued the deal was fair"). */
const BARE_CLAUSE_VERBS = new Set([
  'says', 'said', 'say', 'told', 'tells', 'added', 'adds', 'argued', 'argues', 'claimed', 'claims', 'insisted', 'insists', 'warned', 'warns',
  'noted', 'notes', 'explained', 'explains', 'stated', 'states', 'admitted', 'admits', 'acknowledged', 'acknowledges', 'conceded', 'concedes',
  'stressed', 'stresses', 'maintained', 'maintains', 'predicted', 'predicts', 'confirmed', 'confirms', 'reiterated', 'reiterates',
])
/** Speech verbs that take a hearer before the reported clause ("told reporters", "assured investors"). */
const HEARER_VERBS = new Set(['told', 'tells', 'tell', 'assured', 'assures', 'informed', 'informs', 'reminded', 'reminds', 'warned', 'warns'])

/** Verbs that introduce reported speech with "that" (opinions without quotes). */
const REPORTING = new Set([...SPEECH, 'believes', 'believed', 'thinks', 'thought', 'argue', 'warn', 'insist', 'claim', 'feels', 'felt', 'expects', 'expected', 'fears', 'feared', 'estimated', 'estimates', 'hopes', 'hoped'])
/** Honorifics and titles that may stand before a speaker's name and are not part of it. */
const HONORIFICS = new Set([
  'mr', 'mr.', 'mrs', 'mrs.', 'ms', 'ms.', 'dr', 'dr.', 'prof', 'prof.', 'professor', 'sir', 'dame', 'lord', 'lady', 'mayor', 'president', 'senator',
  'sen.', 'rep.', 'gov.', 'governor', 'minister', 'chancellor', 'prime', 'general', 'gen.', 'pope', 'judge', 'ceo', 'chairman', 'coach', 'king', 'queen', 'prince', 'princess',
  // Titles of office written before a name ("Prosecutor Daniel Romero told jurors", "Detective Inspector Ann Lee").
  'prosecutor', 'detective', 'inspector', 'sergeant', 'constable', 'sheriff', 'councillor', 'councilman', 'councilwoman', 'congressman',
  'congresswoman', 'bishop', 'archbishop', 'rabbi', 'magistrate', 'superintendent', 'justice', 'headteacher', 'headmaster', 'headmistress',
])
/** Who speaks for an organisation: "a spokesperson for Shell said" gives Shell. */
const SPOKES_NOUNS = new Set(['spokesperson', 'spokesman', 'spokeswoman', 'representative', 'spokespeople'])
/** Role words that may head a name in news ("Siemens Chief Financial Officer Ralf Thomas"): not part of the speaker's name. */
const ROLE_WORDS = new Set([
  'chief', 'executive', 'officer', 'director', 'managing', 'president', 'vice', 'chairman', 'chairwoman', 'chair', 'spokesman', 'spokeswoman', 'spokesperson',
  'secretary', 'minister', 'head', 'founder', 'co-founder', 'cofounder', 'ceo', 'cfo', 'coo', 'cto', 'chancellor', 'governor', 'senator', 'mayor', 'manager', 'coach',
  'economist', 'analyst', 'leader', 'commissioner', 'ambassador', 'general', 'attorney', 'editor', 'captain', 'striker', 'treasurer', 'partner', 'adviser', 'advisor',
  // (positions of players and the like: "Bucks forward Giannis Antetokounmpo", "lead author Sunita Rao")
  'forward', 'guard', 'midfielder', 'defender', 'goalkeeper', 'quarterback', 'winger', 'pitcher', 'boss', 'author',
])
/** Prepositions after a plain noun that put a name out of the subject's head: "Analysts at Morgan Stanley said", "people close to Musk said". */
/** Documents and data whose author is the source of "according to a statement from X". */
const SOURCE_NOUNS = new Set(['statement', 'report', 'data', 'figures', 'filing', 'survey', 'study', 'poll', 'release', 'letter', 'memo', 'email', 'post', 'analysis', 'estimates', 'statistics', 'spokesperson', 'spokesman', 'spokeswoman', 'document', 'documents', 'transcript', 'tally', 'count', 'forecast', 'notice', 'announcement'])
const OF_PREPOSITIONS = new Set(['at', 'of', 'for', 'from', 'with', 'to', 'inside', 'within', 'near'])
const PERSON_PRONOUNS = new Set(['he', 'she'])
/** Nouns that, after "the", stand for an organisation named before ("the company said in a statement"). */
const ORG_ANAPHORS = new Set([
  'company', 'firm', 'group', 'airline', 'carrier', 'bank', 'lender', 'insurer', 'carmaker', 'automaker', 'retailer', 'chipmaker',
  'startup', 'agency', 'ministry', 'department', 'government', 'club', 'team', 'league', 'network', 'broadcaster', 'newspaper',
  'publisher', 'studio', 'label', 'university', 'hospital', 'council', 'union', 'party', 'regulator', 'watchdog', 'organisation',
  'organization', 'charity', 'foundation', 'institute', 'operator', 'manufacturer', 'supplier', 'developer', 'platform',
])
/** Entity types that do not name what a quotation is about. */
const NOT_TOPIC_TYPES = /^(date|time|money|percentage|percent|number|phone|email|url|job title|hashtag|mention)$/i
/** Nouns that stand for the speaker's side or for nothing in particular: not a quotation's topic. */
const GENERIC_NOUNS = new Set(['company', 'firm', 'group', 'people', 'thing', 'things', 'lot', 'way', 'fact', 'kind', 'sort', 'everyone', 'everything', 'anything', 'nothing', 'something', 'one'])
/** Quantities whose "of" phrase is what is named. */
const QUANTITY_NOUNS = new Set(['lot', 'lots', 'number', 'bunch', 'couple', 'part', 'series', 'range', 'variety', 'amount', 'majority', 'handful', 'dozens', 'hundreds', 'thousands', 'millions', 'share', 'rest', 'kind', 'sort', 'type', 'piece', 'level', 'host', 'total'])
/** Time nouns that are not a quotation's topic. */
const TIME_NOUNS = new Set(['today', 'tonight', 'tomorrow', 'yesterday', 'week', 'weekend', 'month', 'year', 'years', 'months', 'weeks', 'day', 'days', 'morning', 'evening', 'night', 'time', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'])
const OPEN = new Set(['"', '“', '„', '«'])
const QUOTE_MARK = /^["“”„«»]$/
const CLOSE_OF: Readonly<Record<string, string>> = { '“': '”', '„': '“', '«': '»', '"': '"' }

interface Quote {
  /** Inner text offsets (UTF-16) without the quote marks. */
  readonly start: number
  readonly end: number
  /** Offsets of the quote marks themselves. */
  readonly open: number
  readonly close: number
  /** Whether the quotation runs over paragraphs (an opening mark on each, the closing one on the last). */
  readonly paragraphs?: boolean
}

/** Where the paragraph after `para` (the offset of a blank line) starts, and whether it opens with the mark `ch`. */
function reopens(text: string, para: number, ch: string): number | undefined {
  let r = para
  while (r < text.length && /\s/.test(text[r]!)) r++
  return text[r] === ch ? r : undefined
}

/** Double-quoted spans of the text: curly pairs, straight quotes taken in pairs; single quotes stay inside. */
function quotes(text: string): Quote[] {
  const out: Quote[] = []
  let i = 0
  while (i < text.length) {
    const ch = text[i]!
    if (OPEN.has(ch)) {
      const close = CLOSE_OF[ch]!
      // A quotation over several paragraphs: each opens with the mark and only the last one closes
      // ("\"We have been told to wait.\n\n\"We are done waiting,\" Thunberg said.").
      let from = i
      let paragraphs = false
      for (;;) {
        const j = text.indexOf(close, from + 1)
        const para = text.indexOf('\n\n', from + 1)
        if (j > from + 1 && (para < 0 || para > j)) {
          out.push({ open: i, close: j, start: i + 1, end: j, paragraphs })
          i = j + 1
          break
        }
        if (para < 0 || (j >= 0 && j < para)) break
        const r = reopens(text, para, ch)
        if (r === undefined) break
        from = r
        paragraphs = true
      }
      if (i > from) continue
    }
    // Single quotes as the outer quotes (British news: ‘…,’ said Cook): an opening ‘, or ' at a word start, and
    // a closing mark that ends a word and follows punctuation or precedes it (an apostrophe, "don't", "players'
    // union", is neither).
    if (ch === '‘' || (ch === "'" && (i === 0 || /[\s(\[—–]/.test(text[i - 1]!)) && /[\p{L}\d]/u.test(text[i + 1] ?? ''))) {
      const close = ch === '‘' ? '’' : "'"
      // (over paragraphs as for double quotes: "'I don't change.\n\n'We go again,' said Postecoglou.")
      let from = i
      let found = -1
      let paragraphs = false
      for (;;) {
        const para = text.indexOf('\n\n', from + 1)
        let j = text.indexOf(close, from + 1)
        while (j > 0 && (para < 0 || j < para)) {
          const after = text[j + 1] ?? ''
          if (!/[\p{L}\d]/u.test(after) && (/[,.!?]/.test(text[j - 1]!) || /^[,;:.]?$/.test(after) || /^[,;:.]/.test(after))) break
          j = text.indexOf(close, j + 1)
        }
        if (j > from + 1 && (para < 0 || para > j)) {
          found = j
          break
        }
        const r = para >= 0 ? reopens(text, para, ch) : undefined
        if (r === undefined || !/[\p{L}\d]/u.test(text[r + 1] ?? '')) break
        from = r
        paragraphs = true
      }
      if (found > 0) {
        out.push({ open: i, close: found, start: i + 1, end: found, paragraphs })
        i = found + 1
        continue
      }
    }
    i++
  }
  return out
}

/** Speaker words: a name run, a pronoun, or an entity mention, as a token range of `words`. */
interface SpeakerSpan {
  readonly from: number
  readonly to: number
}

/** Whether a document has a double quote, a reporting verb or "according": else it holds no opinion. */
export function mayHoldOpinions(doc: AnnotatedDocument): boolean {
  // (or a single quote opening a word: a British or headline quotation, `PM Rishi Sunak: 'We will not …'`)
  if (/["“„«‘]/.test(doc.text) || /(?:^|[\s:(])'\p{L}/u.test(doc.text)) return true
  for (const t of doc.tokens) {
    const w = t.text.toLowerCase()
    if (REPORTING.has(w) || w === 'according') return true
  }
  return false
}

/** Find the opinions of a document. Pure and deterministic: in text order. */
export function findOpinions(doc: AnnotatedDocument, entities: readonly DocumentEntity[], sentiment: SentimentSection | undefined): (Opinion & { tokenStart: number; tokenEnd: number })[] {
  if (!mayHoldOpinions(doc)) return []
  const toks = doc.tokens.filter((t) => t.kind !== 'tabCRLF' && t.text.trim() !== '')
  const lw = toks.map((t) => t.text.toLowerCase())
  const posOfToken = new Map(toks.map((t, k) => [t.index, k]))
  // Entity of each word (index into toks), for speaker resolution and topics.
  const entityAt = new Map<number, number>()
  entities.forEach((e, ei) => {
    for (const m of e.mentions) for (let t = m.tokenStart; t < m.tokenEnd; t++) {
      const k = posOfToken.get(t)
      if (k !== undefined && !entityAt.has(k)) entityAt.set(k, ei)
    }
  })
  const allQuotes = quotes(doc.text)
  const insideQuote = (offset: number): boolean => allQuotes.some((q) => offset > q.open && offset < q.close)
  const firstAtOrAfter = (offset: number): number => {
    let lo = 0
    let hi = toks.length
    while (lo < hi) {
      const mid = (lo + hi) >> 1
      if (toks[mid]!.start < offset) lo = mid + 1
      else hi = mid
    }
    return lo
  }
  // Words of a possible speaker: a Person, Company or Place mention or a user entity (not a Job Title, Date, ...),
  // or a capitalised name the recogniser missed.
  const speakerEntity = (ei: number | undefined): boolean =>
    ei !== undefined && (entities[ei]!.type === 'user' || /^(person|company|place)$/i.test(entities[ei]!.entity_type))
  const isName = (k: number): boolean =>
    toks[k] !== undefined && (speakerEntity(entityAt.get(k)) || (!entityAt.has(k) && toks[k]!.pos === 'PROPN' && /^\p{Lu}/u.test(toks[k]!.text)))
  /** A lower-case adverb between a speaker and the verb ("once", "later", "also"). */
  const isAdverb = (k: number): boolean => toks[k] !== undefined && toks[k]!.pos === 'ADV' && /^\p{Ll}+$/u.test(toks[k]!.text)
  const isPersonAt = (k: number): boolean => {
    const ei = entityAt.get(k)
    return ei !== undefined && entities[ei]!.entity_type.toLowerCase() === 'person'
  }
  /** Whether the last quotation attributed went to an organisation (so that "it added" may follow). */
  let lastSpeakerWasOrganisation = false
  /**
   * End of an organisation anaphor at k: "the company" (and the like: {@link ORG_ANAPHORS}), or "it" right after a
   * quotation of an organisation (`"…," the airline said. "…," it added.`); else k.
   */
  const orgAnaphorAt = (k: number): number => {
    if (lw[k] === 'the' && ORG_ANAPHORS.has(lw[k + 1] ?? '') && !entityAt.has(k + 1) && lastOrganisation(k) !== undefined) return k + 2
    if (lw[k] === 'it' && lastSpeakerWasOrganisation) return k + 1
    return k
  }
  /** The nearest organisation (Company entity) mentioned before k outside quotations, as its entity index. */
  const lastOrganisation = (k: number): number | undefined => {
    for (let x = k - 1; x >= 0; x--) {
      const ei = entityAt.get(x)
      if (ei !== undefined && entities[ei]!.entity_type.toLowerCase() === 'company' && !insideQuote(toks[x]!.start)) return ei
    }
    return undefined
  }
  /** A role word the tagger took for an adjective right before a name ("fire chief/ADJ Dale Hoskins"). */
  const role2 = (x: number): boolean => ROLE_WORDS.has(lw[x] ?? '') || (toks[x]?.pos === 'ADJ' && /^\p{Ll}+$/u.test(toks[x]!.text) && isName(x + 1))
  /** The speaker run starting at k going right (names, "Mr."), or a pronoun. */
  const speakerRight = (k: number): SpeakerSpan | undefined => {
    if (PERSON_PRONOUNS.has(lw[k] ?? '')) return { from: k, to: k + 1 }
    const anaphor = orgAnaphorAt(k)
    if (anaphor > k) return { from: k, to: anaphor }
    // A role noun or two before the name ("said passenger Anna Novak", "said Mayor Eric Adams").
    let b = k
    // A determiner may open the role ("the singer Adele", "according to the World Health Organization"), and a
    // role may be capitalised ("Justice Sonia Sotomayor", "Coach Dawn Staley").
    // (a lower-case word the tagger took for a base-form verb or an adjective may open the role: "according to
    // fire/VERB chief/ADJ Dale Hoskins", "said lead/VERB author Sunita Rao"; a name must still follow)
    const role = (x: number): boolean =>
      toks[x] !== undefined && (toks[x]!.pos === 'NOUN' || (/^\p{Ll}+$/u.test(toks[x]!.text) && (toks[x]!.pos === 'ADJ' || (toks[x]!.pos === 'VERB' && lw[x] === toks[x]!.lemma)) && x + 1 < toks.length && (toks[x + 1]!.pos === 'NOUN' || ROLE_WORDS.has(lw[x + 1]!) || role2(x + 1))) || (x === k && /^(the|a|an)$/.test(lw[x]!)) || HONORIFICS.has(lw[x]!) || ROLE_WORDS.has(lw[x]!) || (entityAt.has(x) && !speakerEntity(entityAt.get(x))))
    let roles = k + 4
    for (;;) {
      // An abbreviated rank or title with its full stop ("said Cmdr. Frederic Daguillon", "Gov. Gavin Newsom").
      if (b < k + 5 && ABBREVIATED_TITLES.has(lw[b] ?? '') && lw[b + 1] === '.') b += 2
      // An age before the role ("said 19-year-old striker Jamie Okafor").
      else if (b === k && toks[b]?.pos === 'NUM' && lw[b + 1] === '-' && /^years?$/.test(lw[b + 2] ?? '') && lw[b + 3] === '-' && lw[b + 4] === 'old' && toks[b + 5]?.pos === 'NOUN') {
        b += 5
        roles += 5
      } else if (b < roles && !isName(b) && role(b)) b++
      else break
    }
    if (!isName(b)) return undefined
    // A possessor before the role is not the speaker: "said Georgia's secretary of state, Brad Raffensperger",
    // "said Apple's chief executive Tim Cook": past "'s", role words, "of" and one comma to a Person's name.
    {
      let r = b
      while (isName(r)) r++
      const possessive = /^['’]s$/.test(lw[r] ?? '') ? 1 : (lw[r] === "'" || lw[r] === '’') && lw[r + 1] === 's' ? 2 : 0
      if (possessive > 0) {
        let x = r + possessive
        const stop = x + 7
        while (x < stop && toks[x] !== undefined && !isPersonAt(x) && (toks[x]!.pos === 'NOUN' || toks[x]!.pos === 'ADJ' || lw[x] === 'of' || lw[x] === ',' || HONORIFICS.has(lw[x]!) || (entityAt.has(x) && !speakerEntity(entityAt.get(x))))) x++
        if (isPersonAt(x)) b = x
      }
    }
    let e = b
    for (;;) {
      let p = e
      while (NAME_PARTICLES.has(lw[p] ?? '')) p++
      if (!isName(p)) break
      e = p + 1
    }
    // An organisation and a role before a Person ("says Monzo founder Tom Blomfield"): the Person.
    if (!isPersonAt(b)) {
      let r = e
      while (r < e + 4 && toks[r] !== undefined && (ROLE_WORDS.has(lw[r]!) || (toks[r]!.pos === 'NOUN' && /^\p{Ll}/u.test(toks[r]!.text)) || (entityAt.has(r) && !speakerEntity(entityAt.get(r))))) r++
      if (r > e && isPersonAt(r)) {
        let pe = r
        while (isName(pe) || NAME_PARTICLES.has(lw[pe] ?? '')) pe++
        return { from: r, to: pe }
      }
    }
    return { from: b, to: e }
  }
  /** The speaker run ending at k going left. */
  const speakerLeft = (k: number): SpeakerSpan | undefined => {
    if (PERSON_PRONOUNS.has(lw[k] ?? '')) return { from: k, to: k + 1 }
    // "the company" ending at k ("…, the company said that …")
    if (k >= 1 && orgAnaphorAt(k - 1) === k + 1) return { from: k - 1, to: k + 1 }
    if (lw[k] === 'it' && orgAnaphorAt(k) === k + 1) return { from: k, to: k + 1 }
    if (!isName(k)) return undefined
    let a = k
    for (;;) {
      let p = a - 1
      while (p >= 0 && NAME_PARTICLES.has(lw[p]!)) p--
      if (p < 0 || toks[p]!.sentence !== toks[k]!.sentence || !isName(p)) break
      a = p
    }
    return { from: a, to: k + 1 }
  }
  /**
   * A role and the Person it names, at k: an optional determiner or possessive, one to four lower-case nouns or
   * adjectives (a hyphen inside: "singer-songwriter"), an optional comma, then the Person's name starting right there
   * ("the defendant, Liam Carter", "her son, Robert Ellis", "his son Thomas Reilly", "singer-songwriter Maya Olsen").
   * Read by the speaker after a speech verb, by an apposition before one ({@link appositionAt}) and after
   * "according to" ({@link sourceAt}), each with its own demands on the parts.
   */
  const roleThenPerson = (k: number): { determiner: boolean; lastRole: number; comma: boolean; name: SpeakerSpan } | undefined => {
    const determiner = /^(the|a|an|his|her|their|its|our|my)$/.test(lw[k] ?? '')
    const first = determiner ? k + 1 : k
    let p = first
    while (p < first + 4 && p < toks.length && !isPersonAt(p) && ((/^(NOUN|ADJ)$/.test(toks[p]!.pos) && /^\p{Ll}/u.test(toks[p]!.text)) || (lw[p] === '-' && p > first && !toks[p]!.spaceBefore))) p++
    if (p === first) return undefined
    const lastRole = p - 1
    const comma = lw[p] === ','
    if (comma) p++
    if (!isPersonAt(p)) return undefined
    const name = speakerRight(p)
    return name !== undefined && name.from === p ? { determiner, lastRole, comma, name } : undefined
  }
  /**
   * A relative or a colleague named after a possessive, after a speech verb: `"…," said her son, Robert Ellis` /
   * `said his son Thomas Reilly`, or after role words alone: `says singer-songwriter Maya Olsen`.
   */
  const kinAt = (k: number): SpeakerSpan | undefined => {
    const r = roleThenPerson(k)
    return r !== undefined && (!r.determiner || /^(his|her|their|its|our|my)$/.test(lw[k]!)) ? r.name : undefined
  }
  /** Whether words [a, b) are an age or a home town in apposition: "34", "of Tucson", "from Leeds". */
  const isAgeOrTown = (a: number, b: number): boolean =>
    (b - a === 1 && toks[a]!.pos === 'NUM') ||
    (b - a >= 2 && /^(of|from)$/.test(lw[a]!) && toks.slice(a + 1, b).every((t) => /^\p{Lu}/u.test(t.text) || t.text === '.'))
  /**
   * The speaker of a speech verb at k, looking left: the name just before it, or, past an apposition set off by
   * commas ("Jane Fraser, the chief executive of Citigroup, said"), the name before the apposition.
   */
  const speakerBefore = (k: number): SpeakerSpan | undefined => {
    // "criticised by councillor Ben Hartley, who said it would …": the name before the relative pronoun.
    if (lw[k - 1] === 'who' && lw[k - 2] === ',' && k >= 3) {
      const named = speakerLeft(k - 3)
      if (named !== undefined && isPersonAt(named.from)) return named
    }
    const direct = speakerLeft(k - 1) ?? (isAdverb(k - 1) ? speakerLeft(k - 2) : undefined)
    if (direct !== undefined && direct.from >= 2 && OF_PREPOSITIONS.has(lw[direct.from - 1]!) && toks[direct.from - 1]!.sentence === toks[k]!.sentence) {
      // "Jensen Huang of Nvidia said": the name before the preposition; "Analysts at Morgan Stanley said",
      // "people close to Musk said": a plain noun heads the subject, no named speaker.
      const head = direct.from - (lw[direct.from - 1] === 'to' && lw[direct.from - 2] === 'close' ? 3 : 2)
      if (head >= 0 && toks[head]!.sentence === toks[k]!.sentence) {
        const named = speakerLeft(head)
        if (named !== undefined) return named
        if (/^(NOUN|PRON)$/.test(toks[head]!.pos) && !entityAt.has(head)) return undefined
      }
    }
    if (direct !== undefined) return direct
    if (lw[k - 1] !== ',') return undefined
    // An age and a home town set off by commas after the name: "Maria Lopez, 34, of Tucson, said".
    {
      let q = k - 1
      while (lw[q] === ',') {
        let p = q - 1
        while (p >= 0 && p > q - 6 && lw[p] !== ',' && toks[p]!.sentence === toks[k]!.sentence) p--
        if (p < 0 || lw[p] !== ',') break
        if (!isAgeOrTown(p + 1, q)) break
        q = p
      }
      if (q < k - 1) {
        const named = speakerLeft(q - 1)
        if (named !== undefined && isPersonAt(named.from)) return named
      }
    }
    for (let c = k - 2; c >= 0 && c > k - 14 && toks[c]!.sentence === toks[k]!.sentence; c--) {
      if (lw[c] === ',') {
        const before = c > 0 ? speakerLeft(c - 1) : undefined
        // "The mayor, María José Catalá, said": the name set off by the commas, after a role; and a Person so set
        // off after an organisation ("A spokeswoman for the Department of Transportation, Laura Bemis, said").
        const inside = speakerLeft(k - 2)
        // (a title may stand before the name inside the commas: "Her colleague, Professor Liam Fitzgerald, said")
        let start = c + 1
        while (inside !== undefined && start < inside.from && (HONORIFICS.has(lw[start]!) || ROLE_WORDS.has(lw[start]!))) start++
        const setOff = inside !== undefined && inside.from === start
        if (before !== undefined && !isPersonAt(before.from) && setOff && isPersonAt(inside.from)) return inside
        if (before !== undefined) return before
        return setOff ? inside : undefined
      }
      if (OPEN.has(toks[c]!.text) || /^["”.;:]$/.test(lw[c]!)) return undefined
    }
    return undefined
  }
  /**
   * Whether a clause starts at k (reported speech without "that": "Cook said the phone would ship"): a subject of
   * one to four words (pronoun, determiner, name, noun, adjective, number) followed by a verb or auxiliary.
   */
  const clauseAt = (k: number, last: number): boolean => {
    let e = k
    while (e < last && e < k + 4 && /^(PRON|DET|PROPN|NOUN|ADJ|NUM)$/.test(toks[e]!.pos)) e++
    // (a quotation may open at the verb: `says his side "will not change" their style`)
    if (e > k && e + 1 < last && QUOTE_MARK.test(toks[e]!.text)) e++
    if (e > k && e < last && (toks[e]!.pos === 'VERB' || toks[e]!.pos === 'AUX')) return true
    // A longer subject with a modifier ("the decision to resign was", "sales in China fell"): up to eight words
    // without punctuation, then an auxiliary or an inflected verb (a form other than its lemma: not "to resign").
    if (e === k || !/^(PRON|DET|PROPN|NOUN|ADJ|NUM)$/.test(toks[k]!.pos)) return false
    for (let x = e; x < last && x < k + 8; x++) {
      if (QUOTE_MARK.test(toks[x]!.text)) continue
      if (toks[x]!.kind === 'punctuation' || lw[x] === 'that') return false
      if (toks[x]!.pos === 'AUX' || (toks[x]!.pos === 'VERB' && lw[x] !== toks[x]!.lemma && lw[x - 1] !== 'to')) return true
    }
    return false
  }
  /**
   * Where a clause starts after a hearer of one to three words at k ("reporters", "the jury", "CNBC", "him"): the
   * first position after such a hearer (no verb or punctuation in it, ending in a noun, name or pronoun) where a
   * clause starts with its subject, or undefined.
   */
  const clauseAfterHearer = (k: number, last: number): number | undefined => {
    for (let h = k + 1; h <= k + 3 && h < last; h++) {
      const end = toks[h - 1]!
      if (toks[h - 1]!.kind === 'punctuation' || end.pos === 'VERB' || end.pos === 'AUX' || lw[h - 1] === 'that') return undefined
      if (!/^(NOUN|PROPN|PRON)$/.test(end.pos)) continue
      if (/^(PRON|DET|PROPN|NOUN|NUM)$/.test(toks[h]!.pos) && clauseAt(h, last)) return h
    }
    return undefined
  }
  /** Resolve a speaker run to [title, type], or undefined. Honorifics and titles before a name are dropped. */
  /**
   * A short mention resolved to the full name: a surname alone or after an honorific ("Musk", "Mr. Musk") whose
   * entity the recogniser kept apart from the full name becomes the Person named before it whose title ends with
   * that surname ("Elon Musk"), the nearest one; otherwise it stays.
   */
  const fuller = (found: [string, 'named' | 'user', number | undefined], at: number): [string, 'named' | 'user', number | undefined] => {
    const words = found[0].split(/\s+/).filter((w) => !HONORIFICS.has(w.toLowerCase()))
    if (words.length !== 1) return found
    const surname = words[0]!
    let best: [number, number] | undefined
    entities.forEach((e, ei) => {
      if (ei === found[2] || e.entity_type.toLowerCase() !== 'person') return
      const parts = e.title.split(/\s+/)
      if (parts.length < 2 || parts[parts.length - 1] !== surname) return
      for (const m of e.mentions) {
        const k = posOfToken.get(m.tokenStart)
        if (k !== undefined && k < at && (best === undefined || k > best[1])) best = [ei, k]
      }
    })
    return best === undefined ? found : [entities[best[0]]!.title, entities[best[0]]!.type, best[0]]
  }
  /**
   * An entity title that holds role words before a name ("IMF Managing Director Kristalina Georgieva", where the
   * recogniser took the role into the name): the name after the last role word, when two or more capitalised words
   * remain (a Person of that title when the document has one); else the title.
   */
  const withoutRole = (ei: number): [string, 'named' | 'user', number | undefined] => {
    const e = entities[ei]!
    const words = e.title.split(/\s+/)
    let r = -1
    words.forEach((w, x) => {
      if (ROLE_WORDS.has(w.toLowerCase()) || HONORIFICS.has(w.toLowerCase())) r = x
    })
    // (an occupation the recogniser took into the name: "Glaciologist Henrik Aalto", "Restaurateur Amara Obi")
    if (r < 0 && words.length >= 3 && /^\p{Lu}\p{Ll}{3,}(ist|eur)$/u.test(words[0]!)) r = 0
    const rest = words.slice(r + 1)
    if (e.type === 'user' || r < 0 || rest.length < 2 || !rest.every((w) => /^\p{Lu}/u.test(w) || NAME_PARTICLES.has(w))) return [e.title, e.type, ei]
    const name = rest.join(' ')
    const person = entities.findIndex((x) => x.title === name && x.entity_type.toLowerCase() === 'person')
    return person >= 0 ? [name, entities[person]!.type, person] : [name, 'named', ei]
  }
  const resolve = (whole: SpeakerSpan): [string, 'named' | 'user', number | undefined] | undefined => {
    let from = whole.from
    while (from + 1 < whole.to && (HONORIFICS.has(lw[from]!) || ROLE_WORDS.has(lw[from]!))) from++
    // A run of names holding a Person ("Pfizer Chief Executive Albert Bourla"): the Person, the last one, heads it.
    for (let k = whole.to - 1; k > from; k--) {
      const ei = entityAt.get(k)
      if (ei !== undefined && entities[ei]!.entity_type.toLowerCase() === 'person' && !(entityAt.get(from) === ei)) {
        let a = k
        while (a - 1 > from && entityAt.get(a - 1) === ei) a--
        // ... with a first name the recogniser left out ("Senator Rand Paul" where only "Paul" is a Person); a
        // Person of two words or more is whole, and a capitalised word before it is a role ("Chef Yotam Ottolenghi").
        if (!/\s/.test(entities[ei]!.title)) while (a - 1 >= from && !entityAt.has(a - 1) && !ROLE_WORDS.has(lw[a - 1]!) && !HONORIFICS.has(lw[a - 1]!) && toks[a - 1]!.pos === 'PROPN') a--
        from = a
        break
      }
    }
    const sp = { from, to: whole.to }
    // "the company", or "it" after an organisation's quotation: the organisation named before.
    if (orgAnaphorAt(sp.from) === sp.to) {
      const ei = lastOrganisation(sp.from)
      return ei === undefined ? undefined : [entities[ei]!.title, entities[ei]!.type, ei]
    }
    if (sp.to - sp.from === 1 && PERSON_PRONOUNS.has(lw[sp.from]!)) {
      // The nearest Person (or user entity of type Person) mentioned before.
      // Names inside quotations are what someone said, not who is speaking: skipped.
      for (let k = sp.from - 1; k >= 0; k--) {
        const ei = entityAt.get(k)
        if (ei !== undefined && entities[ei]!.entity_type.toLowerCase() === 'person' && !insideQuote(toks[k]!.start)) return [entities[ei]!.title, entities[ei]!.type, ei]
      }
      return undefined
    }
    for (let k = sp.from; k < sp.to; k++) {
      const ei = entityAt.get(k)
      if (ei !== undefined) {
        const t = entities[ei]!.entity_type.toLowerCase()
        if (t === 'person' || t === 'company' || t === 'place' || entities[ei]!.type === 'user') {
          // A name run longer than the entity's title ("Ursula von der Leyen" where only "Leyen" was recognised) stands as written.
          const run = doc.text.slice(toks[sp.from]!.start, toks[sp.to - 1]!.end)
          if (t === 'person' && entities[ei]!.type === 'named' && run.length > entities[ei]!.title.length && run.includes(entities[ei]!.title)) return [run, 'named', ei]
          return t === 'person' ? fuller(withoutRole(ei), sp.from) : withoutRole(ei)
        }
      }
    }
    const text = doc.text.slice(toks[sp.from]!.start, toks[sp.to - 1]!.end)
    // A single capitalised word the recogniser did not take, at the start of a sentence, is as likely a common
    // noun ("Customers say ...") as a name: not a speaker.
    const first = sp.from === 0 || toks[sp.from - 1]!.sentence !== toks[sp.from]!.sentence || allQuotes.some((q) => q.open === toks[sp.from - 1]!.start)
    if (sp.to - sp.from === 1 && first) return undefined
    return /^\p{Lu}/u.test(text) ? fuller([text, 'named', undefined], sp.from) : undefined
  }
  /**
   * "a spokesperson for Shell" at k: the organisation the spokesperson speaks for, and the word after it (`verb`).
   */
  const spokesAt = (k: number): { span: SpeakerSpan; verb: number } | undefined => {
    let x = k
    if (/^(a|an|the)$/.test(lw[x] ?? '')) x++
    if (!SPOKES_NOUNS.has(lw[x] ?? '') || !/^(for|of|at|from)$/.test(lw[x + 1] ?? '')) return undefined
    const org = speakerRight(x + 2)
    if (org === undefined || org.from !== x + 2 || isPersonAt(org.from) || PERSON_PRONOUNS.has(lw[org.from]!)) return undefined
    return { span: org, verb: org.to }
  }
  /**
   * "the defendant, Liam Carter," at k: a role of one to three lower-case words after a determiner, then a Person's
   * name set off by commas; the Person, and the word after the second comma (`verb`).
   */
  const appositionAt = (k: number): { span: SpeakerSpan; verb: number } | undefined => {
    const r = roleThenPerson(k)
    if (r === undefined || !r.determiner || !r.comma || toks[r.lastRole]!.pos !== 'NOUN' || lw[r.name.to] !== ',') return undefined
    return { span: r.name, verb: r.name.to + 1 }
  }
  /**
   * The source after "according to" at k: a name ("according to Reuters"), or the author of a document or data
   * ("according to a statement from Unilever", "according to figures published by the ONS").
   */
  const sourceAt = (k: number): SpeakerSpan | undefined => {
    const direct = speakerRight(k)
    if (direct !== undefined) return direct
    // "according to her lawyer, Daniel Price,": a role of the subject's side, then the Person set off by commas.
    const role = roleThenPerson(k)
    if (role !== undefined && role.determiner && role.comma && lw[role.name.to] === ',') return role.name
    let x = k
    if (/^(a|an|the)$/.test(lw[x] ?? '')) x++
    const nouns = x
    while (x < nouns + 3 && /^(NOUN|ADJ)$/.test(toks[x]?.pos ?? '') && /^\p{Ll}/u.test(toks[x]!.text)) x++
    if (x === nouns || !SOURCE_NOUNS.has(lw[x - 1]!)) return undefined
    if (/^(released|published|issued|compiled|filed|seen)$/.test(lw[x] ?? '') && lw[x + 1] === 'by') x++
    if (!/^(from|by|of)$/.test(lw[x] ?? '')) return undefined
    const source = speakerRight(x + 1)
    // "a poll by New Jersey's Fairleigh Dickinson University": the possessed name is the source.
    const possessive = source !== undefined && /^['’]s$/.test(lw[source.to] ?? '') ? speakerRight(source.to + 1) : undefined
    return possessive ?? source
  }
  /** The first word of [a, b) after its last line break (a headline above the sentence is not part of it). */
  const lineStartIn = (a: number, b: number): number => {
    let start = a
    for (let x = a + 1; x < b; x++) if (doc.text.slice(toks[x - 1]!.end, toks[x]!.start).includes('\n')) start = x
    return start
  }
  /** Whether words [a, b) make a clause of three words or more with a verb (the words of an inverted attribution). */
  const isClause = (a: number, b: number): boolean => {
    if (b - a < 3) return false
    // (four words or more stand as a clause even where the tagger missed its verb: "The deal values/NOUN the company")
    if (b - a >= 4 && toks.slice(a, b).some((t) => t.pos === 'NOUN' || t.pos === 'PROPN')) return true
    for (let x = a; x < b; x++) if (toks[x]!.pos === 'VERB' || toks[x]!.pos === 'AUX') return true
    return false
  }
  /**
   * Whether the attribution ends at x: the sentence's end, a comma (an apposition or relative clause follows), or,
   * after the verb (`hearer`), a hearer or adverbial of up to five words without a verb ("told reporters on Monday").
   */
  const endsAfter = (x: number, last: number, hearer = false): boolean => {
    // (not when a quotation opens after the comma: `…, he replied, "…"` attributes that quotation)
    if (lw[x] === ',' && OPEN.has(toks[x + 1]?.text ?? '')) return false
    if (x >= last || /^[.,;!]$/.test(lw[x]!)) return true
    if (!hearer && toks[x]!.pos !== 'ADP') return false
    for (let y = x; y < last && y < x + 6; y++) {
      if (/^[.;!]$/.test(lw[y]!) || y + 1 === last) return true
      if (toks[y]!.pos === 'VERB' || toks[y]!.pos === 'AUX' || lw[y] === 'that' || lw[y] === ',') return false
    }
    return false
  }
  const out: (Opinion & { tokenStart: number; tokenEnd: number })[] = []
  const covered: [number, number][] = []
  const emit = (from: number, to: number, speaker: [string, 'named' | 'user', number | undefined], paragraphs = false): void => {
    // Trim punctuation at the quotation's edges.
    while (from < to && toks[from]!.kind === 'punctuation') from++
    // (a closing mark stays when the words keep its opening one: `the footage was "inconclusive at best"`)
    const opened = (a: number, b: number): boolean => {
      let straight = 0
      let curly = 0
      for (let x = a; x < b; x++) {
        const t = toks[x]!.text
        if (t === '"') straight++
        else if (t === '“') curly++
        else if (t === '”') curly--
      }
      return straight % 2 === 1 || curly > 0
    }
    while (to > from && toks[to - 1]!.kind === 'punctuation' && !/^[?!]$/.test(toks[to - 1]!.text)) {
      if (/^["”]$/.test(toks[to - 1]!.text) && opened(from, to - 1)) break
      to--
    }
    if (to <= from) return
    // (a quotation over paragraphs reads as one: the blank lines and the marks reopening each paragraph left out)
    const raw = doc.text.slice(toks[from]!.start, toks[to - 1]!.end)
    const quotation = paragraphs ? raw.replace(/\s*\n\s*\n\s*["“„«‘']/g, ' ') : raw
    // Topic: what the quotation first names, reading from its start: an entity other than the speaker that names a
    // theme (a Person, Company, Place, Product...: not a Date, Money, Percentage, Phone, Job Title...), or a run of
    // nouns and names other than time words and nouns that stand for the speaker's side ("the company"),
    // adjectives before it left out ("Our new chip is fast" -> "chip"; "The safety of our passengers" -> "safety").
    let topic = ''
    // An opening adverbial set off by a comma is not what the quotation is about ("In these instances, the S&P 500 ...").
    let t0 = from
    if (/^(ADP|ADV|SCONJ)$/.test(toks[from]!.pos)) {
      for (let c = from + 1; c < to && c < from + 9; c++) {
        if (lw[c] === ',') {
          t0 = c + 1
          break
        }
        if (toks[c]!.pos === 'VERB' || toks[c]!.pos === 'AUX') break
      }
    }
    for (let k = t0; k < to && topic === ''; k++) {
      const ei = entityAt.get(k)
      if (ei !== undefined) {
        if (ei !== speaker[2] && !NOT_TOPIC_TYPES.test(entities[ei]!.entity_type)) topic = entities[ei]!.title
        continue
      }
      if (!/^(NOUN|PROPN)$/.test(toks[k]!.pos) || TIME_NOUNS.has(lw[k]!) || GENERIC_NOUNS.has(lw[k]!) || !/\p{L}/u.test(lw[k]!) || /['’]/.test(lw[k]!)) continue
      // A quantity names its "of" phrase ("a lot of problems", "a growing number of drinkers").
      if (QUANTITY_NOUNS.has(lw[k]!) && lw[k + 1] === 'of') continue
      let e = k
      while (e < to && /^(NOUN|PROPN)$/.test(toks[e]!.pos) && !entityAt.has(e) && !TIME_NOUNS.has(lw[e]!)) e++
      // A possessor names the thing it has ("women's health care" -> "health care").
      if (/^['’]s$/.test(lw[e] ?? '') || ((lw[e] === "'" || lw[e] === '’') && /s$/.test(lw[e - 1]!))) continue
      topic = doc.text.slice(toks[k]!.start, toks[e - 1]!.end)
    }
    const tokenStart = toks[from]!.index
    const tokenEnd = toks[to - 1]!.index + 1
    const s = sentiment?.span(tokenStart, tokenEnd)
    const score = round4(s?.score ?? 0)
    out.push({
      quotation,
      type: speaker[1],
      speaker: speaker[0],
      topic,
      sentiment_score: score,
      sentiment_polarity: s?.polarity ?? 'neutral',
      tokenStart,
      tokenEnd,
    })
    covered.push([toks[from]!.start, toks[to - 1]!.end])
  }

  // 1. Direct quotes.
  let previous: { speaker: [string, 'named' | 'user', number | undefined]; close: number } | undefined
  lastSpeakerWasOrganisation = false
  for (const q of allQuotes) {
    const from = firstAtOrAfter(q.start)
    const to = firstAtOrAfter(q.end)
    if (to - from < 3) continue // a quoted word or title ("the 'best' phone") is not a quotation
    let sp: SpeakerSpan | undefined
    // After: `, said X` / `, X said` / `X said` (up to two words of punctuation first). Not after a quotation that
    // ends its sentence with a period before a capital (`X told the BBC: "… my life." His lawyer, Y, said …`: the
    // next sentence is Y's own).
    let k = firstAtOrAfter(q.close + 1)
    while (k < toks.length && toks[k]!.kind === 'punctuation' && k < to + 3 && !OPEN.has(toks[k]!.text) && lw[k] !== '.') k++
    // (the attribution of such a quotation, if any, stands before it: looked for below)
    const closedSentence = /\.\s*$/.test(doc.text.slice(q.start, q.end)) && /^\p{Lu}/u.test(toks[k]?.text ?? '') && !SPEECH.has(lw[k] ?? '')
    if (closedSentence) sp = undefined
    else if (SPEECH.has(lw[k] ?? '')) sp = speakerRight(k + 1) ?? spokesAt(k + 1)?.span ?? kinAt(k + 1)
    else if (lw[k] === 'according' && lw[k + 1] === 'to') sp = sourceAt(k + 2)
    else if (spokesAt(k) !== undefined || appositionAt(k) !== undefined) {
      // `"…," a spokesperson for Shell said` (the organisation), `"…," the defendant, Liam Carter, told the jury` (the Person).
      const x = spokesAt(k) ?? appositionAt(k)!
      if (SPEECH.has(lw[x.verb] ?? '') || (isAdverb(x.verb) && SPEECH.has(lw[x.verb + 1] ?? ''))) sp = x.span
    } else {
      // `"…," Cook said`, with an adverb between (`"…," Hastings once said`) or an apposition set off by commas
      // (`"…," Tim Cook, Apple's chief executive, told analysts`, `"…," Cook, 63, said`).
      const s = speakerRight(k)
      let v = s?.to ?? -1
      // The organisation after a Person's name (`"…," Detective Inspector Mark Allen of Thames Valley Police said`).
      if (s !== undefined && isPersonAt(s.to - 1) && /^(of|at|from)$/.test(lw[v] ?? '')) {
        const org = speakerRight(v + 1)
        if (org !== undefined && org.from === v + 1 && !isPersonAt(org.from) && !PERSON_PRONOUNS.has(lw[org.from]!)) v = org.to
      }
      // (one apposition set off by commas, "Jane Doe, the mayor, said"; or an age and a home town, "Ellen Marsh, 58,
      // of Riverside, said")
      if (s !== undefined && lw[v] === ',') {
        let c = v + 1
        while (c < toks.length && c < v + 10 && lw[c] !== ',' && toks[c]!.kind !== 'punctuation' || (c < toks.length && /^['’]s$/.test(lw[c]!))) c++
        if (lw[c] === ',') v = c + 1
        for (let round = 0; round < 2 && !SPEECH.has(lw[v] ?? ''); round++) {
          let e = v
          while (e < toks.length && e < v + 5 && lw[e] !== ',') e++
          if (lw[e] !== ',' || !isAgeOrTown(v, e)) break
          v = e + 1
        }
      }
      if (s !== undefined && (SPEECH.has(lw[v] ?? '') || (isAdverb(v) && SPEECH.has(lw[v + 1] ?? '')))) sp = s
      // An organisation and a role before the name: `"…," Volvo Cars chief executive Jim Rowan told the FT`.
      else if (s !== undefined && !/^[,.]$/.test(lw[s.to] ?? '')) {
        const named = speakerRight(s.to)
        if (named !== undefined && named.from > s.to && isPersonAt(named.from) && (SPEECH.has(lw[named.to] ?? '') || (isAdverb(named.to) && SPEECH.has(lw[named.to + 1] ?? '')))) sp = named
      }
    }
    // Before: `X said: "` / `X said, "` / `X says "`.
    if (sp === undefined) {
      let b = from - 1
      while (b >= 0 && (toks[b]!.start >= q.open || lw[b] === ',' || lw[b] === ':')) b--
      // A hearer between the verb and the quote: `X told the summit: "…"`, `X said on Tuesday: "…"`.
      if (b >= 0 && !SPEECH.has(lw[b]!) && /^[,:]$/.test(lw[b + 1] ?? '')) {
        let h = b
        while (h > b - 5 && h >= 0 && /^(DET|NOUN|PROPN|PRON|ADJ|ADP|NUM)$/.test(toks[h]!.pos) && toks[h]!.kind !== 'punctuation') h--
        if (h >= 0 && h < b && SPEECH.has(lw[h]!)) b = h
      }
      if (b >= 0 && SPEECH.has(lw[b]!)) sp = speakerBefore(b)
      // A name and a colon opening a sentence: `Tim Cook: "Sales are strong."`
      else if (b >= 0 && lw[from - 1] !== undefined && lw[b + 1] === ':') {
        const s = speakerLeft(b)
        // (or after up to three role words opening the sentence: `Rail minister Huw Merriman: '…'`)
        let r = s === undefined ? -1 : s.from
        while (s !== undefined && r > 0 && r > s.from - 3 && toks[r - 1]!.sentence === toks[s.from]!.sentence && !isPersonAt(r - 1) && (HONORIFICS.has(lw[r - 1]!) || ROLE_WORDS.has(lw[r - 1]!) || (/^(NOUN|ADJ|PROPN)$/.test(toks[r - 1]!.pos) && !entityAt.has(r - 1)))) r--
        const roles = s !== undefined && r < s.from && isPersonAt(s.from) && toks.slice(r, s.from).some((t, x) => HONORIFICS.has(lw[r + x]!) || ROLE_WORDS.has(lw[r + x]!))
        if (s !== undefined && (s.from === 0 || toks[s.from - 1]!.sentence !== toks[s.from]!.sentence || /^[.\n]$/.test(lw[s.from - 1]!))) sp = s
        else if (roles && (r === 0 || toks[r - 1]!.sentence !== toks[r]!.sentence || /^[.\n]$/.test(lw[r - 1]!))) sp = s
        // A Person opening the sentence, a short verb phrase and a colon: `Georgieva put it bluntly: "…"`.
        else {
          let st = b
          while (st > 0 && st > b - 14 && toks[st - 1]!.sentence === toks[b]!.sentence) st--
          // (or an organisation and a role before the Person: `Arsenal manager Mikel Arteta was frustrated after the draw: "…"`;
          // or a possessive or determiner and a role: `Her colleague Dmytro Shevchenko disagreed: "…"`)
          const opens = st === 0 || toks[st - 1]!.sentence !== toks[st]!.sentence
          let p = st
          // (the name may be set off by commas, with a title: `His colleague, Senator Ruth Abernathy-Cole, disagreed: "…"`)
          let setOff = false
          if (opens && !isName(st) && /^(DET|PRON)$/.test(toks[st]!.pos)) {
            p++
            while (p < st + 8 && p < b && !isPersonAt(p) && (/^(NOUN|ADJ)$/.test(toks[p]!.pos) || /^['’]s$/.test(lw[p]!) || (lw[p] === ',' && !setOff) || (setOff && (HONORIFICS.has(lw[p]!) || ROLE_WORDS.has(lw[p]!))))) {
              if (lw[p] === ',') setOff = true
              p++
            }
            if (!isPersonAt(p)) {
              p = st
              setOff = false
            }
          }
          const run = (isPersonAt(p) || isName(p)) && opens ? speakerRight(p) : undefined
          const verbAt = run === undefined ? -1 : setOff && lw[run.to] === ',' ? run.to + 1 : run.to
          if (run !== undefined && isPersonAt(run.from) && (run.from === p || !isPersonAt(p)) && verbAt <= b && b - verbAt < 7 && (toks[verbAt]!.pos === 'VERB' || toks[verbAt]!.pos === 'AUX') && toks.slice(verbAt, b + 1).every((t) => t.kind !== 'punctuation')) sp = run
        }
      }
    }
    let speaker = sp === undefined ? undefined : resolve(sp)
    // A bare quote right after an attributed one of the same paragraph continues it.
    // Not when the words between name someone else with a reporting verb ("… ," Cole told the jury. Reilly said the
    // footage was "inconclusive"): that quotation is part of the other's reported speech.
    if (speaker === undefined && previous !== undefined && !doc.text.slice(previous.close, q.open).includes('\n') && q.open - previous.close < 200) {
      const gap = doc.text.slice(previous.close + 1, q.open)
      let named = false
      let other = false
      for (let g = firstAtOrAfter(previous.close + 1); g < from; g++) {
        const ei = entityAt.get(g)
        if (ei !== undefined && isPersonAt(g) && entities[ei]!.title !== previous.speaker[0]) named = true
        else if (named && REPORTING.has(lw[g]!)) other = true
      }
      if (!/["“”]/.test(gap) && !other) speaker = previous.speaker
    }
    if (speaker === undefined) continue
    emit(from, to, speaker, q.paragraphs === true)
    previous = { speaker, close: q.close }
    lastSpeakerWasOrganisation = speaker[2] !== undefined && entities[speaker[2]]!.entity_type.toLowerCase() === 'company'
    // `"…," said X, the chief executive, adding that CLAUSE`: a second, reported opinion of the same speaker.
    {
      const after = firstAtOrAfter(q.close + 1)
      const sent = toks[after]?.sentence
      for (let y = after; y < toks.length - 3 && toks[y]!.sentence === sent && !OPEN.has(toks[y]!.text); y++) {
        if (lw[y] === ',' && /^(adding|saying|noting|warning|arguing|explaining|insisting)$/.test(lw[y + 1]!) && lw[y + 2] === 'that') {
          let end = y + 3
          while (end < toks.length && toks[end]!.sentence === sent && !OPEN.has(toks[end]!.text)) end++
          emit(y + 3, end, speaker)
          break
        }
      }
    }
  }
  const inQuote = (offset: number): boolean => covered.some(([a, b]) => offset >= a && offset < b) || allQuotes.some((q) => offset >= q.open && offset <= q.close)
  // 2. Reported speech and "according to", sentence by sentence, outside quotes: word ranges of the sentences
  // that hold a reporting verb or "according".
  const ranges = new Map<number, [number, number]>()
  for (let k = 0; k < toks.length; k++) {
    const r = ranges.get(toks[k]!.sentence)
    if (r === undefined) ranges.set(toks[k]!.sentence, [k, k + 1])
    else r[1] = k + 1
  }
  const wanted = new Set<number>()
  for (let k = 0; k < toks.length; k++) if (REPORTING.has(lw[k]!) || lw[k] === 'according') wanted.add(toks[k]!.sentence)
  for (const [si, [first, last]] of [...ranges].sort((a, b) => a[0] - b[0])) {
    if (!wanted.has(si)) continue
    if (inQuote(toks[first]!.start)) continue
    for (let k = first; k < last; k++) {
      if (inQuote(toks[k]!.start)) break
      // `according to X, CLAUSE` / `CLAUSE, according to X`
      if (lw[k] === 'according' && lw[k + 1] === 'to') {
        const s = sourceAt(k + 2)
        if (s === undefined) continue
        const speaker = resolve(s)
        if (speaker === undefined) break
        if (k === first || (k === first + 1 && toks[first]!.kind === 'punctuation')) {
          if (lw[s.to] === ',') {
            // An apposition after the source ("according to Sarah Chen, a senior analyst at Morningstar, CLAUSE"):
            // a determiner or role words up to the next comma, without a verb, then the clause.
            const after = s.to + 1
            let clause = after
            if (/^(a|an|the)$/.test(lw[after] ?? '') || ROLE_WORDS.has(lw[after] ?? '')) {
              for (let y = after + 1; y < last && y < after + 12; y++) {
                if (toks[y]!.pos === 'VERB' || toks[y]!.pos === 'AUX' || OPEN.has(toks[y]!.text) || /^[.;:]$/.test(lw[y]!)) break
                if (lw[y] === ',') {
                  if (isClause(y + 1, last)) clause = y + 1
                  break
                }
              }
            }
            emit(clause, last, speaker)
          }
        } else if (lw[k - 1] === ',') emit(lineStartIn(first, k - 1), k - 1, speaker)
        break
      }
      // `X says (to reporters) that CLAUSE`
      if (REPORTING.has(lw[k]!) && k > first) {
        const s = speakerBefore(k)
        // `CLAUSE, said X` without quote marks ("The room was small, said Priya Raman, who stayed in May").
        if (s === undefined && SPEECH.has(lw[k]!) && lw[k - 1] === ',' && isClause(lineStartIn(first, k - 1), k - 1)) {
          const after = speakerRight(k + 1)
          const speaker = after !== undefined && endsAfter(after.to, last) ? resolve(after) : undefined
          if (speaker !== undefined) {
            emit(lineStartIn(first, k - 1), k - 1, speaker)
            break
          }
        }
        // `As X has argued, CLAUSE` / `As X put it, CLAUSE`: the clause after the comma.
        if (s === undefined && lw[first] === 'as' && k < first + 9) {
          let v = k - 1
          if (/^(has|had|have|once|also)$/.test(lw[v] ?? '')) v--
          const who = speakerLeft(v)
          let c = k + 1
          if (/^(it|out)$/.test(lw[c] ?? '')) c++
          const speaker = who !== undefined && lw[c] === ',' && isClause(c + 1, last) ? resolve(who) : undefined
          if (speaker !== undefined) {
            emit(c + 1, last, speaker)
            break
          }
        }
        if (s === undefined) continue
        let t = k + 1
        // A hearer ("told reporters", "told CNBC") or a short adverbial ("on Tuesday", "in a statement") before "that".
        // A prepositional phrase may be longer ("said in an interview with The Verge that").
        const reach = toks[t] !== undefined && toks[t]!.pos === 'ADP' ? 9 : 5
        let skip = t
        while (skip < last && skip < t + reach && lw[skip] !== 'that' && toks[skip]!.kind !== 'punctuation' && toks[skip]!.pos !== 'VERB' && toks[skip]!.pos !== 'AUX') skip++
        // A hearer before a clause without "that" ("told reporters the comet would be visible"): the clause after it.
        const hearerEnd = HEARER_VERBS.has(lw[k]!) && lw[skip] !== 'that' ? clauseAfterHearer(t, last) : undefined
        if (lw[skip] === 'that') t = skip
        else if (hearerEnd !== undefined) t = hearerEnd - 1
        else if (BARE_CLAUSE_VERBS.has(lw[k]!) && clauseAt(t, last)) t = t - 1
        else {
          // `CLAUSE, X said.` without quote marks ("The talks went well, Scholz told reporters.").
          // (a role may stand between the comma and the name: "…, union leader Mick Lynch told the BBC.")
          let comma = s.from - 1
          while (comma > first && comma > s.from - 5 && lw[comma] !== ',' && ((toks[comma]!.pos === 'NOUN' && /^\p{Ll}/u.test(toks[comma]!.text)) || ROLE_WORDS.has(lw[comma]!) || HONORIFICS.has(lw[comma]!) || (entityAt.has(comma) && !speakerEntity(entityAt.get(comma))))) comma--
          if (SPEECH.has(lw[k]!) && comma > first && lw[comma] === ',' && isClause(lineStartIn(first, comma), comma) && endsAfter(k + 1, last, true)) {
            const speaker = resolve(s)
            if (speaker !== undefined) {
              emit(lineStartIn(first, comma), comma, speaker)
              break
            }
          }
          continue
        }
        const speaker = resolve(s)
        if (speaker === undefined) continue
        // `…, adding that CLAUSE`: a second reported clause of the same speaker.
        let cut = last
        for (let x = t + 2; x < last - 2; x++) {
          if (lw[x] === ',' && /^(adding|saying|noting|warning|arguing|explaining|insisting)$/.test(lw[x + 1]!) && lw[x + 2] === 'that') {
            cut = x
            break
          }
        }
        emit(t + 1, cut, speaker)
        if (cut < last) emit(cut + 3, last, speaker)
        break
      }
    }
  }
  return out.sort((a, b) => a.tokenStart - b.tokenStart)
}

/** `opinions`: see {@link findOpinions}. English only. */
export function createOpinionsAnalyzer(extractor: EntityExtractor): Analyzer {
  return {
    name: 'opinions',
    needs: ['sentiment'],
    enabled: (ctx) => {
      const d = ctx.configuration.document
      // Discovery output has no opinions field.
      return ctx.mode !== 'discovery' && isEnglish(ctx) && d.opinions && ctx.subscription.feature_settings.document.opinions && (d.named_opinions_limit > 0 || d.user_opinions_limit > 0)
    },
    run(doc, sections, ctx): OpinionsSection {
      const d = ctx.configuration.document
      if (!mayHoldOpinions(doc)) return []
      const found = findOpinions(doc, documentEntities(doc, extractor, ctx), need(sections, 'sentiment'))
      const strip = (o: Opinion & { tokenStart: number; tokenEnd: number }): Opinion => ({
        quotation: o.quotation,
        type: o.type,
        speaker: o.speaker,
        topic: o.topic,
        sentiment_score: o.sentiment_score,
        sentiment_polarity: o.sentiment_polarity,
      })
      const named = found.filter((o) => o.type === 'named').slice(0, d.named_opinions_limit).map(strip)
      const user = found.filter((o) => o.type === 'user').slice(0, d.user_opinions_limit).map(strip)
      return [...named, ...user]
    },
    toWire(value, out) {
      const list = value as OpinionsSection
      if (list.length > 0) out.opinions = list
    },
  }
}
