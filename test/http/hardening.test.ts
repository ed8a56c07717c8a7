import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { signUrl } from '../../src/auth/signature.ts'
import { createEngine } from '../../src/engine/create-engine.ts'
import type { Engine } from '../../src/engine/types.ts'
import { createHttpHandler, type HttpHandler, type RequestLogEntry } from '../../src/http/handler.ts'
import { encodeAnswer } from '../../src/http/wire.ts'
import { createRedisStorage } from '../../src/storage/redis.ts'
import { StorageUnavailableError } from '../../src/storage/errors.ts'
import { REDIS_URL, redisReachable } from '../helpers/redis.ts'
import { ACCOUNTS, call } from './helpers.ts'

// Issue 18, the findings of the HTTP layer, each with the payload it was found with.

const unreachable = await redisReachable()
const storages: Array<[string, () => Engine]> = [['memory', () => createEngine({ accounts: [{ ...ACCOUNTS[0] }] })]]
if (unreachable === undefined || process.env.CI !== undefined) {
  storages.push([
    'redis',
    () => {
      const storage = createRedisStorage({ url: REDIS_URL, prefix: `textengine-http-hardening:${process.pid}:${Date.now()}:${Math.random()}:` })
      return createEngine({ accounts: [{ ...ACCOUNTS[0] }], storage })
    },
  ])
}

describe.each(storages)('values that cannot be written are refused at submit, naming the path (%s storage)', (_name, make) => {
  let engine: Engine
  let handler: HttpHandler
  beforeEach(() => {
    engine = make()
    handler = createHttpHandler(engine)
  })
  afterEach(async () => {
    await engine.close()
  })

  it.each([
    ['{"id":"x","text":"t","metadata":1e400}', '/document.json', '$.metadata', /out of range/],
    ['{"id":"x","text":"t","metadata":-1e400}', '/document.json', '$.metadata', /out of range/],
    ['[{"id":"x","text":"t","metadata":{"score":[1,2,1e999]}}]', '/document/batch.json', '$[0].metadata.score[2]', /out of range/],
    ['{"id":"x","text":"t\\ud800"}', '/document.json', '$.text', /lone surrogate U\+D800/],
    ['{"id":"x","text":"t","metadata":{"\\udc00k":1}}', '/document.json', '$.metadata["\\udc00k"]', /member name that holds a lone surrogate/],
    ['{"id":"x","documents":["ok","\\udbff"]}', '/collection.json', '$.documents[1]', /lone surrogate U\+DBFF/],
  ])('%s', async (body, path, where, problem) => {
    const r = await call(handler, 'POST', path, { body })
    expect(r.status, r.text).toBe(400)
    const message = (r.json as { message: string }).message
    expect(message).toContain(`the value at ${where} `)
    expect(message).toMatch(problem)
    // Nothing stored: the id is unknown, and a poll after draining finds nothing.
    expect((await call(handler, 'GET', path === '/collection.json' ? '/collection/x.json' : '/document/x.json')).status).toBe(404)
    await engine.drain()
    expect((await call(handler, 'GET', '/document/processed.json')).status).toBe(202)
  })

  it('refuses the XML equivalents: a number field out of range and a character reference XML cannot carry', async () => {
    const config = '<configurations><configuration><name>n</name><language>English</language><entities_threshold>1e400</entities_threshold></configuration></configurations>'
    const r1 = await call(handler, 'POST', '/configurations.xml', { body: config })
    expect(r1.status, r1.text).toBe(400)
    expect(r1.text).toContain('/configurations/configuration[1]/entities_threshold')
    const r2 = await call(handler, 'POST', '/document.xml', { body: '<document><id>x</id><text>bad &#xD800; here</text></document>' })
    expect(r2.status, r2.text).toBe(400)
    expect(r2.text).toContain('/document/text')
    expect(r2.text).toMatch(/&amp;#xD800; .*not a character XML can carry/)
    expect((await call(handler, 'GET', '/document/x.json')).status).toBe(404)
  })

  it('still accepts large finite numbers and emoji (surrogate pairs)', async () => {
    const r = await call(handler, 'POST', '/document.json', { body: '{"id":"ok","text":"Great \\ud83d\\ude00 room","metadata":{"n":1.7976931348623157e308}}' })
    expect(r.status, r.text).toBe(202)
    await engine.drain()
    const doc = await call(handler, 'GET', '/document/ok.json')
    expect(doc.json).toMatchObject({ id: 'ok', metadata: { n: 1.7976931348623157e308 } })
  })
})

describe('an item that cannot be encoded does not take its poll answer with it', () => {
  const items = [
    { id: 'a', status: 'PROCESSED', sentiment_score: 0.5 },
    { id: 'poisoned', status: 'PROCESSED', sentiment_score: Number.POSITIVE_INFINITY, metadata: { x: Number.NaN, y: 'keep' }, summary: 'lone \ud800 surrogate' },
    { id: 'c', status: 'PROCESSED', summary: 'caf\u00e9' },
  ]

  it('encodes the others as they are and the poisoned one without what cannot be written (JSON and XML)', () => {
    const text = (body: string | Uint8Array): string => (typeof body === 'string' ? body : Buffer.from(body).toString('utf8'))
    const json = encodeAnswer('json', items, 'documents')
    expect(json.repaired).toBe(1)
    expect(JSON.parse(text(json.body))).toEqual([
      { id: 'a', status: 'PROCESSED', sentiment_score: 0.5 },
      // The repaired copy also replaces the lone surrogate (XML cannot carry it either).
      { id: 'poisoned', status: 'PROCESSED', metadata: { y: 'keep' }, summary: 'lone \ufffd surrogate' },
      { id: 'c', status: 'PROCESSED', summary: 'caf\u00e9' },
    ])
    const xml = encodeAnswer('xml', items, 'documents')
    expect(xml.repaired).toBe(1)
    expect(text(xml.body)).toContain('<document><id>a</id>')
    expect(text(xml.body)).toContain('<document><id>poisoned</id><status>PROCESSED</status><metadata>{&quot;y&quot;:&quot;keep&quot;}</metadata>'.replace(/&quot;/g, '"'))
    expect(text(xml.body)).toContain('<id>c</id>')
  })

  it('answers the poll 200 through the handler (a storage that hands back a non-finite number)', async () => {
    const key = ACCOUNTS[0].key
    const stub = {
      defaultAccount: key,
      secretOf: (k: string) => (k === key ? ACCOUNTS[0].secret : undefined),
      account: () => ({ recordCall: async () => {}, takeProcessedDocuments: async () => items.map((i) => ({ ...i })) }),
    } as unknown as Engine
    const log: RequestLogEntry[] = []
    const r = await call(createHttpHandler(stub, { log: (e) => log.push(e) }), 'GET', '/document/processed.json?config_id=c1')
    expect(r.status, r.text).toBe(200)
    expect((r.json as { id: string }[]).map((d) => d.id)).toEqual(['a', 'poisoned', 'c'])
    // The fault is seen in the request log.
    expect(log).toMatchObject([{ status: 200, error: undefined, warning: expect.stringMatching(/^1 item\(s\) could not be encoded as stored/) as unknown }])
  })
})

describe('errors that carry a status', () => {
  it('answers a storage outage 503 with Retry-After, and a coded 429 with its own status', async () => {
    const key = ACCOUNTS[0].key
    let thrown: Error = new StorageUnavailableError('storage unreachable: Redis at 127.0.0.1:6379 is down', 2.2)
    const stub = {
      defaultAccount: key,
      secretOf: (k: string) => (k === key ? ACCOUNTS[0].secret : undefined),
      account: () => ({
        recordCall: async () => {
          throw thrown
        },
      }),
    } as unknown as Engine
    const handler = createHttpHandler(stub)
    const r = await call(handler, 'GET', '/status.json')
    expect(r.status).toBe(503)
    expect(r.headers.get('retry-after')).toBe('3')
    expect(r.json).toEqual({ status: 503, message: 'storage unreachable: Redis at 127.0.0.1:6379 is down' })
    thrown = Object.assign(new Error('the queue of this account is full (10000 items); retry later'), { code: 'ERR_QUEUE_FULL', status: 429, retryAfterSeconds: 5 })
    const full = await call(handler, 'GET', '/status.json')
    expect(full.status).toBe(429)
    expect(full.headers.get('retry-after')).toBe('5')
    // An error without a code and status stays a 500 without Retry-After.
    thrown = new Error('boom')
    const plain = await call(handler, 'GET', '/status.json')
    expect(plain.status).toBe(500)
    expect(plain.headers.get('retry-after')).toBeNull()
  })
})

describe('ids, names and job ids (issue 18 low items)', () => {
  let engine: Engine
  let handler: HttpHandler
  beforeEach(() => {
    engine = createEngine({ accounts: [{ ...ACCOUNTS[0] }] })
    handler = createHttpHandler(engine)
  })
  afterEach(async () => {
    await engine.close()
  })

  it.each([
    ['/document.json', '{"id":"processed","text":"t"}', '$.id', /reserved word.*\/document\/processed/],
    ['/document.json', '{"id":"batch","text":"t"}', '$.id', /reserved word/],
    ['/document/batch.json', '[{"id":"ok","text":"t"},{"id":"processed","text":"t"}]', '$[1].id', /reserved word/],
    ['/collection.json', '{"id":"processed","documents":["a","b"]}', '$.id', /reserved word.*\/collection\/processed/],
    ['/document.json', '{"id":"a\\u0000b","text":"t"}', '$.id', /control character U\+0000 at character 2/],
    ['/document.json', '{"id":"a","text":"t","job_id":"j\\u001f"}', '$.job_id', /control character U\+001F/],
    ['/document.json', `{"id":"a","text":"t","job_id":"${'j'.repeat(65)}"}`, '$.job_id', /65 characters, more than the limit of 64/],
    ['/configurations.json', '[{"name":"bad\\u0000name","language":"English"}]', '$[0].name', /control character U\+0000/],
    ['/queries.json', '[{"name":"q\\u007f","query":"a"}]', '$[0].name', /control character U\+007F/],
  ])('POST %s %s is refused naming %s', async (path, body, where, problem) => {
    const r = await call(handler, 'POST', path, { body })
    expect(r.status, r.text).toBe(400)
    expect((r.json as { message: string }).message).toMatch(new RegExp(`^${where.replace(/[$[\]().]/g, '\\$&')} `))
    expect((r.json as { message: string }).message).toMatch(problem)
  })

  it('refuses a long or control-character job_id and config_id in the query, accepts 64 characters', async () => {
    const long = await call(handler, 'POST', `/document.json?job_id=${'j'.repeat(65)}`, { body: '{"id":"a","text":"t"}' })
    expect(long.status).toBe(400)
    expect(long.text).toMatch(/query parameter job_id has 65 characters/)
    const nul = await call(handler, 'GET', '/document/processed.json?config_id=a%00b')
    expect(nul.status).toBe(400)
    expect(nul.text).toMatch(/query parameter config_id holds the control character U\+0000/)
    const ok = await call(handler, 'POST', `/document.json?job_id=${'j'.repeat(64)}`, { body: '{"id":"a","text":"Nice room."}' })
    expect(ok.status, ok.text).toBe(202)
  })

  it('keeps control characters allowed in metadata and text (client data), and ids like "processed-1"', async () => {
    const r = await call(handler, 'POST', '/document.json', { body: '{"id":"processed-1","text":"line\\u0001two","metadata":{"id":"a\\u0000b","name":"x\\u0007"}}' })
    expect(r.status, r.text).toBe(202)
  })

  it('refuses a NUL in an XML id', async () => {
    const r = await call(handler, 'POST', '/document.xml', { body: '<document><id>a&#x1;b</id><text>t</text></document>' })
    expect(r.status, r.text).toBe(400)
    expect(r.text).toContain('/document/id')
  })
})

describe('HEAD and OPTIONS', () => {
  let engine: Engine
  let handler: HttpHandler
  beforeEach(() => {
    engine = createEngine({ accounts: [{ ...ACCOUNTS[0] }] })
    handler = createHttpHandler(engine)
  })
  afterEach(async () => {
    await engine.close()
  })

  it('answers HEAD like GET without a body, but not on the retrievals that dequeue', async () => {
    const get = await call(handler, 'GET', '/status.json')
    const head = await call(handler, 'HEAD', '/status.json')
    expect(head.status).toBe(200)
    expect(head.text).toBe('')
    expect(head.headers.get('content-length')).toBe(get.headers.get('content-length'))
    expect(head.headers.get('content-type')).toMatch(/application\/json/)
    expect((await call(handler, 'HEAD', '/status.json', { account: { key: ACCOUNTS[0].key, secret: 'wrong' } })).status).toBe(401)
    await call(handler, 'POST', '/document.json', { body: '{"id":"h1","text":"Nice room."}' })
    await engine.drain()
    const processed = await call(handler, 'HEAD', '/document/processed.json')
    expect(processed.status).toBe(405)
    expect(processed.headers.get('allow')).toBe('GET, HEAD, OPTIONS')
    expect(processed.text).toBe('')
    expect((await call(handler, 'GET', '/document/processed.json')).json).toMatchObject([{ id: 'h1' }])
  })

  it('answers OPTIONS with Allow (204, no signature needed) and 404 for a path the API does not have', async () => {
    const r = await handler(new Request('http://127.0.0.1:8080/configurations.json', { method: 'OPTIONS' }))
    expect(r.status).toBe(204)
    expect(r.headers.get('allow')).toBe('GET, HEAD, POST, PUT, DELETE, OPTIONS')
    const doc = await handler(new Request('http://127.0.0.1:8080/document/abc.json', { method: 'OPTIONS' }))
    expect(doc.headers.get('allow')).toBe('GET, HEAD, DELETE, OPTIONS')
    expect((await handler(new Request('http://127.0.0.1:8080/nowhere.json', { method: 'OPTIONS' }))).status).toBe(404)
  })
})

describe('request log', () => {
  it('does not log an upload the client aborted; logs other failures', async () => {
    const engine = createEngine({ accounts: [{ ...ACCOUNTS[0] }] })
    const log: RequestLogEntry[] = []
    const handler = createHttpHandler(engine, { log: (e) => log.push(e) })
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode('[{"id":"a","te'))
        controller.error(Object.assign(new Error('aborted'), { code: 'ECONNRESET' }))
      },
    })
    const signed = signUrl('http://127.0.0.1:8080/document/batch.json', ACCOUNTS[0].key, ACCOUNTS[0].secret, '777', 1551274346)
    const init: RequestInit & { duplex: 'half' } = { method: 'POST', headers: { authorization: signed.authorization }, body, duplex: 'half' }
    const r = await handler(new Request(signed.url, init))
    expect(r.status).toBe(400)
    expect(log).toEqual([])
    await call(handler, 'POST', '/document/batch.json', { body: '[' })
    expect(log.map((e) => e.status)).toEqual([400])
    await engine.close()
  })
})
