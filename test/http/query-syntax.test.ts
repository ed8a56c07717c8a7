import { describe, expect, it } from 'vitest'
import { createEngine } from '../../src/engine/create-engine.ts'
import { createHttpHandler } from '../../src/http/handler.ts'
import { ACCOUNTS, call } from './helpers.ts'

describe('query syntax over HTTP', () => {
  it('should answer 400 naming line and column for a bad query, a bad + entity and a bad operator phrase, storing nothing', async () => {
    const engine = createEngine({ accounts: ACCOUNTS.map((a) => ({ ...a })) })
    const handler = createHttpHandler(engine)
    const bad = [
      ['/queries.json', [{ name: 'q', query: 'pool AND' }]],
      ['/entities.json', [{ name: '+(apple OR', type: 'Company' }]],
      ['/phrases.json', [{ name: 'good NEAR/99 food', weight: 1 }]],
    ] as const
    for (const [path, body] of bad) {
      const r = await call(handler, 'POST', path, { body: JSON.stringify(body) })
      expect(r.status).toBe(400)
      expect(r.text).toMatch(/line 1, column \d+/)
      const list = await call(handler, 'GET', path)
      expect(list.status).toBe(202)
      expect(list.text).toBe('')
    }
    const ok = await call(handler, 'POST', '/queries.json', { body: JSON.stringify([{ name: 'q', query: 'pool AND (clean OR dirty)' }]) })
    expect(ok.status).toBe(200)
    await engine.close()
  })
})
