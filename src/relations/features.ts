/**
 * Features of an ordered entity pair in one sentence, for the relation classifier (`model.ts`).
 *
 * The sentence is a list of lower-cased words (digits folded to 0) and the entity mentions are token ranges
 * with a CoNLL04 argument type (Peop, Org, Loc). The first mention of the pair is the relation's first
 * argument. Features, all conjoined with the pair's type signature and direction where they carry meaning:
 * words and bigrams between the two mentions, the whole between-string when short, its first and last word,
 * head (last) words and full words of both mentions, one- and two-word windows outside the pair, the distance
 * in buckets, how many other mentions (and of which types) stand between, a possessive or a bare comma between
 * them (apposition, "Austin, Texas"), trigger classes from `lexicons/en/relations/triggers.tsv` (job titles,
 * location and killing verbs, residence words) for the words between and around, and, when the engine's
 * annotation gives them, verb lemmas between and around and the POS sequence between.
 */
import { ownString } from '../own-string.ts'

/** Argument types of CoNLL04 (Other never takes part in a relation). */
export type ArgType = 'Peop' | 'Org' | 'Loc'

/** A mention as a token range [start, end) of the sentence's word list, with its argument type. */
export interface ArgMention {
  readonly start: number
  readonly end: number
  readonly type: ArgType
}

/** Trigger classes by lower-cased word or phrase (phrases as words joined by one space). */
export type TriggerLexicon = ReadonlyMap<string, string>

/** Lower-case and fold digits, so that the model sees "1989" and "2001" as the same word. */
export function normWord(w: string): string {
  return w.toLowerCase().replace(/[0-9]/g, '0')
}

function bucket(n: number): string {
  return n <= 3 ? String(n) : n <= 5 ? '4-5' : n <= 8 ? '6-8' : n <= 12 ? '9-12' : '13+'
}

/** Per word list: the trigger class of the phrase of n words (n = 1..3) starting at each word, computed once. */
const triggerTables = new WeakMap<readonly string[], { triggers: TriggerLexicon; table: (string | undefined)[][] }>()

function triggerTable(words: readonly string[], triggers: TriggerLexicon): (string | undefined)[][] {
  const cached = triggerTables.get(words)
  if (cached !== undefined && cached.triggers === triggers) return cached.table
  const table = words.map((w, i) => [undefined, triggers.get(w), i + 1 < words.length ? triggers.get(`${w} ${words[i + 1]}`) : undefined, i + 2 < words.length ? triggers.get(`${w} ${words[i + 1]} ${words[i + 2]}`) : undefined])
  triggerTables.set(words, { triggers, table })
  return table
}

/** Trigger classes of the words in [from, to), phrases of up to three words first. */
export function triggerClasses(words: readonly string[], from: number, to: number, triggers: TriggerLexicon): string[] {
  const out: string[] = []
  const table = triggerTable(words, triggers)
  for (let i = Math.max(0, from); i < Math.min(to, words.length); i++) {
    for (let n = 3; n >= 1; n--) {
      if (i + n > to) continue
      const c = table[i]![n]
      if (c !== undefined) {
        out.push(c)
        i += n - 1
        break
      }
    }
  }
  return out
}

/** A sentence as the classifier sees it: lower-cased words, their lemmas and POS tags when known, the mentions. */
export interface PairContext {
  readonly words: readonly string[]
  readonly lemmas?: readonly string[]
  readonly tags?: readonly string[]
  readonly mentions: readonly ArgMention[]
}

/** Feature names of the ordered pair (a, b): a is the first argument. Deterministic, duplicates allowed. */
export function pairFeatures(ctx: PairContext, a: ArgMention, b: ArgMention, triggers: TriggerLexicon): string[] {
  const { words, mentions } = ctx
  const forward = a.start < b.start
  const L = forward ? a : b
  const R = forward ? b : a
  const tp = `${a.type}>${b.type}${forward ? '' : '<'}`
  const f: string[] = ['bias', `tp=${tp}`]
  const add = (s: string): void => {
    f.push(s + '|' + tp)
  }
  const between = words.slice(L.end, R.start)
  const head = (m: ArgMention): string => words[m.end - 1] ?? ''
  const full = (m: ArgMention): string => words.slice(m.start, m.end).join('_')
  add(`h1=${head(a)}`)
  add(`h2=${head(b)}`)
  add(`w1=${full(a)}`)
  add(`w2=${full(b)}`)
  add(`d=${bucket(between.length)}`)
  if (between.length === 0) add('adjacent')
  for (const w of new Set(between)) {
    add(`bw=${w}`)
    f.push(`bw=${w}`)
  }
  for (let i = 0; i + 1 < between.length; i++) add(`bb=${between[i]}_${between[i + 1]}`)
  if (between.length > 0) {
    add(`bf=${between[0]}`)
    add(`bl=${between[between.length - 1]}`)
    if (between.length <= 6) add(`bs=${between.join('_')}`)
    if (between[0] === "'s" || between[0] === "'") add('poss')
    if (between.length === 1 && between[0] === ',') add('comma')
  }
  const others = mentions.filter((m) => m !== a && m !== b && m.start >= L.end && m.end <= R.start)
  add(`nm=${Math.min(others.length, 3)}`)
  for (const t of new Set(others.map((m) => m.type))) add(`mt=${t}`)
  const bc = triggerClasses(words, L.end, R.start, triggers)
  for (const c of new Set(bc)) add(`bc=${c}`)
  if (bc.length > 0) add(`bcs=${bc.slice(0, 4).join('_')}`)
  const lc = triggerClasses(words, L.start - 3, L.start, triggers)
  for (const c of new Set(lc)) add(`lc=${c}`)
  const rc = triggerClasses(words, R.end, R.end + 3, triggers)
  for (const c of new Set(rc)) add(`rc=${c}`)
  // Verb lemmas between and just outside the pair ("was born in", "works for", "killed"), the POS sequence
  // between when short, and how many other mentions of each argument's type stand between (the nearest place
  // to a person is the likelier residence).
  const { lemmas, tags } = ctx
  if (lemmas !== undefined && tags !== undefined) {
    for (let i = L.end; i < R.start; i++) if (tags[i] === 'VERB') add(`bv=${lemmas[i]}`)
    for (let i = Math.max(0, L.start - 4); i < L.start; i++) if (tags[i] === 'VERB') add(`lv=${lemmas[i]}`)
    for (let i = R.end; i < Math.min(words.length, R.end + 4); i++) if (tags[i] === 'VERB') add(`rv=${lemmas[i]}`)
    if (between.length <= 8) add(`bp=${tags.slice(L.end, R.start).join('_')}`)
  }
  add(`nb=${Math.min(others.filter((m) => m.type === b.type).length, 2)}`)
  add(`na=${Math.min(others.filter((m) => m.type === a.type).length, 2)}`)
  add(`l1=${words[L.start - 1] ?? '<s>'}`)
  add(`l2=${words[L.start - 2] ?? '<s>'}_${words[L.start - 1] ?? '<s>'}`)
  add(`r1=${words[R.end] ?? '</s>'}`)
  add(`r2=${words[R.end] ?? '</s>'}_${words[R.end + 1] ?? '</s>'}`)
  return f
}

/** Parse `word-or-phrase<TAB>CLASS` lines (`#` comments). Throws naming the line when malformed. */
export function readTriggers(tsv: string, source = 'triggers'): Map<string, string> {
  const out = new Map<string, string>()
  tsv.split(/\r?\n/).forEach((line, i) => {
    if (line.trim() === '' || line.startsWith('#')) return
    const cols = line.split('\t')
    if (cols.length !== 2 || cols[0]!.trim() === '' || cols[1]!.trim() === '') {
      throw new Error(`${source}:${i + 1}: expected "phrase<TAB>CLASS", found "${line}"`)
    }
    // Copies (ownString): a long cut of the file text would keep the whole text alive.
    out.set(ownString(cols[0]!.trim().toLowerCase()), ownString(cols[1]!.trim()))
  })
  return out
}
