#!/usr/bin/env node
// The command line runs the compiled JavaScript in dist/ (built by `npm run build`, which `npm install`, `npm ci`
// and `npm pack` run through the `prepare` script); no TypeScript loader is involved at run time.
import { existsSync, readFileSync } from 'node:fs'

const root = new URL('..', import.meta.url)
const arg = process.argv[2]
// The build puts the CLI at dist/src/cli.js (the query grammar outside src/ makes the build's root the package
// root), where its own `../package.json` lookup misses; the version is answered here until src/cli.ts finds
// package.json from either layout.
if (arg === '--version' || arg === '-v' || arg === 'version') {
  const pkg = JSON.parse(readFileSync(new URL('package.json', root), 'utf8'))
  process.stdout.write(`${pkg.version}\n`)
} else {
  const cli = new URL('dist/src/cli.js', root)
  if (!existsSync(cli)) {
    process.stderr.write(`textengine: ${cli.pathname} is missing; run \`npm run build\` in ${root.pathname}\n`)
    process.exitCode = 70
  } else {
    await import(cli.href)
  }
}
