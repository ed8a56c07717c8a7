import { execFileSync, spawn, type ChildProcess } from 'node:child_process'
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterEach, beforeAll, describe, expect, it } from 'vitest'
import { signUrl } from '../../src/auth/signature.ts'

// Issue 11 item 7: each file in examples/ is run as a user runs it (`node examples/x.mjs`, PORT=0), importing
// 'textengine' and 'textengine/http' through the package's own `exports` (Node's package self-reference). While
// `exports` points at the TypeScript sources, the examples run under `node --import tsx`; once it points at a
// build (dist/), the build is made when missing and the examples run under plain node.

const ROOT = fileURLToPath(new URL('../..', import.meta.url))
const KEY = 'example-key'
const SECRET = 'example-secret'

/** The file an `exports` entry leads to under Node's `import` condition. */
function exportTarget(entry: unknown): string {
  if (typeof entry === 'string') return entry
  if (typeof entry === 'object' && entry !== null) {
    const o = entry as Record<string, unknown>
    for (const condition of ['import', 'node', 'default']) if (o[condition] !== undefined) return exportTarget(o[condition])
  }
  throw new Error(`package.json exports["."] has no import/node/default target: ${JSON.stringify(entry)}`)
}

const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { exports: Record<string, unknown> }
const mainTarget = exportTarget(pkg.exports['.'])
const fromSource = mainTarget.endsWith('.ts')
const NODE_ARGS = fromSource ? ['--import', 'tsx'] : []

beforeAll(() => {
  if (!fromSource && !existsSync(join(ROOT, mainTarget))) {
    execFileSync('npm', ['run', 'build'], { cwd: ROOT, stdio: 'pipe' })
  }
  expect(existsSync(join(ROOT, mainTarget)), `${mainTarget} (package.json exports ".")`).toBe(true)
}, 300_000)

interface Running {
  readonly child: ChildProcess
  /** `http://127.0.0.1:PORT`, from the example's `listening on …/api` line. */
  readonly origin: string
  readonly output: () => string
}

const running: ChildProcess[] = []

afterEach(() => {
  for (const child of running.splice(0)) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL')
})

/** Start an example on port 0 and wait for its `listening on` line. */
async function start(file: string): Promise<Running> {
  const child = spawn(process.execPath, [...NODE_ARGS, join('examples', file)], {
    cwd: ROOT,
    env: { ...process.env, PORT: '0', API_KEY: KEY, API_SECRET: SECRET },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  running.push(child)
  let output = ''
  child.stdout!.on('data', (d: Buffer) => (output += d.toString('utf8')))
  child.stderr!.on('data', (d: Buffer) => (output += d.toString('utf8')))
  const origin = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${file} did not start within 60 s:\n${output}`)), 60_000)
    const check = (): void => {
      const m = /listening on (http:\/\/127\.0\.0\.1:\d+)\/api/.exec(output)
      if (m !== null) {
        clearTimeout(timer)
        resolve(m[1]!)
      }
    }
    child.stdout!.on('data', check)
    child.once('exit', (code) => {
      clearTimeout(timer)
      reject(new Error(`${file} exited with ${String(code)} before listening:\n${output}`))
    })
  })
  return { child, origin, output: () => output }
}

let nonce = 0

/** A request signed as the SDKs sign it, with the JSON Content-Type some SDKs send (which body parsers act on). */
async function signed(method: string, url: string, body?: unknown): Promise<Response> {
  const s = signUrl(url, KEY, SECRET, String(++nonce), Math.floor(Date.now() / 1000))
  return fetch(s.url, {
    method,
    headers: { authorization: s.authorization, 'x-app-name': 'examples-test', ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  })
}

/** Stop an example with SIGTERM; it closes its server and engine and exits 0. */
async function stop(r: Running): Promise<void> {
  const exited = new Promise<number | null>((resolve) => r.child.once('exit', (code) => resolve(code)))
  r.child.kill('SIGTERM')
  const code = await Promise.race([exited, new Promise<'timeout'>((resolve) => setTimeout(() => resolve('timeout'), 20_000))])
  expect(code, `exit after SIGTERM:\n${r.output()}`).toBe(0)
}

describe.each(['node-http.mjs', 'express.mjs', 'fastify.mjs', 'hono.mjs'])('examples/%s', (file) => {
  it('serves signed requests under /api, a JSON body included, beside the app’s own page, and stops on SIGTERM', async () => {
    const r = await start(file)
    const status = await signed('GET', `${r.origin}/api/status.json`)
    expect(status.status).toBe(200)
    expect(await status.json()).toMatchObject({ service_status: 'available', api_version: '4.2' })

    // A POST with Content-Type: application/json reaches the handler with its body unread.
    const id = `example-${file}`
    const submitted = await signed('POST', `${r.origin}/api/document.json`, { id, text: 'The examples mount the handler before any body parser.' })
    expect(submitted.status, await submitted.clone().text()).toBe(202)
    const doc = await signed('GET', `${r.origin}/api/document/${encodeURIComponent(id)}.json`)
    expect(doc.status).toBe(200)
    expect(await doc.json()).toMatchObject({ id })

    const unsigned = await fetch(`${r.origin}/api/status.json`)
    expect(unsigned.status).toBe(401)
    const home = await fetch(`${r.origin}/`)
    expect(home.status).toBe(200)
    expect(await home.text()).toBe('home')
    await stop(r)
  })
})
