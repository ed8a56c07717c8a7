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

  it('should only use statuses the contract allows clients to see', () => {
    for (const e of Object.values(ERROR_CODES)) expect([400, 401, 402, 403, 404, 406, 413, 500]).toContain(e.status)
  })

  it('should recognise engine errors by name and code, not by class identity', () => {
    const e = new EngineError('ERR_QUERY_SYNTAX', 'bad', 'query')
    expect(isEngineError(e)).toBe(true)
    expect(isEngineError({ name: 'EngineError', code: 'ERR_QUERY_SYNTAX' })).toBe(true)
    expect(isEngineError({ name: 'EngineError', code: 'ERR_NOPE' })).toBe(false)
    expect(e.status).toBe(400)
  })
})
