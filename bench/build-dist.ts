import { spawnSync } from 'node:child_process'
import { existsSync, lstatSync, symlinkSync } from 'node:fs'
import { join, resolve } from 'node:path'

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
  // The data beside the build as in an installed package (dist/src/resources.js finds ../../lexicons there; here
  // out/src/resources.js finds out/lexicons), so the build finds it next to the code, not by the package search.
  const data = join(out, 'lexicons')
  let present = true
  try {
    lstatSync(data)
  } catch {
    present = false
  }
  if (!present) symlinkSync(resolve(root, 'lexicons'), data, 'dir')
}
