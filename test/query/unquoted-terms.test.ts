import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import { createAnnotator } from '../../src/nlp/annotate.ts'
import { compileQuery, createQueryGrammar, printQuery } from '../../src/query/index.ts'

// Issue 10, item 3: clients send queries such as `Amazon AND (EC2 OR AWS)` with unquoted terms holding digits
// and inner punctuation; only whitespace, parentheses (unless escaped), double quotes and operator words delimit.
const grammar = createQueryGrammar()
const annotator = createAnnotator()

const hits = (query: string, text: string): string[] => {
  const r = grammar.parse(query)
  if (!r.ok) throw new Error(`${query}: ${r.problems[0]?.message}`)
  return compileQuery(r.tree).evaluate(annotator.annotate(text)).hits.map((h) => h.text)
}

describe('unquoted terms with digits and inner punctuation', () => {
  it.each([
    ['EC2', 'EC2'], ['iPhone 15', 'iPhone 15'], ['COVID-19', 'COVID-19'], ['AT&T', 'AT&T'], ["O'Reilly", "O'Reilly"],
    ['3.5mm', '3.5mm'], ['e-mail', 'e-mail'], ['#travel', '#travel'], ['@united', '@united'], ['café', 'café'], ['EC2*', 'EC2'],
  ])('should parse %s as one unquoted term', (query, text) => {
    const r = grammar.parse(query)
    expect(r.ok, JSON.stringify(r)).toBe(true)
    if (r.ok) expect(r.tree).toEqual({ type: 'term', text, quoted: false, wildcard: query.endsWith('*') })
  })

  it('should parse the clients\' query `Amazon AND (EC2 OR AWS)` into the expected tree', () => {
    const r = grammar.parse('Amazon AND (EC2 OR AWS)')
    expect(r.ok).toBe(true)
    if (!r.ok) return
    expect(r.tree).toEqual({
      type: 'and',
      operands: [
        { type: 'term', text: 'Amazon', quoted: false, wildcard: false },
        { type: 'or', operands: [{ type: 'term', text: 'EC2', quoted: false, wildcard: false }, { type: 'term', text: 'AWS', quoted: false, wildcard: false }] },
      ],
    })
  })

  it('should find such terms in text as the tokenizer splits it', () => {
    expect(hits('Amazon AND (EC2 OR AWS)', "Amazon's EC2 instances are cheap.")).toEqual(['Amazon', 'EC2'])
    expect(hits('EC2', 'We moved to ec2 last year.')).toEqual(['ec2'])
    expect(hits('COVID-19', 'Cases of COVID-19 rose again.')).toEqual(['COVID-19'])
    expect(hits('AT&T', 'AT&T raised prices.')).toEqual(['AT&T'])
    expect(hits("O'Reilly", "O'Reilly published the book.")).toEqual(["O'Reilly"])
    expect(hits('3.5mm', 'It has no 3.5mm jack.')).toEqual(['3.5mm'])
    expect(hits('e-mail', 'Send an e-mail today.')).toEqual(['e-mail'])
    expect(hits('#travel', 'Best trip ever #travel #fun')).toEqual(['#travel'])
    expect(hits('@united', 'Thanks @united for the upgrade')).toEqual(['@united'])
    expect(hits('café', 'The café was closed.')).toEqual(['café'])
    expect(hits('iPhone 15', 'My iPhone 15 arrived.')).toEqual(['iPhone 15'])
    expect(hits('5G', 'New 5G phones')).toEqual(['5G'])
    expect(hits('10km', 'a 10km run')).toEqual(['10km'])
    expect(hits('EC2*', 'EC2s and EC2 instances')).toEqual(['EC2s', 'EC2'])
  })

  it('should not match a term inside a longer token or across a blank the term does not have', () => {
    expect(hits('EC2', 'The EC22 model is new.')).toEqual([])
    expect(hits('e-mail', 'e - mail')).toEqual([])
  })

  it.each([
    ['apple - pie', 1, 7, "unexpected character '-'"],
    ['apple AND /', 1, 11, "unexpected character '/'"],
    ['a\\b', 1, 2, 'stray backslash'],
    ['ap*ple', 1, 1, 'the wildcard * may only end a term'],
    ['EC2 AND', 1, 8, 'query ends early'],
    ['(EC2 OR AWS', 1, 1, 'unbalanced parenthesis'],
    ['iPhone 15 Pro', 1, 1, 'phrases of more than 2 words must be double-quoted'],
    ['EC2 "AWS"', 1, 5, 'expected an operator'],
  ])('should still refuse %s at line %i, column %i', (query, line, column, message) => {
    const r = grammar.parse(query)
    expect(r.ok).toBe(false)
    if (r.ok) return
    expect(r.problems[0]).toMatchObject({ line, column })
    expect(r.problems[0]?.message).toContain(message)
  })

  it('should print any term back to a query that parses to the same tree', () => {
    const word = fc.stringMatching(/^[A-Za-z0-9&'.#@\-/:,_é()]{1,8}$/)
    fc.assert(
      fc.property(fc.array(word, { minLength: 1, maxLength: 2 }), fc.boolean(), (words, wildcard) => {
        const text = words.join(' ')
        const r0 = grammar.parse(`"${text}"`)
        fc.pre(r0.ok && r0.tree.type === 'term' && r0.tree.text === text)
        for (const quoted of [false, true]) {
          const tree = { type: 'term' as const, text, quoted, wildcard }
          const printed = printQuery(tree)
          const r = grammar.parse(printed)
          expect(r.ok, printed).toBe(true)
          if (!r.ok || r.tree.type !== 'term') continue
          expect(r.tree.text, printed).toBe(text)
          expect(r.tree.wildcard, printed).toBe(wildcard)
          if (quoted) expect(r.tree.quoted).toBe(true)
        }
      }),
    )
  })
})
