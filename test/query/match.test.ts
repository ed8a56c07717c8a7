import { describe, expect, it } from 'vitest'
import { compileBlacklist, compileQuery, compileQuerySet, createDocumentIndex, createQueryGrammar, hasQuerySyntax, isQueryEntityName, parseEntityQuery } from '../../src/query/index.ts'
import type { AnnotatedDocument } from '../../src/nlp/types.ts'
import type { CompileOptions } from '../../src/query/index.ts'
import { fakeDocument } from './fake-document.ts'

const grammar = createQueryGrammar()
const words = (text: string): string[] => text.replace(/([.,])/g, ' $1').split(/\s+/).filter(Boolean)
const run = (query: string, doc: AnnotatedDocument, options: CompileOptions = {}) => {
  const r = grammar.parse(query)
  if (!r.ok) throw new Error(r.problems[0]?.message)
  return compileQuery(r.tree, options).evaluate(doc)
}
const texts = (query: string, doc: AnnotatedDocument, options: CompileOptions = {}): string[] => run(query, doc, options).hits.map((h) => h.text)

describe('term matching', () => {
  const doc = fakeDocument(words('Apples and pies ran. The runner runs, running better. New York pie'))

  it('should match an unquoted word by form or lemma, case-insensitively', () => {
    expect(texts('apple', doc)).toEqual(['Apples'])
    expect(texts('run', doc)).toEqual(['ran', 'runs', 'running'])
    expect(texts('runs', doc)).toEqual(['runs'])
    expect(texts('RUNNER', doc)).toEqual(['runner'])
  })

  it('should match a quoted phrase by exact forms only', () => {
    expect(texts('"apple"', doc)).toEqual([])
    expect(texts('"apples"', doc)).toEqual(['Apples'])
    expect(texts('"new york pie"', doc)).toEqual(['New York pie'])
    expect(texts('"york new"', doc)).toEqual([])
  })

  it('should match two unquoted words as adjacent tokens, each by form or lemma', () => {
    expect(texts('york pie', doc)).toEqual(['York pie'])
    expect(texts('york pies', doc)).toEqual([])
    expect(texts('apple pie', doc)).toEqual([])
  })

  it('should treat a trailing * as a lower-case prefix', () => {
    expect(texts('run*', doc)).toEqual(['runner', 'runs', 'running'])
    expect(texts('"new yo*"', doc)).toEqual(['New York'])
    expect(texts('pi*', doc)).toEqual(['pies', 'pie'])
  })

  it('should match on token boundaries only', () => {
    expect(texts('"ork"', doc)).toEqual([])
    expect(texts('"newyork"', doc)).toEqual([])
  })

  it('should report hits with character and byte offsets', () => {
    const d = fakeDocument(['Café', 'crème', 'brûlée'])
    const [hit] = run('brûlée', d).hits
    expect(hit).toEqual({ tokenStart: 2, tokenEnd: 3, start: 11, end: 17, byteOffset: 13, byteLength: 8, text: 'brûlée' })
  })
})

describe('operators', () => {
  const doc = fakeDocument(words('apple pie is good. cake , cake , apple tart. nothing here'))

  it('should count NEAR in words, skipping punctuation', () => {
    expect(run('cake NEAR/1 apple', doc).matched).toBe(true)
    expect(run('apple NEAR/2 good', doc).matched).toBe(false)
    expect(run('apple NEAR/3 good', doc).matched).toBe(true)
    expect(texts('cake NEAR/1 apple', doc)).toEqual(['cake', 'apple'])
  })

  it('should apply WITH and NOTWITH by sentence', () => {
    expect(texts('apple WITH tart', doc)).toEqual(['apple', 'tart'])
    expect(texts('apple NOTWITH tart', doc)).toEqual(['apple'])
    expect(run('good NOTWITH apple', doc).matched).toBe(false)
  })

  it('should count hits of the terms that satisfied the query', () => {
    expect(run('cake OR tart', doc).hitcount).toBe(3)
    expect(run('cake AND NOT pie', doc).matched).toBe(false)
    expect(run('(cake OR nothing) NOT banana', doc).hitcount).toBe(3)
  })
})

describe('blacklist', () => {
  const doc = fakeDocument(words('apple pie and apple juice. pineapple cake'))

  it('should drop hits touching a blacklisted literal phrase', () => {
    const blacklist = compileBlacklist(['apple juice'])
    expect(texts('apple', doc, { blacklist })).toEqual(['apple'])
    expect(run('juice', doc, { blacklist }).matched).toBe(false)
  })

  it('should honour * wildcards anywhere in a blacklist item', () => {
    expect(texts('apple OR pineapple OR pie', doc, { blacklist: compileBlacklist(['*apple']) })).toEqual(['pie'])
    expect(texts('pie OR pineapple', doc, { blacklist: compileBlacklist(['pine*']) })).toEqual(['pie'])
    expect(texts('apple', doc, { blacklist: compileBlacklist(['a*e pie']) })).toEqual(['apple'])
  })
})

describe('query sets', () => {
  const queries = [
    { id: 'q1', name: 'fruit', query: 'apple OR pear' },
    { id: 'q2', name: 'broken', query: 'apple AND' },
    { id: 'q3', name: 'dessert', query: 'pie NEAR/2 apple' },
    { id: 'q4', name: 'none', query: 'banana' },
  ]

  it('should evaluate every compiled query on one shared index and name the broken ones', () => {
    const set = compileQuerySet(queries, ['apple juice'], { grammar })
    expect(set.size).toBe(3)
    expect(set.problems).toEqual([{ id: 'q2', name: 'broken', problems: [expect.objectContaining({ line: 1, column: 10 })] }])
    const doc = fakeDocument(words('apple pie and apple juice'))
    const hits = set.evaluate(doc, createDocumentIndex(doc))
    expect(hits.map((h) => [h.id, h.hitcount, h.hits.map((x) => x.tokenStart)])).toEqual([
      ['q1', 1, [0]],
      ['q3', 2, [0, 1]],
    ])
  })

  it('should give the same answers as queries compiled one by one', () => {
    const set = compileQuerySet(queries, [], { grammar })
    const doc = fakeDocument(words('pear . apple , pie'))
    const alone = queries.flatMap((q) => {
      const r = grammar.parse(q.query)
      return r.ok && compileQuery(r.tree).evaluate(doc).matched ? [q.id] : []
    })
    expect(set.evaluate(doc).map((h) => h.id)).toEqual(alone)
  })
})

describe('helpers for user entities and sentiment phrases', () => {
  it('should parse the query after the + of a user entity', () => {
    expect(isQueryEntityName('+apple OR pear')).toBe(true)
    expect(isQueryEntityName('Apple')).toBe(false)
    expect(parseEntityQuery(grammar, '+apple OR pear').ok).toBe(true)
    expect(parseEntityQuery(grammar, '+apple OR')).toEqual({ ok: false, problems: [expect.objectContaining({ line: 1, column: 10 })] })
  })

  it('should tell phrases with operators from plain ones', () => {
    expect(hasQuerySyntax('not very good')).toBe(false)
    expect(hasQuerySyntax('good NEAR/2 price')).toBe(true)
    expect(hasQuerySyntax('"value for money"')).toBe(true)
  })
})

describe('on documents annotated by wink', () => {
  it('should match phrases across the tokenizer splits (contractions, hyphens, possessives, &)', async () => {
    const { createAnnotator } = await import('../../src/nlp/annotate.ts')
    const doc = createAnnotator().annotate("I don't like e-mail. New York's AT&T store (the big one) was running late.")
    expect(texts('"don\'t like"', doc)).toEqual(["don't like"])
    expect(texts('"e-mail"', doc)).toEqual(['e-mail'])
    expect(texts('"new york\'s"', doc)).toEqual(["New York's"])
    expect(texts('AT&T', doc)).toEqual(['AT&T'])
    expect(texts('"\\(the big"', doc)).toEqual(['(the big'])
    expect(texts('run NEAR/2 store', doc)).toEqual([])
    expect(texts('run NEAR/7 store', doc)).toEqual(['store', 'running'])
    expect(texts('email', doc)).toEqual([])
  })
})

describe('document index', () => {
  it('reads its lazily built members through getters shared by every index, not per-object closures', () => {
    const a = createDocumentIndex(fakeDocument(words('Apples and pies ran.')))
    const b = createDocumentIndex(fakeDocument(words('The runner runs.')))
    // Getters of an object literal are new closures held by old-generation accessor pairs in V8, which kept every
    // document alive past two scavenges (npm run bench:old-space); the index's live on its prototype.
    for (const member of ['lower', 'lemma', 'wordOrdinal', 'sentence']) expect(Object.getOwnPropertyDescriptor(a, member)).toBeUndefined()
    expect(a.lower).toEqual(['apples', 'and', 'pies', 'ran', '.'])
    expect(b.wordOrdinal).toEqual([0, 1, 2, 3])
    expect(b.positionsOfWord('run')).toEqual([2])
    expect(a.positionsWithPrefix('p')).toEqual([2])
  })
})
