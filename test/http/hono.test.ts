import { Hono } from 'hono'
import { afterAll, describe, expect, it } from 'vitest'
import { signUrl } from '../../src/auth/signature.ts'
import { createEngine } from '../../src/engine/create-engine.ts'
import { createHttpHandler } from '../../src/http/handler.ts'
import { read } from './helpers.ts'

const engine = createEngine({ accounts: [{ key: 'consumer-key', secret: 'consumer-secret' }] })
afterAll(() => engine.close())

describe('mounted in a framework (Hono)', () => {
  it('serves the API under /api next to the app’s own routes', async () => {
    const api = createHttpHandler(engine, { basePath: '/api' })
    const app = new Hono()
    app.get('/', (c) => c.text('home'))
    app.all('/api/*', (c) => api(c.req.raw))

    const signed = (path: string): { url: string; authorization: string } =>
      signUrl(`http://example.test${path}`, 'consumer-key', 'consumer-secret', '12345', 1551274346000, { form: 'verifier', header: 'minimal' })
    const post = signed('/api/document.xml')
    const submitted = await read(await app.fetch(new Request(post.url, {
      method: 'POST',
      headers: { authorization: post.authorization },
      body: '<document><id>h1</id><text>Mounted under a prefix in Hono.</text></document>',
    })))
    expect(submitted.status, submitted.text).toBe(202)
    await engine.drain()
    const get = signed('/api/document/h1.json')
    const doc = await read(await app.fetch(new Request(get.url, { headers: { authorization: get.authorization } })))
    expect(doc.status).toBe(200)
    expect(doc.json).toMatchObject({ id: 'h1', status: 'PROCESSED' })
    expect(await (await app.fetch(new Request('http://example.test/'))).text()).toBe('home')
  })
})
