import { fail } from '../errors.ts'
import type { PathStyle } from '../codecs/writable.ts'
import type { Route } from './routes.ts'

/**
 * Wire rules for identifiers and names (issue 18): what the engine would store but nobody could use afterwards.
 *
 * - Ids, names and job ids may not hold control characters (U+0000-U+001F, U+007F): a NUL in an id or a
 *   configuration name is stored, then breaks logs, XML answers (XML cannot carry it) and the clients' lookups.
 * - `job_id` has at most {@link JOB_ID_LIMIT} characters (the contract gives no limit; every job id is kept per
 *   account for 24 hours, so an unbounded one is memory anyone can fill).
 * - A document id may not be `processed` or `batch`, a collection id not `processed`: `/document/processed` and
 *   `/document/batch` are endpoints, so such an item could never be read, or cancelled, by id (client-compat §2
 *   calls them reserved words).
 */

/** Most characters of a `job_id` (query parameter or document member). */
export const JOB_ID_LIMIT = 64

/** Members whose string value is an id or a name, wherever they sit in a request body (`metadata` excepted). */
const IDENTIFIER_MEMBERS: ReadonlySet<string> = new Set(['id', 'config_id', 'job_id', 'name', 'template'])
/** Query parameters that carry ids. */
const IDENTIFIER_PARAMETERS = ['config_id', 'job_id', 'document_id', 'config'] as const

const CONTROL = /[\u0000-\u001f\u007f]/
const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/

function controlProblem(s: string): string | undefined {
  const m = CONTROL.exec(s)
  if (m === null) return undefined
  return `holds the control character U+${m[0].charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')} at character ${m.index + 1}; ids and names may not hold control characters`
}

/** Refuse query parameters carrying ids with control characters, and a `job_id` over {@link JOB_ID_LIMIT}. */
export function checkQueryIdentifiers(query: ReadonlyMap<string, readonly string[]>): void {
  for (const name of IDENTIFIER_PARAMETERS) {
    for (const value of query.get(name) ?? []) {
      const problem = controlProblem(value)
      if (problem !== undefined) fail('ERR_INVALID_FIELD', `query parameter ${name} ${problem}`, name)
      if (name === 'job_id' && value.length > JOB_ID_LIMIT) {
        fail('ERR_INVALID_FIELD', `query parameter job_id has ${value.length} characters, more than the limit of ${JOB_ID_LIMIT}`, 'job_id')
      }
    }
  }
}

/** Reserved ids of submitted items, by the submit route's path. */
const RESERVED: Readonly<Record<string, readonly string[]>> = {
  '/document': ['processed', 'batch'],
  '/document/batch': ['processed', 'batch'],
  '/batch': ['processed', 'batch'],
  '/collection': ['processed'],
}

/**
 * Refuse, with 400 naming the member's path (`$[0].id`, `/documents/document[1]/id`), an id, name or job id
 * holding a control character anywhere in a decoded request body (client `metadata` is not looked into), a
 * `job_id` over {@link JOB_ID_LIMIT}, and a reserved id on a submission. A DELETE body's bare ids count as ids.
 */
export function checkBodyIdentifiers(route: Route, body: unknown, paths: PathStyle): void {
  const reserved = route.answer === 'submit' ? (RESERVED[route.path] ?? []) : []
  const memberPath = (path: string, key: string): string =>
    paths.style === 'xml' ? `${path}/${key}` : IDENTIFIER.test(key) ? `${path}.${key}` : `${path}[${JSON.stringify(key)}]`
  const itemPath = (path: string, parent: string, i: number): string =>
    paths.style === 'xml' ? `${path}/${paths.listItems[parent] ?? 'item'}[${i + 1}]` : `${path}[${i}]`
  const checkValue = (member: string, value: string, path: string, depth: number): void => {
    const problem = controlProblem(value)
    if (problem !== undefined) fail('ERR_INVALID_FIELD', `${path} ${problem}`, path)
    if (member === 'job_id' && value.length > JOB_ID_LIMIT) {
      fail('ERR_INVALID_FIELD', `${path} has ${value.length} characters, more than the limit of ${JOB_ID_LIMIT}`, path)
    }
    // Submitted items sit at depth 0 (one document or a collection) or 1 (the items of a batch).
    if (member === 'id' && depth <= 1 && reserved.includes(value)) {
      fail(
        'ERR_INVALID_FIELD',
        `${path} ${JSON.stringify(value)} is a reserved word: ${route.path === '/collection' ? '/collection' : '/document'}/${value} is an endpoint, so the item could never be read by id; choose another id`,
        path,
      )
    }
  }
  const walk = (v: unknown, path: string, name: string, depth: number): void => {
    if (typeof v !== 'object' || v === null) return
    if (Array.isArray(v)) {
      v.forEach((item: unknown, i) => {
        const p = itemPath(path, name, i)
        if (typeof item === 'string' && depth === 0 && route.method === 'DELETE') checkValue('id', item, p, depth)
        else walk(item, p, paths.style === 'xml' ? (paths.listItems[name] ?? 'item') : name, depth + 1)
      })
      return
    }
    for (const key of Object.keys(v)) {
      if (key === 'metadata') continue
      const member = (v as Record<string, unknown>)[key]
      const p = memberPath(path, key)
      if (IDENTIFIER_MEMBERS.has(key) && typeof member === 'string') checkValue(key, member, p, depth)
      else if (IDENTIFIER_MEMBERS.has(key) && Array.isArray(member) && route.method === 'DELETE') {
        // The decoded XML form of a DELETE body: {id: ["a", "b"]}.
        member.forEach((item: unknown, i) => {
          if (typeof item === 'string') checkValue(key, item, paths.style === 'xml' ? `${p}[${i + 1}]` : `${p}[${i}]`, depth)
        })
      } else walk(member, p, key, depth + 1)
    }
  }
  walk(body, paths.style === 'xml' ? `/${paths.root}` : '$', paths.style === 'xml' ? paths.root : '', 0)
}
