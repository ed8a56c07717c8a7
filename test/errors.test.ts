import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { ERROR_CODES, EngineError, isEngineError } from '../src/errors.ts'

describe('error table', () => {
  it('should list in the README exactly the codes of the table, with the same statuses and meanings', () => {
    const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8')
    const rows = [...readme.matchAll(/^\| (ERR_[A-Z_]+) \| (\d+) \| (.+) \|$/gm)].map((m) => [m[1], Number(m[2]), m[3]])
    const table = Object.entries(ERROR_CODES).map(([code, e]) => [code, e.status, e.summary])
    expect(rows).toEqual(table)
  })

  it('should only use statuses the contract allows clients to see, and 429 only for a full queue (back-pressure)', () => {
    for (const [code, e] of Object.entries(ERROR_CODES)) {
      if (code === 'ERR_QUEUE_FULL') expect(e.status).toBe(429)
      else expect([400, 401, 402, 403, 404, 406, 413, 500]).toContain(e.status)
    }
    expect(new EngineError('ERR_QUEUE_FULL', 'full', undefined, { retryAfterSeconds: 3 }).retryAfterSeconds).toBe(3)
    expect(new EngineError('ERR_INVALID_FIELD', 'bad').retryAfterSeconds).toBeUndefined()
  })

  it('should recognise engine errors by name and code, not by class identity', () => {
    const e = new EngineError('ERR_QUERY_SYNTAX', 'bad', 'query')
    expect(isEngineError(e)).toBe(true)
    expect(isEngineError({ name: 'EngineError', code: 'ERR_QUERY_SYNTAX' })).toBe(true)
    expect(isEngineError({ name: 'EngineError', code: 'ERR_NOPE' })).toBe(false)
    expect(e.status).toBe(400)
  })
})
