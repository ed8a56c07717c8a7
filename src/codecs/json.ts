import { isAscii } from 'node:buffer'
import { CodecError, lineColumnAt } from './errors.ts'

/** Options of {@link decodeJson}. */
export interface JsonDecodeOptions {
  /**
   * Deepest nesting of arrays and objects accepted.
   * @defaultValue 64
   */
  readonly maxDepth?: number
}

/** A JSON value as {@link decodeJson} returns it. */
export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue }

const DEFAULT_DECODE_DEPTH = 64
// Nesting at which the error locator of encodeJson stops (JSON.stringify has already refused a cycle).
const LOCATOR_DEPTH = 1000

// Every character that is not printable ASCII, plus the two that JSON requires escaped.
const NEEDS_ESCAPE = /[\u0000-\u001f"\\\u007f-\uffff]/g
const SHORT_ESCAPES: Readonly<Record<string, string>> = {
  '"': '\\"',
  '\\': '\\\\',
  '\b': '\\b',
  '\f': '\\f',
  '\n': '\\n',
  '\r': '\\r',
  '\t': '\\t',
}

function escapeChar(ch: string): string {
  return SHORT_ESCAPES[ch] ?? '\\u' + ch.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')
}

/**
 * Quote a string as an ASCII-only JSON string literal: every non-ASCII UTF-16 unit is written as `\uXXXX`
 * (so an emoji becomes its surrogate pair, `\uD83D\uDE00`), as one client throws on raw 4-byte UTF-8.
 */
export function quoteJsonString(s: string): string {
  return '"' + s.replace(NEEDS_ESCAPE, escapeChar) + '"'
}

/**
 * Serialise a response value as the clients expect it (client-compat §4): ASCII only, object members whose
 * value is `null` or `undefined` omitted at every depth, integers without decimals. `null` inside arrays is
 * kept (removing it would shift the items of client metadata). Objects with a `toJSON` method (Date) are
 * written through it. Throws {@link CodecError} `ERR_UNENCODABLE` naming the path for a non-finite number, a
 * bigint or a cycle (a function- or symbol-valued member is left out, as `JSON.stringify` does).
 *
 * Speed: the native `JSON.stringify` without a replacer writes the value; only when its text holds `null`
 * (a null member to drop, a non-finite number, or the word in a string) is it written again through the
 * replacer that drops null members and locates what cannot be written. Non-ASCII is escaped in one native
 * regex pass, skipped when there is none.
 */
export function encodeJson(value: unknown): string {
  let text = stringified(value)
  if (text !== undefined) {
    const ascii = asciiUnlessNull(text)
    if (ascii !== undefined) return ascii
    text = stringified(value, dropNullMembers)
  }
  // Top-level null/undefined, or a value stringify refused: the slow writer gives the answer or a located error.
  if (text === undefined) return locateEncodeProblem(value)
  return asciiOnly(text)
}

/**
 * {@link encodeJson}'s text as bytes (ASCII only, so its UTF-8 and Latin-1 are the same), for a response body: the
 * same bytes as encoding that text, written with one conversion instead of three. `JSON.stringify` hands back a
 * string built in parts, which the escaping regex had to flatten, whose escaped copy (again in parts) the UTF-8
 * encoder flattened and converted once more; here the stringified text is converted to UTF-8 once, natively, and
 * when it holds anything beyond U+007E its bytes are escaped as bytes. `npm run bench:encode-json` (polls of 100 sample
 * outputs): 82.7 -> 67.1 microseconds a document, of which `JSON.stringify` is about 15 and the first read of its
 * text (V8 joining the parts) about 20; with the escaping passing over plain-ASCII blocks ({@link ASCII_BLOCK}),
 * 62 -> 44-46 on the machine of 2026-12-06 (JSON.stringify there: 36).
 */
export function encodeJsonBytes(value: unknown): Uint8Array {
  // encodeJson's steps: written again through the replacer when the text holds `null`, by the locator (ASCII text or
  // a located error) when stringify refuses.
  let text = stringified(value)
  if (text !== undefined && text.includes('null')) text = stringified(value, dropNullMembers)
  if (text === undefined) return Buffer.from(locateEncodeProblem(value), 'latin1')
  const bytes = Buffer.from(text, 'utf8')
  return isAscii(bytes) && !bytes.includes(0x7f) ? bytes : escapeUtf8(bytes)
}

/** Upper-case hexadecimal digits as character codes. */
const HEX_DIGIT_CODES = Array.from('0123456789ABCDEF', (c) => c.charCodeAt(0))

/** Write `\uXXXX` for the UTF-16 unit `u` at `o`; returns the next offset. */
function writeUnitEscape(out: Buffer, o: number, u: number): number {
  out[o] = 0x5c
  out[o + 1] = 0x75
  out[o + 2] = HEX_DIGIT_CODES[(u >> 12) & 15]!
  out[o + 3] = HEX_DIGIT_CODES[(u >> 8) & 15]!
  out[o + 4] = HEX_DIGIT_CODES[(u >> 4) & 15]!
  out[o + 5] = HEX_DIGIT_CODES[u & 15]!
  return o + 6
}

/**
 * Bytes {@link escapeUtf8} hands to `isAscii` at once: a run of them below U+0080 is passed over natively instead of
 * byte by byte. A poll's answer is mostly ASCII with a few documents that are not (tweets: 5% of the sample outputs
 * hold a character beyond U+007E, so 9 polls of 10 do), and the byte loop walked the whole answer twice for them.
 */
const ASCII_BLOCK = 1024

/** The end of the block of {@link ASCII_BLOCK} bytes from `i` when all are below U+0080, else `i`. */
function asciiBlockEnd(src: Buffer, i: number): number {
  const end = Math.min(i + ASCII_BLOCK, src.length)
  return isAscii(src.subarray(i, end)) ? end : i
}

/**
 * The well-formed UTF-8 of a JSON text (stringify writes lone surrogates as escapes) with every UTF-16 unit above
 * U+007E written as `\uXXXX` ({@link unitEscape}'s form: a character beyond U+FFFF as its surrogate pair).
 */
function escapeUtf8(src: Buffer): Buffer {
  // Blocks of plain ASCII are passed over whole, unless the text holds U+007F (ASCII to isAscii, escaped here).
  const blocks = !src.includes(0x7f)
  // A lead byte of 2 or 3 bytes becomes one escape, of 4 bytes two; U+007F one; continuation bytes nothing.
  let size = 0
  let probe = 0
  for (let i = 0; i < src.length; ) {
    if (blocks && i >= probe) {
      const end = asciiBlockEnd(src, i)
      probe = end > i ? end : i + ASCII_BLOCK
      if (end > i) {
        size += end - i
        i = end
        continue
      }
    }
    const b = src[i++]!
    size += b < 0x7f ? 1 : b === 0x7f ? 6 : b >= 0xf0 ? 12 : b >= 0xc0 ? 6 : 0
  }
  const out = Buffer.allocUnsafe(size)
  let o = 0
  let last = 0
  let i = 0
  probe = 0
  while (i < src.length) {
    if (blocks && i >= probe) {
      const end = asciiBlockEnd(src, i)
      probe = end > i ? end : i + ASCII_BLOCK
      if (end > i) {
        i = end
        continue
      }
    }
    const b = src[i]!
    if (b < 0x7f) {
      i++
      continue
    }
    if (i > last) o += src.copy(out, o, last, i)
    let n: number
    let cp: number
    if (b === 0x7f) {
      n = 1
      cp = b
    } else if (b < 0xe0) {
      n = 2
      cp = ((b & 0x1f) << 6) | (src[i + 1]! & 0x3f)
    } else if (b < 0xf0) {
      n = 3
      cp = ((b & 0x0f) << 12) | ((src[i + 1]! & 0x3f) << 6) | (src[i + 2]! & 0x3f)
    } else {
      n = 4
      cp = ((b & 0x07) << 18) | ((src[i + 1]! & 0x3f) << 12) | ((src[i + 2]! & 0x3f) << 6) | (src[i + 3]! & 0x3f)
    }
    if (cp > 0xffff) {
      const v = cp - 0x10000
      o = writeUnitEscape(out, writeUnitEscape(out, o, 0xd800 + (v >> 10)), 0xdc00 + (v & 0x3ff))
    } else {
      o = writeUnitEscape(out, o, cp)
    }
    i += n
    last = i
  }
  if (last < src.length) o += src.copy(out, o, last)
  return o === size ? out : out.subarray(0, o)
}

/** `JSON.stringify(value, replacer)`, or undefined where it throws (a cycle, a bigint, a value the replacer refuses). */
function stringified(value: unknown, replacer?: (key: string, v: unknown) => unknown): string | undefined {
  try {
    return JSON.stringify(value, replacer)
  } catch {
    return undefined
  }
}

// Replacer for JSON.stringify: a null member is dropped (in an array stringify writes it as null, as wanted);
// values with no JSON form throw so that the slow writer can report where they are.
function dropNullMembers(_key: string, v: unknown): unknown {
  if (v === null) return undefined
  switch (typeof v) {
    case 'number':
      if (!Number.isFinite(v)) throw new TypeError('non-finite number')
      return v
    case 'bigint':
      throw new TypeError(`${typeof v} value`)
    default:
      return v
  }
}

const HEX_BYTE: readonly string[] = Array.from({ length: 256 }, (_, i) => i.toString(16).toUpperCase().padStart(2, '0'))
const NON_ASCII = /[\u007f-\uffff]/g
const NON_ASCII_OR_NULL = /[\u007f-\uffff]|null/g

/** `\uXXXX` of one UTF-16 unit, upper-case hex. */
function unitEscape(c: number): string {
  return '\\u' + (HEX_BYTE[c >> 8] ?? '') + (HEX_BYTE[c & 0xff] ?? '')
}

// JSON.stringify output already escapes controls, quotes and lone surrogates; escape everything else above 0x7E.
// A native regex finds each such unit (most outputs have none or few), the text between is copied in slices.
function asciiOnly(json: string): string {
  NON_ASCII.lastIndex = 0
  let m = NON_ASCII.exec(json)
  if (m === null) return json
  let out = ''
  let last = 0
  do {
    const i = m.index
    out += json.slice(last, i) + unitEscape(json.charCodeAt(i))
    last = i + 1
    m = NON_ASCII.exec(json)
  } while (m !== null)
  return out + json.slice(last)
}

/**
 * {@link asciiOnly} in the same pass as a search for `null` (a null member to drop or a non-finite number written
 * as null, or the word inside a string): `undefined` when found, so the caller writes the value again with the replacer.
 */
function asciiUnlessNull(json: string): string | undefined {
  NON_ASCII_OR_NULL.lastIndex = 0
  let out = ''
  let last = 0
  for (let m = NON_ASCII_OR_NULL.exec(json); m !== null; m = NON_ASCII_OR_NULL.exec(json)) {
    if (m[0] === 'null') return undefined
    const i = m.index
    out += json.slice(last, i) + unitEscape(json.charCodeAt(i))
    last = i + 1
  }
  return last === 0 ? json : out + json.slice(last)
}

function locateEncodeProblem(value: unknown): string {
  const out: string[] = []
  writeValue(value, '$', 0, LOCATOR_DEPTH, out)
  return out.join('')
}

function writeValue(value: unknown, path: string, depth: number, maxDepth: number, out: string[]): void {
  if (value === null || value === undefined) {
    out.push('null')
    return
  }
  switch (typeof value) {
    case 'string':
      out.push(quoteJsonString(value))
      return
    case 'boolean':
      out.push(value ? 'true' : 'false')
      return
    case 'number':
      if (!Number.isFinite(value)) {
        throw new CodecError('ERR_UNENCODABLE', `cannot write ${String(value)} as JSON at ${path}`, { path })
      }
      // String(-0) is "0"; integers print without decimals; other numbers in shortest round-trip form.
      out.push(String(value))
      return
    case 'object':
      break
    default:
      throw new CodecError('ERR_UNENCODABLE', `cannot write a ${typeof value} as JSON at ${path}`, { path })
  }
  const withToJson = value as { toJSON?: unknown }
  if (typeof withToJson.toJSON === 'function') {
    writeValue((withToJson.toJSON as () => unknown).call(value), path, depth, maxDepth, out)
    return
  }
  if (depth >= maxDepth) {
    throw new CodecError('ERR_UNENCODABLE', `value nested deeper than ${maxDepth} levels (a cycle?) at ${path}`, {
      path,
    })
  }
  if (Array.isArray(value)) {
    out.push('[')
    for (let i = 0; i < value.length; i++) {
      if (i > 0) out.push(',')
      writeValue(value[i], `${path}[${i}]`, depth + 1, maxDepth, out)
    }
    out.push(']')
    return
  }
  out.push('{')
  let first = true
  for (const key of Object.keys(value)) {
    const member = (value as Record<string, unknown>)[key]
    if (member === null || member === undefined) continue
    if (!first) out.push(',')
    first = false
    out.push(quoteJsonString(key), ':')
    writeValue(member, `${path}.${key}`, depth + 1, maxDepth, out)
  }
  out.push('}')
}

/**
 * Parse a request body as JSON (RFC 8259; a leading byte-order mark is skipped). Malformed input throws
 * {@link CodecError} `ERR_MALFORMED_BODY` whose message says what was expected, what was found, and the line,
 * column and offset; nesting deeper than `maxDepth` is refused the same way before it can exhaust the stack.
 * A member named `__proto__` becomes an ordinary own property.
 */
export function decodeJson(text: string, options: JsonDecodeOptions = {}): JsonValue {
  const maxDepth = options.maxDepth ?? DEFAULT_DECODE_DEPTH
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text
  // Fast path: the native parser once the nesting is known to be within the limit. Any failure is located by
  // the parser below, which reads the same grammar and says what and where.
  if (nestingWithin(body, maxDepth)) {
    try {
      return JSON.parse(body) as JsonValue
    } catch {
      // fall through to the locating parser
    }
  }
  // The native parser refused the text (or it nests too deep): find what and where without building values (a
  // scan of a 4 MB body stays in tens of milliseconds), then, should the scan find nothing, parse it in full.
  new JsonParser(text, maxDepth, false).parseDocument()
  return new JsonParser(text, maxDepth, true).parseDocument()
}

/** True when no array/object in `text` nests deeper than `maxDepth` (strings skipped; malformed text passes). */
function nestingWithin(text: string, maxDepth: number): boolean {
  const structural = /[[\]{}"]/g
  let depth = 0
  for (let m = structural.exec(text); m !== null; m = structural.exec(text)) {
    const c = m[0]
    if (c === '"') {
      let from = structural.lastIndex
      for (;;) {
        const q = text.indexOf('"', from)
        if (q < 0) return true
        let backslashes = 0
        while (text.charCodeAt(q - 1 - backslashes) === 0x5c) backslashes++
        if (backslashes % 2 === 0) {
          structural.lastIndex = q + 1
          break
        }
        from = q + 1
      }
    } else if (c === '[' || c === '{') {
      if (++depth > maxDepth) return false
    } else depth--
  }
  return true
}

/** Offset of the first non-digit at or after `from`. */
function digitsEnd(t: string, from: number): number {
  let p = from
  for (let c = t.charCodeAt(p); c >= 0x30 && c <= 0x39; c = t.charCodeAt(++p));
  return p
}

function describeAt(text: string, pos: number): string {
  if (pos >= text.length) return 'end of input'
  const cp = text.codePointAt(pos) ?? 0
  const ch = String.fromCodePoint(cp)
  return cp < 0x20 || cp === 0x7f ? `character U+${cp.toString(16).toUpperCase().padStart(4, '0')}` : JSON.stringify(ch)
}

class JsonParser {
  private pos = 0
  private readonly text: string
  private readonly maxDepth: number
  /** False: only check the grammar (strings, arrays and objects are not built; the answer is meaningless). */
  private readonly build: boolean

  constructor(text: string, maxDepth: number, build: boolean) {
    this.text = text
    this.maxDepth = maxDepth
    this.build = build
    if (text.charCodeAt(0) === 0xfeff) this.pos = 1
  }

  parseDocument(): JsonValue {
    this.skipSpace()
    if (this.pos >= this.text.length) this.fail('empty body: expected a JSON value')
    const value = this.parseValue(0)
    this.skipSpace()
    if (this.pos < this.text.length) this.fail(`unexpected ${describeAt(this.text, this.pos)} after the JSON value`)
    return value
  }

  private fail(message: string, at: number = this.pos): never {
    const lc = lineColumnAt(this.text, at)
    throw new CodecError(
      'ERR_MALFORMED_BODY',
      `malformed JSON: ${message} at line ${lc.line}, column ${lc.column} (offset ${at})`,
      { line: lc.line, column: lc.column, offset: at },
    )
  }

  private skipSpace(): void {
    const t = this.text
    let p = this.pos
    for (;;) {
      const c = t.charCodeAt(p)
      if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) p++
      else break
    }
    this.pos = p
  }

  private parseValue(depth: number): JsonValue {
    const c = this.text.charCodeAt(this.pos)
    switch (c) {
      case 0x7b: // {
        return this.parseObject(depth + 1)
      case 0x5b: // [
        return this.parseArray(depth + 1)
      case 0x22: // "
        return this.parseString()
      case 0x74: // t
        return this.parseLiteral('true', true)
      case 0x66: // f
        return this.parseLiteral('false', false)
      case 0x6e: // n
        return this.parseLiteral('null', null)
      default:
        if (c === 0x2d || (c >= 0x30 && c <= 0x39)) return this.parseNumber()
        return this.fail(`expected a value, found ${describeAt(this.text, this.pos)}`)
    }
  }

  private parseLiteral<T extends JsonValue>(word: string, value: T): T {
    if (!this.text.startsWith(word, this.pos)) {
      this.fail(`expected ${word}, found ${describeAt(this.text, this.pos)}`)
    }
    this.pos += word.length
    return value
  }

  private parseNumber(): number {
    const t = this.text
    const start = this.pos
    // -?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?, read without a regex match object per number.
    let p = start
    if (t.charCodeAt(p) === 0x2d) p++
    const intStart = p
    if (t.charCodeAt(p) === 0x30) p++
    else p = digitsEnd(t, p)
    let ok = p > intStart
    if (ok && t.charCodeAt(p) === 0x2e) {
      const f = digitsEnd(t, p + 1)
      if (f > p + 1) p = f
      else ok = p === intStart
    }
    if (ok && (t.charCodeAt(p) === 0x65 || t.charCodeAt(p) === 0x45)) {
      let e = p + 1
      if (t.charCodeAt(e) === 0x2b || t.charCodeAt(e) === 0x2d) e++
      const x = digitsEnd(t, e)
      if (x > e) p = x
    }
    if (p === intStart) this.fail(`malformed number starting with ${describeAt(t, start)}`)
    const next = t.charCodeAt(p)
    // "01", "1.", "1e" and "-" end early: report the character that broke the number.
    if ((next >= 0x30 && next <= 0x39) || next === 0x2e || next === 0x65 || next === 0x45) {
      this.fail(`malformed number ${JSON.stringify(t.slice(start, p + 1))}`)
    }
    this.pos = p
    return this.build ? Number(t.slice(start, p)) : 0
  }

  /** A string; `build` false skips building it (grammar check only). Member names are always built (messages name them). */
  private parseString(build: boolean = this.build): string {
    const t = this.text
    const start = this.pos + 1
    let p = start
    let out = ''
    let chunkStart = start
    for (;;) {
      if (p >= t.length) this.fail('unterminated string', this.pos)
      const c = t.charCodeAt(p)
      if (c === 0x22) {
        this.pos = p + 1
        return build ? out + t.slice(chunkStart, p) : ''
      }
      if (c < 0x20) this.fail(`unescaped control character U+${c.toString(16).padStart(4, '0')} in string`, p)
      if (c === 0x5c) {
        if (build) out += t.slice(chunkStart, p)
        const e = t[p + 1]
        switch (e) {
          case '"':
          case '\\':
          case '/':
            out += e
            p += 2
            break
          case 'b':
            out += '\b'
            p += 2
            break
          case 'f':
            out += '\f'
            p += 2
            break
          case 'n':
            out += '\n'
            p += 2
            break
          case 'r':
            out += '\r'
            p += 2
            break
          case 't':
            out += '\t'
            p += 2
            break
          case 'u': {
            const hex = t.slice(p + 2, p + 6)
            if (!/^[0-9a-fA-F]{4}$/.test(hex)) this.fail(`malformed \\u escape ${JSON.stringify(t.slice(p, p + 6))}`, p)
            out += String.fromCharCode(Number.parseInt(hex, 16))
            p += 6
            break
          }
          default:
            this.fail(`unknown escape ${JSON.stringify('\\' + (e ?? ''))} in string`, p)
        }
        chunkStart = p
        continue
      }
      p++
    }
  }

  private checkDepth(depth: number): void {
    if (depth > this.maxDepth) this.fail(`nesting deeper than ${this.maxDepth} levels`)
  }

  private parseArray(depth: number): JsonValue[] {
    this.checkDepth(depth)
    this.pos++
    const items: JsonValue[] = []
    this.skipSpace()
    if (this.text.charCodeAt(this.pos) === 0x5d) {
      this.pos++
      return items
    }
    for (;;) {
      this.skipSpace()
      const item = this.parseValue(depth)
      if (this.build) items.push(item)
      this.skipSpace()
      const c = this.text.charCodeAt(this.pos)
      if (c === 0x2c) {
        this.pos++
        continue
      }
      if (c === 0x5d) {
        this.pos++
        return items
      }
      this.fail(`expected "," or "]" in array, found ${describeAt(this.text, this.pos)}`)
    }
  }

  private parseObject(depth: number): { [key: string]: JsonValue } {
    this.checkDepth(depth)
    this.pos++
    const obj: { [key: string]: JsonValue } = {}
    this.skipSpace()
    if (this.text.charCodeAt(this.pos) === 0x7d) {
      this.pos++
      return obj
    }
    for (;;) {
      this.skipSpace()
      if (this.text.charCodeAt(this.pos) !== 0x22) {
        this.fail(`expected a member name in double quotes, found ${describeAt(this.text, this.pos)}`)
      }
      const key = this.parseString(true)
      this.skipSpace()
      if (this.text.charCodeAt(this.pos) !== 0x3a) {
        this.fail(`expected ":" after member name ${JSON.stringify(key)}, found ${describeAt(this.text, this.pos)}`)
      }
      this.pos++
      this.skipSpace()
      const value = this.parseValue(depth)
      // defineProperty keeps "__proto__" an ordinary member instead of replacing the prototype.
      if (this.build) Object.defineProperty(obj, key, { value, writable: true, enumerable: true, configurable: true })
      this.skipSpace()
      const c = this.text.charCodeAt(this.pos)
      if (c === 0x2c) {
        this.pos++
        continue
      }
      if (c === 0x7d) {
        this.pos++
        return obj
      }
      this.fail(`expected "," or "}" in object, found ${describeAt(this.text, this.pos)}`)
    }
  }
}

/**
 * The value `encodeJson` output parses back to: object members that are `null` or `undefined` removed at every
 * depth (array items kept, `undefined` items as `null`), `-0` as `0`. Used by tests and by callers that compare stored values.
 */
export function withoutNulls(value: unknown): unknown {
  if (value === undefined) return null
  if (Object.is(value, -0)) return 0
  if (value === null || typeof value !== 'object') return value
  if (Array.isArray(value)) return value.map((v) => withoutNulls(v))
  const out: Record<string, unknown> = {}
  for (const key of Object.keys(value)) {
    const member = (value as Record<string, unknown>)[key]
    if (member === null || member === undefined) continue
    Object.defineProperty(out, key, { value: withoutNulls(member), writable: true, enumerable: true, configurable: true })
  }
  return out
}
