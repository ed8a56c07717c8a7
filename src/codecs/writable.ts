import { CodecError } from './errors.ts'

/**
 * Values a request may decode to that nothing downstream can write back: a number that is not finite (`1e400`
 * parses to Infinity; JSON has no form for it and the storages cannot keep it), and a string holding a lone
 * surrogate (`"\ud800"` decodes to one; UTF-8 cannot carry it). Accepting them poisons the item: stored, then
 * every answer that includes it fails. They are refused where the request is decoded (issue 18).
 */

/** Where a value that cannot be written sits, and why. */
export interface Unwritable {
  /** `$.documents[0].metadata` (JSON) or `/documents/document[1]/metadata` (XML). */
  readonly path: string
  readonly problem: string
}

/** How paths are written: JSON paths from `$`, or XML element paths from the root element. */
export type PathStyle = { readonly style: 'json' } | { readonly style: 'xml'; readonly root: string; readonly listItems: Readonly<Record<string, string>> }

// A high surrogate not followed by a low one, or a low one not preceded by a high one.
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/
const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/

function hex4(c: number): string {
  return c.toString(16).toUpperCase().padStart(4, '0')
}

function stringProblem(s: string): string | undefined {
  const m = LONE_SURROGATE.exec(s)
  if (m === null) return undefined
  return `holds a lone surrogate U+${hex4(m[0].charCodeAt(0))} at character ${m.index + 1}, which UTF-8 cannot carry`
}

function numberProblem(n: number): string | undefined {
  if (Number.isFinite(n)) return undefined
  return Number.isNaN(n) ? 'is not a number (NaN)' : 'is a number out of range (it overflows to Infinity; the largest is about 1.8e308)'
}

function jsonMember(path: string, key: string): string {
  return IDENTIFIER.test(key) ? `${path}.${key}` : `${path}[${JSON.stringify(key).replace(/[\u007f-\uffff]/g, (c) => '\\u' + hex4(c.charCodeAt(0)))}]`
}

/**
 * The first value in `value` (depth first, members in order) that cannot be written, or `undefined`. Member
 * names are checked too. Objects are walked as plain data (decoded request bodies); nesting is bounded by the
 * decoders.
 */
export function findUnwritable(value: unknown, paths: PathStyle = { style: 'json' }): Unwritable | undefined {
  const rootPath = paths.style === 'json' ? '$' : `/${paths.root}`
  const rootName = paths.style === 'json' ? '' : paths.root
  const walk = (v: unknown, path: string, name: string): Unwritable | undefined => {
    if (typeof v === 'string') {
      const problem = stringProblem(v)
      return problem === undefined ? undefined : { path, problem }
    }
    if (typeof v === 'number') {
      const problem = numberProblem(v)
      return problem === undefined ? undefined : { path, problem }
    }
    if (typeof v !== 'object' || v === null) return undefined
    if (Array.isArray(v)) {
      const item = paths.style === 'xml' ? (paths.listItems[name] ?? 'item') : ''
      for (let i = 0; i < v.length; i++) {
        const found = walk(v[i], paths.style === 'json' ? `${path}[${i}]` : `${path}/${item}[${i + 1}]`, item)
        if (found !== undefined) return found
      }
      return undefined
    }
    for (const key of Object.keys(v)) {
      const childPath = paths.style === 'json' ? jsonMember(path, key) : `${path}/${key}`
      const keyProblem = stringProblem(key)
      if (keyProblem !== undefined) return { path: childPath, problem: `has a member name that ${keyProblem}` }
      const found = walk((v as Record<string, unknown>)[key], childPath, key)
      if (found !== undefined) return found
    }
    return undefined
  }
  return walk(value, rootPath, rootName)
}

/**
 * Throw {@link CodecError} `ERR_MALFORMED_BODY` (400) naming the path when a decoded request body holds a value
 * that cannot be written ({@link findUnwritable}).
 */
export function assertWritable(value: unknown, paths: PathStyle = { style: 'json' }): void {
  const found = findUnwritable(value, paths)
  if (found !== undefined) {
    throw new CodecError('ERR_MALFORMED_BODY', `the value at ${found.path} ${found.problem}; such values cannot be stored or returned`, { path: found.path })
  }
}

/**
 * A copy of a response value that every encoder can write: non-finite numbers and values with no JSON form
 * (bigint, function, symbol) left out (`null` inside arrays), lone surrogates replaced by U+FFFD, cycles cut.
 * For answering with what can be saved of an item that would otherwise fail its whole answer.
 */
export function toWritable(value: unknown): unknown {
  const seen = new Set<object>()
  const copy = (v: unknown): unknown => {
    switch (typeof v) {
      case 'string':
        return LONE_SURROGATE.test(v) ? v.replace(new RegExp(LONE_SURROGATE.source, 'g'), '\uFFFD') : v
      case 'number':
        return Number.isFinite(v) ? v : undefined
      case 'boolean':
        return v
      case 'object':
        break
      default:
        return undefined
    }
    if (v === null) return null
    const withToJson = v as { toJSON?: unknown }
    if (typeof withToJson.toJSON === 'function') return copy((withToJson.toJSON as () => unknown).call(v))
    if (seen.has(v)) return undefined
    seen.add(v)
    let out: unknown
    if (Array.isArray(v)) out = v.map((item) => copy(item) ?? null)
    else {
      const o: Record<string, unknown> = {}
      for (const key of Object.keys(v)) {
        const c = copy((v as Record<string, unknown>)[key])
        if (c !== undefined) Object.defineProperty(o, copy(key) as string, { value: c, writable: true, enumerable: true, configurable: true })
      }
      out = o
    }
    seen.delete(v)
    return out
  }
  return copy(value)
}
