/**
 * The response encoder as it was before issue 17 (JSON.stringify with a replacer on every value, then a
 * character loop for ASCII escaping), kept as the reference the faster `encodeJson` must match byte for byte.
 */
import { CodecError } from '../../src/codecs/errors.ts'

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
function quoteJsonString(s: string): string {
  return '"' + s.replace(NEEDS_ESCAPE, escapeChar) + '"'
}

/**
 * Serialise a response value as the clients expect it (client-compat §4): ASCII only, object members whose
 * value is `null` or `undefined` omitted at every depth, integers without decimals. `null` inside arrays is
 * kept (removing it would shift the items of client metadata). Objects with a `toJSON` method (Date) are
 * written through it. Throws {@link CodecError} `ERR_UNENCODABLE` naming the path for a non-finite number, a
 * bigint, a function, a symbol, or a cycle.
 */
export function referenceEncodeJson(value: unknown): string {
  let text: string | undefined
  try {
    text = JSON.stringify(value, dropNullMembers)
  } catch {
    text = undefined
  }
  // Top-level null/undefined, or a value stringify refused: the slow writer gives the answer or a located error.
  if (text === undefined) return locateEncodeProblem(value)
  return asciiOnly(text)
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
    case 'function':
    case 'symbol':
      throw new TypeError(`${typeof v} value`)
    default:
      return v
  }
}

const HEX_BYTE: readonly string[] = Array.from({ length: 256 }, (_, i) => i.toString(16).toUpperCase().padStart(2, '0'))

// JSON.stringify output already escapes controls, quotes and lone surrogates; escape everything else above 0x7E.
function asciiOnly(json: string): string {
  let out = ''
  let last = 0
  for (let i = 0; i < json.length; i++) {
    const c = json.charCodeAt(i)
    if (c >= 0x7f) {
      out += json.slice(last, i) + '\\u' + (HEX_BYTE[c >> 8] ?? '') + (HEX_BYTE[c & 0xff] ?? '')
      last = i + 1
    }
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

