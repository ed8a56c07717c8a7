#!/usr/bin/env node
/**
 * Bundle `textengine/client` (src/client/index.ts) into one browser ES module, `dist/browser/client.js`, for the
 * playground (served at `/client.js`) and for pages that load the client without a bundler of their own.
 *
 * Deterministic: the same sources give the same bytes (no timestamps, no absolute paths, no source map).
 * Run `node scripts/build-browser.mjs [outfile]`, or import {@link buildBrowserClient}.
 */
import { build } from 'esbuild'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { relative } from 'node:path'

const ROOT = fileURLToPath(new URL('..', import.meta.url))

/** Default output: `dist/browser/client.js` under the package root. */
export const DEFAULT_OUTFILE = fileURLToPath(new URL('../dist/browser/client.js', import.meta.url))

/**
 * Build the browser bundle. Fails (rejects) when the client pulls in Node built-ins: `platform: 'browser'` has no
 * `node:` modules to offer.
 * @param {{ outfile?: string, minify?: boolean }} [options]
 * @returns {Promise<{ outfile: string, bytes: number }>}
 */
export async function buildBrowserClient(options = {}) {
  const outfile = options.outfile ?? DEFAULT_OUTFILE
  const result = await build({
    absWorkingDir: ROOT,
    entryPoints: ['src/client/index.ts'],
    outfile,
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: ['es2022'],
    minify: options.minify ?? true,
    sourcemap: false,
    legalComments: 'inline',
    charset: 'utf8',
    metafile: true,
    logLevel: 'silent',
    banner: { js: '/* textengine/client browser bundle: built by scripts/build-browser.mjs from src/client/index.ts */' },
  })
  const outputs = Object.values(result.metafile.outputs)
  return { outfile, bytes: outputs.reduce((n, o) => n + o.bytes, 0) }
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const { outfile, bytes } = await buildBrowserClient(process.argv[2] === undefined ? {} : { outfile: process.argv[2] })
  console.log(`${relative(process.cwd(), outfile) || outfile}: ${bytes} bytes`)
}
