import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildBrowserClient } from '../../scripts/build-browser.mjs'
import { createEngine } from '../../src/engine/create-engine.ts'
import type { Engine } from '../../src/engine/types.ts'
import { createPlayground } from '../../src/http/playground.ts'
import { composeHandler } from './helpers.ts'

let dir: string
let bundle: string

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'playground-'))
  bundle = (await buildBrowserClient({ outfile: join(dir, 'client.js') })).outfile
})
afterAll(async () => {
  await rm(dir, { recursive: true, force: true })
})

const get = (path: string, method = 'GET'): Request => new Request('http://127.0.0.1:8080' + path, { method })

describe('scripts/build-browser.mjs', () => {
  it('bundles the client into one deterministic ES module without Node built-ins', async () => {
    const again = await buildBrowserClient({ outfile: join(dir, 'again.js') })
    const [a, b] = await Promise.all([readFile(bundle), readFile(again.outfile)])
    expect(a.equals(b)).toBe(true)
    expect(again.bytes).toBe(b.byteLength)
    const text = a.toString('utf8')
    expect(text).not.toMatch(/\bnode:|require\(/)
    expect(text).not.toContain(process.cwd())
  })

  it('exports the real signer and client: the bundle reproduces a client-compat §1 vector', async () => {
    const mod = (await import(pathToFileURL(bundle).href)) as typeof import('../../src/client/index.ts')
    const signed = mod.signUrl('http://127.0.0.1:8080/status.json', 'consumer-key', 'consumer-secret', { nonce: '45095438949668051540', timestamp: 1551274346 })
    expect(signed.signature).toBe('P8ItwaUKWNvniHrd7xWj6GCSuiM=')
    expect(typeof mod.createClient).toBe('function')
  })
})

describe('createPlayground', () => {
  const page = (): ReturnType<typeof createPlayground> => createPlayground({ clientBundle: bundle, apiBase: '/api"<x>' })

  it('serves the page at / and /index.html with the API base written into it', async () => {
    for (const path of ['/', '/index.html']) {
      const r = (await page()(get(path)))!
      expect(r.status).toBe(200)
      expect(r.headers.get('content-type')).toBe('text/html; charset=utf-8')
      expect(r.headers.get('content-security-policy')).toContain("default-src 'self'")
      const html = await r.text()
      expect(html).toContain('<meta name="textengine-api-base" content="/api&quot;&lt;x&gt;">')
      expect(html).toContain('src="app.js"')
    }
    const plain = await (await createPlayground({ clientBundle: bundle })(get('/')))!.text()
    expect(plain).toContain('content="">')
  })

  it('finds the package\'s playground/ folder by default', async () => {
    const served = await (await createPlayground()(get('/')))!.text()
    const file = await readFile(new URL('../../playground/index.html', import.meta.url), 'utf8')
    expect(served).toBe(file.replace('%API_BASE%', ''))
  })

  it('serves the assets and the client bundle with their content types; HEAD has no body', async () => {
    const p = page()
    const css = (await p(get('/style.css')))!
    expect([css.status, css.headers.get('content-type')]).toEqual([200, 'text/css; charset=utf-8'])
    const js = (await p(get('/app.js')))!
    expect(js.headers.get('content-type')).toBe('text/javascript; charset=utf-8')
    expect(await js.text()).toContain("from './client.js'")
    const client = (await p(get('/client.js')))!
    expect(client.headers.get('content-type')).toBe('text/javascript; charset=utf-8')
    expect(Buffer.from(await client.arrayBuffer()).equals(await readFile(bundle))).toBe(true)
    const head = (await p(get('/app.js', 'HEAD')))!
    expect(head.status).toBe(200)
    expect(Number(head.headers.get('content-length'))).toBeGreaterThan(1000)
    expect(await head.text()).toBe('')
  })

  it('leaves everything else to the next handler, and no path leaves the folder', async () => {
    const p = page()
    for (const path of ['/status.json', '/document/1.json', '/nope.js', '/openapi.json', '/../package.json', '/%2e%2e/package.json', '/..%2fpackage.json', '/x/..%2f..%2fpackage.json', '/.hidden.js', '/playground/app.js', '/app.js%00.css']) {
      expect(await p(get(path)), path).toBeUndefined()
    }
    expect(await p(get('/', 'POST'))).toBeUndefined()
    expect(await p(get('/index.html', 'DELETE'))).toBeUndefined()
  })

  it('answers 503 naming the build command when the bundle is not built, and 500 when the page is missing', async () => {
    const missing = (await createPlayground({ clientBundle: join(dir, 'absent.js') })(get('/client.js')))!
    expect(missing.status).toBe(503)
    expect(await missing.text()).toContain('node scripts/build-browser.mjs')
    const noPage = (await createPlayground({ root: dir, clientBundle: bundle })(get('/')))!
    expect(noPage.status).toBe(500)
    expect(await noPage.text()).toContain('index.html')
  })

  it('mounts under a base path', async () => {
    const p = createPlayground({ clientBundle: bundle, basePath: '/playground' })
    expect((await p(get('/playground')))!.status).toBe(308)
    expect((await p(get('/playground/')))!.status).toBe(200)
    expect((await p(get('/playground/style.css')))!.status).toBe(200)
    expect(await p(get('/style.css'))).toBeUndefined()
    expect(() => createPlayground({ basePath: 'x/' })).toThrow(TypeError)
  })
})

describe('the playground composed with the API', () => {
  let engine: Engine
  beforeAll(() => {
    engine = createEngine()
  })
  afterAll(async () => {
    await engine.close()
  })

  it('serves the page and the API side by side', async () => {
    const h = composeHandler(engine, { clientBundle: bundle }, { devAccount: engine.defaultAccount })
    expect((await h(get('/'))).headers.get('content-type')).toContain('text/html')
    const status = await h(get('/status.json'))
    expect(status.status).toBe(200)
    expect(await status.json()).toMatchObject({ api_version: '4.2' })
    expect((await h(get('/nope.js'))).status).toBe(404)
  })
})
