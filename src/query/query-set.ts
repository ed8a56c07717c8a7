/**
 * Query sets: a configuration's queries compiled once and evaluated together on a document, sharing
 * one document index and one result per distinct term. Also the helpers that `+` user entities and
 * sentiment phrases with operators need.
 */
import { createQueryGrammar, defaultQueryLimits } from '../../grammars/query-grammar.ts'
import type { ParseResult, QueryGrammar, QueryLimits, QueryProblem } from '../../grammars/query-grammar.ts'
import type { AnnotatedDocument } from '../nlp/types.ts'
import { createDocumentIndex } from './document-index.ts'
import type { DocumentIndex } from './document-index.ts'
import { compileBlacklist, compileTrees } from './match.ts'
import type { QueryMatch } from './match.ts'

/** A query as a configuration stores it. */
export interface QueryDefinition {
  readonly id: string
  readonly name: string
  readonly query: string
}

/** The result of one query of a set on one document. */
export interface QuerySetHit extends QueryMatch {
  readonly id: string
  readonly name: string
}

/** A query that could not be compiled, with its problems. */
export interface QuerySetProblem {
  readonly id: string
  readonly name: string
  readonly problems: readonly QueryProblem[]
}

/** A configuration's queries, compiled once. */
export interface QuerySet {
  /** Queries that failed to parse (they are left out of evaluation). Empty for stored configurations. */
  readonly problems: readonly QuerySetProblem[]
  /** Number of compiled queries. */
  readonly size: number
  /**
   * Evaluate every query on `doc`; returns the matching ones, in the order given to
   * {@link compileQuerySet}. Pass the document's shared index when other sets run on it too.
   */
  evaluate(doc: AnnotatedDocument, index?: DocumentIndex): QuerySetHit[]
}

/** Options of {@link compileQuerySet}. */
export interface QuerySetOptions {
  /** Grammar to parse with (reuse one to avoid building a parser per set). @defaultValue a new one */
  readonly grammar?: QueryGrammar
  /** Limits to check the queries against. @defaultValue {@link defaultQueryLimits} */
  readonly limits?: Partial<QueryLimits>
}

/**
 * Compile a configuration's queries and blacklist once. The caller caches the returned set (keyed by
 * the configuration and its modification time) and calls `evaluate` per document.
 */
export function compileQuerySet(
  queries: readonly QueryDefinition[],
  blacklist: readonly string[],
  options: QuerySetOptions = {},
): QuerySet {
  const grammar = options.grammar ?? createQueryGrammar()
  const limits = { ...defaultQueryLimits, ...options.limits }
  const problems: QuerySetProblem[] = []
  const kept: QueryDefinition[] = []
  const trees = []
  for (const q of queries) {
    const parsed = grammar.parse(q.query, limits)
    if (parsed.ok) {
      kept.push(q)
      trees.push(parsed.tree)
    } else {
      problems.push({ id: q.id, name: q.name, problems: parsed.problems })
    }
  }
  const run = compileTrees(trees, blacklist.length > 0 ? compileBlacklist(blacklist) : undefined)
  return {
    problems,
    size: kept.length,
    evaluate(doc, index = createDocumentIndex(doc)) {
      return run(index).map(([i, r]) => {
        const q = kept[i] as QueryDefinition
        return { id: q.id, name: q.name, ...r }
      })
    },
  }
}

/** True when a user entity's name is a boolean query (it starts with `+`). */
export function isQueryEntityName(name: string): boolean {
  return name.startsWith('+')
}

/**
 * Parse a `+` user entity's name: the query is the text after the `+`. Problems carry positions in
 * the name as written (the `+` is column 1 of line 1).
 */
export function parseEntityQuery(grammar: QueryGrammar, name: string, limits?: Partial<QueryLimits>): ParseResult {
  if (!isQueryEntityName(name)) return grammar.parse(name, limits)
  const r = grammar.parse(name.slice(1), limits)
  if (r.ok) return r
  return { ok: false, problems: r.problems.map((p) => (p.line === 1 ? { ...p, column: p.column + 1 } : p)) }
}

/** True when a sentiment phrase uses query syntax (an operator, quotes, parentheses or `*`). */
export function hasQuerySyntax(text: string): boolean {
  return /\b(?:AND|OR|NOT|NEAR(?:\/\d+)?|WITH|NOTWITH)\b|["()*]/.test(text)
}
