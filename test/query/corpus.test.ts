import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { createQueryGrammar, printQuery } from '../../src/query/index.ts'
import type { QueryNode } from '../../src/query/index.ts'

interface ValidCase { readonly query: string; readonly tree: QueryNode }
interface InvalidCase {
  readonly query?: string
  readonly queryRepeat?: { readonly text: string; readonly times: number }
  readonly line: number
  readonly column: number
  readonly message: string
}

const load = <T>(name: string): T[] => JSON.parse(readFileSync(new URL(`../../grammars/corpus/${name}`, import.meta.url), 'utf8')) as T[]
const valid = load<ValidCase>('valid.json')
const invalid = load<InvalidCase>('invalid.json')
const grammar = createQueryGrammar()

describe('valid query corpus (grammars/corpus/valid.json)', () => {
  it.each(valid.map((c) => [JSON.stringify(c.query), c] as const))('parses %s to its expected tree', (_, c) => {
    const r = grammar.parse(c.query)
    expect(r).toEqual({ ok: true, tree: c.tree })
  })

  it.each(valid.map((c) => [JSON.stringify(c.query), c] as const))('prints %s so that it parses back to the same tree', (_, c) => {
    expect(grammar.parse(printQuery(c.tree))).toEqual({ ok: true, tree: c.tree })
  })
})

describe('invalid query corpus (grammars/corpus/invalid.json)', () => {
  it.each(invalid.map((c) => [JSON.stringify(c.query ?? `${c.queryRepeat?.text} x ${c.queryRepeat?.times}`), c] as const))(
    'rejects %s with its line, column and message',
    (_, c) => {
      const text = c.query ?? (c.queryRepeat ? c.queryRepeat.text.repeat(c.queryRepeat.times) : '')
      const r = grammar.parse(text)
      expect(r.ok).toBe(false)
      if (r.ok) return
      expect(r.problems[0]).toMatchObject({ line: c.line, column: c.column })
      expect(r.problems[0]?.message).toContain(c.message)
    },
  )
})

describe('limits', () => {
  it('takes near_operator_distance and near_operator_limit from the caller', () => {
    expect(grammar.parse('a NEAR/12 b', { nearOperatorDistance: 15 }).ok).toBe(true)
    expect(grammar.parse('a NEAR b', { nearOperatorDistance: 4 })).toEqual({
      ok: true,
      tree: { type: 'near', distance: 4, left: { type: 'term', text: 'a', quoted: false, wildcard: false }, right: { type: 'term', text: 'b', quoted: false, wildcard: false } },
    })
    expect(grammar.parse('a NEAR b NEAR c', { nearOperatorLimit: 1 }).ok).toBe(false)
  })

  it('accepts exactly 1,500 characters and lets three unquoted words through when asked', () => {
    expect(grammar.parse('x'.repeat(1500)).ok).toBe(true)
    expect(grammar.parse('not very good', { unquotedWordsLimit: 3 }).ok).toBe(true)
  })

  it('rejects nesting deeper than 100 parentheses with a problem, not a stack overflow', () => {
    expect(grammar.parse(`${'('.repeat(100)}a${')'.repeat(100)}`).ok).toBe(true)
    expect(grammar.parse(`${'('.repeat(700)}a${')'.repeat(700)}`)).toEqual({
      ok: false,
      problems: [{ line: 1, column: 101, message: 'parentheses nested too deeply: at most 100 levels are allowed' }],
    })
    expect(grammar.parse(`${'NOT '.repeat(370)}a AND b`).ok).toBe(true)
  })

  it('reuses one parser: a failed parse leaves no state behind', () => {
    expect(grammar.parse('a NEAR b NEAR c NEAR d NEAR e NEAR f NEAR g').ok).toBe(false)
    expect(grammar.parse('a NEAR b').ok).toBe(true)
    expect(grammar.parse('(a OR').ok).toBe(false)
    expect(grammar.parse('a OR b').ok).toBe(true)
  })
})
