import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterEach, describe, expect, it } from 'vitest'
import { createEngine } from '../../src/engine/create-engine.ts'
import type { ProcessedEvent } from '../../src/engine/options.ts'
import { callbackAddressCheck, createCallbackDelivery, type DeliveryLogEntry } from '../../src/http/callbacks.ts'
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

/** Local development: the loopback receivers of these tests are allowed explicitly (they are refused by default). */
const LOCAL = { allow: ['127.0.0.1/32'] }

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
    const delivery = createCallbackDelivery({ addresses: LOCAL, batchLimitOf: async (account) => (await engine.account(account).subscription()).basic_settings.callback_batch_limit })
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
    const delivery = createCallbackDelivery({ addresses: LOCAL, baseDelayMs: 5, log: (e) => log.push(`${e.attempt}:${e.outcome}`) })
    delivery.push(event(hook.url, 'r1'))
    await delivery.flush()
    expect(hook.bodies).toEqual([[{ id: 'r1', config_id: 'c1', status: 'PROCESSED' }]])
    expect(log).toEqual(['1:retrying', '2:retrying', '3:delivered'])

    const down = await receiver([500, 500, 500])
    servers.push(down.server)
    const giving = createCallbackDelivery({ addresses: LOCAL, baseDelayMs: 5, maxAttempts: 2 })
    giving.push(event(down.url, 'g1'))
    giving.push(event(down.url, 'g2'))
    await giving.flush()
    expect(down.attempts()).toBe(2)
    expect(giving.dropped()).toBe(2)
  })

  it('groups by configuration and URL, survives an unreachable URL, and drops waiting retries on close', async () => {
    const hook = await receiver()
    servers.push(hook.server)
    const delivery = createCallbackDelivery({ addresses: LOCAL, baseDelayMs: 60_000 })
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

describe('callback destinations (issue 18)', () => {
  it('refuses private, loopback, link-local and unspecified addresses by default, IPv4-mapped ones included', () => {
    const check = callbackAddressCheck()
    for (const a of ['127.0.0.1', '127.8.9.10', '10.1.2.3', '172.16.0.1', '172.31.255.255', '192.168.1.1', '169.254.169.254', '0.0.0.0', '::1', '::', 'fe80::1', 'fc00::1', 'fd12:3456::1', '::ffff:10.0.0.1', '::ffff:7f00:1', '224.0.0.1', '100.64.0.1']) {
      expect(check.address('h', a), a).toMatch(/private, loopback, link-local|internal/)
    }
    for (const a of ['8.8.8.8', '172.32.0.1', '1.1.1.1', '2606:4700::1111', '192.169.0.1']) expect(check.address('h', a), a).toBeUndefined()
  })

  it('allows what the allow list names (address, range, host name) and refuses what the deny list names', () => {
    const check = callbackAddressCheck({ allow: ['127.0.0.1/32', 'hooks.internal', '*.corp.example'], deny: ['203.0.113.0/24', 'evil.example'] })
    expect(check.address('localhost', '127.0.0.1')).toBeUndefined()
    expect(check.address('localhost', '127.0.0.2')).toMatch(/internal/)
    expect(check.address('hooks.internal', '10.0.0.5')).toBeUndefined()
    expect(check.address('a.corp.example', '192.168.0.9')).toBeUndefined()
    expect(check.address('x.example', '203.0.113.7')).toMatch(/deny list/)
    expect(check.host('EVIL.example')).toMatch(/deny list/)
    expect(() => callbackAddressCheck({ allow: ['10.0.0.0/33'] })).toThrow(/not a CIDR range/)
    expect(() => callbackAddressCheck({ deny: ['not a host'] })).toThrow(/not an address, CIDR range or host name/)
  })

  it('does not POST to a loopback receiver unless allowed, and gives up at once (no retry)', async () => {
    const hook = await receiver()
    servers.push(hook.server)
    const log: DeliveryLogEntry[] = []
    const delivery = createCallbackDelivery({ baseDelayMs: 5, log: (e) => log.push(e) })
    delivery.push(event(hook.url, 'd1'))
    // A host name that resolves to loopback is refused too: every address is checked after resolution.
    delivery.push(event(hook.url.replace('127.0.0.1', 'localhost'), 'd2', 'c2'))
    delivery.push(event('http://169.254.169.254/latest/meta-data/', 'd3', 'c3'))
    await delivery.flush()
    expect(hook.attempts()).toBe(0)
    expect(delivery.dropped()).toBe(3)
    expect(log.map((e) => e.outcome)).toEqual(['gave-up', 'gave-up', 'gave-up'])
    expect(log.map((e) => e.error).join('\n')).toMatch(/169\.254\.169\.254.*callback_allow/)
    expect(log.every((e) => e.attempt === 1)).toBe(true)
  })

  it('does not follow a redirect to an internal address, and stops reading an answer after 64 KiB', async () => {
    const target = await receiver()
    servers.push(target.server)
    let bytesSent = 0
    let closedEarly = false
    const redirecting = createServer((req, res) => {
      req.resume()
      if (req.url === '/redirect') {
        res.writeHead(302, { location: target.url }).end()
        return
      }
      // An endless answer: the client must hang up.
      res.writeHead(200, { 'content-type': 'application/octet-stream' })
      const chunk = Buffer.alloc(16 * 1024, 120)
      const pump = (): void => {
        while (!res.destroyed && bytesSent < 64 * 1024 * 1024) {
          bytesSent += chunk.length
          if (!res.write(chunk)) {
            res.once('drain', pump)
            return
          }
        }
        res.end()
      }
      res.on('close', () => {
        closedEarly = bytesSent < 64 * 1024 * 1024
      })
      pump()
    })
    await new Promise<void>((r) => redirecting.listen(0, '127.0.0.1', () => r()))
    servers.push(redirecting)
    const base = `http://127.0.0.1:${(redirecting.address() as AddressInfo).port}`
    const log: DeliveryLogEntry[] = []
    const delivery = createCallbackDelivery({ addresses: LOCAL, baseDelayMs: 5, maxAttempts: 1, log: (e) => log.push(e) })
    delivery.push(event(`${base}/redirect`, 'r1'))
    delivery.push(event(`${base}/huge`, 'h1', 'c2'))
    await delivery.flush()
    expect(target.attempts()).toBe(0)
    const redirect = log.find((e) => e.url.endsWith('/redirect'))
    expect(redirect).toMatchObject({ outcome: 'gave-up', status: 302 })
    expect(redirect?.error).toMatch(/redirects are not followed/)
    expect(log.find((e) => e.url.endsWith('/huge'))).toMatchObject({ outcome: 'delivered', status: 200 })
    await new Promise((r) => setTimeout(r, 50))
    expect(closedEarly).toBe(true)
    expect(bytesSent).toBeLessThan(16 * 1024 * 1024)
  })
})
