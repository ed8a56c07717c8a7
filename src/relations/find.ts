/**
 * Relations between the entities of an annotated document: the trained pair classifier (`model.ts`) over every
 * ordered pair of Person/Company/Place mentions in one sentence, plus precise hand rules for forms the CoNLL04
 * data has few of or does not label at all:
 *
 * - employment by apposition or pre-modifier with the job title as `extra`: "Tim Cook, Apple's chief executive",
 *   "Tim Cook, the chief executive of Apple", "Tim Cook, Apple CEO", "Apple CEO Tim Cook";
 * - place within place: "Austin, Texas" (two places with only a comma between);
 * - acquisition: "X acquired / bought / will acquire Y" (Company, Company);
 * - founding: "X founded / co-founded Y", "Y, founded by X" (Person, Company);
 * - organisation location: "X, based in Y", "X, headquartered in Y", "a Y-based X" (Company, Place);
 * - residence: "X lives in Y", also across one apposition: "X, Apple's chief executive, lives in Y" (Person, Place).
 *
 * A rule and the classifier agreeing on a pair give one relation (the rule's `extra`, the higher confidence).
 * Relation types on the wire: Work_For -> "Employment", Live_In -> "Residence", Located_In -> "Location",
 * OrgBased_In -> "Based In", Kill -> "Kill", plus the rule-only "Acquisition" and "Founder". Arguments stand in
 * the relation's order (employee, employer; part, whole; owner, owned; founder, founded; killer, victim).
 */
import type { AnnotatedDocument } from '../nlp/types.ts'
import { normWord, type ArgMention, type ArgType, type TriggerLexicon } from './features.ts'
import { placeClosure, predictRelations, type MentionRelation, type RelationModel } from './model.ts'

/** An entity as the relation finder sees it: its type and mentions as token ranges of the document. */
export interface RelationEntity {
  readonly title: string
  readonly entity_type: string
  readonly mentions: readonly { readonly tokenStart: number; readonly tokenEnd: number }[]
}

/** A relation found, arguments as indices into the entities given and the mentions that carried it. */
export interface FoundRelation {
  /** Wire relation type ("Employment", ...). */
  readonly relation_type: string
  /** CoNLL04 label when the relation is one of its five, else undefined. */
  readonly label: string | undefined
  /** 0..1. */
  readonly confidence: number
  readonly extra: string
  readonly args: readonly [number, number]
  /** Token ranges of the two argument mentions. */
  readonly spans: readonly [{ tokenStart: number; tokenEnd: number }, { tokenStart: number; tokenEnd: number }]
}

/** Wire names of the relation types. */
export const RELATION_TYPES: Readonly<Record<string, string>> = {
  Work_For: 'Employment',
  Live_In: 'Residence',
  Located_In: 'Location',
  OrgBased_In: 'Based In',
  Kill: 'Kill',
  Acquisition: 'Acquisition',
  Founder: 'Founder',
}

const ARG_OF: Readonly<Record<string, ArgType>> = { person: 'Peop', company: 'Org', organization: 'Org', organisation: 'Org', place: 'Loc', location: 'Loc' }

/** CoNLL04 argument type of an entity type (Person, Company, Place), else undefined. */
export function argTypeOf(entityType: string): ArgType | undefined {
  return ARG_OF[entityType.toLowerCase()]
}

const RULE_CONFIDENCE = 0.9
const ACQUIRE = new Set(['acquired', 'acquires', 'acquire', 'bought', 'buys', 'buy', 'purchased', 'purchases', 'purchase'])
const FOUND = new Set(['founded', 'co-founded', 'cofounded', 'founds', 'found', 'co-founds', 'established', 'started'])
const BASED = new Set(['based', 'headquartered'])
/** The trigger classes (lexicons/en/relations/triggers.tsv) that say why a relation of each label holds: its `extra`. */
const TRIGGER_CLASSES: Readonly<Record<string, ReadonlySet<string>>> = {
  Work_For: new Set(['JOB', 'EMPLOY', 'FOUND']),
  Live_In: new Set(['LIVE']),
  Located_In: new Set(['NEAR']),
  OrgBased_In: new Set(['BASED', 'NEAR']),
  Kill: new Set(['KILL']),
}
/** Verbs of residence before "in" ("lives in", "resides in"). */
const RESIDE = new Set(['lives', 'lived', 'living', 'resides', 'resided', 'residing'])
/** Words that report speech: never the words that relate two entities (`extra`). */
const SPEECH = new Set(['said', 'says', 'say', 'saying', 'told', 'tells', 'tell', 'added', 'adds', 'asked', 'stated', 'noted', 'according', 'quoted'])
/** A word of punctuation or symbols only (commas, quotes, dashes). */
const PUNCT_ONLY = /^[\p{P}\p{S}]+$/u

export interface SentMention extends ArgMention {
  readonly entity: number
  readonly tokenStart: number
  readonly tokenEnd: number
}

/** One sentence as the classifier sees it: its words, the document token of each word, the typed mentions in it. */
export interface SentenceView {
  /** Index of the sentence in `doc.sentences`. */
  readonly sentence: number
  /** Lower-cased words (digits folded), whitespace tokens left out. */
  readonly words: readonly string[]
  /** Lemmas and POS tags of the words. */
  readonly lemmas: readonly string[]
  readonly tags: readonly string[]
  /** Document token index of each word. */
  readonly tokenIdx: readonly number[]
  /** Mentions of Person/Company/Place entities, as word ranges, sorted by position. */
  readonly mentions: readonly SentMention[]
}

/**
 * The sentences of the document that hold at least two mentions of typed entities (Person, Company, Place), each
 * with its words and the mentions re-indexed onto them. Shared by {@link findRelations} and the training script,
 * so that the classifier is trained on the words it sees at run time.
 */
export function sentenceViews(doc: AnnotatedDocument, entities: readonly RelationEntity[]): SentenceView[] {
  const bySentence = new Map<number, Omit<SentMention, 'start' | 'end'>[]>()
  entities.forEach((e, ei) => {
    const type = argTypeOf(e.entity_type)
    if (type === undefined) return
    for (const m of e.mentions) {
      const s = doc.tokens[m.tokenStart]?.sentence
      if (s === undefined) continue
      const list = bySentence.get(s) ?? []
      list.push({ entity: ei, type, tokenStart: m.tokenStart, tokenEnd: m.tokenEnd })
      bySentence.set(s, list)
    }
  })
  const out: SentenceView[] = []
  for (const [si, raw] of [...bySentence].sort((x, y) => x[0] - y[0])) {
    if (raw.length < 2) continue // a relation needs two mentions in the sentence
    const sent = doc.sentences[si]!
    // The sentence's words (whitespace tokens left out) and the mentions re-indexed onto them.
    const tokenIdx: number[] = []
    const wordAt = new Map<number, number>()
    for (let t = sent.tokenStart; t < sent.tokenEnd; t++) {
      const tok = doc.tokens[t]!
      if (tok.kind === 'tabCRLF' || tok.text.trim() === '') continue
      wordAt.set(t, tokenIdx.length)
      tokenIdx.push(t)
    }
    const mentions: SentMention[] = raw
      .filter((m) => wordAt.has(m.tokenStart) && wordAt.has(m.tokenEnd - 1))
      .map((m) => ({ ...m, start: wordAt.get(m.tokenStart)!, end: wordAt.get(m.tokenEnd - 1)! + 1 }))
      .sort((a, b) => a.start - b.start || a.end - b.end || a.entity - b.entity)
    if (mentions.length < 2) continue
    out.push({
      sentence: si,
      words: tokenIdx.map((t) => normWord(doc.tokens[t]!.text)),
      lemmas: tokenIdx.map((t) => doc.tokens[t]!.lemma),
      tags: tokenIdx.map((t) => doc.tokens[t]!.pos),
      tokenIdx,
      mentions,
    })
  }
  return out
}

/**
 * Find relations. `jobTitles` maps lower-cased job-title phrases (lexicons/en/ner/job-titles.tsv) to their titles.
 * Pure and deterministic: output sorted by confidence descending, then argument order, then type.
 */
export function findRelations(
  doc: AnnotatedDocument,
  entities: readonly RelationEntity[],
  model: RelationModel,
  triggers: TriggerLexicon,
  jobTitles: ReadonlyMap<string, string>,
): FoundRelation[] {
  const found = new Map<string, FoundRelation>()
  const put = (r: FoundRelation): void => {
    const key = `${r.args[0]}:${r.args[1]}:${r.relation_type}`
    const old = found.get(key)
    if (old === undefined) found.set(key, r)
    // Rules run first: their extra (the job title, "based in") stays; the classifier may only raise the confidence.
    else found.set(key, { ...old, confidence: Math.max(old.confidence, r.confidence), extra: old.extra !== '' ? old.extra : r.extra })
  }
  const text = (a: number, b: number): string => (b > a ? doc.text.slice(doc.tokens[a]!.start, doc.tokens[b - 1]!.end) : '')
  for (const view of sentenceViews(doc, entities)) {
    const { words, tokenIdx, mentions } = view
    const span = (m: SentMention): { tokenStart: number; tokenEnd: number } => ({ tokenStart: m.tokenStart, tokenEnd: m.tokenEnd })
    const between = (L: SentMention, R: SentMention): string[] => words.slice(L.end, R.start)
    // The sentence's relations of the CoNLL04 labels by mention, for the place-within-place closure.
    const local: (MentionRelation & { extra: string })[] = []
    const addRule = (label: string, a: SentMention, b: SentMention, extra: string): void => {
      if (a.entity === b.entity) return
      if (label !== 'Acquisition' && label !== 'Founder') local.push({ a: mentions.indexOf(a), b: mentions.indexOf(b), label, confidence: RULE_CONFIDENCE, extra })
      put({ relation_type: RELATION_TYPES[label]!, label: label in RELATION_TYPES && label !== 'Acquisition' && label !== 'Founder' ? label : undefined, confidence: RULE_CONFIDENCE, extra, args: [a.entity, b.entity], spans: [span(a), span(b)] })
    }
    /** The longest job title starting at word i (up to 4 words): [end word, title text] or undefined. */
    const jobAt = (i: number, limit: number): [number, string] | undefined => {
      for (let n = Math.min(4, limit - i); n >= 1; n--) {
        if (jobTitles.has(words.slice(i, i + n).join(' '))) return [i + n, text(tokenIdx[i]!, tokenIdx[i + n - 1]! + 1)]
      }
      return undefined
    }
    /** Whether a place mention is followed by ", <place>", "and <place>" or "or <place>" (a list goes on). */
    const listGoesOn = (R: SentMention): boolean => {
      const w = words[R.end]
      const next = w === ',' && (words[R.end + 1] === 'and' || words[R.end + 1] === 'or') ? R.end + 2 : R.end + 1
      return (w === ',' || w === 'and' || w === 'or') && mentions.some((m) => m.start === next && m.type === 'Loc')
    }
    /**
     * The words between two mentions as the `extra` of a classifier relation when no trigger word stands there: up
     * to three words ("'s speech in", "in"), punctuation and speech verbs at either edge left out, and nothing when
     * they hold another entity's name or only determiners, or when punctuation or a speech verb is all there is or
     * stands inside ('"...in Austin, Texas," said Tesla': the quote
     * ends and the speaker's clause begins, neither says how the two are related).
     */
    const shortLink = (from: number, to: number): string => {
      if (to - from > 3) return ''
      const noise = (k: number): boolean => PUNCT_ONLY.test(words[k]!) || SPEECH.has(words[k]!)
      while (from < to && noise(from)) from++
      while (to > from && noise(to - 1)) to--
      for (let k = from; k < to; k++) if (noise(k)) return ''
      // Nor another entity's name ("IBM in Armonk, New York": not "in Armonk"), nor determiners alone ("the").
      if (mentions.some((m) => m.start < to && from < m.end)) return ''
      let content = false
      for (let k = from; k < to; k++) if (view.tags[k] !== 'DET') content = true
      return to > from && content ? text(tokenIdx[from]!, tokenIdx[to - 1]! + 1) : ''
    }
    // Hand rules over adjacent mention pairs.
    for (let x = 0; x < mentions.length; x++) {
      for (let y = 0; y < mentions.length; y++) {
        const L = mentions[x]!
        const R = mentions[y]!
        if (x === y || R.start < L.end) continue
        const btw = between(L, R)
        if (btw.length > 8) continue
        const bs = btw.join(' ')
        if (L.type === 'Peop' && R.type === 'Org') {
          // "Tim Cook, Apple's chief executive" / "Tim Cook, Apple CEO"
          if (bs === ',') {
            let k = R.end
            if (words[k] === "'s" || words[k] === "'") k++
            const job = jobAt(k, words.length)
            if (job !== undefined) addRule('Work_For', L, R, job[1])
          }
          // "Tim Cook, the chief executive of Apple" / "Tim Cook, chief executive at Apple"
          if (btw[0] === ',') {
            let k = L.end + 1
            if (words[k] === 'the' || words[k] === 'a' || words[k] === 'an') k++
            while (k < R.start && /^(former|new|current|longtime|senior|deputy|acting|interim)$/.test(words[k]!)) k++
            const job = jobAt(k, R.start)
            if (job !== undefined && job[0] === R.start - 1 && /^(of|at|for)$/.test(words[job[0]]!)) addRule('Work_For', L, R, job[1])
          }
          // "Steve Jobs founded Apple", "Steve Jobs, who co-founded Apple"
          const verb = btw.find((w) => FOUND.has(w))
          if (verb !== undefined && btw.length <= 4 && !btw.includes('by')) addRule('Founder', L, R, verb)
        }
        if (L.type === 'Org' && R.type === 'Peop') {
          // "Apple CEO Tim Cook", "Apple's chief executive Tim Cook"
          let k = L.end
          if (words[k] === "'s" || words[k] === "'") k++
          const job = jobAt(k, R.start)
          if (job !== undefined && job[0] === R.start) addRule('Work_For', R, L, job[1])
          // "Apple, founded by Steve Jobs"
          if (btw.length <= 4 && btw[btw.length - 1] === 'by' && btw.some((w) => FOUND.has(w))) addRule('Founder', R, L, btw.find((w) => FOUND.has(w))!)
        }
        // "Austin, Texas", but not a list of places ("Mexico, Guadalajara, Monterrey", "Tennessee, Kentucky and ...")
        if (L.type === 'Loc' && R.type === 'Loc' && bs === ',' && !listGoesOn(R) && words[R.end] !== "'s") addRule('Located_In', L, R, '')
        if (L.type === 'Org' && R.type === 'Org' && btw.length <= 4) {
          const v = btw.find((w) => ACQUIRE.has(w))
          if (v !== undefined && !btw.includes('by') && !btw.some((w) => w === 'not' || w === "n't" || w === 'never')) {
            addRule('Acquisition', L, R, text(tokenIdx[L.end]!, tokenIdx[R.start - 1]! + 1))
          }
        }
        if (L.type === 'Peop' && R.type === 'Loc') {
          // "Tim Cook, Apple's chief executive, lives in Palo Alto": the residence verb right before the place, and
          // between the person and the verb nothing or one apposition between commas, without a verb of its own.
          const v = btw.length - 2
          if (v >= 0 && RESIDE.has(btw[v]!) && btw[v + 1] === 'in') {
            const before = btw.slice(0, v)
            const apposition = before.length >= 3 && before[0] === ',' && before[before.length - 1] === ',' && before.length <= 10 &&
              before.slice(1, -1).every((w, k) => w !== ',' && w !== ';' && !/^(VERB|AUX)$/.test(view.tags[L.end + 1 + k] ?? ''))
            if (before.length === 0 || apposition) addRule('Live_In', L, R, text(tokenIdx[L.end + v]!, tokenIdx[L.end + v + 1]! + 1))
          }
        }
        if (L.type === 'Org' && R.type === 'Loc') {
          // "Acme, based in Austin", "Acme, headquartered in Austin", "Acme is based in Austin"
          const b = btw.findIndex((w) => BASED.has(w))
          if (b >= 0 && btw[b + 1] === 'in' && b + 2 === btw.length && btw.length <= 4) addRule('OrgBased_In', L, R, `${btw[b]} in`)
        }
        if (L.type === 'Loc' && R.type === 'Org') {
          // "an Austin-based Acme": the place ends with "-based" or is followed by "- based"
          if (btw.length <= 3 && (btw[0] === '-based' || (btw[0] === '-' && btw[1] === 'based') || btw[0] === 'based')) addRule('OrgBased_In', R, L, 'based')
        }
      }
    }
    // The classifier over every ordered pair.
    for (const p of predictRelations(model, view, triggers)) {
      const a = mentions[p.a]!
      const b = mentions[p.b]!
      if (a.entity === b.entity) continue
      const L = a.start < b.start ? a : b
      const R = a.start < b.start ? b : a
      // Two places side by side in a list ("Guadalajara, Monterrey, Tijuana and Puebla") are not one within the other.
      if (p.label === 'Located_In' && R.start - L.end === 1 && /^(,|and|or)$/.test(words[L.end]!) && listGoesOn(R)) continue
      // The trigger words between the two of the relation's own kind ("born" for a residence, not the job title
      // that also stands there: "Warren Buffett, chairman of Berkshire Hathaway, was born in Omaha").
      const kinds = TRIGGER_CLASSES[p.label]
      const trig: string[] = []
      for (let k = L.end; k < R.start; k++) {
        const c = triggers.get(words[k]!)
        if (c !== undefined && kinds !== undefined && kinds.has(c)) trig.push(doc.tokens[tokenIdx[k]!]!.text)
      }
      const extra = trig.length > 0 ? trig.join(' ') : shortLink(L.end, R.start)
      const confidence = Math.round(p.confidence * 10_000) / 10_000
      local.push({ a: p.a, b: p.b, label: p.label, confidence, extra })
      put({ relation_type: RELATION_TYPES[p.label]!, label: p.label, confidence, extra, args: [a.entity, b.entity], spans: [span(a), span(b)] })
    }
    // "lives in Austin, Texas" -> also lives in Texas; the implied relation keeps the extra of the one it extends.
    for (const r of placeClosure(local)) {
      const a = mentions[r.a]!
      const b = mentions[r.b]!
      if (a.entity === b.entity) continue
      const extra = local.find((x) => x.a === r.a && x.label === r.label)?.extra ?? ''
      put({ relation_type: RELATION_TYPES[r.label]!, label: r.label, confidence: r.confidence, extra, args: [a.entity, b.entity], spans: [span(a), span(b)] })
    }
  }
  return [...found.values()].sort(
    (x, y) => y.confidence - x.confidence || x.args[0] - y.args[0] || x.args[1] - y.args[1] || (x.relation_type < y.relation_type ? -1 : x.relation_type > y.relation_type ? 1 : 0),
  )
}
