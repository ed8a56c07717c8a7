import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { isCodecError } from '../../src/codecs/errors.ts'
import type { CodecError } from '../../src/codecs/errors.ts'
import { decodeJson, encodeJson, encodeJsonBytes, quoteJsonString, withoutNulls } from '../../src/codecs/json.ts'
import { createEngine } from '../../src/engine/create-engine.ts'
import { referenceEncodeJson } from './json-reference.ts'

function decodeError(text: string, maxDepth?: number): CodecError {
  try {
    decodeJson(text, maxDepth === undefined ? {} : { maxDepth })
  } catch (e) {
    if (isCodecError(e)) return e
    throw e
  }
  throw new Error(`expected ${JSON.stringify(text)} to be refused`)
}

const ASCII = /^[\x00-\x7f]*$/

describe('encodeJson', () => {
  it('escapes every non-ASCII character, emoji as a surrogate pair', () => {
    const out = encodeJson({ text: 'café 😀 \u2028 ok' })
    expect(out).toBe('{"text":"caf\\u00E9 \\uD83D\\uDE00 \\u2028 ok"}')
    expect(ASCII.test(out)).toBe(true)
    expect(JSON.parse(out)).toEqual({ text: 'café 😀 \u2028 ok' })
  })

  it('omits null and undefined members at every depth but keeps array items', () => {
    const out = encodeJson({ a: null, b: undefined, c: { d: null, e: [1, null, { f: null, g: 2 }] }, h: 'x' })
    expect(out).toBe('{"c":{"e":[1,null,{"g":2}]},"h":"x"}')
  })

  it('writes integers without decimals and keeps other numbers exact', () => {
    expect(encodeJson({ i: 3.0, n: -0, f: 0.45, big: 1551274346000 })).toBe('{"i":3,"n":0,"f":0.45,"big":1551274346000}')
  })

  it('writes control characters as escapes', () => {
    expect(quoteJsonString('a\n\t"\\\u0001\u007f')).toBe('"a\\n\\t\\"\\\\\\u0001\\u007F"')
  })

  it('refuses values with no JSON form, naming the path', () => {
    expect(() => encodeJson({ a: [1, Number.NaN] })).toThrow(/\$\.a\[1\]/)
    expect(() => encodeJson({ b: 1n })).toThrow(/bigint as JSON at \$\.b/)
    const cyclic: Record<string, unknown> = {}
    cyclic['self'] = cyclic
    expect(() => encodeJson(cyclic)).toThrow(/deeper than/)
  })

  it('uses toJSON (dates)', () => {
    expect(encodeJson({ at: new Date(0) })).toBe('{"at":"1970-01-01T00:00:00.000Z"}')
  })

  it('should write ASCII that parses back to the same value minus null members', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const out = encodeJson(value)
        expect(ASCII.test(out)).toBe(true)
        expect(JSON.parse(out)).toEqual(withoutNulls(value))
        expect(decodeJson(out)).toEqual(withoutNulls(value))
      }),
      { seed: 7, numRuns: 300 },
    )
  })

  // Any UTF-16 units, lone surrogates included (built from code units: fc's 'binary' unit is slow to generate).
  const utf16 = fc
    .array(fc.oneof(fc.integer({ min: 0, max: 0x7f }), fc.integer({ min: 0, max: 0xffff })), { maxLength: 24 })
    .map((units) => String.fromCharCode(...units))

  it('should round-trip any string, lone surrogates included', () => {
    fc.assert(
      fc.property(utf16, (s) => {
        const out = quoteJsonString(s)
        expect(ASCII.test(out)).toBe(true)
        expect(decodeJson(out)).toBe(s)
      }),
      { seed: 8, numRuns: 300 },
    )
  })
})

describe('decodeJson', () => {
  it('parses what JSON.parse parses', () => {
    const text = '\uFEFF {"id":"1","weight":-0.3e1,"ok":true,"n":null,"list":[],"o":{},"s":"\\u00e9\\ud83d\\ude00\\/"}'
    expect(decodeJson(text)).toEqual(JSON.parse(text.slice(1)))
  })

  it('does not count brackets inside strings, escaped quotes included, towards the depth', () => {
    const inString = '['.repeat(100)
    expect(decodeJson(`{"a":"${inString}","b":"\\\\","c":"\\"${inString}"}`)).toEqual({ a: inString, b: '\\', c: `"${inString}` })
  })

  it('keeps a __proto__ member as data', () => {
    const value = decodeJson('{"__proto__":{"polluted":true}}') as Record<string, unknown>
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype)
    expect(Object.keys(value)).toEqual(['__proto__'])
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined()
  })

  it.each([
    ['', /empty body/],
    ['{"a":1,}', /expected a member name in double quotes, found "}" at line 1, column 8/],
    ['[1 2]', /expected "," or "]" in array, found "2" at line 1, column 4/],
    ['{"a" 1}', /expected ":" after member name "a"/],
    ['{"a":tru}', /expected true/],
    ['{"a":01}', /malformed number "01"/],
    ['{"a":"x\ny"}', /unescaped control character U\+000a/],
    ['{"a":"\\q"}', /unknown escape "\\\\q"/],
    ['{"a":"\\u12G4"}', /malformed \\u escape/],
    ['"abc', /unterminated string at line 1, column 1/],
    ['{"a":1} x', /unexpected "x" after the JSON value/],
    ["{'a':1}", /expected a member name in double quotes, found "'"/],
    ['[\n  1,\n  NaN\n]', /expected a value, found "N" at line 3, column 3/],
  ])('refuses %j with a message naming the problem and its place', (text, message) => {
    const error = decodeError(text)
    expect(error.code).toBe('ERR_MALFORMED_BODY')
    expect(error.status).toBe(400)
    expect(error.message).toMatch(message)
  })

  it('refuses nesting past the depth limit without exhausting the stack', () => {
    const deep = '['.repeat(100_000) + ']'.repeat(100_000)
    const error = decodeError(deep)
    expect(error.message).toMatch(/nesting deeper than 64 levels at line 1, column 65/)
    expect(decodeJson('[[[1]]]', { maxDepth: 3 })).toEqual([[[1]]])
    expect(decodeError('[[[[1]]]]', 3).message).toMatch(/deeper than 3/)
  })

  it('should refuse every truncation of a valid document with a located error', () => {
    fc.assert(
      fc.property(
        fc.jsonValue().filter((v) => typeof v === 'object' && v !== null),
        fc.nat(),
        (value, cut) => {
          const text = JSON.stringify(value)
          const end = cut % text.length
          const error = decodeError(text.slice(0, end))
          expect(error.location.offset).toBeLessThanOrEqual(end)
        },
      ),
      { seed: 9, numRuns: 200 },
    )
  })
})

/** What `f` returns, or the error it throws (an encoder's answer to compare with another's). */
function resultOf<T>(f: () => T): T | Error {
  try {
    return f()
  } catch (e) {
    return e as Error
  }
}

/**
 * Values shaped like outputs, over strings `text` and member names `key`: objects with null and undefined members,
 * nested arrays with nulls, integers, fractions and booleans.
 */
function outputLike(text: fc.Arbitrary<string>, key: fc.Arbitrary<string>): fc.Arbitrary<unknown> {
  const scalar = fc.oneof(text, fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true }), fc.boolean(), fc.constant(null), fc.constant(undefined))
  return fc.letrec((tie) => ({
    node: fc.oneof({ depthSize: 'small' }, scalar, tie('array'), tie('object')),
    array: fc.array(tie('node'), { maxLength: 5 }),
    object: fc.dictionary(key, tie('node'), { maxKeys: 6 }),
  })).node
}

describe('encodeJson matches the encoder it replaced (issue 17), byte for byte', () => {
  // Values shaped like outputs: objects with null/undefined members, non-ASCII and emoji strings, the word "null"
  // inside strings, nested arrays with nulls, integers and fractions.
  const text = fc.oneof(
    fc.string(),
    fc.constantFrom('null', 'a null b', 'café', '😀 emoji', '\u2028', 'naïve "quoted" \\ back', 'x\u0000y', '\ud800'),
  )
  const value = outputLike(text, fc.oneof(fc.string({ maxLength: 6 }), fc.constantFrom('id', 'null', 'é')))

  it('should write the same bytes for any output-like value', () => {
    fc.assert(
      fc.property(value, (v) => {
        const expected = resultOf(() => referenceEncodeJson(v))
        if (expected instanceof Error) expect(() => encodeJson(v)).toThrow(expected.message)
        else expect(encodeJson(v)).toBe(expected)
      }),
      { seed: 17, numRuns: 1000 },
    )
  })

  it('should write the same bytes for real processed documents', async () => {
    const engine = createEngine()
    try {
      const texts = [
        'The staff were friendly, but the room was not clean. Tim Cook stayed here!',
        'Café au lait in Zürich was très bon 😀 — “quoted” text, naïve résumé.',
        'Null and void: the contract with Apple Inc. in New York was cancelled on 3 May 2021.',
      ]
      const outputs = []
      for (const [i, t] of texts.entries()) outputs.push(await engine.analyze(t, { id: `d${i}` }))
      expect(encodeJson(outputs)).toBe(referenceEncodeJson(outputs))
      for (const o of outputs) expect(encodeJson(o)).toBe(referenceEncodeJson(o))
    } finally {
      await engine.close()
    }
  })
})

describe('encodeJsonBytes: the bytes of encodeJson\'s text, written in one conversion', () => {
  const bytesOf = (text: string): string => Buffer.from(text, 'utf8').toString('hex')
  // Strings with every width of UTF-8 (1 to 4 bytes), U+007F and U+007E at the edge, lone surrogates, controls.
  const text = fc.oneof(
    fc.string({ unit: 'grapheme' }),
    fc.string({ unit: 'binary' }),
    fc.constantFrom('\u007e\u007f\u0080', 'é', '\u07ff\u0800', '\uffff', '😀', '\ud800 lone', 'x\udfffy', 'null', '\u0000\u001f', ''),
  )
  const value = outputLike(text, fc.oneof(text, fc.constantFrom('id', 'null')))

  it('should write the same bytes as encodeJson for any value, ASCII only, or throw the same error', () => {
    fc.assert(
      fc.property(value, (v) => {
        const expected = resultOf(() => encodeJson(v))
        if (expected instanceof Error) {
          expect(() => encodeJsonBytes(v)).toThrow(expected.message)
          return
        }
        const got = Buffer.from(encodeJsonBytes(v))
        expect(got.toString('hex')).toBe(bytesOf(expected))
        expect(got.every((b) => b < 0x7f)).toBe(true)
      }),
      { seed: 18, numRuns: 2000 },
    )
  })

  it('should write the same bytes for long texts, whatever 1 KiB block a character beyond ASCII falls in or straddles', () => {
    // Long ASCII runs pass over whole blocks natively: characters of every UTF-8 width placed at each offset around a
    // block's edge, and U+007F (which turns the block reading off), must come out as encodeJson writes them.
    const run = 'The staff were friendly. '.repeat(120)
    for (const ch of ['\u00e9', '\u07ff', '\u0800', '\uffff', '\ud83d\ude00', '\u007f']) {
      for (let at = 1015; at <= 1030; at++) {
        const v = { summary: run.slice(0, at) + ch + run.slice(at) + ch, title: run.slice(0, 2050 - at) + ch }
        expect(Buffer.from(encodeJsonBytes(v)).toString('hex')).toBe(bytesOf(encodeJson(v)))
      }
    }
    const long = fc.array(fc.oneof(fc.string({ unit: fc.constantFrom('a', ' ', '.'), minLength: 300, maxLength: 1500 }), fc.constantFrom('\u00e9', '\u0800', '\ud83d\ude00', '\u007f', 'caf\u00e9 ')), { maxLength: 10 })
    fc.assert(
      fc.property(long, (parts) => {
        const v = [parts.join(''), { text: parts.reverse().join('|') }]
        expect(Buffer.from(encodeJsonBytes(v)).toString('hex')).toBe(bytesOf(encodeJson(v)))
      }),
      { seed: 48, numRuns: 300 },
    )
  })

  it('should escape each UTF-16 unit above U+007E, a character beyond U+FFFF as its surrogate pair', () => {
    const ascii = (v: unknown): string => Buffer.from(encodeJsonBytes(v)).toString('latin1')
    expect(ascii(['~\u007f\u0080\u07ff\u0800\uffff😀'])).toBe('["~\\u007F\\u0080\\u07FF\\u0800\\uFFFF\\uD83D\\uDE00"]')
    expect(ascii({ a: 'plain', b: [1, 2.5, true] })).toBe('{"a":"plain","b":[1,2.5,true]}')
    expect(ascii({ a: null, b: 'caf\u00e9' })).toBe('{"b":"caf\\u00E9"}')
    expect(() => encodeJsonBytes({ x: Number.NaN })).toThrow('cannot write NaN as JSON at $.x')
  })
})

describe('decodeJson on large malformed bodies (issue 18)', () => {
  it('locates the error of a 4 MB body whose problem is at its end, without building it', () => {
    const doc = { id: 'd', text: 'The staff were friendly, but the room was not clean. '.repeat(30), metadata: { a: [1, 2.5, -3e10], b: 'x\\"y' } }
    const good = JSON.stringify(Array.from({ length: 2300 }, (_, i) => ({ ...doc, id: `d${i}` })))
    expect(good.length).toBeGreaterThan(3_500_000)
    const error = decodeError(good.slice(0, -1) + ',}')
    expect(error.message).toMatch(/expected a value, found "}" at line 1, column \d+/)
    expect(error.location.offset).toBe(good.length)
    // A member name is still named in messages.
    expect(decodeError('{"first": 1, "second" 2}').message).toMatch(/after member name "second"/)
  })
})
