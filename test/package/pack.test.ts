import { execFileSync, spawnSync, type SpawnSyncReturns } from 'node:child_process'
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { build } from 'esbuild'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

// Issue 11 items 1, 2 and 7: the package as users get it. `npm pack` (which builds through `prepare`), install the
// tarball into a fresh project, then with plain `node` (no loader): import and require every entry point, analyse
// a sentence, type-check a consumer under strict and loose settings, bundle a consumer with esbuild and run the
// bundle, and run publint on the packed package.

const ROOT = fileURLToPath(new URL('../..', import.meta.url))
const TSC = join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc')
const PUBLINT = join(ROOT, 'node_modules', 'publint', 'src', 'cli.js')
const TEXT = 'The staff were friendly, but the room was not clean. Tim Cook stayed here!'

const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { name: string; exports: Record<string, unknown> }
/** Every subpath export that is code ("." and the rest, not ./package.json). */
const ENTRIES = Object.keys(pkg.exports).filter((k) => k !== './package.json')
const specifier = (entry: string): string => (entry === '.' ? pkg.name : `${pkg.name}/${entry.slice(2)}`)

let work = ''
let project = ''
let tarball = ''

function run(cmd: string, args: readonly string[], cwd: string, env: NodeJS.ProcessEnv = process.env): SpawnSyncReturns<string> {
  return spawnSync(cmd, args, { cwd, encoding: 'utf8', env, maxBuffer: 64 * 1024 * 1024 })
}

/** Run and expect exit code 0; the failure message carries the output. */
function ok(cmd: string, args: readonly string[], cwd: string, env?: NodeJS.ProcessEnv): string {
  const r = run(cmd, args, cwd, env)
  expect(r.status, `${cmd} ${args.join(' ')} exited ${String(r.status)}:\n${r.stdout}\n${r.stderr}`).toBe(0)
  return r.stdout
}

beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), 'textengine-pack-'))
  project = join(work, 'consumer')
  mkdirSync(project)
  // Pack a clean copy of the working tree (what a clone holds: tracked and new, not ignored, files) with this
  // repository's node_modules linked in: `npm pack` runs `prepare` (the build) there, as on a fresh clone, and the
  // repository's own dist/, which other tests and processes read, is left alone.
  const clone = join(work, 'clone')
  const files = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', '-z'], { cwd: ROOT, encoding: 'utf8' })
    .split('\0')
    .filter((f) => f !== '' && existsSync(join(ROOT, f)))
  for (const f of files) cpSync(join(ROOT, f), join(clone, f), { recursive: true })
  symlinkSync(join(ROOT, 'node_modules'), join(clone, 'node_modules'), 'dir')
  const packed = execFileSync('npm', ['pack', '--silent', '--pack-destination', work], { cwd: clone, encoding: 'utf8' }).trim().split('\n')
  tarball = join(work, packed[packed.length - 1]!)
  writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }))
  execFileSync('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', '--loglevel=error', tarball], { cwd: project, encoding: 'utf8' })
}, 300_000)

afterAll(() => {
  if (work !== '') rmSync(work, { recursive: true, force: true })
})

describe('the packed package', () => {
  it('should hold the build, the data, the licence and changelog, and no sources or tests', () => {
    const listing = execFileSync('tar', ['-tzf', tarball], { encoding: 'utf8' }).split('\n').filter((l) => l !== '')
    for (const f of ['package/package.json', 'package/README.md', 'package/LICENSE', 'package/CHANGELOG.md', 'package/dist/src/index.js',
      'package/dist/src/index.d.ts', 'package/dist/src/cli.js', 'package/bin/textengine.js', 'package/lexicons/langid/model.tsv',
      'package/lexicons/en/sentiment-model.json', 'package/lexicons/en/ner/tagger.bin.gz', 'package/dist/browser/client.js',
      'package/playground/index.html']) {
      expect(listing, f).toContain(f)
    }
    expect(listing.filter((l) => /^package\/(src|test|bench)\//.test(l) || l.endsWith('.tsbuildinfo'))).toEqual([])
  })

  it('should pass publint', () => {
    const out = ok(process.execPath, [PUBLINT, join(project, 'node_modules', pkg.name), '--strict'], ROOT)
    expect(out).not.toMatch(/error|warning|suggestion/i)
  })

  it('should import every entry point with plain node', () => {
    const code = ENTRIES.map((e, i) => `import * as m${i} from '${specifier(e)}'`).join('\n') +
      `\nconsole.log(JSON.stringify([${ENTRIES.map((_, i) => `Object.keys(m${i}).length`).join(', ')}]))\n`
    writeFileSync(join(project, 'imports.mjs'), code)
    const counts = JSON.parse(ok(process.execPath, ['imports.mjs'], project)) as number[]
    expect(counts.length).toBe(ENTRIES.length)
    for (const n of counts) expect(n).toBeGreaterThan(0)
  })

  it('should require every entry point (require(esm), Node >= 20.19)', () => {
    const code = ENTRIES.map((e) => `Object.keys(require('${specifier(e)}')).length`).join(', ')
    writeFileSync(join(project, 'requires.cjs'), `console.log(JSON.stringify([${code}]))\n`)
    const counts = JSON.parse(ok(process.execPath, ['requires.cjs'], project)) as number[]
    expect(counts.length).toBe(ENTRIES.length)
    for (const n of counts) expect(n).toBeGreaterThan(0)
  })

  const analysis = `
    const engine = createEngine()
    const out = await engine.analyze(${JSON.stringify(TEXT)}, { id: 'r1' })
    await engine.close()
    const person = (out.entities || []).find((e) => e.entity_type === 'Person')
    console.log(JSON.stringify({ status: out.status, reason: out.failure_reason, language: out.language, polarity: out.sentiment_polarity,
      score: out.sentiment_score, person: person && person.title, entityPolarity: person && person.sentiment_polarity }))
  `
  const expectAnalysis = (stdout: string): void => {
    const r = JSON.parse(stdout.trim().split('\n').pop()!) as Record<string, unknown>
    expect(r).toMatchObject({ status: 'PROCESSED', language: 'English', polarity: 'negative', person: 'Tim Cook' })
    expect(typeof r['score']).toBe('number')
    expect(r['score'] as number).toBeLessThan(0)
    expect(['positive', 'negative', 'neutral']).toContain(r['entityPolarity'])
  }

  it('should analyse a sentence from an ES module', () => {
    writeFileSync(join(project, 'analyze.mjs'), `import { createEngine } from 'textengine'\n${analysis}`)
    expectAnalysis(ok(process.execPath, ['analyze.mjs'], project))
  })

  it('should analyse a sentence from CommonJS', () => {
    writeFileSync(join(project, 'analyze.cjs'), `const { createEngine } = require('textengine')\n;(async () => {${analysis}})()`)
    expectAnalysis(ok(process.execPath, ['analyze.cjs'], project))
  })

  it('should run the bin with plain node: --version, --help and analyze', () => {
    const bin = join(project, 'node_modules', '.bin', 'textengine')
    expect(ok(bin, ['--version'], project).trim()).toBe((JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version)
    expect(ok(bin, ['--help'], project)).toContain('Usage: textengine')
    const out = JSON.parse(ok(bin, ['analyze', TEXT], project)) as { sentiment_polarity: string; entities: { title: string }[] }
    expect(out.sentiment_polarity).toBe('negative')
    expect(out.entities.map((e) => e.title)).toContain('Tim Cook')
  })

  const consumerTs = `
import { createEngine, isEngineError, type DocumentOutput, type EngineOptions } from 'textengine'
import { createHttpHandler, toNodeListener } from 'textengine/http'
import { createRedisStorage } from 'textengine/storage/redis'
import * as client from 'textengine/client'

const options: EngineOptions = { accounts: [{ key: 'k', secret: 's' }] }
const engine = createEngine(options)
const out: DocumentOutput = await engine.analyze('Tim Cook stayed here.', { id: 'x' })
const score: number | undefined = out.sentiment_score
const handler: (request: Request) => Promise<Response> = createHttpHandler(engine)
void [score, handler, toNodeListener, createRedisStorage, isEngineError, client]
await engine.close()
`
  const typeCheck = (name: string, compilerOptions: Record<string, unknown>): void => {
    writeFileSync(join(project, 'consumer.ts'), consumerTs)
    const config = {
      compilerOptions: {
        target: 'ES2022', noEmit: true, skipLibCheck: false, typeRoots: [join(ROOT, 'node_modules', '@types')], types: ['node'],
        ...compilerOptions,
      },
      files: ['consumer.ts'],
    }
    writeFileSync(join(project, `tsconfig.${name}.json`), JSON.stringify(config))
    const r = run(process.execPath, [TSC, '-p', `tsconfig.${name}.json`], project)
    expect(r.stdout + r.stderr).not.toContain('TS5097')
    expect(r.status, `${name}:\n${r.stdout}${r.stderr}`).toBe(0)
  }

  it('should type-check a consumer under strict settings (NodeNext, exactOptionalPropertyTypes, no skipLibCheck)', () => {
    typeCheck('strict', {
      strict: true, noUncheckedIndexedAccess: true, exactOptionalPropertyTypes: true, module: 'NodeNext', moduleResolution: 'NodeNext',
    })
  }, 120_000)

  it('should type-check a consumer under loose settings (non-strict, bundler resolution)', () => {
    typeCheck('loose', { strict: false, module: 'ESNext', moduleResolution: 'Bundler' })
  }, 120_000)

  it('should bundle a consumer with esbuild and run the bundle, which finds the data through the installed package', async () => {
    writeFileSync(join(project, 'bundled.mjs'), `import { createEngine } from 'textengine'\n${analysis}`)
    await build({
      absWorkingDir: project,
      entryPoints: ['bundled.mjs'],
      bundle: true,
      platform: 'node',
      format: 'esm',
      outfile: 'out/bundle.mjs',
      logLevel: 'warning',
      // ESM output needs a require for the CommonJS dependencies (wink-nlp), as the README says.
      banner: { js: "import { createRequire as __textengineRequire } from 'node:module'; const require = __textengineRequire(import.meta.url);" },
    })
    // Run from elsewhere: the bundle's own location leads to node_modules/textengine.
    expectAnalysis(ok(process.execPath, [join(project, 'out', 'bundle.mjs')], work))
  })

  it('should tell a bundle that cannot find the data which file is missing and how to name the folder', () => {
    const away = join(work, 'away')
    mkdirSync(away, { recursive: true })
    cpSync(join(project, 'out', 'bundle.mjs'), join(away, 'bundle.mjs'))
    const env = { ...process.env }
    delete env['TEXTENGINE_DATA_DIR']
    const failed = JSON.parse(ok(process.execPath, [join(away, 'bundle.mjs')], tmpdir(), env).trim()) as { status: string; reason: string }
    expect(failed.status).toBe('FAILED')
    expect(failed.reason).toMatch(/cannot read .*ENOENT/)
    expect(failed.reason).toContain('TEXTENGINE_DATA_DIR')
    expect(failed.reason).toContain('dataDir')
    // Naming the folder through the environment makes the same bundle work.
    const withData = { ...env, TEXTENGINE_DATA_DIR: join(project, 'node_modules', pkg.name, 'lexicons') }
    expectAnalysis(ok(process.execPath, [join(away, 'bundle.mjs')], tmpdir(), withData))
  })

  it('should not leave tests, sources or a TypeScript loader among the installed files', () => {
    const installed = join(project, 'node_modules', pkg.name)
    expect(readdirSync(installed).sort()).toEqual(
      ['CHANGELOG.md', 'LICENSE', 'README.md', 'bin', 'dist', 'lexicons', 'package.json', ...(readdirSync(ROOT).includes('playground') ? ['playground'] : [])].sort(),
    )
    expect(readdirSync(join(project, 'node_modules'))).not.toContain('tsx')
  })
})
