import { afterAll, describe, expect, it } from 'vitest'
import { createEngine } from '../../src/engine/create-engine.ts'
import { DEFAULT_BILLING_SETTINGS } from '../../src/engine/account.ts'
import { createHttpHandler } from '../../src/http/handler.ts'
import { loadServerConfig } from '../../src/server/config.ts'
import { ACCOUNTS, call, read } from '../http/helpers.ts'

const engine = createEngine({ accounts: ACCOUNTS.map((a) => ({ ...a })) })
afterAll(() => engine.close())

describe('development mode (handler option devAccount)', () => {
  it('should serve unsigned requests as the given account, and only when asked', async () => {
    const dev = createHttpHandler(engine, { devAccount: ACCOUNTS[0].key })
    const r = await read(await dev(new Request('http://127.0.0.1:8080/subscription.json')))
    expect(r.status).toBe(200)
    expect((r.json as { name: string }).name).toBe(ACCOUNTS[0].name)
    const signed = createHttpHandler(engine)
    const refused = await read(await signed(new Request('http://127.0.0.1:8080/subscription.json')))
    expect(refused.status).toBe(401)
  })

  it('should refuse a devAccount the engine does not serve', () => {
    expect(() => createHttpHandler(engine, { devAccount: 'nobody' })).toThrow(/options\.devAccount must be the key of an account of the engine, found "nobody"/)
  })
})

describe('CORS (handler option corsOrigins)', () => {
  const handler = createHttpHandler(engine, { corsOrigins: ['https://app.example.com'] })
  const preflight = (h: typeof handler, origin: string, path = '/document.json'): Promise<Response> =>
    h(new Request(`http://127.0.0.1:8080${path}`, { method: 'OPTIONS', headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization, content-type' } }))

  it('should answer a preflight from an allowed origin with the methods of the route and the headers incl. Authorization', async () => {
    const r = await preflight(handler, 'https://app.example.com')
    expect(r.status).toBe(204)
    expect(r.headers.get('access-control-allow-origin')).toBe('https://app.example.com')
    expect(r.headers.get('access-control-allow-methods')).toBe('POST')
    expect(r.headers.get('access-control-allow-headers')).toContain('Authorization')
    expect(r.headers.get('access-control-allow-headers')).toContain('Content-Type')
    expect(r.headers.get('vary')).toBe('Origin')
    const config = await preflight(handler, 'https://app.example.com', '/configurations.json')
    expect(config.headers.get('access-control-allow-methods')).toBe('GET, POST, PUT, DELETE')
  })

  it('should add Access-Control-Allow-Origin to signed answers for an allowed origin, errors included', async () => {
    const ok = await call(handler, 'GET', '/status.json', { headers: { origin: 'https://app.example.com', 'accept-encoding': 'gzip' } })
    expect(ok.status).toBe(200)
    expect(ok.headers.get('access-control-allow-origin')).toBe('https://app.example.com')
    expect(ok.headers.get('vary')).toBe('Accept-Encoding, Origin')
    const bad = await call(handler, 'GET', '/status.json', { headers: { origin: 'https://app.example.com' }, account: { key: ACCOUNTS[0].key, secret: 'wrong' } })
    expect(bad.status).toBe(401)
    expect(bad.headers.get('access-control-allow-origin')).toBe('https://app.example.com')
    const other = await call(handler, 'GET', '/status.json', { headers: { origin: 'https://evil.example' } })
    expect(other.headers.get('access-control-allow-origin')).toBeNull()
  })

  it('should refuse a preflight from another origin, and answer any origin with "*"', async () => {
    const r = await read(await preflight(handler, 'https://evil.example'))
    expect(r.status).toBe(403)
    expect(r.json).toEqual({ status: 403, message: 'origin "https://evil.example" may not call this API from a browser (allowed origins: https://app.example.com)' })
    const any = await preflight(createHttpHandler(engine, { corsOrigins: ['*'] }), 'https://evil.example')
    expect(any.status).toBe(204)
    expect(any.headers.get('access-control-allow-origin')).toBe('*')
  })

  it('should add nothing when no origins are configured (OPTIONS then only lists the methods)', async () => {
    const r = await preflight(createHttpHandler(engine), 'https://app.example.com')
    expect(r.status).toBe(204)
    expect(r.headers.get('allow')).toBe('POST, OPTIONS')
    const cors: string[] = []
    r.headers.forEach((_, name) => {
      if (name.startsWith('access-control-')) cors.push(name)
    })
    expect(cors).toEqual([])
  })

  it('should refuse origins with a path', () => {
    expect(() => createHttpHandler(engine, { corsOrigins: ['https://app.example.com/'] })).toThrow(/options\.corsOrigins must be an array of origins/)
  })
})

describe('call limits', () => {
  it('should not limit the default account and report every billing field as an integer', async () => {
    const e = createEngine({ accounts: [{ key: 'k', secret: 's' }] })
    const h = createHttpHandler(e)
    const account = { key: 'k', secret: 's' }
    for (let i = 0; i < 60; i++) expect((await call(h, 'GET', '/configurations.json', { account })).status).toBe(200)
    const sub = (await call(h, 'GET', '/subscription.json', { account })).json as { billing_settings: Record<string, unknown>; basic_settings: Record<string, unknown> }
    expect(sub.billing_settings).toMatchObject({ data_calls_limit: 0, settings_calls_limit: 0, polling_calls_limit: 0 })
    for (const [k, v] of Object.entries(sub.billing_settings)) if (k !== 'limit_type') expect(Number.isInteger(v), k).toBe(true)
    expect(Object.keys(sub.billing_settings).sort()).toEqual(Object.keys(DEFAULT_BILLING_SETTINGS).sort())
    await e.close()
  })

  it('should enforce limits set in the server configuration, naming the setting that raises them', async () => {
    const config = loadServerConfig({ env: { API_KEY: 'k', API_SECRET: 's', TEXTENGINE_SUBSCRIPTION: '{"billing_settings":{"settings_calls_limit":2,"settings_calls_interval":60}}' } })
    const e = createEngine({ accounts: config.accounts })
    const h = createHttpHandler(e)
    const account = { key: 'k', secret: 's' }
    expect((await call(h, 'GET', '/configurations.json', { account })).status).toBe(200)
    expect((await call(h, 'GET', '/configurations.json', { account })).status).toBe(200)
    const over = await call(h, 'GET', '/configurations.json', { account })
    expect(over.status).toBe(402)
    expect(over.json).toEqual({
      status: 402,
      message: 'settings API calls limit exceeded: at most 2 calls per 60 s; raise billing_settings.settings_calls_limit of the account in the server configuration (0 for none)',
    })
    // Other classes keep the default: unlimited.
    for (let i = 0; i < 20; i++) expect((await call(h, 'GET', '/document/processed.json', { account })).status).toBe(202)
    await e.close()
  })
})
