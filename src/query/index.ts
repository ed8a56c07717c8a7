/**
 * The boolean query language: parse, print, check, compile, evaluate. See `grammars/README.md` for
 * the syntax, precedence and matching rules.
 */
import { createQueryGrammar } from '../../grammars/query-grammar.ts'
import type { ParseResult, QueryLimits, QueryProblem } from '../../grammars/query-grammar.ts'

export { createQueryGrammar, defaultQueryLimits, hasIncludedTerm } from '../../grammars/query-grammar.ts'
export type { ParseResult, QueryGrammar, QueryLimits, QueryProblem } from '../../grammars/query-grammar.ts'
export { printQuery } from './tree.ts'
export type { AndNode, NearNode, NotNode, OrNode, QueryNode, SentenceNode, TermNode } from './tree.ts'
export { createDocumentIndex } from './document-index.ts'
export type { DocumentIndex, TokenSpan } from './document-index.ts'
export { compileBlacklist, compileQuery, termMatcher } from './match.ts'
export type { Blacklist, CompileOptions, CompiledQuery, QueryHit, QueryMatch, TermMatcher } from './match.ts'
export { compileQuerySet, hasQuerySyntax, isQueryEntityName, parseEntityQuery } from './query-set.ts'
export type { QueryDefinition, QuerySet, QuerySetHit, QuerySetOptions, QuerySetProblem } from './query-set.ts'

/**
 * Parse one query with a grammar built for this call. Building a grammar costs milliseconds: to
 * parse many queries, keep one from {@link createQueryGrammar} and call its `parse`.
 */
export function parseQuery(text: string, limits?: Partial<QueryLimits>): ParseResult {
  return createQueryGrammar().parse(text, limits)
}

/** The problems of a query text (empty when it is valid). Same cost note as {@link parseQuery}. */
export function checkQuery(text: string, limits?: Partial<QueryLimits>): readonly QueryProblem[] {
  const r = parseQuery(text, limits)
  return r.ok ? [] : r.problems
}
