import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { request as httpsRequest } from 'node:https'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Redis } from 'ioredis'
import { afterAll, describe, expect, it } from 'vitest'
import { signUrl } from '../../src/auth/signature.ts'
import { loadServerConfig } from '../../src/server/config.ts'
import { runServer, serverOptionsFromConfig, startServer } from '../../src/server.ts'
import { send } from '../http/client.ts'
import { makeSelfSignedCert } from './tls.ts'
import { REDIS_URL, redisReachable } from '../helpers/redis.ts'

const dir = mkdtempSync(join(tmpdir(), 'textengine-server-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

/** A signed HTTPS GET that accepts the self-signed certificate. */
function httpsGet(port: number, path: string, key: string, secret: string): Promise<{ status: number; body: string; encrypted: boolean }> {
  const base = `https://localhost:${port}`
  const signed = signUrl(base + path, key, secret, '12345678901234567890', Math.floor(Date.now() / 1000))
  return new Promise((resolve, reject) => {
    const req = httpsRequest(
      { host: '127.0.0.1', port, path: signed.url.slice(base.length), method: 'GET', rejectUnauthorized: false, servername: 'localhost', headers: { host: `localhost:${port}`, authorization: signed.authorization } },
      (res) => {
        const encrypted = (res.socket as { encrypted?: boolean } | null)?.encrypted === true
        let body = ''
        res.on('data', (c: Buffer) => (body += c.toString('utf8')))
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body, encrypted }))
      },
    )
    req.on('error', reject)
    req.end()
  })
}

describe('startServer', () => {
  it('should serve HTTPS with the configured certificate and key', async () => {
    const { certFile, keyFile } = makeSelfSignedCert(dir, 'server')
    const config = loadServerConfig({ env: { TEXTENGINE_TLS_CERT: certFile, TEXTENGINE_TLS_KEY: keyFile, API_KEY: 'k', API_SECRET: 's', PORT: '0', HOST: '127.0.0.1', TEXTENGINE_LOG_FORMAT: 'json' } })
    const lines: string[] = []
    const running = await startServer(await serverOptionsFromConfig(config, (l) => lines.push(l)))
    try {
      expect(running.url).toBe(`https://127.0.0.1:${running.port}`)
      const r = await httpsGet(running.port, '/status.json', 'k', 's')
      expect(r).toMatchObject({ status: 200, encrypted: true })
      expect(JSON.parse(r.body)).toMatchObject({ service_status: 'available' })
      expect((await httpsGet(running.port, '/status.json', 'k', 'wrong')).status).toBe(401)
      // log_format json: one object per request
      expect(lines.map((l) => JSON.parse(l) as { method: string; path: string; status: number; account?: string })).toMatchObject([
        { method: 'GET', path: '/status.json', status: 200, account: 'k' },
        { method: 'GET', path: '/status.json', status: 401 },
      ])
    } finally {
      await running.shutdown()
    }
  })

  it('should refuse development mode off loopback', async () => {
    await expect(startServer({ apiKey: 'k', apiSecret: 's', dev: true, host: '0.0.0.0', port: 0 })).rejects.toThrow(
      'startServer: development mode (no signature checks) is refused on host "0.0.0.0"; use a loopback host: 127.0.0.1, ::1 or localhost',
    )
  })

  it('should serve unsigned requests as the first account in development mode on loopback, and CORS preflights', async () => {
    const running = await startServer({
      accounts: [{ key: 'first', secret: 's1', name: 'First' }, { key: 'second', secret: 's2' }],
      dev: true,
      port: 0,
      corsOrigins: ['http://localhost:5173'],
      logFormat: 'off',
      write: () => expect.unreachable('log_format off writes nothing'),
    })
    try {
      expect(running.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/)
      const sub = await fetch(`${running.url}/subscription.json`)
      expect(sub.status).toBe(200)
      expect(((await sub.json()) as { name: string }).name).toBe('First')
      const pre = await fetch(`${running.url}/subscription.json`, { method: 'OPTIONS', headers: { origin: 'http://localhost:5173', 'access-control-request-method': 'GET', 'access-control-request-headers': 'authorization' } })
      expect(pre.status).toBe(204)
      expect(pre.headers.get('access-control-allow-origin')).toBe('http://localhost:5173')
      expect(pre.headers.get('access-control-allow-headers')).toContain('Authorization')
    } finally {
      await running.shutdown()
    }
  })
})

describe('the playground beside the API', () => {
  it('should serve the page at / and the signed API on the same port, and nothing of the page when turned off', async () => {
    const on = await startServer({ apiKey: 'k', apiSecret: 's', host: '127.0.0.1', port: 0, logFormat: 'off' })
    try {
      const page = await fetch(`${on.url}/`)
      expect(page.status).toBe(200)
      expect(page.headers.get('content-type')).toContain('text/html')
      expect(await page.text()).toContain('<html')
      expect((await fetch(`${on.url}/app.js`)).headers.get('content-type')).toContain('javascript')
      expect((await send(on.port, 'GET', '/status.json', { key: 'k', secret: 's', timestamp: Date.now() })).status).toBe(200)
      expect((await fetch(`${on.url}/status.json`)).status).toBe(401)
      expect((await fetch(`${on.url}/app.js`, { method: 'POST' })).status).toBe(404)
    } finally {
      await on.shutdown()
    }
    const off = await startServer({ apiKey: 'k', apiSecret: 's', host: '127.0.0.1', port: 0, logFormat: 'off', playground: false })
    try {
      expect((await fetch(`${off.url}/`)).status).toBe(404)
      expect((await send(off.port, 'GET', '/status.json', { key: 'k', secret: 's', timestamp: Date.now() })).status).toBe(200)
    } finally {
      await off.shutdown()
    }
  })

  it('should be on by default in the configuration and off with TEXTENGINE_PLAYGROUND=0', () => {
    expect(loadServerConfig({ env: {} }).playground).toBe(true)
    expect(loadServerConfig({ env: { TEXTENGINE_PLAYGROUND: '0' } }).playground).toBe(false)
  })
})

describe('runServer (textengine serve)', () => {
  it('should print one line naming a bad setting and answer exit code 3, without listening', async () => {
    const out: string[] = []
    const err: string[] = []
    const code = await runServer([], { PORT: '99999' }, { out: (l) => out.push(l), err: (l) => err.push(l), onStop: () => expect.unreachable() })
    expect(code).toBe(3)
    expect(err).toEqual(['textengine serve: PORT (environment): "99999" is not allowed; expected an integer 0-65535 (0 picks a free port)'])
    expect(out).toEqual([])
    const file = join(dir, 'broken.json')
    writeFileSync(file, '{"port": 8080')
    err.length = 0
    expect(await runServer(['--config', file], {}, { out: (l) => out.push(l), err: (l) => err.push(l) })).toBe(3)
    expect(err[0]).toMatch(new RegExp(`^textengine serve: configuration file ${file.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}: the file is not valid JSON \\(`))
    expect(await runServer(['--nope'], {}, { out: (l) => out.push(l), err: (l) => err.push(l) })).toBe(2)
  })

  it('should print the development pair when nothing is given, serve it, and stop on a signal', async () => {
    const out: string[] = []
    let stop: ((signal: string) => void) | undefined
    const flags: string[] = []
    const done = runServer(['--host', '127.0.0.1', '--port', '0'], { DRAIN_TIMEOUT_MS: '2000' }, { out: (l) => out.push(l), err: (l) => out.push(l), onStop: (s) => (stop = s), setV8Flags: (f) => flags.push(f) })
    for (let i = 0; i < 200 && stop === undefined; i++) await new Promise((r) => setTimeout(r, 25))
    // The server's heap setting, once, before the engine loads (heap_growing_percent's default).
    expect(flags).toEqual(['--heap-growing-percent=15'])
    const text = out.join('\n')
    const key = /API_KEY=(\S+)/.exec(text)?.[1] ?? ''
    const secret = /API_SECRET=(\S+)/.exec(text)?.[1] ?? ''
    const port = Number(/listening on http:\/\/127\.0\.0\.1:(\d+)/.exec(text)?.[1])
    expect(key, text).toMatch(/^dev-/)
    expect((await send(port, 'GET', '/status.json', { key, secret, timestamp: Date.now() })).status).toBe(200)
    stop!('SIGTERM')
    expect(await done).toBe(0)
    expect(out.at(-1)).toMatch(/^queue drained/)
  })
})


const unreachable = await redisReachable()
// Locally a missing Redis skips this suite; in CI it must run (and fail loudly).
const redisSuite = unreachable !== undefined && process.env.CI === undefined ? describe.skip : describe

redisSuite(`REDIS_URL storage (${REDIS_URL}${unreachable === undefined ? '' : `, unreachable: ${unreachable}`})`, () => {
  it('should run the engine on Redis: settings and processed documents are kept there', async () => {
    const prefix = `textengine-server-test:${Date.now()}:`
    const config = loadServerConfig({ env: { REDIS_URL, TEXTENGINE_STORAGE_PREFIX: prefix, API_KEY: 'k', API_SECRET: 's', PORT: '0', HOST: '127.0.0.1' } })
    expect(config.storage).toBe(REDIS_URL)
    const running = await startServer(await serverOptionsFromConfig(config, () => {}))
    const client = new Redis(REDIS_URL)
    try {
      const o = { key: 'k', secret: 's', timestamp: Date.now() }
      expect((await send(running.port, 'POST', '/document.json', { ...o, body: '{"id":"r1","text":"Redis keeps this one."}' })).status).toBe(202)
      await running.engine.drain()
      const doc = await send(running.port, 'GET', '/document/r1.json', o)
      expect(doc.status).toBe(200)
      expect(doc.json).toMatchObject({ id: 'r1', status: 'PROCESSED' })
      expect(await client.hexists(`${prefix}status`, JSON.stringify(['k', 'document', (doc.json as { config_id: string }).config_id, 'r1']))).toBe(1)
    } finally {
      await running.shutdown()
      const keys = await client.keys(`${prefix}*`)
      if (keys.length > 0) await client.del(...keys)
      await client.quit()
    }
  })

  it('should stop with one line when Redis cannot be reached', async () => {
    const err: string[] = []
    expect(await runServer([], { REDIS_URL: 'redis://127.0.0.1:1' }, { out: () => {}, err: (l) => err.push(l) })).toBe(3)
    expect(err).toEqual(['textengine serve: storage: cannot reach Redis at redis://127.0.0.1:1 (connect ECONNREFUSED 127.0.0.1:1)'])
  })
})
