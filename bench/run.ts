/**
 * `npm run bench -- [data dir]`: every benchmark in turn, each in its own process (so one's memory and
 * JIT state never colours another's figures), with the same data folder.
 */
import { spawnSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'

const args = process.argv.slice(2)
const benches = ['engine.ts', 'queries.ts', 'http.ts', 'cold-start.ts']
let failed = 0
for (const b of benches) {
  console.log(`\n## bench/${b}\n`)
  const r = spawnSync(process.execPath, ['--import', 'tsx', fileURLToPath(new URL(b, import.meta.url)), ...args], { stdio: 'inherit' })
  if (r.status !== 0) failed++
}
process.exitCode = failed === 0 ? 0 : 1
