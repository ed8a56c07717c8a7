import type { AnnotatedDocument, Token } from '../../nlp/types.ts'
import type { Intention } from '../../model/output.ts'
import type { Analyzer } from '../types.ts'
import { isEnglish } from './relations.ts'

/**
 * `intentions` (English): statements of intent, found by rules over the tokens of each sentence.
 *
 * Design. An intention is an intent cue followed by an action verb of one of the types, then its object:
 * - cues: "want(s) to", "would like to", "'d like to", "going to", "gonna", "plan(ning) to", "intend to",
 *   "decided to", "hope to", "need to", "about to", "ready to", "looking to", "will", "'ll", "can't wait to",
 *   "thinking of/about" + -ing, "considering" + -ing, "looking forward to" + -ing; and, for recommend and complain,
 *   the present tense itself with a first-person subject ("I recommend", "we highly recommend");
 * - action verbs by type: buy (buy, purchase, order, pre-order), sell (sell), quit (cancel, quit, leave,
 *   switch, unsubscribe, terminate, ditch, close), recommend (recommend), complain (complain, return, send back,
 *   file a complaint, ask/demand a refund), learn (learn, study), visit (visit, go to, travel to, fly to,
 *   come back to, stay at), hire (hire, recruit), start (subscribe, sign up, join, register, enroll, start using);
 * - `who`: the subject before the cue: a pronoun as written ("I", "We"), or the noun phrase (a name such as
 *   "Acme Corp" or "my wife"); "I" when the sentence starts with the cue; `what`: the object noun phrase after
 *   the verb and its particle ("switch to" -> what follows "to"; "switch from X to Y" -> X);
 * - `evidence_phrase`: the words from the cue through the verb and particle ("want to buy", "will cancel").
 *
 * Not intentions, and left out: negated statements (a negation among the cue's words or just before it:
 * "I will never buy", "I don't want to cancel", "won't"), hypothetical ones (the clause holds "if", "unless",
 * "whether", "were to", "in case", or the sentence is a question), and past ones ("wanted to", "was going to").
 */
export type IntentionsSection = Intention[]

const ACTIONS: Readonly<Record<string, string>> = {
  buy: 'buy', purchase: 'buy', order: 'buy', book: 'buy', 'pre-order': 'buy', preorder: 'buy',
  sell: 'sell',
  cancel: 'quit', quit: 'quit', leave: 'quit', switch: 'quit', unsubscribe: 'quit', terminate: 'quit', ditch: 'quit', close: 'quit', drop: 'quit',
  recommend: 'recommend',
  complain: 'complain', return: 'complain',
  learn: 'learn', study: 'study',
  visit: 'visit', go: 'visit', travel: 'visit', fly: 'visit', come: 'visit', stay: 'visit',
  hire: 'hire', recruit: 'hire',
  subscribe: 'start', sign: 'start', join: 'start', register: 'start', enroll: 'start', enrol: 'start', start: 'start',
}
const TYPE_OF_LEMMA: Readonly<Record<string, string>> = { study: 'learn' }

/** Particles an action verb takes before its object; required for some verbs. */
const PARTICLES: Readonly<Record<string, readonly string[]>> = {
  go: ['to', 'back to'], travel: ['to'], fly: ['to'], come: ['back to', 'to'], stay: ['at', 'in'],
  sign: ['up for', 'up to', 'up with', 'up'], subscribe: ['to'], switch: ['from', 'away from', 'to', 'providers', 'banks'],
  complain: ['about', 'to'], return: [], start: ['using'], send: ['back'], register: ['for', 'with'], enroll: ['in'], enrol: ['in'],
  close: [], learn: ['about', 'how to'],
}
const NEEDS_PARTICLE = new Set(['go', 'travel', 'fly', 'come', 'stay', 'sign', 'start'])
/** Cues as lower-cased word sequences; `V` is where the action verb stands, `ING` an -ing action verb. */
const CUES: readonly (readonly string[])[] = [
  ['would', 'like', 'to', 'V'], ["'d", 'like', 'to', 'V'], ['would', 'love', 'to', 'V'], ["'d", 'love', 'to', 'V'],
  ['want', 'to', 'V'], ['wants', 'to', 'V'], ['wanna', 'V'], ['going', 'to', 'V'], ['gonna', 'V'],
  ['plan', 'to', 'V'], ['plans', 'to', 'V'], ['planning', 'to', 'V'], ['planning', 'on', 'ING'],
  ['intend', 'to', 'V'], ['intends', 'to', 'V'], ['decided', 'to', 'V'], ['have', 'decided', 'to', 'V'], ['hope', 'to', 'V'], ['hopes', 'to', 'V'],
  ['need', 'to', 'V'], ['needs', 'to', 'V'], ['about', 'to', 'V'], ['ready', 'to', 'V'], ['looking', 'to', 'V'],
  ['will', 'be', 'ING'], ["'ll", 'be', 'ING'], ['will', 'definitely', 'be', 'ING'],
  ['would', 'highly', 'V'], ['will', 'highly', 'V'], ["'d", 'highly', 'V'], ["'d", 'definitely', 'V'],
  ['will', 'definitely', 'V'], ['will', 'probably', 'V'], ['will', 'V'], ["'ll", 'definitely', 'V'], ["'ll", 'V'], ['would', 'definitely', 'V'], ['would', 'V'],
  ['ca', "n't", 'wait', 'to', 'V'], ['can', 'not', 'wait', 'to', 'V'], ['cannot', 'wait', 'to', 'V'],
  ['thinking', 'of', 'ING'], ['thinking', 'about', 'ING'], ['considering', 'ING'], ['looking', 'forward', 'to', 'ING'],
  ['highly', 'V'], ['definitely', 'V'], ['V'],
  // Present progressive of a decision already taken: "I'm cancelling my subscription", "we are returning it".
  ["'m", 'ING'], ['am', 'ING'], ['are', 'ING'], ["'re", 'ING'], ['is', 'ING'],
  // ... and after a one-token contraction ("I'm", "we're").
  ['ING'],
]
/** The cues by their first word ('V' and 'ING' for those that start with the verb), so that each word tries only its own. */
const CUES_BY_FIRST = (() => {
  const m = new Map<string, (readonly string[])[]>()
  for (const c of CUES) {
    const list = m.get(c[0]!) ?? []
    list.push(c)
    m.set(c[0]!, list)
  }
  return m
})()
/** Types the present progressive cue may express (with an object): cancelling and returning are decisions. */
const PROGRESSIVE_TYPES = new Set(['quit', 'complain'])
/** Types a bare present-tense verb (cue `V` alone, first-person subject) may express. */
const PRESENT_TYPES = new Set(['recommend', 'complain'])
const NEGATORS = new Set(['not', "n't", 'never', 'no', 'nobody', 'nothing', 'hardly', 'neither', 'nor'])
const HYPOTHETICAL = new Set(['if', 'unless', 'whether', 'suppose', 'supposing', 'imagine', 'maybe', 'perhaps', 'might', 'could'])
/** Conditional words that make the whole sentence hypothetical wherever they stand. */
const CONDITIONAL = new Set(['if', 'unless', 'whether'])
/** Time words that end an object ("a house next year"). */
const TIME_WORDS = new Set(['next', 'last', 'tomorrow', 'today', 'tonight', 'yesterday', 'soon', 'now', 'again', 'week', 'weekend', 'month', 'year', 'summer', 'winter', 'spring', 'autumn', 'fall', 'morning', 'evening', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'])
const PRONOUNS = new Set(['i', 'we', 'you', 'he', 'she', 'they', 'it'])
const FIRST_PERSON = new Set(['i', 'we'])
const SKIP_BEFORE_CUE = new Set(['am', "'m", 'is', "'s", 'are', "'re", 'really', 'also', 'just', 'still', 'finally', 'now', 'so', 'seriously', 'definitely', 'totally', 'absolutely', 'probably', 'soon', 'all', 'both', 'has', 'have', "'ve"])
const OBJECT_DETS = new Set(['a', 'an', 'the', 'my', 'our', 'your', 'his', 'her', 'their', 'its', 'this', 'that', 'these', 'those', 'some', 'another', 'one', 'two', 'three', 'more', 'all'])

/** Lower-cased words of a sentence (whitespace left out) with their tokens. */
function sentenceWords(doc: AnnotatedDocument, s: number): Token[] {
  const sent = doc.sentences[s]!
  const out: Token[] = []
  for (let t = sent.tokenStart; t < sent.tokenEnd; t++) {
    const tok = doc.tokens[t]!
    if (tok.kind !== 'tabCRLF' && tok.text.trim() !== '') out.push(tok)
  }
  return out
}

function actionOf(t: Token | undefined, ing: boolean): string | undefined {
  if (t === undefined) return undefined
  const w = t.text.toLowerCase()
  if (ing) {
    if (!w.endsWith('ing')) return undefined
    return ACTIONS[t.lemma] !== undefined ? t.lemma : undefined
  }
  return ACTIONS[w] !== undefined ? w : undefined
}

/** Find the intentions of one document. Pure and deterministic: in text order. */
export function findIntentions(doc: AnnotatedDocument): Intention[] {
  const out: Intention[] = []
  const span = (a: Token, b: Token): string => doc.text.slice(a.start, b.end)
  for (let s = 0; s < doc.sentences.length; s++) {
    const toks = sentenceWords(doc, s)
    const lw = toks.map((t) => t.text.toLowerCase())
    if (lw.length === 0) continue
    // Most sentences hold no action verb at all: skip them before matching cues.
    if (!toks.some((t, k) => ACTIONS[lw[k]!] !== undefined || ACTIONS[t.lemma] !== undefined)) continue
    const question = lw[lw.length - 1] === '?'
    const used = new Set<number>()
    for (let i = 0; i < toks.length; i++) {
      if (used.has(i)) continue
      const first = lw[i]!
      const cues = [...(CUES_BY_FIRST.get(first) ?? []), ...(ACTIONS[first] !== undefined ? CUES_BY_FIRST.get('V')! : []), ...(first.endsWith('ing') ? CUES_BY_FIRST.get('ING')! : [])]
      for (const cue of cues) {
        // Match the cue at i; `vAt` is the action verb's index.
        let k = i
        let vAt = -1
        let ing = false
        let ok = true
        for (const c of cue) {
          if (c === 'V' || c === 'ING') {
            if (actionOf(toks[k], c === 'ING') === undefined) ok = false
            vAt = k
            ing = c === 'ING'
            k++
          } else if (lw[k] === c) k++
          else ok = false
          if (!ok) break
        }
        if (!ok || vAt < 0) continue
        const verbTok = toks[vAt]!
        const verb = ing ? verbTok.lemma : lw[vAt]!
        let type = TYPE_OF_LEMMA[verb] ?? ACTIONS[verb]!
        const bare = (cue.length === 1 && cue[0] === 'V') || (cue.length === 2 && (cue[0] === 'highly' || cue[0] === 'definitely'))
        // Subject: skip auxiliaries and adverbs back from the cue, then take a pronoun or a noun phrase.
        let j = i - 1
        while (j >= 0 && SKIP_BEFORE_CUE.has(lw[j]!)) j--
        let who = ''
        let subjStart = j + 1
        const contracted = j >= 0 ? /^(i|we|you|he|she|they)['’](m|re|ve|d|ll|s)$/.exec(lw[j]!) : null
        if (j >= 0 && PRONOUNS.has(lw[j]!)) {
          who = toks[j]!.text
          subjStart = j
        } else if (contracted !== null) {
          who = toks[j]!.text.slice(0, contracted[1]!.length)
          subjStart = j
        } else if (j >= 0 && (toks[j]!.pos === 'PROPN' || toks[j]!.pos === 'NOUN')) {
          let a = j
          while (a - 1 >= 0 && (toks[a - 1]!.pos === 'PROPN' || toks[a - 1]!.pos === 'NOUN' || toks[a - 1]!.pos === 'ADJ' || OBJECT_DETS.has(lw[a - 1]!) || (toks[a - 1]!.pos === 'PROPN' && toks[a]!.pos === 'PROPN'))) a--
          who = span(toks[a]!, toks[j]!)
          subjStart = a
        } else if (j < 0) {
          who = 'I'
        } else if (!bare && (lw[j] === ',' || lw[j] === 'and' || lw[j] === 'but' || lw[j] === 'so')) {
          // "..., and will buy": the subject of the clause before (a pronoun a few words back).
          let b = j - 1
          while (b >= 0 && !PRONOUNS.has(lw[b]!) && b > j - 8) b--
          if (b >= 0 && PRONOUNS.has(lw[b]!)) who = toks[b]!.text
        }
        if (who === '') continue
        // A bare verb ("I recommend") is an intention only for recommend/complain with a first-person subject.
        if (bare && (!PRESENT_TYPES.has(type) || !FIRST_PERSON.has(who.toLowerCase()))) continue
        if (bare && verbTok.pos !== 'VERB' && verbTok.pos !== 'AUX') continue
        const afterContraction = cue.length === 1 && cue[0] === 'ING'
        if (afterContraction && !/^(i|we|they|you)['’](m|re)$/.test(lw[i - 1] ?? '')) continue
        const progressive = afterContraction || (cue.length === 2 && cue[1] === 'ING' && /^(am|'m|are|'re|is)$/.test(cue[0]!))
        if (progressive && !PROGRESSIVE_TYPES.has(type)) continue
        // Negation: among the cue's words or within two words before it.
        // (The cue's own words are exempt: "can't wait to".)
        let negated = false
        for (let n = Math.max(0, subjStart); n < vAt; n++) {
          if ((NEGATORS.has(lw[n]!) || toks[n]!.normal === 'not') && !(n >= i && cue[n - i] === lw[n])) negated = true
        }
        if (negated) continue
        // Hypothetical: the clause (from the last clause break before the subject) holds a conditional word.
        let c0 = subjStart - 1
        while (c0 >= 0 && lw[c0] !== ';' && lw[c0] !== '.' && !(lw[c0] === ',' && !HYPOTHETICAL.has(lw[c0 - 1] ?? ''))) c0--
        let hypothetical = question
        for (let n = Math.max(0, c0); n < vAt; n++) if (HYPOTHETICAL.has(lw[n]!) || (lw[n] === 'were' && lw[n + 1] === 'to')) hypothetical = true
        for (let n = 0; n < lw.length; n++) if (CONDITIONAL.has(lw[n]!)) hypothetical = true
        if (hypothetical) continue
        // Particle and object.
        let o = vAt + 1
        const parts = PARTICLES[verb] ?? []
        let particle = ''
        for (const p of parts) {
          const pw = p.split(' ')
          if (pw.every((w, x) => lw[o + x] === w)) {
            particle = p
            o += pw.length
            break
          }
        }
        if (NEEDS_PARTICLE.has(verb) && particle === '') continue
        if (verb === 'sign' && !particle.startsWith('up')) continue
        if (verb === 'start' && particle !== 'using') continue
        if (verb === 'send' && particle !== 'back') continue
        if (verb === 'come' && particle === '') continue
        if (verb === 'learn' && particle === 'how to') type = 'learn'
        // Objects: determiners, adjectives, numbers, nouns and names (and "of"/"-" inside a name run).
        let e = o
        while (e < toks.length) {
          const t = toks[e]!
          const w = lw[e]!
          // A hyphen or ampersand inside a name ("T-Mobile", "AT&T") joins its neighbours.
          if ((w === '-' || w === '&') && e > o && !t.spaceBefore && toks[e + 1] !== undefined && !toks[e + 1]!.spaceBefore) {
            e += 2
            continue
          }
          if (TIME_WORDS.has(w) || ((w === 'this' || w === 'that') && e > o - 1 && TIME_WORDS.has(lw[e + 1] ?? ''))) break
          const np = OBJECT_DETS.has(w) || t.pos === 'ADJ' || t.pos === 'NOUN' || t.pos === 'PROPN' || t.pos === 'NUM' || (w === 'of' && toks[e + 1]?.pos === 'PROPN' && e > o) || (t.kind === 'word' && /^[A-Z0-9]/.test(t.text) && e > o && t.pos !== 'PRON')
          if (!np || (e > o && w === 'the' && lw[e - 1] !== 'of')) break
          e++
        }
        // "switch from X to Y": the object is X, what follows "from". A pronoun object stands as written.
        let what = e > o ? span(toks[o]!, toks[e - 1]!) : ''
        if (what === '' && /^(it|them|this|that|one)$/.test(lw[o] ?? '')) what = toks[o]!.text
        if (what === '' && !['recommend', 'complain', 'quit', 'learn'].includes(type)) continue
        if (what === '' && progressive) continue
        const evEnd = particle === '' ? vAt : vAt + particle.split(' ').length
        out.push({ type, who, what, evidence_phrase: span(toks[i]!, toks[evEnd]!) })
        for (let n = i; n <= evEnd; n++) used.add(n)
        i = evEnd
        break
      }
    }
  }
  return out
}

/** `intentions`: see {@link findIntentions}. English only, under the configuration's `intentions` switch. */
export const intentionsAnalyzer: Analyzer = {
  name: 'intentions',
  needs: [],
  // Discovery output has no intentions field.
  enabled: (ctx) => ctx.mode !== 'discovery' && isEnglish(ctx) && ctx.configuration.document.intentions && ctx.subscription.feature_settings.document.intentions,
  run(doc): IntentionsSection {
    return findIntentions(doc)
  },
  toWire(value, out) {
    const list = value as IntentionsSection
    if (list.length > 0) out.intentions = list
  },
}
