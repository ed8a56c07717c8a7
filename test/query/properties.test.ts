import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { compileBlacklist, compileQuery, compileQuerySet, createQueryGrammar, hasIncludedTerm, printQuery } from '../../src/query/index.ts'
import type { QueryNode, TermNode } from '../../src/query/index.ts'
import { fakeDocument } from './fake-document.ts'

const grammar = createQueryGrammar()
const vocabulary = ['apple', 'apples', 'pie', 'pies', 'run', 'ran', 'running', 'tart', 'good', 'better', 'cake', 'the']
const word = fc.constantFrom(...vocabulary)

const unquoted: fc.Arbitrary<TermNode> = fc
  .record({ words: fc.array(fc.constantFrom('apple', 'Pie', 'and', 'or', 'café', 'R_and_D', 'AT&T', 'new', 'York'), { minLength: 1, maxLength: 2 }), wildcard: fc.boolean() })
  .map(({ words, wildcard }) => ({ type: 'term', text: words.join(' '), quoted: false, wildcard }))
const quoted: fc.Arbitrary<TermNode> = fc
  .record({ words: fc.array(fc.constantFrom('AND', 'e-mail', '3.5%', "don't", 'big', 'NEAR/3', '(x)', 'a*b'), { minLength: 1, maxLength: 4 }), wildcard: fc.boolean() })
  .map(({ words, wildcard }) => ({ type: 'term', text: words.join(' '), quoted: true, wildcard }))

const { tree } = fc.letrec<{ tree: QueryNode }>((tie) => ({
  tree: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    unquoted,
    quoted,
    fc.record({ type: fc.constantFrom('and' as const, 'or' as const), operands: fc.array(tie('tree'), { minLength: 2, maxLength: 3 }) }),
    fc.record({ type: fc.constant('not' as const), operand: tie('tree') }),
    fc.record({ type: fc.constant('near' as const), left: tie('tree'), right: tie('tree'), distance: fc.integer({ min: 1, max: 10 }) }),
    fc.record({ type: fc.constantFrom('with' as const, 'notwith' as const), left: tie('tree'), right: tie('tree') }),
  ),
}))

const nearCount = (n: QueryNode): number => {
  switch (n.type) {
    case 'term': return 0
    case 'not': return nearCount(n.operand)
    case 'and': case 'or': return n.operands.reduce((s, o) => s + nearCount(o), 0)
    default: return (n.type === 'near' ? 1 : 0) + nearCount(n.left) + nearCount(n.right)
  }
}
const validTree = tree.filter((t) => hasIncludedTerm(t) && nearCount(t) <= 5 && printQuery(t).length <= 1500)

describe('parsing', () => {
  it('should never throw, whatever the text', () => {
    const fragments = fc.constantFrom('AND', 'OR', 'NOT', 'NEAR', 'NEAR/3', 'NEAR/99', 'WITH', 'NOTWITH', '(', ')', '\\(', '\\)', '"', '*', 'apple', ' ', '\n', '-', '9', 'é', '\u{1F600}')
    const text = fc.oneof(fc.string({ maxLength: 80, unit: 'binary' }), fc.array(fragments, { maxLength: 30 }).map((a) => a.join('')))
    fc.assert(
      fc.property(text, (t) => {
        const r = grammar.parse(t)
        if (!r.ok) {
          expect(r.problems.length).toBeGreaterThan(0)
          for (const p of r.problems) {
            expect(p.line).toBeGreaterThanOrEqual(1)
            expect(p.column).toBeGreaterThanOrEqual(1)
            expect(p.message.length).toBeGreaterThan(5)
          }
        }
      }),
      { seed: 4242, numRuns: 2000 },
    )
  })

  it('should give back the same tree after printing it', () => {
    fc.assert(
      fc.property(validTree, (t) => {
        expect(grammar.parse(printQuery(t))).toEqual({ ok: true, tree: t })
      }),
      { seed: 4243, numRuns: 500 },
    )
  })
})

// Reference semantics over the fake document: positions of a word by form or lemma.
const doc = fc.array(fc.oneof({ weight: 6, arbitrary: word }, { weight: 1, arbitrary: fc.constantFrom('.', ',') }), { minLength: 1, maxLength: 40 })
const positions = (words: readonly string[], w: string): number[] => {
  const d = fakeDocument(words)
  return d.tokens.filter((t) => t.text.toLowerCase() === w || t.lemma === w).map((t) => t.index)
}
const evaluate = (query: string, words: readonly string[]) => {
  const r = grammar.parse(query)
  if (!r.ok) throw new Error(`test query ${query} did not parse: ${r.problems[0]?.message}`)
  return compileQuery(r.tree).evaluate(fakeDocument(words))
}

describe('evaluation on random documents', () => {
  it('should match A OR B exactly where A or B hits', () => {
    fc.assert(fc.property(doc, word, word, (words, a, b) => {
      const m = evaluate(`${a} OR ${b}`, words)
      expect(m.matched).toBe(positions(words, a).length > 0 || positions(words, b).length > 0)
      expect(m.hitcount).toBe(new Set([...positions(words, a), ...positions(words, b)]).size)
    }), { seed: 4244, numRuns: 300 })
  })

  it('should match A AND B exactly where both hit', () => {
    fc.assert(fc.property(doc, word, word, (words, a, b) => {
      expect(evaluate(`${a} AND ${b}`, words).matched).toBe(positions(words, a).length > 0 && positions(words, b).length > 0)
    }), { seed: 4245, numRuns: 300 })
  })

  it('should never match A NOT B where B hits, and match wherever A hits without B', () => {
    fc.assert(fc.property(doc, word, word, (words, a, b) => {
      const m = evaluate(`${a} NOT ${b}`, words)
      if (positions(words, b).length > 0) expect(m.matched).toBe(false)
      else expect(m.matched).toBe(positions(words, a).length > 0)
    }), { seed: 4246, numRuns: 300 })
  })

  it('should match A NEAR/n B only when hits lie within n words (punctuation not counted)', () => {
    fc.assert(fc.property(doc, word, word, fc.integer({ min: 1, max: 10 }), (words, a, b, n) => {
      const d = fakeDocument(words)
      const ordinal = (i: number): number => d.tokens.slice(0, i).filter((t) => t.kind === 'word').length
      const pa = positions(words, a)
      const pb = positions(words, b)
      const expected = pa.some((i) => pb.some((j) => i !== j && Math.abs(ordinal(i) - ordinal(j)) <= n))
      const m = evaluate(`${a} NEAR/${n} ${b}`, words)
      expect(m.matched).toBe(expected)
      // Every hit has a partner of the other side within n words.
      for (const h of m.hits) {
        const near = (others: number[]): boolean => others.some((j) => j !== h.tokenStart && Math.abs(ordinal(j) - ordinal(h.tokenStart)) <= n)
        expect((pa.includes(h.tokenStart) && near(pb)) || (pb.includes(h.tokenStart) && near(pa))).toBe(true)
      }
    }), { seed: 4247, numRuns: 300 })
  })

  it('should match A WITH B exactly where one sentence holds both, and A NOTWITH B where a sentence holds A alone', () => {
    fc.assert(fc.property(doc, word, word, (words, a, b) => {
      const d = fakeDocument(words)
      const sa = new Set(positions(words, a).map((i) => d.tokens[i]?.sentence))
      const sb = new Set(positions(words, b).map((i) => d.tokens[i]?.sentence))
      expect(evaluate(`${a} WITH ${b}`, words).matched).toBe([...sa].some((s) => sb.has(s)))
      expect(evaluate(`${a} NOTWITH ${b}`, words).matched).toBe([...sa].some((s) => !sb.has(s)))
    }), { seed: 4248, numRuns: 300 })
  })
})

describe('query sets', () => {
  // Trees over the documents' vocabulary: words, wildcards, quoted phrases, every operator.
  const vocabTerm: fc.Arbitrary<TermNode> = fc.oneof(
    fc.record({ w: word, wildcard: fc.boolean() }).map(({ w, wildcard }) => ({ type: 'term' as const, text: wildcard ? w.slice(0, 3) : w, quoted: false, wildcard })),
    fc.array(word, { minLength: 1, maxLength: 2 }).map((ws) => ({ type: 'term' as const, text: ws.join(' '), quoted: true, wildcard: false })),
  )
  const { q } = fc.letrec<{ q: QueryNode }>((tie) => ({
    q: fc.oneof(
      { depthSize: 'small' },
      vocabTerm,
      fc.record({ type: fc.constantFrom('and' as const, 'or' as const), operands: fc.array(tie('q'), { minLength: 2, maxLength: 3 }) }),
      fc.record({ type: fc.constant('not' as const), operand: tie('q') }),
      fc.record({ type: fc.constant('near' as const), left: tie('q'), right: tie('q'), distance: fc.integer({ min: 1, max: 10 }) }),
      fc.record({ type: fc.constantFrom('with' as const, 'notwith' as const), left: tie('q'), right: tie('q') }),
    ),
  }))

  it('should give each query the same result as compiling it alone (the trigger prefilter loses nothing)', () => {
    fc.assert(
      fc.property(fc.array(q.filter(hasIncludedTerm), { minLength: 1, maxLength: 12 }), doc, fc.array(word, { maxLength: 2 }), (trees, words, blacklist) => {
        const defs = trees.map((t, i) => ({ id: `q${i}`, name: `n${i}`, query: printQuery(t) }))
        const set = compileQuerySet(defs, blacklist, { grammar, limits: { nearOperatorLimit: 100 } })
        expect(set.problems).toEqual([])
        const d = fakeDocument(words)
        const together = set.evaluate(d).map((h) => [h.id, h.hitcount])
        const alone = trees.flatMap((t, i) => {
          const m = compileQuery(t, blacklist.length > 0 ? { blacklist: compileBlacklist(blacklist) } : {}).evaluate(d)
          return m.matched ? [[`q${i}`, m.hitcount]] : []
        })
        expect(together).toEqual(alone)
      }),
      { seed: 4249, numRuns: 300 },
    )
  })
})
