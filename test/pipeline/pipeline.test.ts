import { describe, expect, it } from 'vitest'
import { createPipeline } from '../../src/pipeline/pipeline.ts'
import { isEngineError } from '../../src/errors.ts'
import type { AnalyzeContext, Analyzer } from '../../src/pipeline/types.ts'
import { createAnnotator } from '../../src/nlp/annotate.ts'
import { alphanumericShare, contentProblem } from '../../src/pipeline/content.ts'
import { summarize } from '../../src/pipeline/analyzers/summary.ts'
import { isImperative } from '../../src/pipeline/analyzers/details.ts'
import { posFilter, posType } from '../../src/pipeline/pos.ts'

const stub = (name: string, needs: string[], log: string[], enabled = true): Analyzer =>
  ({
    name,
    needs,
    enabled: () => enabled,
    run: () => {
      log.push(name)
      return name
    },
  }) as unknown as Analyzer

const ctx = {} as AnalyzeContext
const annotator = createAnnotator()

describe('createPipeline', () => {
  it('should order analyzers by their needs, keeping the given order among ready ones', () => {
    const log: string[] = []
    const p = createPipeline([stub('c', ['b'], log), stub('a', [], log), stub('b', ['a'], log), stub('d', [], log)])
    expect(p.order).toEqual(['a', 'b', 'c', 'd'])
    p.run(annotator.annotate('x'), ctx, { id: '1', config_id: 'c', status: 'PROCESSED' })
    expect(log).toEqual(['a', 'b', 'c', 'd'])
  })

  it('should run a disabled analyzer only when an enabled one needs it', () => {
    const log: string[] = []
    const p = createPipeline([stub('a', [], log, false), stub('b', ['a'], log, true), stub('z', [], log, false)])
    p.run(annotator.annotate('x'), ctx, { id: '1', config_id: 'c', status: 'PROCESSED' })
    expect(log).toEqual(['a', 'b'])
  })

  it('should refuse a need nobody writes, a duplicate writer and a cycle', () => {
    const codes = [
      () => createPipeline([stub('a', ['missing'], [])]),
      () => createPipeline([stub('a', [], []), stub('a', [], [])]),
      () => createPipeline([stub('a', ['b'], []), stub('b', ['a'], [])]),
    ].map((f) => {
      try {
        f()
        return 'no error'
      } catch (e) {
        return isEngineError(e) ? e.code : 'other'
      }
    })
    expect(codes).toEqual(['ERR_INVALID_OPTIONS', 'ERR_INVALID_OPTIONS', 'ERR_INVALID_OPTIONS'])
  })
})

describe('Pipeline.runMany', () => {
  /** An analyzer logging `name:text` per run, throwing for the texts `failOn` names, writing its section to the output. */
  const logging = (name: string, needs: string[], log: string[], failOn = '', wireFailOn = ''): Analyzer =>
    ({
      name,
      needs,
      enabled: () => true,
      run: (doc: { text: string }, sections: Record<string, unknown>) => {
        log.push(`${name}:${doc.text}`)
        if (doc.text === failOn) throw new Error(`${name} failed on ${doc.text}`)
        for (const n of needs) if (sections[n] === undefined) throw new Error(`${name} ran before ${n}`)
        return `${name}(${doc.text})`
      },
      toWire: (value: string, out: Record<string, unknown>, _ctx: unknown, doc: { text: string }) => {
        if (doc.text === wireFailOn) throw new Error(`${name} could not map ${doc.text}`)
        out[name] = value
      },
    }) as unknown as Analyzer
  const outs = (n: number) => Array.from({ length: n }, (_, i) => ({ id: String(i), config_id: 'c', status: 'PROCESSED' as const }))

  it('should run each analyzer over every document before the next one, and fill each output as run() would', () => {
    const log: string[] = []
    const p = createPipeline([logging('b', ['a'], log), logging('a', [], log)])
    const docs = ['x', 'y', 'z'].map((t) => annotator.annotate(t))
    const many = outs(3)
    expect(p.runMany(docs, ctx, many).errors).toEqual([undefined, undefined, undefined])
    expect(log).toEqual(['a:x', 'a:y', 'a:z', 'b:x', 'b:y', 'b:z'])
    const one = outs(3)
    docs.forEach((d, i) => p.run(d, ctx, one[i]!))
    expect(many).toEqual(one)
    expect(many[1]).toMatchObject({ a: 'a(y)', b: 'b(y)' })
  })

  it('should fail only the document an analyzer or a mapping threw for, and skip its later steps', () => {
    const log: string[] = []
    const p = createPipeline([logging('a', [], log, 'y'), logging('b', ['a'], log, '', 'z')])
    const docs = ['x', 'y', 'z'].map((t) => annotator.annotate(t))
    const many = outs(3)
    const { errors } = p.runMany(docs, ctx, many)
    expect(errors.map((e) => (e === undefined ? undefined : (e.error as Error).message))).toEqual([undefined, 'a failed on y', 'b could not map z'])
    // y never reached b; x and z did.
    expect(log).toEqual(['a:x', 'a:y', 'a:z', 'b:x', 'b:z'])
    expect(many[0]).toMatchObject({ a: 'a(x)', b: 'b(x)' })
  })
})

describe('content checks', () => {
  it('should count letters and digits of any script and ignore whitespace and punctuation', () => {
    expect(alphanumericShare('Hello, world!')).toBe(100)
    expect(alphanumericShare('$$$ ### @@@')).toBe(0)
    expect(alphanumericShare('東京 is nice 😀')).toBeCloseTo((8 / 9) * 100, 5)
  })

  it('should name the reason a text cannot be analysed', () => {
    expect(contentProblem('   ', 80)).toMatch(/empty/)
    expect(contentProblem('%%%% ab', 80)).toMatch(/alphanumeric_threshold of 80%/)
    expect(contentProblem('A fine text.', 80)).toBeUndefined()
  })
})

describe('summary', () => {
  it('should pick the requested number of sentences in text order', () => {
    const text =
      'The hotel room was clean. Breakfast was cold. The hotel staff cleaned the room daily. Parking cost extra. The room had a hotel view.'
    const s = summarize(annotator.annotate(text), 2)
    const parts = s.split(/(?<=\.) /)
    expect(parts.length).toBe(2)
    expect(text.indexOf(parts[0]!)).toBeLessThan(text.indexOf(parts[1]!))
    expect(s).toContain('hotel')
  })

  it('should return the whole text when it has no more sentences than asked', () => {
    expect(summarize(annotator.annotate('Only one sentence here.'), 3)).toBe('Only one sentence here.')
  })
})

describe('details helpers', () => {
  const imperative = (text: string): boolean => {
    const doc = annotator.annotate(text)
    return isImperative(doc, 0, doc.tokens.length)
  }
  it('should recognise action items and not statements or questions', () => {
    expect(imperative('Please send me the invoice.')).toBe(true)
    expect(imperative("Don't forget the keys.")).toBe(true)
    expect(imperative('I sent the invoice.')).toBe(false)
    expect(imperative('Send it now?')).toBe(false)
  })

  it('should map UD tags to type names and parse pos_types', () => {
    expect(posType('PROPN')).toBe('Noun')
    expect(posType('ADJ')).toBe('Adjective')
    expect(posFilter('All')).toBeUndefined()
    expect([...(posFilter('Noun, Verb') ?? [])]).toEqual(['noun', 'verb'])
  })
})

describe('alphanumericShare', () => {
  // The definition: code point by code point, two Unicode patterns (the function uses a table for ASCII).
  const reference = (text: string): number => {
    let alnum = 0
    let counted = 0
    for (const ch of text) {
      if (/[\s.,;:!?'"()\[\]\-–—…/&]/u.test(ch)) continue
      counted++
      if (/[\p{L}\p{N}\p{M}]/u.test(ch)) alnum++
    }
    return counted === 0 ? 0 : (100 * alnum) / counted
  }

  it('should equal the per-character definition on any string (lone surrogates, astral letters, marks)', async () => {
    const fc = (await import('fast-check')).default
    for (const unit of ['binary', 'grapheme', 'binary-ascii'] as const) {
      fc.assert(fc.property(fc.string({ unit, maxLength: 40 }), (t) => alphanumericShare(t) === reference(t)), { numRuns: 3000 })
    }
    for (const t of ['𝔘𝔫𝔦𝔠𝔬𝔡𝔢 😀😀 ok', 'a\u0301 \u00a0\u2009—…', '\ud800x\udc00', '%%%% $$$$ #### ab']) expect(alphanumericShare(t)).toBe(reference(t))
  })
})
