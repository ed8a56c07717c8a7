import { request } from 'node:http'
import { connect } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { signUrl } from '../../src/auth/signature.ts'
import { loadServerConfig } from '../../src/server/config.ts'
import { startServer, type RunningServer } from '../../src/server.ts'
import { send } from '../http/client.ts'

// Issue 18 findings that need a real socket: the standalone server's defaults (replay window), Expect:
// 100-continue, node's own parse errors, aborted uploads.

const KEY = 'k'
const SECRET = 's'
let running: RunningServer
const lines: string[] = []

beforeAll(async () => {
  running = await startServer({ port: 0, host: '127.0.0.1', apiKey: KEY, apiSecret: SECRET, write: (l) => lines.push(l), playground: false })
})
afterAll(async () => {
  await running.shutdown()
})

/** Send raw bytes and collect the answer until the server closes or `ms` pass. */
function raw(bytes: string, ms = 1500): Promise<string> {
  return new Promise((resolve) => {
    const socket = connect(running.port, '127.0.0.1')
    let out = ''
    socket.on('data', (c: Buffer) => (out += c.toString('latin1')))
    socket.on('close', () => resolve(out))
    socket.on('error', () => resolve(out))
    socket.write(bytes)
    setTimeout(() => {
      socket.destroy()
      resolve(out)
    }, ms)
  })
}

/** One signed request sent twice, byte for byte (a captured request replayed). */
function sendSigned(path: string, signed: { url: string; authorization: string }, base: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port: running.port, path: signed.url.slice(base.length), method: 'GET', headers: { authorization: signed.authorization } }, (res) => {
      let body = ''
      res.on('data', (c: Buffer) => (body += c.toString('utf8')))
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }))
    })
    req.on('error', reject)
    req.end()
  })
}

describe('the standalone server refuses replays by default', () => {
  it('refuses timestamps from 2019 and "abc" with 401 and a message, accepts the current time (seconds and milliseconds)', async () => {
    const old = await send(running.port, 'GET', '/status.json', { key: KEY, secret: SECRET, timestamp: 1551274346 })
    expect(old.status).toBe(401)
    expect((old.json as { message: string }).message).toMatch(/oauth_timestamp 1551274346 .* more than 900 seconds away from the server clock/)
    const abc = await send(running.port, 'GET', '/status.json', { key: KEY, secret: SECRET, timestamp: 'abc' })
    expect(abc.status).toBe(401)
    expect((abc.json as { message: string }).message).toMatch(/"abc" is not a number/)
    expect((await send(running.port, 'GET', '/status.json', { key: KEY, secret: SECRET, timestamp: Math.floor(Date.now() / 1000) })).status).toBe(200)
    expect((await send(running.port, 'GET', '/status.json', { key: KEY, secret: SECRET, timestamp: Date.now(), form: 'verifier', header: 'minimal' })).status).toBe(200)
  })

  it('refuses the same signed request a second time', async () => {
    const base = `http://127.0.0.1:${running.port}`
    const signed = signUrl(`${base}/subscription.json`, KEY, SECRET, '31415926535897932384', Math.floor(Date.now() / 1000))
    expect((await sendSigned('/subscription.json', signed, base)).status).toBe(200)
    const again = await sendSigned('/subscription.json', signed, base)
    expect(again.status).toBe(401)
    expect(again.body).toMatch(/already received/)
  })

  it('answers an unknown key and a wrong secret alike', async () => {
    const now = Math.floor(Date.now() / 1000)
    const unknown = await send(running.port, 'GET', '/status.json', { key: 'nobody', secret: SECRET, timestamp: now })
    const wrong = await send(running.port, 'GET', '/status.json', { key: KEY, secret: 'wrong', timestamp: now })
    expect(unknown.status).toBe(401)
    expect(wrong.status).toBe(401)
    expect(unknown.text).toBe(wrong.text)
  })

  it('can be turned off (replay_window_seconds 0)', async () => {
    const config = loadServerConfig({ env: { API_KEY: KEY, API_SECRET: SECRET, PORT: '0', HOST: '127.0.0.1', TEXTENGINE_REPLAY_WINDOW_SECONDS: '0', TEXTENGINE_LOG_FORMAT: 'off' } })
    expect(config.replayWindowSeconds).toBe(0)
    const off = await startServer({ port: 0, host: '127.0.0.1', apiKey: KEY, apiSecret: SECRET, replayWindowSeconds: config.replayWindowSeconds, logFormat: 'off', playground: false })
    try {
      expect((await send(off.port, 'GET', '/status.json', { key: KEY, secret: SECRET, timestamp: 1551274346 })).status).toBe(200)
    } finally {
      await off.shutdown()
    }
  })
})

describe('Expect: 100-continue', () => {
  it('sends 100 Continue only after the signature passed', async () => {
    const now = Date.now()
    const refused = await send(running.port, 'POST', '/document.json', { key: KEY, secret: 'wrong', timestamp: now, body: '{"id":"c1","text":"Nice."}', expectContinue: true })
    expect(refused.status).toBe(401)
    expect(refused.continued).toBe(false)
    const accepted = await send(running.port, 'POST', '/document.json', { key: KEY, secret: SECRET, timestamp: now, body: '{"id":"c2","text":"Nice."}', expectContinue: true })
    expect(accepted.status).toBe(202)
    expect(accepted.continued).toBe(true)
  })
})

describe("node's own parse errors get a JSON body", () => {
  it('answers oversized headers 431 with a body', async () => {
    const answer = await raw(`GET /status.json HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`)
    expect(answer).toMatch(/^HTTP\/1\.1 431 /)
    const body = answer.slice(answer.indexOf('\r\n\r\n') + 4)
    expect(JSON.parse(body)).toMatchObject({ status: 431, message: expect.stringMatching(/headers are larger/) as unknown })
  })

  it('answers a malformed request 400 with a body', async () => {
    const answer = await raw('THIS IS NOT HTTP\r\n\r\n')
    expect(answer).toMatch(/^HTTP\/1\.1 400 /)
    const body = answer.slice(answer.indexOf('\r\n\r\n') + 4)
    expect(JSON.parse(body)).toMatchObject({ status: 400, message: expect.stringMatching(/not valid HTTP/) as unknown })
  })
})

describe('an aborted upload', () => {
  it('is not logged as a 500 (nor at all)', async () => {
    const base = `http://127.0.0.1:${running.port}`
    const signed = signUrl(`${base}/document/batch.json`, KEY, SECRET, '27182818284590452353', Math.floor(Date.now() / 1000))
    const before = lines.length
    await new Promise<void>((resolve) => {
      const socket = connect(running.port, '127.0.0.1', () => {
        socket.write(`POST ${signed.url.slice(base.length)} HTTP/1.1\r\nHost: 127.0.0.1:${running.port}\r\nAuthorization: ${signed.authorization}\r\nContent-Length: 100000\r\n\r\n[{"id":"a","text":"`)
        setTimeout(() => {
          socket.destroy()
          resolve()
        }, 200)
      })
    })
    await new Promise((r) => setTimeout(r, 300))
    const logged = lines.slice(before).filter((l) => l.includes('/document/batch.json'))
    expect(logged).toEqual([])
    expect(lines.some((l) => / 500 /.test(l))).toBe(false)
  })
})

describe('callbacks from the standalone server', () => {
  it('delivers to a loopback receiver only when callback_allow lists it', async () => {
    const received: string[] = []
    const { createServer } = await import('node:http')
    const hook = createServer((req, res) => {
      let body = ''
      req.on('data', (c: Buffer) => (body += c.toString('utf8')))
      req.on('end', () => {
        received.push(body)
        res.end()
      })
    })
    await new Promise<void>((r) => hook.listen(0, '127.0.0.1', () => r()))
    const hookUrl = `http://127.0.0.1:${(hook.address() as { port: number }).port}/hook`
    const run = async (allow: string[]): Promise<number> => {
      const logs: string[] = []
      const server = await startServer({ port: 0, host: '127.0.0.1', apiKey: KEY, apiSecret: SECRET, playground: false, write: (l) => logs.push(l), callbackAddresses: { allow } })
      try {
        const o = { key: KEY, secret: SECRET, timestamp: Date.now() }
        const created = await send(server.port, 'POST', '/configurations.json', { ...o, body: JSON.stringify([{ name: 'hooked', language: 'English', callback: hookUrl }]) })
        const id = (created.json as { id: string }[])[0]!.id
        expect((await send(server.port, 'POST', `/document.json?config_id=${id}`, { ...o, body: '{"id":"cb","text":"Nice room."}' })).status).toBe(202)
        await server.engine.drain()
        await server.delivery.flush()
        if (allow.length === 0) expect(logs.join('\n')).toMatch(/callback http:\/\/127\.0\.0\.1:\d+\/hook 1 items attempt 1 gave-up .*callback_allow/)
        return server.delivery.dropped()
      } finally {
        await server.shutdown()
      }
    }
    try {
      expect(await run([])).toBe(1)
      expect(received).toEqual([])
      expect(await run(['127.0.0.1/32'])).toBe(0)
      expect(received).toHaveLength(1)
      expect(JSON.parse(received[0]!)).toMatchObject([{ id: 'cb', status: 'PROCESSED' }])
    } finally {
      await new Promise<void>((r) => hook.close(() => r()))
    }
  })
})
