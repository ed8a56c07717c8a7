import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createEngine } from '../../src/engine/create-engine.ts'
import type { Engine } from '../../src/engine/types.ts'
import { createHttpHandler, type HttpHandler } from '../../src/http/handler.ts'
import { toNodeListener } from '../../src/http/node.ts'
import { ApiError, createClient, isApiError, type Client } from '../../src/client/index.ts'

const KEY = 'client-key'
const SECRET = 'client-secret'
const UNLIMITED = { billing_settings: { data_calls_limit: 0, settings_calls_limit: 0, polling_calls_limit: 0 } }

let engine: Engine
let handler: HttpHandler
let client: Client
/** Every request the client sent, as the handler saw it. */
const seen: { method: string; url: string; authorization: string | null; body: string }[] = []

beforeAll(() => {
  engine = createEngine({ accounts: [{ key: KEY, secret: SECRET, name: 'client tests', subscription: UNLIMITED }] })
  handler = createHttpHandler(engine)
  client = createClient({
    baseUrl: 'http://127.0.0.1:8080',
    key: KEY,
    secret: SECRET,
    fetch: async (request) => {
      seen.push({ method: request.method, url: request.url, authorization: request.headers.get('authorization'), body: await request.clone().text() })
      return handler(request)
    },
  })
})
afterAll(async () => {
  await engine.close()
})

async function until<T>(read: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
  for (let i = 0; i < 200; i++) {
    const value = await read()
    if (done(value)) return value
    await engine.drain()
  }
  throw new Error('gave up waiting')
}

describe('createClient against a real engine (createHttpHandler)', () => {
  it('signs every request with the oauth parameters in the URL and the header', async () => {
    const status = await client.status()
    expect(status).toMatchObject({ service_status: 'available', api_version: '4.2', supported_compression: 'gzip,deflate' })
    const last = seen.at(-1)!
    expect(last.url).toMatch(/^http:\/\/127\.0\.0\.1:8080\/status\.json\?oauth_consumer_key=client-key&oauth_nonce=\d+&oauth_signature_method=HMAC-SHA1&oauth_timestamp=\d+&oauth_version=1\.0$/)
    expect(last.authorization).toMatch(/^OAuth realm="",oauth_consumer_key="client-key",.*oauth_signature="[^"]+"/)
  })

  it('queues, reads, retrieves and cancels documents (E1-E5)', async () => {
    expect(await client.documents.queue({ id: 'one/ä b+c', text: 'Tim Cook visited Paris, where Apple opened a store. The staff were friendly.' })).toEqual([])
    expect(await client.documents.queueBatch([{ id: 'b1', text: 'The room was dirty.' }, { id: 'b2', text: 'Great pool!', tag: 't' }])).toEqual([])
    const done = await until(() => client.documents.get('one/ä b+c'), (d) => d.status !== 'QUEUED')
    expect(done.status).toBe('PROCESSED')
    expect(done.entities?.map((e) => [e.title, e.entity_type])).toContainEqual(['Tim Cook', 'Person'])
    await engine.drain()
    const processed = await client.documents.processed()
    expect(processed.map((d) => d.id).sort()).toEqual(['b1', 'b2', 'one/ä b+c'])
    expect(processed.find((d) => d.id === 'b1')?.sentiment_polarity).toBe('negative')
    // 202 with an empty body: no processed documents left.
    expect(await client.documents.processed()).toEqual([])
    expect(await client.documents.processed({ jobId: 'nothing-here' })).toEqual([])

    const paused = createEngine({ accounts: [{ key: KEY, secret: SECRET, subscription: UNLIMITED }], background: false })
    const pausedClient = createClient({ baseUrl: 'http://localhost:9', key: KEY, secret: SECRET, fetch: createHttpHandler(paused), format: 'bare' })
    await pausedClient.documents.queue({ id: 'q1', text: 'Waiting in the queue.' }, { jobId: 'job-a' })
    expect((await pausedClient.documents.get('q1')).status).toBe('QUEUED')
    expect(await pausedClient.documents.cancel('q1')).toBeUndefined()
    await expect(pausedClient.documents.get('q1')).rejects.toMatchObject({ status: 404 })
    await paused.close()
  })

  it('queues, reads, retrieves and cancels collections (E6-E9)', async () => {
    const texts = ['The staff were friendly and the pool was great.', 'The staff were rude.', 'Great pool, friendly staff.', 'The room was small.']
    expect(await client.collections.queue({ id: 'col-1', documents: texts, tag: 'reviews' })).toEqual([])
    const col = await until(() => client.collections.get('col-1'), (c) => c.status !== 'QUEUED')
    expect(col).toMatchObject({ id: 'col-1', status: 'PROCESSED', docs_count: 4 })
    expect(col.facets?.map((f) => f.label)).toContain('staff')
    const taken = await client.collections.processed({ documentId: 'col-1' })
    expect(taken.map((c) => c.id)).toEqual(['col-1'])
    expect(await client.collections.processed()).toEqual([])

    const paused = createEngine({ accounts: [{ key: KEY, secret: SECRET, subscription: UNLIMITED }], background: false })
    const pausedClient = createClient({ baseUrl: 'http://localhost:9/', key: KEY, secret: SECRET, fetch: createHttpHandler(paused) })
    await pausedClient.collections.queue({ id: 'c-q', documents: ['a text', 'another text'] })
    expect((await pausedClient.collections.get('c-q')).status).toBe('QUEUED')
    await pausedClient.collections.cancel('c-q')
    await expect(pausedClient.collections.get('c-q')).rejects.toBeInstanceOf(ApiError)
    await paused.close()
  })

  it('lists, creates, updates, clones and deletes configurations (E10-E14) and lists templates (E15)', async () => {
    const before = await client.configurations.list()
    expect(before.filter((c) => c.is_primary)).toHaveLength(1)
    const [made] = await client.configurations.create([{ name: 'scratch', language: 'English', document: { themes_limit: 3 } }])
    expect(made).toMatchObject({ name: 'scratch', is_primary: false, language: 'English' })
    expect(made!.document.themes_limit).toBe(3)
    const [changed] = await client.configurations.update([{ config_id: made!.config_id, document: { mentions: true } }])
    expect(changed!.document).toMatchObject({ mentions: true, themes_limit: 3 })
    const copy = await client.configurations.clone(made!.config_id, 'scratch copy')
    expect(copy).toMatchObject({ name: 'scratch copy', document: { mentions: true, themes_limit: 3 } })
    await client.configurations.remove([made!.config_id, copy.config_id])
    expect((await client.configurations.list()).map((c) => c.config_id).sort()).toEqual(before.map((c) => c.config_id).sort())
    const templates = await client.templates.list()
    expect(templates.length).toBeGreaterThan(0)
    expect(templates[0]).toHaveProperty('config_id')
  })

  it('lists, adds, updates and removes every tuning resource (E16-E35)', async () => {
    const [cfg] = await client.configurations.create([{ name: 'tuning', language: 'English' }])
    const id = cfg!.config_id
    expect(await client.queries.list(id)).toEqual([])
    const [q] = await client.queries.add([{ name: 'pool', query: 'pool OR swimming' }], id)
    expect(q).toMatchObject({ name: 'pool', query: 'pool OR swimming' })
    expect((await client.queries.update([{ id: q!.id, name: 'pool', query: 'pool' }], id))[0]!.query).toBe('pool')
    expect(await client.queries.list(id)).toHaveLength(1)

    const [cat] = await client.categories.add([{ name: 'Food', samples: ['food', 'meal'], weight: 0.5 }], id)
    expect((await client.categories.update([{ id: cat!.id, name: 'Food', samples: ['dinner'] }], id))[0]!.samples).toEqual(['dinner'])
    expect(await client.categories.list(id)).toHaveLength(1)
    await client.categories.remove([cat!.id], id)
    expect(await client.categories.list(id)).toEqual([])

    const [ph] = await client.phrases.add([{ name: 'super clean', weight: 1.5 }], id)
    expect((await client.phrases.update([{ id: ph!.id, name: 'super clean', weight: -1 }], id))[0]!.weight).toBe(-1)
    expect(await client.phrases.list(id)).toHaveLength(1)
    await client.phrases.remove([ph!.id], id)

    const [ent] = await client.entities.add([{ name: 'Acme Hotels', type: 'Company', label: 'Brand' }], id)
    expect((await client.entities.update([{ id: ent!.id, name: 'Acme Hotels', type: 'Company', label: 'Chain' }], id))[0]!.label).toBe('Chain')
    expect(await client.entities.list(id)).toHaveLength(1)
    await client.entities.remove([ent!.id], id)

    const [bl] = await client.blacklist.add(['spam*'], id)
    expect(bl!.name).toBe('spam*')
    expect((await client.blacklist.update([{ id: bl!.id, name: 'junk*' }], id)).map((b) => b.name)).toEqual(['junk*'])
    expect((await client.blacklist.list(id)).map((b) => b.name)).toEqual(['junk*'])
    await client.blacklist.remove([bl!.id], id)
    expect(await client.blacklist.list(id)).toEqual([])

    const [tax] = await client.taxonomy.add([{ name: 'Hotel', nodes: [{ name: 'Leisure', topics: [{ id: q!.id, type: 'query' }] }] }], id)
    expect(tax!.name).toBe('Hotel')
    const node = tax!.nodes[0]!
    await client.taxonomy.update([{ id: node.id, enforce_parent_matching: true }], id)
    expect((await client.taxonomy.list(id))[0]!.nodes[0]).toMatchObject({ name: 'Leisure', enforce_parent_matching: true })
    await client.taxonomy.remove(id)
    expect(await client.taxonomy.list(id)).toEqual([])
    await client.queries.remove([q!.id], id)
    expect(await client.queries.list(id)).toEqual([])
    await client.configurations.remove([id])
  })

  it('reads subscription, features, statistics and status (E36-E39)', async () => {
    expect(await client.subscription()).toMatchObject({ name: 'client tests', status: 'active' })
    const features = await client.features('English')
    expect(features.map((f) => f.language)).toEqual(['English'])
    expect((await client.features()).length).toBeGreaterThanOrEqual(1)
    const [totals] = await client.statistics({ interval: 'Month' })
    expect(totals!.total_api_calls).toBeGreaterThan(0)
    expect(totals!.latest_used_app).toBe('textengine-client/js/1.0/json')
    const grouped = await client.statistics({ interval: 'day', group: 'app' })
    expect(grouped[0]!.values!.length).toBeGreaterThan(0)
    expect((await client.status()).supported_languages).toContain('English')
    expect(await client.request('GET', '/status')).toMatchObject({ api_version: '4.2' })
  })

  it('throws an ApiError with the status and the server message on 4xx', async () => {
    const err = await client.configurations.create([{ name: '', language: 'English' }]).catch((e: unknown) => e)
    expect(isApiError(err)).toBe(true)
    expect(err).toMatchObject({ status: 400, request: 'POST /configurations.json' })
    expect((err as ApiError).serverMessage).toMatch(/name/)
    const wrong = createClient({ baseUrl: 'http://127.0.0.1:8080', key: KEY, secret: 'not-the-secret', fetch: handler })
    await expect(wrong.status()).rejects.toMatchObject({ name: 'ApiError', status: 401, serverMessage: expect.stringMatching(/signature/) })
    const unsigned = createClient({ baseUrl: 'http://127.0.0.1:8080', fetch: handler })
    await expect(unsigned.status()).rejects.toMatchObject({ status: 401 })
  })

  it('sends unsigned requests to a handler in development mode', async () => {
    const dev = createClient({ baseUrl: 'http://127.0.0.1:8080', fetch: createHttpHandler(engine, { devAccount: KEY }) })
    expect((await dev.subscription()).name).toBe('client tests')
  })

  it('refuses half credentials and a base URL it cannot use', () => {
    expect(() => createClient({ baseUrl: 'http://h', key: KEY })).toThrow(/both key and secret/)
    expect(() => createClient({ baseUrl: 'not a url' })).toThrow(/absolute URL/)
    expect(() => createClient({ baseUrl: 'ftp://h' })).toThrow(/http/)
    expect(() => createClient({ baseUrl: 'http://h/?x=1' })).toThrow(/query/)
  })
})

describe('createClient over the network with the global fetch', () => {
  let server: Server
  let base: string
  beforeAll(async () => {
    server = createServer(toNodeListener(createHttpHandler(engine, { basePath: '/api' })))
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api`
  })
  afterAll(async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()))
  })

  it('signs over the real Host and undoes gzip transparently', async () => {
    const net = createClient({ baseUrl: base, key: KEY, secret: SECRET })
    // fetch sends Accept-Encoding: gzip and decodes the gzip answer before the client reads it.
    const raw = await fetch(`${base}/openapi.json`)
    expect(raw.headers.get('content-encoding')).toBe('gzip')
    const configurations = await net.configurations.list()
    expect(configurations.some((c) => c.is_primary)).toBe(true)
    await net.documents.queue({ id: 'net-1', text: 'A very long text about the friendly staff. '.repeat(10) })
    const doc = await until(() => net.documents.get('net-1'), (d) => d.status !== 'QUEUED')
    expect(doc.sentiment_polarity).toBe('positive')
    await net.documents.processed()
  })
})
