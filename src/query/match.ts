/**
 * Evaluation of query trees against an annotated document.
 *
 * Matching rules (also in `grammars/README.md`):
 * - Matching is case-insensitive and on token boundaries.
 * - An unquoted word `w` (letters only) matches a token whose lower-case form is `w` or whose lemma
 *   is `w`: write the base form to catch the inflections (`run` matches run, runs, ran, running;
 *   `runs` matches only runs). Two unquoted words match two adjacent tokens, each by that rule.
 * - A quoted phrase (or an unquoted word holding escaped parentheses) matches the exact lower-case
 *   forms in sequence, skipping nothing; blanks in the phrase must fall on token boundaries and a
 *   blank in the text must be a blank in the phrase.
 * - A trailing `*` makes the last word a lower-case prefix.
 * - NEAR/n: a hit of each side, not overlapping, whose word ordinals differ by at most n (adjacent
 *   words are 1 apart; punctuation is not counted).
 * - WITH: hits of both sides in one sentence (the hits of both in such sentences are kept).
 *   NOTWITH: hits of the left side in sentences holding no hit of the right side.
 * - NOT: matches when its operand does not; contributes no hits.
 * - Blacklist: a hit touching a token that a blacklist item matches is dropped.
 */
import type { AnnotatedDocument } from '../nlp/types.ts'
import { createDocumentIndex } from './document-index.ts'
import type { DocumentIndex, TokenSpan } from './document-index.ts'
import type { QueryNode, TermNode } from './tree.ts'

/** One hit: a token span with its character and byte offsets in the document's text. */
export interface QueryHit {
  readonly tokenStart: number
  /** Exclusive. */
  readonly tokenEnd: number
  /** UTF-16 offsets into the text. */
  readonly start: number
  readonly end: number
  readonly byteOffset: number
  readonly byteLength: number
  /** The hit's text as it stands in the document. */
  readonly text: string
}

/** The outcome of evaluating one query on one document. */
export interface QueryMatch {
  readonly matched: boolean
  /** Number of hits: occurrences of the query's (non-excluded) terms that satisfied the query. */
  readonly hitcount: number
  /** The hits, ordered by token position; empty when not matched. */
  readonly hits: readonly QueryHit[]
}

/** Finds the token spans of one term (or blacklist item) in a document. */
export interface TermMatcher {
  /** Identity for sharing results between queries: equal keys find equal spans. */
  readonly key: string
  /**
   * Keys that must occur in a document for `find` to return anything: `exact` keys are looked up
   * among the document's lower-case forms and lemmas, `prefix` keys are prefixes of its forms.
   * Absent (glob matchers) when no such key is known.
   */
  readonly triggers?: { readonly exact: readonly string[]; readonly prefix: readonly string[] }
  /** Spans ordered by start then end. */
  find(index: DocumentIndex): readonly TokenSpan[]
}

const noSpans: readonly TokenSpan[] = Object.freeze([])
// `&` is left to exact matching: the tokenizer may split AT&T into several tokens.
const isPlainWord = (w: string): boolean => /^[\p{L}\p{M}_]+$/u.test(w)
const isAlnum = (c: string | undefined): boolean => c !== undefined && /[\p{L}\p{M}\p{N}_]/u.test(c)
const isDigit = (c: string | undefined): boolean => c !== undefined && /\p{N}/u.test(c)

function spansAt(positions: readonly number[] | undefined, length = 1): readonly TokenSpan[] {
  if (positions === undefined || positions.length === 0) return noSpans
  return positions.map((p) => ({ start: p, end: p + length }))
}

/** Token `i` matches unquoted word `w` (by form or lemma, or as a prefix when `prefix`). */
function wordMatches(index: DocumentIndex, i: number, w: string, prefix: boolean): boolean {
  const lo = index.lower[i]
  if (lo === undefined) return false
  return prefix ? lo.startsWith(w) : lo === w || index.lemma[i] === w
}

/** Unquoted one- or two-word term of plain letters: form-or-lemma matching. */
function wordsMatcher(words: readonly string[], wildcard: boolean, key: string): TermMatcher {
  const first = words[0] as string
  const rest = words.slice(1)
  const firstIsPrefix = wildcard && rest.length === 0
  return {
    key,
    triggers: firstIsPrefix ? { exact: [], prefix: [first] } : { exact: [first], prefix: [] },
    find(index) {
      const firsts = firstIsPrefix
        ? index.positionsWithPrefix(first)
        : index.positionsOfWord(first)
      if (firsts === undefined || firsts.length === 0) return noSpans
      if (rest.length === 0) return spansAt(firsts)
      const out: TokenSpan[] = []
      for (const p of firsts) {
        let ok = true
        for (let k = 0; k < rest.length && ok; k++) {
          ok = wordMatches(index, p + 1 + k, rest[k] as string, wildcard && k === rest.length - 1)
        }
        if (ok) out.push({ start: p, end: p + 1 + rest.length })
      }
      return out
    },
  }
}

function mergeLists(a: readonly number[] | undefined, b: readonly number[] | undefined): readonly number[] | undefined {
  if (a === undefined || a.length === 0) return b
  if (b === undefined || b.length === 0 || a === b) return a
  const set = new Set(a)
  for (const x of b) set.add(x)
  return [...set].sort((x, y) => x - y)
}

/**
 * Exact-form phrase: the phrase's characters without blanks are matched against consecutive
 * tokens' lower-case forms. Candidate first tokens come from index lookups of the phrase's
 * prefixes that could be a whole token (ending at a letter/punctuation boundary or before "n't").
 */
function phraseMatcher(text: string, wildcard: boolean, key: string): TermMatcher {
  const lowered = text.toLowerCase()
  let compact = ''
  const blankAt = new Set<number>()
  for (const ch of lowered) {
    if (ch === ' ') blankAt.add(compact.length)
    else compact += ch
  }
  const firstBlank = lowered.indexOf(' ')
  const firstWordLength = firstBlank < 0 ? compact.length : firstBlank
  const startKeys: string[] = []
  for (let k = 1; k <= firstWordLength; k++) {
    // The tokenizer splits at punctuation, before "n't", and between a number and letters (3.5mm, 10km, 5G).
    if (k === firstWordLength || !isAlnum(compact[k]) || !isAlnum(compact[k - 1]) || compact.startsWith("n't", k) || isDigit(compact[k]) !== isDigit(compact[k - 1])) {
      startKeys.push(compact.slice(0, k))
    }
  }
  const blanks = [...blankAt].sort((a, b) => a - b)
  const blankInside = (from: number, to: number): boolean => blanks.some((b) => b > from && b < to)

  const matchFrom = (index: DocumentIndex, p: number): number => {
    const tokens = index.doc.tokens
    let off = 0
    let j = p
    while (off < compact.length) {
      const lo = index.lower[j]
      const tok = tokens[j]
      if (lo === undefined || tok === undefined) return -1
      if (j > p && tok.spaceBefore && !blankAt.has(off)) return -1
      if (compact.startsWith(lo, off) && !blankInside(off, off + lo.length)) {
        off += lo.length
      } else if (wildcard && lo.startsWith(compact.slice(off)) && !blankInside(off, compact.length)) {
        off = compact.length
      } else {
        return -1
      }
      j++
    }
    return j
  }

  return {
    key,
    triggers: { exact: startKeys, prefix: wildcard && firstBlank < 0 && compact !== '' ? [compact] : [] },
    find(index) {
      if (compact === '') return noSpans
      let candidates: readonly number[] | undefined
      for (const k of startKeys) candidates = mergeLists(candidates, index.positionsOfLower(k))
      if (wildcard && firstBlank < 0) candidates = mergeLists(candidates, index.positionsWithPrefix(compact))
      if (candidates === undefined || candidates.length === 0) return noSpans
      const out: TokenSpan[] = []
      for (const p of candidates) {
        const end = matchFrom(index, p)
        if (end > p) out.push({ start: p, end })
      }
      return out
    },
  }
}

/** Build the matcher of a term node. */
export function termMatcher(term: TermNode): TermMatcher {
  const text = term.text.toLowerCase()
  const words = text.split(' ')
  if (!term.quoted && words.every(isPlainWord)) {
    return wordsMatcher(words, term.wildcard, `u${term.wildcard ? '*' : ''}:${text}`)
  }
  return phraseMatcher(text, term.wildcard, `q${term.wildcard ? '*' : ''}:${text}`)
}

/** A glob word of a blacklist item (`*` anywhere): tested against the document's distinct forms. */
function globWordsMatcher(words: readonly string[], key: string): TermMatcher {
  const patterns = words.map((w) => new RegExp(`^${w.split('*').map((s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('.*')}$`, 'u'))
  return {
    key,
    find(index) {
      const first = patterns[0] as RegExp
      const firsts: number[] = []
      for (const form of index.forms()) {
        if (first.test(form)) for (const p of index.positionsOfLower(form) ?? []) firsts.push(p)
      }
      if (firsts.length === 0) return noSpans
      firsts.sort((a, b) => a - b)
      const out: TokenSpan[] = []
      for (const p of firsts) {
        let ok = true
        for (let k = 1; k < patterns.length && ok; k++) {
          const lo = index.lower[p + k]
          ok = lo !== undefined && (patterns[k] as RegExp).test(lo)
        }
        if (ok) out.push({ start: p, end: p + patterns.length })
      }
      return out
    },
  }
}

/** A compiled blacklist: finds the tokens no hit may touch. */
export interface Blacklist {
  /** The items as given (trimmed, blanks collapsed, empty ones dropped). */
  readonly items: readonly string[]
  /** Per token, 1 when a blacklist item covers it (memoised in the index). */
  blockedTokens(index: DocumentIndex): Uint8Array
}

/**
 * Compile blacklist items: literal terms (matched as exact lower-case forms, like quoted phrases),
 * a trailing `*` for a prefix, or `*` anywhere in a word as a glob over that token's form.
 */
export function compileBlacklist(items: readonly string[]): Blacklist {
  const clean = items.map((s) => String(s).replace(/\s+/g, ' ').trim()).filter((s) => s !== '' && s !== '*')
  const matchers = clean.map((item): TermMatcher => {
    const body = item.toLowerCase()
    const trailing = body.endsWith('*') ? body.slice(0, -1).trimEnd() : body
    if (!trailing.includes('*') && trailing !== '') return phraseMatcher(trailing, trailing !== body, `b:${body}`)
    return globWordsMatcher(body.split(' '), `b:${body}`)
  })
  const blacklist: Blacklist = {
    items: clean,
    blockedTokens(index) {
      const cached = index.memo.get(blacklist)
      if (cached instanceof Uint8Array) return cached
      const blocked = new Uint8Array(index.lower.length)
      for (const m of matchers) for (const s of m.find(index)) blocked.fill(1, s.start, s.end)
      index.memo.set(blacklist, blocked)
      return blocked
    },
  }
  return blacklist
}

/** Spans of `spans` touching no blocked token. */
function unblocked(spans: readonly TokenSpan[], blocked: Uint8Array | undefined): readonly TokenSpan[] {
  if (blocked === undefined || spans.length === 0) return spans
  let keep: TokenSpan[] | undefined
  for (let i = 0; i < spans.length; i++) {
    const s = spans[i] as TokenSpan
    let bad = false
    for (let t = s.start; t < s.end && !bad; t++) bad = blocked[t] === 1
    if (bad && keep === undefined) keep = spans.slice(0, i) as TokenSpan[]
    else if (!bad && keep !== undefined) keep.push(s)
  }
  return keep ?? spans
}

/** Evaluation state for one document: term results by term id. */
interface EvalContext {
  readonly index: DocumentIndex
  readonly blocked: Uint8Array | undefined
  readonly termHits: Array<readonly TokenSpan[] | undefined>
}

/** A compiled node: the hits when it matches, `null` when it does not. */
type Evaluator = (ctx: EvalContext) => readonly TokenSpan[] | null

/** Shares one matcher per distinct term between the queries compiled against it. */
interface TermTable {
  readonly matchers: TermMatcher[]
  idOf(term: TermNode): number
}

function createTermTable(): TermTable {
  const ids = new Map<string, number>()
  const matchers: TermMatcher[] = []
  return {
    matchers,
    idOf(term) {
      const m = termMatcher(term)
      let id = ids.get(m.key)
      if (id === undefined) {
        id = matchers.length
        ids.set(m.key, id)
        matchers.push(m)
      }
      return id
    },
  }
}

function union(lists: ReadonlyArray<readonly TokenSpan[]>): readonly TokenSpan[] {
  const nonEmpty = lists.filter((l) => l.length > 0)
  if (nonEmpty.length === 0) return noSpans
  if (nonEmpty.length === 1) return nonEmpty[0] as readonly TokenSpan[]
  const all = nonEmpty.flat().sort((a, b) => a.start - b.start || a.end - b.end)
  const out: TokenSpan[] = []
  for (const s of all) {
    const last = out[out.length - 1]
    if (last === undefined || last.start !== s.start || last.end !== s.end) out.push(s)
  }
  return out
}

/** Word distance between two non-overlapping spans, or -1 when they overlap. */
function wordDistance(index: DocumentIndex, a: TokenSpan, b: TokenSpan): number {
  if (a.end <= b.start) return (index.wordOrdinal[b.start] as number) - (index.wordOrdinal[a.end - 1] as number)
  if (b.end <= a.start) return (index.wordOrdinal[a.start] as number) - (index.wordOrdinal[b.end - 1] as number)
  return -1
}

function compileNode(node: QueryNode, table: TermTable): Evaluator {
  switch (node.type) {
    case 'term': {
      const id = table.idOf(node)
      const matcher = table.matchers[id] as TermMatcher
      return (ctx) => {
        let hits = ctx.termHits[id]
        if (hits === undefined) {
          hits = unblocked(matcher.find(ctx.index), ctx.blocked)
          ctx.termHits[id] = hits
        }
        return hits.length > 0 ? hits : null
      }
    }
    case 'not': {
      const inner = compileNode(node.operand, table)
      return (ctx) => (inner(ctx) === null ? noSpans : null)
    }
    case 'and': {
      // Included operands first: they fail fast on most documents; exclusions are checked last.
      const ordered = [...node.operands.filter((o) => o.type !== 'not'), ...node.operands.filter((o) => o.type === 'not')]
      const parts = ordered.map((o) => compileNode(o, table))
      const [first, ...rest] = parts as [Evaluator, ...Evaluator[]]
      return (ctx) => {
        // Most documents fail on the first operand: allocate only past it.
        const r0 = first(ctx)
        if (r0 === null) return null
        const lists: Array<readonly TokenSpan[]> = [r0]
        for (const p of rest) {
          const r = p(ctx)
          if (r === null) return null
          lists.push(r)
        }
        return union(lists)
      }
    }
    case 'or': {
      const parts = node.operands.map((o) => compileNode(o, table))
      return (ctx) => {
        let lists: Array<readonly TokenSpan[]> | undefined
        for (const p of parts) {
          const r = p(ctx)
          if (r !== null) (lists ??= []).push(r)
        }
        return lists === undefined ? null : union(lists)
      }
    }
    case 'near': {
      const left = compileNode(node.left, table)
      const right = compileNode(node.right, table)
      const n = node.distance
      return (ctx) => {
        const l = left(ctx)
        if (l === null || l.length === 0) return null
        const r = right(ctx)
        if (r === null || r.length === 0) return null
        const keep = new Set<TokenSpan>()
        for (const a of l) {
          for (const b of r) {
            const d = wordDistance(ctx.index, a, b)
            if (d >= 0 && d <= n) {
              keep.add(a)
              keep.add(b)
            }
          }
        }
        return keep.size > 0 ? [...keep].sort((a, b) => a.start - b.start || a.end - b.end) : null
      }
    }
    case 'with':
    case 'notwith': {
      const left = compileNode(node.left, table)
      const right = compileNode(node.right, table)
      const isWith = node.type === 'with'
      return (ctx) => {
        const l = left(ctx)
        if (l === null || l.length === 0) return null
        const r = right(ctx) ?? noSpans
        const sentenceOf = (s: TokenSpan): number => ctx.index.sentence[s.start] as number
        const rightSentences = new Set(r.map(sentenceOf))
        if (isWith) {
          const leftSentences = new Set<number>()
          const keepLeft = l.filter((s) => rightSentences.has(sentenceOf(s)) && leftSentences.add(sentenceOf(s)))
          if (keepLeft.length === 0) return null
          return union([keepLeft, r.filter((s) => leftSentences.has(sentenceOf(s)))])
        }
        const keep = l.filter((s) => !rightSentences.has(sentenceOf(s)))
        return keep.length > 0 ? keep : null
      }
    }
  }
}

function toHits(doc: AnnotatedDocument, spans: readonly TokenSpan[]): QueryHit[] {
  return spans.map((s) => {
    const first = doc.tokens[s.start]
    const last = doc.tokens[s.end - 1]
    const start = first?.start ?? 0
    const end = last?.end ?? start
    const byteOffset = first?.byteOffset ?? 0
    const byteLength = last === undefined ? 0 : last.byteOffset + last.byteLength - byteOffset
    return { tokenStart: s.start, tokenEnd: s.end, start, end, byteOffset, byteLength, text: doc.text.slice(start, end) }
  })
}

const noMatch: QueryMatch = Object.freeze({ matched: false, hitcount: 0, hits: Object.freeze([]) as readonly QueryHit[] })

/** A query compiled once, evaluated on many documents. */
export interface CompiledQuery {
  readonly tree: QueryNode
  /**
   * Evaluate on `doc`. Pass the document's shared {@link DocumentIndex} when several queries run
   * on one document (it is built from `doc` otherwise).
   */
  evaluate(doc: AnnotatedDocument, index?: DocumentIndex): QueryMatch
}

/** Options of {@link compileQuery}. */
export interface CompileOptions {
  /** Hits touching tokens this blacklist covers are dropped. @defaultValue no blacklist */
  readonly blacklist?: Blacklist
}

/** Compile a parsed query tree into a matcher. */
export function compileQuery(tree: QueryNode, options: CompileOptions = {}): CompiledQuery {
  const table = createTermTable()
  const run = compileNode(tree, table)
  const blacklist = options.blacklist
  return {
    tree,
    evaluate(doc, index = createDocumentIndex(doc)) {
      const ctx: EvalContext = { index, blocked: blacklist?.blockedTokens(index), termHits: [] }
      const spans = run(ctx)
      if (spans === null) return noMatch
      return { matched: true, hitcount: spans.length, hits: toHits(doc, spans) }
    },
  }
}

/**
 * The terms whose hits a query needs: when none of them hits a document, the query cannot match
 * it. `null` when the query can match without any hit (an OR branch under NOT, for instance).
 */
function triggerTerms(node: QueryNode, table: TermTable): number[] | null {
  switch (node.type) {
    case 'term':
      return table.matchers[table.idOf(node)]?.triggers === undefined ? null : [table.idOf(node)]
    case 'not':
      return null
    case 'or': {
      const all: number[] = []
      for (const o of node.operands) {
        const t = triggerTerms(o, table)
        if (t === null) return null
        all.push(...t)
      }
      return all
    }
    case 'and':
      for (const o of node.operands) {
        const t = triggerTerms(o, table)
        if (t !== null) return t
      }
      return null
    case 'near':
    case 'with':
      return triggerTerms(node.left, table) ?? triggerTerms(node.right, table)
    case 'notwith':
      return triggerTerms(node.left, table)
  }
}

/**
 * Internal (used by query sets): compile many trees against one shared term table. The returned
 * function yields `[position of the tree, its match]` for the trees that match, in order.
 *
 * Per document, the document's distinct forms and lemmas are looked up in a table of the terms'
 * trigger keys: terms with no trigger present are known to miss without calling their matcher, and
 * queries none of whose trigger terms can hit are skipped. The cost follows the document's size and
 * the number of queries that may match, not the number of queries.
 */
export function compileTrees(trees: readonly QueryNode[], blacklist: Blacklist | undefined): (index: DocumentIndex) => Array<[number, QueryMatch]> {
  const table = createTermTable()
  const runs = trees.map((t) => compileNode(t, table))
  const termCount = table.matchers.length
  const exact = new Map<string, number[]>()
  const prefix = new Map<string, number[]>()
  let longestPrefix = 0
  const alwaysTried: number[] = [] // terms without triggers: their matcher always runs
  table.matchers.forEach((m, id) => {
    if (m.triggers === undefined) {
      alwaysTried.push(id)
      return
    }
    for (const k of m.triggers.exact) (exact.get(k) ?? exact.set(k, []).get(k))?.push(id)
    for (const k of m.triggers.prefix) {
      ;(prefix.get(k) ?? prefix.set(k, []).get(k))?.push(id)
      longestPrefix = Math.max(longestPrefix, k.length)
    }
  })
  const queriesOfTerm: number[][] = Array.from({ length: termCount }, () => [])
  const alwaysRun: number[] = []
  trees.forEach((t, q) => {
    const ts = triggerTerms(t, table)
    if (ts === null) alwaysRun.push(q)
    else for (const id of new Set(ts)) queriesOfTerm[id]?.push(q)
  })

  return (index) => {
    const termHits = new Array<readonly TokenSpan[] | undefined>(termCount).fill(noSpans)
    const possible = new Uint8Array(termCount)
    const mark = (ids: readonly number[] | undefined): void => {
      if (ids === undefined) return
      for (const id of ids) {
        possible[id] = 1
        termHits[id] = undefined // computed on first use
      }
    }
    for (const key of index.wordKeys()) mark(exact.get(key))
    if (longestPrefix > 0) {
      for (const form of index.forms()) {
        for (let k = 1; k <= Math.min(form.length, longestPrefix); k++) mark(prefix.get(form.slice(0, k)))
      }
    }
    mark(alwaysTried)
    const candidate = new Uint8Array(runs.length)
    for (const q of alwaysRun) candidate[q] = 1
    for (let id = 0; id < termCount; id++) {
      if (possible[id] === 1) for (const q of queriesOfTerm[id] as number[]) candidate[q] = 1
    }
    const ctx: EvalContext = { index, blocked: blacklist?.blockedTokens(index), termHits }
    const out: Array<[number, QueryMatch]> = []
    for (let i = 0; i < runs.length; i++) {
      if (candidate[i] !== 1) continue
      const spans = (runs[i] as Evaluator)(ctx)
      if (spans !== null) out.push([i, { matched: true, hitcount: spans.length, hits: toHits(index.doc, spans) }])
    }
    return out
  }
}
