import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterEach, describe, expect, it } from 'vitest'
import { createEngine } from '../../src/engine/create-engine.ts'
import type { ProcessedEvent } from '../../src/engine/options.ts'
import { createCallbackDelivery } from '../../src/http/callbacks.ts'
import { createHttpHandler } from '../../src/http/handler.ts'
import { call } from './helpers.ts'

/** A local callback receiver on 127.0.0.1:0 answering each POST with the next status of `statuses` (200 after). */
async function receiver(statuses: number[] = []): Promise<{ url: string; bodies: unknown[][]; attempts: () => number; server: Server }> {
  const bodies: unknown[][] = []
  let attempts = 0
  const server = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      attempts++
      const status = statuses.shift() ?? 200
      if (status === 200) bodies.push(JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown[])
      res.writeHead(status).end(status === 200 ? '' : 'try later')
    })
  })
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()))
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`, bodies, attempts: () => attempts, server }
}

const servers: Server[] = []
afterEach(async () => {
  for (const s of servers.splice(0)) await new Promise<void>((r) => s.close(() => r()))
})

function event(url: string, id: string, configId = 'c1'): ProcessedEvent {
  return { account: 'k', configId, callback: url, kind: 'document', output: { id, config_id: configId, status: 'PROCESSED' } as ProcessedEvent['output'] }
}

describe('callback delivery', () => {
  it('delivers processed documents of a callback configuration in batches of callback_batch_limit, without blocking requests', async () => {
    const hook = await receiver()
    servers.push(hook.server)
    const delivery = createCallbackDelivery({ batchLimitOf: async (account) => (await engine.account(account).subscription()).basic_settings.callback_batch_limit })
    const engine = createEngine({
      accounts: [{ key: 'consumer-key', secret: 'consumer-secret', subscription: { basic_settings: { callback_batch_limit: 2 }, billing_settings: { data_calls_limit: 0, settings_calls_limit: 0 } } }],
      onCallback: (e) => delivery.push(e),
    })
    const handler = createHttpHandler(engine)
    const created = await call(handler, 'POST', '/configurations.json', { body: JSON.stringify([{ name: 'hooked', is_primary: false, language: 'English', callback: hook.url }]) })
    expect(created.status, created.text).toBe(200)
    const id = (created.json as { id: string }[])[0]!.id
    const docs = Array.from({ length: 5 }, (_, i) => ({ id: `cb-${i}`, text: `Callback text number ${i} is nice.` }))
    const submit = await call(handler, 'POST', `/document/batch.json?config_id=${id}`, { body: JSON.stringify(docs) })
    expect(submit.status).toBe(202)
    const withJob = await call(handler, 'POST', `/document/batch.json?config_id=${id}&job_id=j1`, { body: JSON.stringify(docs) })
    expect(withJob.status).toBe(400)
    await engine.drain()
    await delivery.flush()
    expect(hook.bodies.map((b) => b.length).sort()).toEqual([1, 2, 2])
    expect(hook.bodies.flat().map((d) => (d as { id: string }).id).sort()).toEqual(docs.map((d) => d.id))
    expect(delivery.pending()).toBe(0)
    await engine.close()
  })

  it('retries failed POSTs with backoff and gives up after maxAttempts', async () => {
    const hook = await receiver([500, 503])
    servers.push(hook.server)
    const log: string[] = []
    const delivery = createCallbackDelivery({ baseDelayMs: 5, log: (e) => log.push(`${e.attempt}:${e.outcome}`) })
    delivery.push(event(hook.url, 'r1'))
    await delivery.flush()
    expect(hook.bodies).toEqual([[{ id: 'r1', config_id: 'c1', status: 'PROCESSED' }]])
    expect(log).toEqual(['1:retrying', '2:retrying', '3:delivered'])

    const down = await receiver([500, 500, 500])
    servers.push(down.server)
    const giving = createCallbackDelivery({ baseDelayMs: 5, maxAttempts: 2 })
    giving.push(event(down.url, 'g1'))
    giving.push(event(down.url, 'g2'))
    await giving.flush()
    expect(down.attempts()).toBe(2)
    expect(giving.dropped()).toBe(2)
  })

  it('groups by configuration and URL, survives an unreachable URL, and drops waiting retries on close', async () => {
    const hook = await receiver()
    servers.push(hook.server)
    const delivery = createCallbackDelivery({ baseDelayMs: 60_000 })
    delivery.push(event(hook.url, 'a', 'c1'))
    delivery.push(event(hook.url, 'b', 'c2'))
    delivery.push(event('http://127.0.0.1:1/unreachable', 'c', 'c3'))
    await new Promise((r) => setTimeout(r, 300))
    expect(hook.bodies.length).toBe(2)
    expect(delivery.pending()).toBe(1)
    delivery.close()
    await delivery.flush()
    expect(delivery.dropped()).toBe(1)
    expect(() => createCallbackDelivery({ maxAttempts: 0 })).toThrow(/maxAttempts/)
  })
})
