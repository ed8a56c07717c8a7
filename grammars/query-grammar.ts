/**
 * The boolean query grammar, in the Chevrotain manner: token definitions (immutable, module level),
 * one parser class with one rule per precedence level, embedded actions building the typed tree of
 * `src/query/tree.ts`. Precedence and syntax are documented in `grammars/README.md`.
 *
 * Nothing here throws on input: lexing and parsing problems are collected as data with line and
 * column (both 1-based) and a message naming the problem.
 */
import { createToken, EmbeddedActionsParser, Lexer } from 'chevrotain'
import type { IToken, TokenType } from 'chevrotain'
import type { QueryNode, TermNode } from '../src/query/tree.ts'

/** One problem found in a query text: where (1-based line and column) and what. */
export interface QueryProblem {
  readonly line: number
  readonly column: number
  readonly message: string
}

// ---------------------------------------------------------------------------------------------
// Tokens. Order matters: keywords come before `Term` and name it as their `longer_alt`, so that
// `ANDROID` or `NEARBY` lex as terms; `NOTWITH` comes before `NOT`.
// ---------------------------------------------------------------------------------------------

/**
 * A term: a run of characters up to whitespace, a parenthesis (unless escaped), a double quote, `*` or `\`,
 * holding at least one letter, mark, digit, `_` or `&`, optionally ending in the `*` wildcard. So `EC2`,
 * `COVID-19`, `AT&T`, `O'Reilly`, `3.5mm`, `e-mail`, `#travel`, `@united` and `café` are terms; a lone `-`,
 * `/` or `.` is not.
 */
export const Term = createToken({
  name: 'Term',
  // A custom matcher: chevrotain's lexer drops the `u` flag that \p{L} needs. No regex with
  // `lastIndex` state is kept, so the token definition stays immutable.
  pattern: { exec: matchTerm },
  line_breaks: false,
})

/** Characters that end an unquoted term (besides an unescaped parenthesis). */
const termStop = /^[\s"*\\()]$/u
/** A term needs one of these; a run of other characters alone (`-`, `/`, `.`) is punctuation, not a term. */
const wordChar = /^[\p{L}\p{M}\p{N}_&]$/u

/** Length of the unquoted term starting at `offset` (without its wildcard), or 0 when none starts there. */
function termLength(text: string, offset: number): number {
  let i = offset
  let hasWordChar = false
  while (i < text.length) {
    const c = text[i] as string
    if (c === '\\' && (text[i + 1] === '(' || text[i + 1] === ')')) {
      i += 2
      hasWordChar = true
      continue
    }
    const ch = String.fromCodePoint(text.codePointAt(i) as number)
    if (termStop.test(ch)) break
    if (!hasWordChar && wordChar.test(ch)) hasWordChar = true
    i += ch.length
  }
  return hasWordChar ? i - offset : 0
}

/** True when `word` (a trailing `*` included) lexes as exactly one unquoted term. */
export function isUnquotedTerm(word: string): boolean {
  const n = termLength(word, 0)
  return n > 0 && (n === word.length || (n === word.length - 1 && word.endsWith('*')))
}

/** Match an unquoted term (see {@link Term}) at `offset` (the shape chevrotain's custom patterns return). */
function matchTerm(text: string, offset: number): RegExpExecArray | null {
  let i = offset + termLength(text, offset)
  if (i === offset) return null
  if (text[i] === '*') i++
  const found = [text.slice(offset, i)] as unknown as RegExpExecArray
  found.index = offset
  found.input = text
  return found
}
/** `NOTWITH`: left operand in a sentence without the right one. */
export const NotWith = createToken({ name: 'NotWith', pattern: /NOTWITH/, longer_alt: Term })
/** `AND`. */
export const And = createToken({ name: 'And', pattern: /AND/, longer_alt: Term })
/** `OR`. */
export const Or = createToken({ name: 'Or', pattern: /OR/, longer_alt: Term })
/** `NOT`, unary (`NOT a`) or binary (`a NOT b`, read as `a AND NOT b`). */
export const Not = createToken({ name: 'Not', pattern: /NOT/, longer_alt: Term })
/** `NEAR` or `NEAR/n`. */
export const Near = createToken({ name: 'Near', pattern: /NEAR(?:\/\d+)?/, longer_alt: Term })
/** `WITH`: both operands in one sentence. */
export const With = createToken({ name: 'With', pattern: /WITH/, longer_alt: Term })
/** A double-quoted phrase (no escapes inside; it ends at the next `"`). */
export const Phrase = createToken({ name: 'Phrase', pattern: /"[^"]*"/, line_breaks: true })
/** A `"` never closed: lexed as its own token so the problem can be named precisely. */
export const OpenQuote = createToken({ name: 'OpenQuote', pattern: /"[^"]*/, line_breaks: true })
/** `(`. */
export const LParen = createToken({ name: 'LParen', pattern: /\(/ })
/** `)`. */
export const RParen = createToken({ name: 'RParen', pattern: /\)/ })
/** Blanks and line breaks, skipped. */
export const Blank = createToken({ name: 'Blank', pattern: /\s+/, group: Lexer.SKIPPED, line_breaks: true })

/** All tokens in lexing order. */
export const queryTokens: readonly TokenType[] = [
  Blank, Phrase, OpenQuote, LParen, RParen, NotWith, And, Or, Not, Near, With, Term,
]

/** Limits a query is checked against (the spec's Limits section). */
export interface QueryLimits {
  /** Maximum length of the query text in characters. @defaultValue 1500 */
  readonly maxLength: number
  /** Maximum number of NEAR operators (`near_operator_limit`). @defaultValue 5 */
  readonly nearOperatorLimit: number
  /** Maximum NEAR distance (`near_operator_distance`); also the distance of a bare `NEAR`. @defaultValue 10 */
  readonly nearOperatorDistance: number
  /** Most words an unquoted term may have (longer phrases must be quoted). @defaultValue 2 */
  readonly unquotedWordsLimit: number
}

/** The defaults of {@link QueryLimits}. */
export const defaultQueryLimits: QueryLimits = Object.freeze({
  maxLength: 1500,
  nearOperatorLimit: 5,
  nearOperatorDistance: 10,
  unquotedWordsLimit: 2,
})

/** Deepest parenthesis nesting accepted. */
export const maxNesting = 100

type ProximityOp = 'near' | 'with' | 'notwith'

/**
 * The parser: rules are class properties, one per precedence level (loosest first):
 * `or` > `and` (with binary NOT) > `unary` (prefix NOT) > `proximity` (NEAR/WITH/NOTWITH) > `atom`.
 * Create one per {@link QueryGrammar} and reuse it; `problems` is reset by {@link QueryGrammar.parse}.
 */
class QueryParser extends EmbeddedActionsParser {
  /** Semantic problems found while building the tree (not syntax errors). */
  problems: QueryProblem[] = []
  nearCount = 0
  limits: QueryLimits = defaultQueryLimits

  constructor() {
    super(queryTokens as TokenType[], { recoveryEnabled: false, maxLookahead: 2 })
    this.performSelfAnalysis()
  }

  /** query := or EOF */
  query = this.RULE('query', (): QueryNode => this.SUBRULE(this.orExpr))

  /** or := and (OR and)* */
  orExpr = this.RULE('orExpr', (): QueryNode => {
    const operands: QueryNode[] = [this.SUBRULE(this.andExpr)]
    this.MANY(() => {
      this.CONSUME(Or)
      operands.push(this.SUBRULE2(this.andExpr))
    })
    return operands.length === 1 ? (operands[0] as QueryNode) : { type: 'or', operands }
  })

  /** and := unary ((AND | NOT) unary)*; `a NOT b` is `a AND NOT b`. */
  andExpr = this.RULE('andExpr', (): QueryNode => {
    const operands: QueryNode[] = [this.SUBRULE(this.unary)]
    this.MANY(() => {
      this.OR([
        {
          ALT: () => {
            this.CONSUME(And)
            operands.push(this.SUBRULE2(this.unary))
          },
        },
        {
          ALT: () => {
            this.CONSUME(Not)
            const operand = this.SUBRULE3(this.unary)
            operands.push({ type: 'not', operand })
          },
        },
      ])
    })
    return operands.length === 1 ? (operands[0] as QueryNode) : { type: 'and', operands }
  })

  /** unary := NOT unary | proximity */
  unary = this.RULE('unary', (): QueryNode =>
    this.OR([
      {
        ALT: () => {
          this.CONSUME(Not)
          const operand = this.SUBRULE(this.unary)
          return { type: 'not', operand } as QueryNode
        },
      },
      { ALT: () => this.SUBRULE(this.proximity) },
    ]),
  )

  /** proximity := atom ((NEAR[/n] | WITH | NOTWITH) atom)*, left-associative. */
  proximity = this.RULE('proximity', (): QueryNode => {
    let left = this.SUBRULE(this.atom)
    this.MANY(() => {
      let op: ProximityOp = 'near'
      let distance = 0
      this.OR([
        {
          ALT: () => {
            const tok = this.CONSUME(Near)
            op = 'near'
            distance = this.nearDistance(tok)
          },
        },
        {
          ALT: () => {
            this.CONSUME(With)
            op = 'with'
          },
        },
        {
          ALT: () => {
            this.CONSUME(NotWith)
            op = 'notwith'
          },
        },
      ])
      const right = this.SUBRULE2(this.atom)
      left = op === 'near' ? { type: 'near', left, right, distance } : { type: op, left, right }
    })
    return left
  })

  /** atom := '(' or ')' | Phrase | Term+ (adjacent unquoted words form one phrase term) */
  atom = this.RULE('atom', (): QueryNode =>
    this.OR([
      {
        ALT: () => {
          this.CONSUME(LParen)
          const inner = this.SUBRULE(this.orExpr)
          this.CONSUME(RParen)
          return inner
        },
      },
      { ALT: () => this.phraseTerm(this.CONSUME(Phrase)) },
      {
        ALT: () => {
          const words: IToken[] = []
          this.AT_LEAST_ONE(() => {
            words.push(this.CONSUME(Term))
          })
          return this.wordsTerm(words)
        },
      },
    ]),
  )

  private problemAt(tok: IToken, message: string): void {
    if (this.RECORDING_PHASE) return
    this.problems.push({ line: tok.startLine ?? 1, column: tok.startColumn ?? 1, message })
  }

  private nearDistance(tok: IToken): number {
    if (this.RECORDING_PHASE) return 0
    this.nearCount++
    if (this.nearCount === this.limits.nearOperatorLimit + 1) {
      this.problemAt(tok, `too many NEAR operators: at most ${this.limits.nearOperatorLimit} are allowed in a query`)
    }
    const slash = tok.image.indexOf('/')
    if (slash < 0) return this.limits.nearOperatorDistance
    const n = Number(tok.image.slice(slash + 1))
    if (!Number.isSafeInteger(n) || n < 1 || n > this.limits.nearOperatorDistance) {
      this.problemAt(tok, `NEAR distance must be from 1 to ${this.limits.nearOperatorDistance}, found ${tok.image.slice(slash + 1)}`)
      return this.limits.nearOperatorDistance
    }
    return n
  }

  private phraseTerm(tok: IToken): QueryNode {
    if (this.RECORDING_PHASE) return { type: 'term', text: '', quoted: true, wildcard: false }
    // `\(` and `\)` are literal parentheses inside quotes too.
    let body = tok.image.slice(1, -1).replace(/\\([()])/g, '$1').replace(/\s+/g, ' ').trim()
    let wildcard = false
    if (body.endsWith('*')) {
      wildcard = true
      body = body.slice(0, -1).trimEnd()
    }
    if (body === '') this.problemAt(tok, 'empty phrase: a quoted phrase needs at least one character besides * and blanks')
    return { type: 'term', text: body, quoted: true, wildcard }
  }

  private wordsTerm(words: IToken[]): TermNode {
    if (this.RECORDING_PHASE) return { type: 'term', text: '', quoted: false, wildcard: false }
    const first = words[0] as IToken
    if (words.length > this.limits.unquotedWordsLimit) {
      this.problemAt(first, `phrases of more than ${this.limits.unquotedWordsLimit} words must be double-quoted: ${words.map((w) => w.image).join(' ')}`)
    }
    for (let i = 0; i < words.length - 1; i++) {
      const w = words[i] as IToken
      if (w.image.endsWith('*')) this.problemAt(w, `the wildcard * may only end a term, found inside "${words.map((x) => x.image).join(' ')}"`)
    }
    const last = (words[words.length - 1] as IToken).image
    const wildcard = last.endsWith('*')
    const text = words
      .map((w) => (w.image.endsWith('*') ? w.image.slice(0, -1) : w.image).replace(/\\([()])/g, '$1'))
      .join(' ')
    return { type: 'term', text, quoted: false, wildcard }
  }
}

/** The outcome of parsing: a tree, or the problems found. */
export type ParseResult =
  | { readonly ok: true; readonly tree: QueryNode }
  | { readonly ok: false; readonly problems: readonly QueryProblem[] }

/** A lexer and a parser, built once and reused for every query parsed through it. */
export interface QueryGrammar {
  /** Parse `text`; never throws. Problems are sorted by line, then column. */
  parse(text: string, limits?: Partial<QueryLimits>): ParseResult
}

const tokenLabels: Record<string, string> = {
  And: 'AND', Or: 'OR', Not: 'NOT', Near: 'NEAR', With: 'WITH', NotWith: 'NOTWITH',
  LParen: "'('", RParen: "')'", Term: 'a term', Phrase: 'a quoted phrase',
}

/** Position just past the end of `text` (for "ends early" problems). */
function endPosition(text: string): { line: number; column: number } {
  const lines = text.split(/\r\n|\r|\n/)
  return { line: lines.length, column: (lines[lines.length - 1] ?? '').length + 1 }
}

function describe(tok: IToken): string {
  return tok.tokenType.name === 'Term' || tok.tokenType.name === 'Phrase' ? `'${tok.image}'` : (tokenLabels[tok.tokenType.name] ?? `'${tok.image}'`)
}

/** True when some term of `node` is not excluded by NOT (or only on the left of NOTWITH). */
export function hasIncludedTerm(node: QueryNode): boolean {
  switch (node.type) {
    case 'term': return true
    case 'not': return false
    case 'and':
    case 'or': return node.operands.some(hasIncludedTerm)
    case 'near':
    case 'with': return hasIncludedTerm(node.left) || hasIncludedTerm(node.right)
    case 'notwith': return hasIncludedTerm(node.left)
  }
}

/**
 * Create a grammar object: its own lexer and parser instance, reused by every `parse` call. They are built on
 * the first `parse` (chevrotain's self-analysis costs tens of milliseconds), so an engine whose configurations
 * have no queries never builds them; keep one grammar for many queries.
 */
export function createQueryGrammar(): QueryGrammar {
  let built: { lexer: Lexer; parser: QueryParser } | undefined

  return {
    parse(text, limitOverrides = {}) {
      const limits: QueryLimits = { ...defaultQueryLimits, ...limitOverrides }
      try {
        return parseWith(text, limits)
      } catch (e) {
        // Defensive: the rules above do not throw, but a bug must not escape as an exception.
        return { ok: false, problems: [{ line: 1, column: 1, message: `internal parser error: ${(e as Error).message}` }] }
      }
    },
  }

  function parseWith(text: string, limits: QueryLimits): ParseResult {
    if (typeof text !== 'string') return { ok: false, problems: [{ line: 1, column: 1, message: 'query must be a string' }] }
    if (text.length > limits.maxLength) {
      const pos = positionOf(text, limits.maxLength)
      return { ok: false, problems: [{ ...pos, message: `query is too long: ${text.length} characters, at most ${limits.maxLength} are allowed` }] }
    }
    if (text.trim() === '') return { ok: false, problems: [{ line: 1, column: 1, message: 'empty query: a query needs at least one term' }] }

    built ??= { lexer: new Lexer(queryTokens as TokenType[], { positionTracking: 'full', ensureOptimizations: false }), parser: new QueryParser() }
    const { lexer, parser } = built
    const lexed = lexer.tokenize(text)
    const problems: QueryProblem[] = []
    for (const err of lexed.errors) {
      const ch = text.slice(err.offset, err.offset + err.length)
      const first = ch === '' ? '' : String.fromCodePoint(ch.codePointAt(0) as number)
      problems.push({
        line: err.line ?? 1,
        column: err.column ?? 1,
        message: ch.startsWith('*')
          ? `misplaced wildcard '*': it may only end a term`
          : ch.startsWith('\\')
            ? `stray backslash: only \\( and \\) may be escaped`
            : `unexpected character '${first}': a term needs a letter or a digit (double-quote punctuation to match it literally)`,
      })
    }
    // Balance of quotes and parentheses, named with the position of the culprit.
    const open: IToken[] = []
    for (const tok of lexed.tokens) {
      if (tok.tokenType === OpenQuote) problems.push({ line: tok.startLine ?? 1, column: tok.startColumn ?? 1, message: 'unbalanced double quote: this " is never closed' })
      else if (tok.tokenType === LParen) {
        open.push(tok)
        // Deeper nesting would exhaust the recursive-descent parser's stack; no real query needs it.
        if (open.length === maxNesting + 1) problems.push({ line: tok.startLine ?? 1, column: tok.startColumn ?? 1, message: `parentheses nested too deeply: at most ${maxNesting} levels are allowed` })
      }
      else if (tok.tokenType === RParen && open.pop() === undefined) {
        problems.push({ line: tok.startLine ?? 1, column: tok.startColumn ?? 1, message: "unbalanced parenthesis: this ')' has no matching '('" })
      }
    }
    for (const tok of open) problems.push({ line: tok.startLine ?? 1, column: tok.startColumn ?? 1, message: "unbalanced parenthesis: this '(' is never closed" })
    if (problems.length > 0) return { ok: false, problems: sortProblems(problems) }

    parser.limits = limits
    parser.problems = []
    parser.nearCount = 0
    parser.input = lexed.tokens
    const tree = parser.query()
    for (const err of parser.errors) {
      const tok = err.token
      const atEnd = tok.tokenType.name === 'EOF' || Number.isNaN(tok.startOffset)
      const pos = atEnd ? endPosition(text) : { line: tok.startLine ?? 1, column: tok.startColumn ?? 1 }
      let message: string
      if (err.name === 'NotAllInputParsedException') {
        message = `expected an operator (AND, OR, NOT, NEAR/n, WITH, NOTWITH) before ${describe(tok)}; operators are upper case, and terms, phrases and groups must be joined by one`
      } else if (atEnd) {
        message = 'query ends early: expected a term, a quoted phrase or ( after the last operator'
      } else {
        const isOperator = tok.tokenType !== RParen && tok.tokenType !== Term && tok.tokenType !== Phrase
        message = `expected a term, a quoted phrase or ( but found ${describe(tok)}${isOperator ? '; an operator word used as a term must be quoted' : ''}`
      }
      problems.push({ ...pos, message })
    }
    problems.push(...parser.problems)
    if (problems.length === 0 && !hasIncludedTerm(tree)) {
      problems.push({ line: 1, column: 1, message: 'the query needs at least one term that is not excluded by NOT' })
    }
    parser.input = []
    if (problems.length > 0) return { ok: false, problems: sortProblems(problems) }
    return { ok: true, tree }
  }
}

function positionOf(text: string, offset: number): { line: number; column: number } {
  return endPosition(text.slice(0, offset))
}

function sortProblems(problems: QueryProblem[]): QueryProblem[] {
  return problems.sort((a, b) => a.line - b.line || a.column - b.column || (a.message < b.message ? -1 : a.message > b.message ? 1 : 0))
}
