import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createEngine } from '../../src/engine/create-engine.ts'
import type { Engine } from '../../src/engine/types.ts'
import { createHttpHandler } from '../../src/http/handler.ts'
import { toNodeListener } from '../../src/http/node.ts'
import { send, type SendOptions } from './client.ts'

const KEY = 'consumer-key'
const SECRET = 'consumer-secret'
const TEXTS = [
  'The hotel staff were wonderful and the room was spotless.',
  'Breakfast was cold and the coffee tasted awful.',
  'Great location near the station, but the wifi kept dropping.',
  'I would not recommend this place to anyone.',
  'The pool was lovely and the staff friendly.',
  // One client mangles emoji into literal escapes; the text must simply go through.
  'Loved it %F0%9F%98%80 and \u{1F600} both',
]

let engine: Engine
let server: Server
let port: number

function listen(s: Server): Promise<number> {
  return new Promise((resolve) => s.listen(0, '127.0.0.1', () => resolve((s.address() as AddressInfo).port)))
}

beforeAll(async () => {
  engine = createEngine({
    accounts: [{ key: KEY, secret: SECRET, subscription: { billing_settings: { data_calls_limit: 0, polling_calls_limit: 0, settings_calls_limit: 0 } } }],
  })
  server = createServer(toNodeListener(createHttpHandler(engine, { maxBodyBytes: 512 * 1024 })))
  port = await listen(server)
})
afterAll(async () => {
  await new Promise<void>((r) => server.close(() => r()))
  await engine.close()
})

const seconds: SendOptions = { key: KEY, secret: SECRET, timestamp: 1551274346 }
const millis: SendOptions = { key: KEY, secret: SECRET, timestamp: Date.now(), family: 'uri-component', header: 'unquoted' }
const verifier: SendOptions = { key: KEY, secret: SECRET, timestamp: Math.floor(Date.now() / 1000), form: 'verifier', header: 'minimal' }
const verifierEscaped: SendOptions = { key: KEY, secret: SECRET, timestamp: Date.now(), form: 'verifier-escaped', header: 'minimal', family: 'java' }

/** Poll until `count` items were retrieved, as client programs do (202 means none ready yet). */
async function pollAll(path: string, count: number, o: SendOptions): Promise<{ id: string; status: string }[]> {
  const got: { id: string; status: string }[] = []
  for (let i = 0; i < 200 && got.length < count; i++) {
    const r = await send(port, 'GET', path, o)
    if (r.status === 200) got.push(...(r.json as { id: string; status: string }[]))
    else {
      expect(r.status).toBe(202)
      expect(r.text).toBe('')
      await new Promise((res) => setTimeout(res, 50))
    }
  }
  return got
}

describe('over a real socket', () => {
  it('drives a Detailed round trip: batch submit, then polling the processed queue', async () => {
    const status = await send(port, 'GET', '/status.json', seconds)
    expect(status.status).toBe(200)
    expect(status.headers['content-encoding']).toBe('gzip')
    const docs = TEXTS.map((text, i) => ({ id: `doc ${i}/x`, text, tag: 'wire' }))
    const submit = await send(port, 'POST', '/document/batch.json', { ...verifierEscaped, body: JSON.stringify(docs), headers: { 'content-type': 'application/x-www-form-urlencoded' } })
    expect(submit.status, submit.text).toBe(202)
    expect(submit.headers['content-length']).toBe('0')
    const one = await send(port, 'GET', `/document/${encodeURIComponent('doc 0/x')}.json`, millis)
    expect(one.status).toBe(200)
    const got = await pollAll('/document/processed.json', TEXTS.length, verifier)
    expect(got.map((d) => d.id).sort()).toEqual(docs.map((d) => d.id).sort())
    expect(got.every((d) => d.status === 'PROCESSED')).toBe(true)
    expect((await send(port, 'GET', '/document/processed.json', seconds)).status).toBe(202)
  })

  it('drives a Discovery round trip: collection submit, then polling processed collections in XML', async () => {
    const submit = await send(port, 'POST', '/collection.json', { ...millis, body: JSON.stringify({ id: 'reviews', documents: TEXTS }), expectContinue: true })
    expect(submit.status, submit.text).toBe(202)
    expect(submit.continued).toBe(true)
    let xml = ''
    for (let i = 0; i < 200 && xml === ''; i++) {
      const r = await send(port, 'GET', '/collection/processed.xml', verifier)
      if (r.status === 200) xml = r.text
      else await new Promise((res) => setTimeout(res, 50))
    }
    expect(xml).toMatch(/^<\?xml[^>]*\?><collections><collection><id>reviews<\/id>/)
    expect(xml).toContain('<status>PROCESSED</status>')
  })

  it('answers 401 with a body to a client with the wrong secret, and 413 to an oversize chunked body', async () => {
    const bad = await send(port, 'GET', '/status.json', { ...seconds, secret: 'wrong' })
    expect(bad.status).toBe(401)
    expect(bad.json).toMatchObject({ status: 401 })
    const big = await send(port, 'POST', '/document/batch.json', {
      ...seconds,
      body: JSON.stringify([{ id: 'x', text: 'y'.repeat(600 * 1024) }]),
      headers: { 'transfer-encoding': 'chunked' },
    })
    expect(big.status).toBe(413)
    expect(big.text.length).toBeGreaterThan(0)
    // The connection and the server are still fine afterwards.
    expect((await send(port, 'GET', '/status.xml', seconds)).status).toBe(200)
  })
})

describe('mounting under a path prefix', () => {
  it('serves /api in plain node:http beside other routes, signing the full URL', async () => {
    const api = toNodeListener(createHttpHandler(engine, { basePath: '/api' }))
    const app = createServer((req, res) => {
      if (req.url?.startsWith('/api/')) return api(req, res)
      res.writeHead(200, { 'content-type': 'text/plain' }).end('home')
    })
    const p = await listen(app)
    try {
      const r = await send(p, 'GET', '/api/status.json', seconds)
      expect(r.status).toBe(200)
      expect(r.json).toMatchObject({ api_version: '4.2' })
      expect((await send(p, 'GET', '/other', seconds)).text).toBe('home')
    } finally {
      await new Promise<void>((r) => app.close(() => r()))
    }
  })

  it('works as Express/Connect-style middleware: the mount path is stripped from req.url, originalUrl is signed, unknown paths go to next()', async () => {
    const middleware = toNodeListener(createHttpHandler(engine, { basePath: '/v4' }))
    // The way Express's app.use('/v4', middleware) calls a middleware: req.url without the mount path,
    // req.originalUrl with it, and a next() for whatever the middleware does not serve.
    const app = createServer((req, res) => {
      const original = req.url ?? '/'
      if (!original.startsWith('/v4/')) return void res.writeHead(404).end('not mounted')
      Object.assign(req, { originalUrl: original, url: original.slice('/v4'.length) })
      middleware(req, res, () => res.writeHead(200, { 'content-type': 'text/plain' }).end('next handler'))
    })
    const p = await listen(app)
    try {
      const r = await send(p, 'POST', '/v4/document.json', { ...verifier, body: JSON.stringify({ id: 'mw-1', text: 'Mounted as middleware.' }) })
      expect(r.status, r.text).toBe(202)
      expect((await send(p, 'GET', '/v4/document/mw-1.json', seconds)).status).toBe(200)
      expect((await send(p, 'GET', '/v4/not-an-endpoint', seconds)).text).toBe('next handler')
    } finally {
      await new Promise<void>((r) => app.close(() => r()))
    }
  })
})
