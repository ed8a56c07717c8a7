import { describe, expect, it } from 'vitest'
import { startServer } from '../../src/server.ts'
import { send } from './client.ts'

describe('standalone server', () => {
  it('serves signed requests on the given port, logs one line per request, and shuts down after draining', async () => {
    const lines: string[] = []
    const running = await startServer({ port: 0, host: '127.0.0.1', apiKey: 'k1', apiSecret: 's1', drainTimeoutMs: 5000, write: (l) => lines.push(l) })
    const o = { key: 'k1', secret: 's1', timestamp: Date.now() }
    expect((await send(running.port, 'GET', '/status.json', o)).status).toBe(200)
    expect((await send(running.port, 'POST', '/document.json', { ...o, body: '{"id":"s1","text":"Shutting down soon."}' })).status).toBe(202)
    expect((await send(running.port, 'GET', '/status.json', { ...o, secret: 'nope' })).status).toBe(401)
    expect(lines).toHaveLength(3)
    expect(lines[0]).toMatch(/^\S+ GET \/status\.json 200 [\d.]+ms k1 \d+B$/)
    expect(lines[2]).toMatch(/ 401 .* - \d+B ".*"$/)
    const result = await running.shutdown()
    expect(result).toEqual({ drained: true, callbacksPending: 0 })
    expect(running.server.listening).toBe(false)
  })
})
