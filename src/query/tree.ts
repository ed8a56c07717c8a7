/**
 * The typed tree of a boolean query, and its printer. Trees carry no positions, so that
 * `parse(print(tree))` deep-equals `tree`.
 */
import { isUnquotedTerm } from '../../grammars/query-grammar.ts'

/**
 * A term: unquoted words (one or two, matched by lower-case form or lemma) or a quoted phrase
 * (matched by exact lower-case forms). `text` has no quotes, no `*`, no escapes, single blanks.
 */
export interface TermNode {
  readonly type: 'term'
  readonly text: string
  readonly quoted: boolean
  /** The term ended in `*`: its last word is a lower-case prefix. */
  readonly wildcard: boolean
}

/** `a AND b AND ...` (n-ary; a chain without parentheses). */
export interface AndNode {
  readonly type: 'and'
  readonly operands: readonly QueryNode[]
}

/** `a OR b OR ...` (n-ary; a chain without parentheses). */
export interface OrNode {
  readonly type: 'or'
  readonly operands: readonly QueryNode[]
}

/** `NOT a`: matches a document where `a` does not match; produces no hits. */
export interface NotNode {
  readonly type: 'not'
  readonly operand: QueryNode
}

/** `a NEAR/n b`: a hit of `a` and a hit of `b` at most `distance` words apart. */
export interface NearNode {
  readonly type: 'near'
  readonly left: QueryNode
  readonly right: QueryNode
  readonly distance: number
}

/** `a WITH b` (same sentence) or `a NOTWITH b` (a sentence with `a` and without `b`). */
export interface SentenceNode {
  readonly type: 'with' | 'notwith'
  readonly left: QueryNode
  readonly right: QueryNode
}

/** Any node of a query tree. */
export type QueryNode = TermNode | AndNode | OrNode | NotNode | NearNode | SentenceNode

// Binding strength of each level: a child printed inside a parent binding tighter gets parentheses.
const level: Record<QueryNode['type'], number> = { or: 1, and: 2, not: 3, near: 4, with: 4, notwith: 4, term: 5 }

const operatorWord = /^(?:AND|OR|NOT|NEAR(?:\/\d+)?|WITH|NOTWITH)$/

/** True when `word` (as printed, `*` included, parentheses escaped) would lex as something other than one term. */
function needsQuotes(word: string): boolean {
  return !isUnquotedTerm(word.replace(/[()]/g, '\\$&')) || operatorWord.test(word)
}

function printTerm(t: TermNode): string {
  const words = t.text.split(' ')
  const printed = words.map((w, i) => (t.wildcard && i === words.length - 1 ? `${w}*` : w))
  if (t.quoted || printed.some(needsQuotes) || t.text === '') {
    return `"${t.text}${t.wildcard ? '*' : ''}"`
  }
  return words.map((w) => w.replace(/[()]/g, '\\$&')).join(' ') + (t.wildcard ? '*' : '')
}

function wrap(node: QueryNode, minLevel: number): string {
  const s = printQuery(node)
  return level[node.type] < minLevel ? `(${s})` : s
}

/**
 * Print a tree as query text in a canonical form: `NEAR/n` always with its distance, `a NOT b` as
 * `a AND NOT b`, parentheses only where the tree needs them. An unquoted term that could not be
 * read back as the same unquoted term (it holds an operator word) is printed as written if it is
 * quoted, so build trees from `parseQuery` or keep unquoted terms to letters.
 */
export function printQuery(node: QueryNode): string {
  switch (node.type) {
    case 'term':
      return printTerm(node)
    case 'or':
      // A nested OR directly inside an OR chain needs parentheses to stay nested.
      return node.operands.map((o) => wrap(o, level.or + 1)).join(' OR ')
    case 'and':
      return node.operands.map((o) => (o.type === 'not' ? printQuery(o) : wrap(o, level.and + 1))).join(' AND ')
    case 'not':
      return `NOT ${node.operand.type === 'not' ? printQuery(node.operand) : wrap(node.operand, level.not + 1)}`
    case 'near':
    case 'with':
    case 'notwith': {
      const op = node.type === 'near' ? `NEAR/${node.distance}` : node.type === 'with' ? 'WITH' : 'NOTWITH'
      // Left-associative: a proximity chain on the left prints bare, anything else looser is wrapped.
      const left = level[node.left.type] === level.near ? printQuery(node.left) : wrap(node.left, level.term)
      return `${left} ${op} ${wrap(node.right, level.term)}`
    }
  }
}
