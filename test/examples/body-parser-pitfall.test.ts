import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import express from 'express'
import Fastify from 'fastify'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { signUrl } from '../../src/auth/signature.ts'
import { createEngine } from '../../src/engine/create-engine.ts'
import type { Engine } from '../../src/engine/types.ts'
import { createHttpHandler, toNodeListener, type NodeListener } from '../../src/http/index.ts'

// Issue 11 item 7: a body parser mounted before the handler reads the request stream first. The routes that read
// a body then answer 500 naming the cause and the fix (they used to fail inside undici with "Response body object
// should not be disturbed or locked"); routes without a body, and bodies the parser left alone, still work.

const KEY = 'pitfall-key'
const SECRET = 'pitfall-secret'

let engine: Engine
let api: NodeListener
const closers: (() => Promise<void>)[] = []

beforeEach(() => {
  engine = createEngine({ accounts: [{ key: KEY, secret: SECRET }] })
  api = toNodeListener(createHttpHandler(engine, { basePath: '/api' }))
})
afterEach(async () => {
  for (const close of closers.splice(0)) await close()
  await engine.close()
})

async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  closers.push(() => new Promise<void>((resolve) => server.close(() => resolve())))
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`
}

let nonce = 0

async function signed(method: string, url: string, body?: string, contentType = 'application/json'): Promise<{ status: number; json: { status?: number; message?: string } | undefined }> {
  const s = signUrl(url, KEY, SECRET, String(++nonce), 1551274346)
  const response = await fetch(s.url, {
    method,
    headers: { authorization: s.authorization, ...(body === undefined ? {} : { 'content-type': contentType }) },
    ...(body === undefined ? {} : { body }),
  })
  const text = await response.text()
  return { status: response.status, json: text === '' ? undefined : (JSON.parse(text) as { status?: number; message?: string }) }
}

const DOCUMENT = JSON.stringify({ id: 'd1', text: 'A body parser got here first.' })

function expectPitfall(answer: { status: number; json: { status?: number; message?: string } | undefined }): void {
  expect(answer.status).toBe(500)
  expect(answer.json?.status).toBe(500)
  expect(answer.json?.message).toContain('a body parser read the request body before the textengine handler')
  expect(answer.json?.message).toContain('mount the handler before express.json()')
  expect(answer.json?.message).toContain('reply.hijack()')
}

describe('a request body read before the handler', () => {
  it('Express: express.json() mounted first makes body routes answer 500 with the cause and the fix', async () => {
    const app = express()
    app.use(express.json())
    app.use('/api', api)
    const base = await listen(createServer(app))
    const answer = await signed('POST', `${base}/api/document.json`, DOCUMENT)
    expectPitfall(answer)
    expect(answer.json?.message).toContain('(req.body is already set)')
    // Routes without a body, and a body express.json() did not parse (another Content-Type), still work.
    expect((await signed('GET', `${base}/api/status.json`)).status).toBe(200)
    expect((await signed('POST', `${base}/api/document.json`, DOCUMENT, 'application/x-www-form-urlencoded')).status).toBe(202)
  })

  it('Express: the handler mounted before express.json() reads the JSON body', async () => {
    const app = express()
    app.use('/api', api)
    app.use(express.json())
    const base = await listen(createServer(app))
    expect((await signed('POST', `${base}/api/document.json`, DOCUMENT)).status).toBe(202)
  })

  it('node:http: a stream the application read to its end makes body routes answer 500; a declared empty body is served', async () => {
    const base = await listen(
      createServer((req, res) => {
        req.resume()
        req.once('end', () => api(req, res))
      }),
    )
    const answer = await signed('POST', `${base}/api/document.json`, DOCUMENT)
    expectPitfall(answer)
    expect(answer.json?.message).not.toContain('req.body')
    // Content-Length: 0 lost nothing: DELETE /taxonomy takes no body.
    expect((await signed('DELETE', `${base}/api/taxonomy.json`)).status).toBe(202)
  })

  it('Fastify: a route handler (body parsed by Fastify) fails with the message; the onRequest hook with reply.hijack() works', async () => {
    const parsed = Fastify()
    parsed.all('/api/*', (request, reply) => {
      reply.hijack()
      api(request.raw, reply.raw)
    })
    await parsed.listen({ port: 0, host: '127.0.0.1' })
    closers.push(() => parsed.close())
    const base = `http://127.0.0.1:${(parsed.server.address() as AddressInfo).port}`
    expectPitfall(await signed('POST', `${base}/api/document.json`, DOCUMENT))

    const hooked = Fastify()
    hooked.addHook('onRequest', (request, reply, done) => {
      if (!(request.raw.url ?? '').startsWith('/api/')) return done()
      reply.hijack()
      api(request.raw, reply.raw)
    })
    await hooked.listen({ port: 0, host: '127.0.0.1' })
    closers.push(() => hooked.close())
    const hookedBase = `http://127.0.0.1:${(hooked.server.address() as AddressInfo).port}`
    expect((await signed('POST', `${hookedBase}/api/document.json`, DOCUMENT)).status).toBe(202)
  })
})
