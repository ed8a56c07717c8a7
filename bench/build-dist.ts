import { spawnSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { join } from 'node:path'

/**
 * Compile the package into `out` (tsc, then the bundled query grammar) for the benches that run it under plain
 * node (`bench/cold-start.ts`, `bench/memory.ts`). tsc reports type errors of a tree others are editing but still
 * emits; only a missing output fails.
 */
export function buildPackageInto(root: string, out: string): void {
  const bin = (name: string): string => join(root, 'node_modules', '.bin', name)
  spawnSync(bin('tsc'), ['-p', 'tsconfig.build.json', '--outDir', out, '--tsBuildInfoFile', join(out, '.tsbuildinfo')], { cwd: root, encoding: 'utf8' })
  const e = spawnSync(
    bin('esbuild'),
    ['grammars/query-grammar.ts', '--bundle', '--format=esm', '--platform=node', '--allow-overwrite', `--outfile=${join(out, 'grammars', 'query-grammar.js')}`, '--log-level=warning'],
    { cwd: root, encoding: 'utf8' },
  )
  if (e.status !== 0 || !existsSync(join(out, 'src', 'index.js'))) throw new Error(`build into ${out} failed:\n${e.stdout}${e.stderr}`)
}
