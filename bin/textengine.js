#!/usr/bin/env node
// The command line runs the compiled JavaScript in dist/ (built by `npm run build`, which `npm install`, `npm ci`
// and `npm pack` run through the `prepare` script); no TypeScript loader is involved at run time.
import { existsSync } from 'node:fs'

const cli = new URL('../dist/src/cli.js', import.meta.url)
if (!existsSync(cli)) {
  process.stderr.write(`textengine: ${cli.pathname} is missing; run \`npm run build\` in ${new URL('..', import.meta.url).pathname}\n`)
  process.exitCode = 70
} else {
  await import(cli.href)
}
