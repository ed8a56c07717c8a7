import { spawn } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { send } from './client.ts'

const root = fileURLToPath(new URL('../..', import.meta.url))

describe('npm start (src/server.ts as a process)', () => {
  it('prints a development key pair when none is given, serves, and exits cleanly on SIGTERM', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/server.ts'], {
      cwd: root,
      env: { ...process.env, PORT: '0', HOST: '127.0.0.1', API_KEY: '', API_SECRET: '', DRAIN_TIMEOUT_MS: '30000' },
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let out = ''
    child.stdout.on('data', (c: Buffer) => (out += c.toString('utf8')))
    child.stderr.on('data', (c: Buffer) => (out += c.toString('utf8')))
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)))
    try {
      for (let i = 0; i < 600 && !/listening on http:\/\/\S+:(\d+)/.test(out); i++) await new Promise((r) => setTimeout(r, 50))
      const port = Number(/listening on http:\/\/\S+:(\d+)/.exec(out)?.[1])
      const key = /API_KEY=(\S+)/.exec(out)?.[1] ?? ''
      const secret = /API_SECRET=(\S+)/.exec(out)?.[1] ?? ''
      expect(key).toMatch(/^dev-/)
      const r = await send(port, 'POST', '/document.json', { key, secret, timestamp: Date.now(), body: '{"id":"p1","text":"Finish me before exiting."}' })
      expect(r.status, out).toBe(202)
      expect(out).toMatch(/POST \/document\.json 202 /)
      // The first analysis loads the models (seconds on a loaded machine): the drain timeout leaves room for it.
      child.kill('SIGTERM')
      expect(await exited).toBe(0)
      expect(out).toContain('SIGTERM: no longer accepting connections')
      expect(out).toMatch(/queue drained/)
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL')
    }
  })
})
