/**
 * The playground page: static files of the top-level `playground/` folder and the browser bundle of
 * `textengine/client` (`dist/browser/client.js`, built by `scripts/build-browser.mjs`), served as a web-standard
 * handler that answers `undefined` for every request it does not serve, so it composes with the API handler:
 *
 *     const page = createPlayground()
 *     const api = createHttpHandler(engine, { devAccount: engine.defaultAccount })
 *     const both = async (request: Request) => (await page(request)) ?? api(request)
 */
import { existsSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import { fileURLToPath } from 'node:url'
import { dirname, join } from 'node:path'
import type { HttpHandler } from './handler.ts'

/** Options of {@link createPlayground}. */
export interface PlaygroundOptions {
  /** Folder of the page's files. @defaultValue `playground/` of the package root (found from this module, in src/ or dist/) */
  readonly root?: string | URL
  /** The browser bundle served at `/client.js`. @defaultValue the package's `dist/browser/client.js` */
  readonly clientBundle?: string | URL
  /**
   * Where the page sends API requests, relative to the page or absolute (`/api`, `https://api.example.com`);
   * handed to the page in a `<meta name="textengine-api-base">` tag. @defaultValue '' (the page's own folder)
   */
  readonly apiBase?: string
  /** Prefix the page is mounted under (`/playground`), no trailing slash. @defaultValue '' (served at `/`) */
  readonly basePath?: string
}

/** A handler that answers the playground's files and `undefined` for anything else. */
export type PlaygroundHandler = (request: Request) => Promise<Response | undefined>

const CONTENT_TYPES: Readonly<Record<string, string>> = {
  html: 'text/html; charset=utf-8',
  css: 'text/css; charset=utf-8',
  js: 'text/javascript; charset=utf-8',
  svg: 'image/svg+xml',
  png: 'image/png',
  ico: 'image/x-icon',
  txt: 'text/plain; charset=utf-8',
}

/** File names served from the root: one plain name, no folder, no dot first, a known extension. */
const FILE_NAME = /^[A-Za-z0-9][A-Za-z0-9_-]*(?:\.[A-Za-z0-9_-]+)*\.(html|css|js|svg|png|ico|txt)$/

const toPath = (p: string | URL): string => (p instanceof URL ? fileURLToPath(p) : p)

/**
 * The package root: the nearest folder above this module holding `package.json` (two up from src/http/playground.ts,
 * three up from the build's dist/src/http/playground.js).
 */
function packageRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url))
  for (;;) {
    if (existsSync(join(dir, 'package.json'))) return dir
    const parent = dirname(dir)
    if (parent === dir) return fileURLToPath(new URL('../../', import.meta.url))
    dir = parent
  }
}

const escapeAttribute = (s: string): string =>
  s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;')

function text(status: number, body: string): Response {
  return new Response(body, { status, headers: { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' } })
}

/**
 * Serve the playground: `/` and `/index.html` (the page, with the API base written into it), the page's assets
 * (`/app.js`, `/style.css`, ...: plain file names of the root folder only, so no path can leave it) and
 * `/client.js` (the browser bundle; 503 naming the build command when it is not built). `GET` and `HEAD` only.
 * Anything else answers `undefined`, for the next handler.
 */
export function createPlayground(options: PlaygroundOptions = {}): PlaygroundHandler {
  const pkg = options.root === undefined || options.clientBundle === undefined ? packageRoot() : ''
  const root = options.root === undefined ? join(pkg, 'playground') : toPath(options.root)
  const bundle = options.clientBundle === undefined ? join(pkg, 'dist', 'browser', 'client.js') : toPath(options.clientBundle)
  const apiBase = options.apiBase ?? ''
  const basePath = options.basePath ?? ''
  if (basePath !== '' && (!basePath.startsWith('/') || basePath.endsWith('/'))) {
    throw new TypeError(`createPlayground: basePath must be '' or start with '/' and not end with '/', found ${JSON.stringify(basePath)}`)
  }

  return async (request) => {
    if (request.method !== 'GET' && request.method !== 'HEAD') return undefined
    const pathname = new URL(request.url).pathname
    if (basePath !== '' && pathname !== basePath && !pathname.startsWith(basePath + '/')) return undefined
    const rest = pathname.slice(basePath.length)
    if (rest === '') {
      // `/playground` without its slash: relative asset URLs need the slash.
      return new Response(null, { status: 308, headers: { location: basePath + '/' } })
    }
    const name = rest === '/' ? 'index.html' : rest.slice(1)
    let file: string
    let status: { missing: number; message: string } | undefined
    if (name === 'client.js') {
      file = bundle
      status = { missing: 503, message: 'The browser client is not built. Run `node scripts/build-browser.mjs` (part of `npm run build`), then reload.\n' }
    } else if (FILE_NAME.test(name)) {
      file = join(root, name)
    } else {
      return undefined
    }
    let bytes: Uint8Array
    try {
      bytes = await readFile(file)
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code
      if (code === 'ENOENT' || code === 'EISDIR') {
        if (status !== undefined) return text(status.missing, status.message)
        // An asset the folder does not have: not ours (the API, or the framework's next handler, answers it).
        if (name !== 'index.html') return undefined
        return text(500, `The playground page is missing: ${join(root, 'index.html')} not found.\n`)
      }
      return text(500, `The playground could not read ${name}: ${e instanceof Error ? e.message : String(e)}\n`)
    }
    const extension = /\.([a-z]+)$/i.exec(name)?.[1]?.toLowerCase() ?? ''
    if (name === 'index.html') {
      const html = new TextDecoder().decode(bytes).replace('%API_BASE%', escapeAttribute(apiBase))
      bytes = new TextEncoder().encode(html)
    }
    const headers = new Headers({
      'content-type': CONTENT_TYPES[extension] ?? 'application/octet-stream',
      'content-length': String(bytes.byteLength),
      'cache-control': 'no-cache',
      'x-content-type-options': 'nosniff',
    })
    if (extension === 'html') {
      headers.set('content-security-policy', "default-src 'self'; connect-src *; img-src 'self' data:; object-src 'none'; base-uri 'none'; frame-ancestors 'none'")
      headers.set('referrer-policy', 'no-referrer')
    }
    return new Response(request.method === 'HEAD' ? null : (bytes as Uint8Array<ArrayBuffer>), { status: 200, headers })
  }
}

/**
 * The API handler with the playground in front of it: `GET`/`HEAD` requests the page serves (`/`, its files,
 * `/client.js`) are answered by the page, everything else by the API (signed as ever). The page never shadows an
 * API path: it serves only plain file names with a page extension (`.html`, `.js`, `.css`, ...), never `.json` or `.xml`.
 */
export function withPlayground(api: HttpHandler, page: PlaygroundHandler): HttpHandler {
  const pageFirst = async (request: Request): Promise<Response | undefined> => (request.method === 'GET' || request.method === 'HEAD' ? page(request) : undefined)
  const both = async (request: Request): Promise<Response> => (await pageFirst(request)) ?? api(request)
  return Object.assign(both, {
    handleRaw: async (request: Request, raw: Parameters<HttpHandler['handleRaw']>[1], passThrough?: boolean) => (await pageFirst(request)) ?? api.handleRaw(request, raw, passThrough),
    routes: api.routes,
  })
}
