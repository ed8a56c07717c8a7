import { cpSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, describe, expect, it } from 'vitest'
import { createEngine } from '../../src/engine/create-engine.ts'
import { isEngineError } from '../../src/errors.ts'
import { DATA_DIR_ENV, resolveDataDir } from '../../src/resources.ts'

// Issue 11 item 2: models and lexicons are found however the package is installed or bundled, and a caller can
// name the folder. Models load when an analysis first needs them, so createEngine reads no model file.

const LEXICONS = fileURLToPath(new URL('../../lexicons/', import.meta.url))
const TEXT = 'The staff were friendly, but the room was not clean. Tim Cook stayed here!'
const temps: string[] = []
afterAll(() => {
  for (const d of temps) rmSync(d, { recursive: true, force: true })
})

/** A copy of lexicons/ in a fresh temporary folder, without the files named. */
function copyOfData(without: readonly string[] = []): string {
  const dir = mkdtempSync(join(tmpdir(), 'textengine-data-'))
  temps.push(dir)
  cpSync(LEXICONS, dir, { recursive: true })
  for (const f of without) rmSync(join(dir, f))
  return dir
}

/** Everything but the random ids, for comparing two engines' outputs. */
async function analyzeWith(dataDir?: string): Promise<string> {
  let n = 0
  const engine = createEngine({ ...(dataDir === undefined ? {} : { dataDir }), newId: () => `id${++n}`, now: () => 1_700_000_000_000 })
  try {
    return JSON.stringify(await engine.analyze(TEXT, { id: 'd' }))
  } finally {
    await engine.close()
  }
}

describe('resolveDataDir', () => {
  it('should find the package lexicons next to the sources when nothing is named', () => {
    const r = resolveDataDir(undefined, {})
    expect(r).toMatchObject({ source: 'module', found: true })
    expect(join(r.dir, 'x')).toBe(join(LEXICONS, 'x'))
  })

  it('should prefer the explicit folder, then the environment variable', () => {
    const a = copyOfData()
    const b = copyOfData()
    expect(resolveDataDir(a, { [DATA_DIR_ENV]: b })).toEqual({ dir: a, source: 'option', found: true })
    expect(resolveDataDir(undefined, { [DATA_DIR_ENV]: b })).toEqual({ dir: b, source: 'env', found: true })
    expect(resolveDataDir('/nonexistent/folder', {})).toMatchObject({ source: 'option', found: false })
  })
})

describe('createEngine dataDir', () => {
  it('should give the same output from a copy of the data as from the package data', async () => {
    expect(await analyzeWith(copyOfData())).toBe(await analyzeWith())
  })

  it('should refuse a folder without the data at createEngine, naming the folder and the option', () => {
    let err: unknown
    try {
      createEngine({ dataDir: '/nonexistent/textengine-data' })
    } catch (e) {
      err = e
    }
    expect(isEngineError(err) && err.code === 'ERR_INVALID_OPTIONS').toBe(true)
    expect((err as Error).message).toContain('/nonexistent/textengine-data')
    expect((err as Error).message).toContain(DATA_DIR_ENV)
  })

  it('should read no model at createEngine, and name the missing file and the fixes when an analysis needs it', async () => {
    for (const missing of [join('langid', 'model.tsv'), join('en', 'ner', 'tagger.bin.gz'), join('en', 'sentiment-model.json')]) {
      const dir = copyOfData([missing])
      const engine = createEngine({ dataDir: dir }) // would throw here if the models loaded eagerly
      try {
        const out = await engine.analyze(TEXT)
        expect(out.status).toBe('FAILED')
        expect(out.failure_reason).toContain(join(dir, missing))
        expect(out.failure_reason).toMatch(/dataDir.*TEXTENGINE_DATA_DIR/)
      } finally {
        await engine.close()
      }
    }
  })

  it('should read the theme word prior from the named folder too, not from the package', async () => {
    const missing = join('en', 'theme-word-prior.tsv')
    const dir = copyOfData([missing])
    const engine = createEngine({ dataDir: dir })
    try {
      await engine.account(engine.defaultAccount).updateConfigurations({ document: { themes: true, themes_limit: 5 } })
      const out = await engine.analyze(TEXT)
      expect(out.status).toBe('FAILED')
      expect(out.failure_reason).toContain(join(dir, missing))
    } finally {
      await engine.close()
    }
  })
})
