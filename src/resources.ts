/**
 * Where the engine's data files (the `lexicons/` folder: sentiment lexicons and model, NER tagger and lexicons,
 * language model) are found, however the package is installed, run or bundled.
 *
 * In order:
 * 1. the folder the caller names (`createEngine({ dataDir })`, or a loader's own path argument);
 * 2. the `TEXTENGINE_DATA_DIR` environment variable;
 * 3. the package's `lexicons/` found relative to this module (`new URL`), from the sources (`src/resources.ts`)
 *    or from the build (`dist/src/resources.js`);
 * 4. the installed package found through Node's resolution of `textengine/package.json`, from this module and
 *    then from the working directory: what a bundle placed in a project that has textengine installed needs,
 *    since a bundler moves this module away from the data.
 *
 * A folder counts as found when it holds `en/sentiment.tsv`. When none is found, the first candidate is
 * returned and the loaders' errors name the missing file and how to point the engine at the data.
 */
import { existsSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'

/** Environment variable naming the data folder (the package's `lexicons/`, or a copy of it). */
export const DATA_DIR_ENV = 'TEXTENGINE_DATA_DIR'

/** A file every complete data folder holds. */
const MARKER = join('en', 'sentiment.tsv')

/** The data folder chosen and why. */
export interface DataDirResolution {
  /** Absolute path of the folder (it may not exist when `found` is false). */
  readonly dir: string
  /** How it was found: `option`, `env`, `module`, `package`, or `none` (nothing found; `dir` is a guess). */
  readonly source: 'option' | 'env' | 'module' | 'package' | 'none'
  readonly found: boolean
}

function moduleCandidates(): string[] {
  const out: string[] = []
  // Sources: src/resources.ts -> ../lexicons; build: dist/src/resources.js -> ../../lexicons. In a CommonJS
  // bundle import.meta.url is undefined and `new URL` throws: then only the package resolution remains.
  for (const rel of ['../lexicons/', '../../lexicons/']) {
    try {
      out.push(fileURLToPath(new URL(rel, import.meta.url)))
    } catch {
      // not a file: URL (bundled, or loaded from elsewhere)
    }
  }
  return out
}

function packageCandidates(): string[] {
  const out: string[] = []
  const bases: string[] = []
  try {
    bases.push(fileURLToPath(import.meta.url))
  } catch {
    // not a file: URL
  }
  bases.push(join(process.cwd(), 'package.json'))
  for (const base of bases) {
    try {
      out.push(join(dirname(createRequire(base).resolve('textengine/package.json')), 'lexicons'))
    } catch {
      // textengine is not resolvable from there
    }
  }
  return out
}

/**
 * Resolve the data folder: `explicit` if given, else `TEXTENGINE_DATA_DIR`, else the package's `lexicons/` next to
 * this module, else the installed `textengine` package's. Never throws; see {@link DataDirResolution.found}.
 */
export function resolveDataDir(explicit?: string, env: NodeJS.ProcessEnv = process.env): DataDirResolution {
  if (explicit !== undefined) return { dir: resolve(explicit), source: 'option', found: existsSync(join(explicit, MARKER)) }
  const fromEnv = env[DATA_DIR_ENV]
  if (fromEnv !== undefined && fromEnv !== '') return { dir: resolve(fromEnv), source: 'env', found: existsSync(join(fromEnv, MARKER)) }
  // The folder found next to the code or through the package is remembered (per working directory, which the
  // package search starts from): every data file's path comes through here, and the package search costs about a
  // millisecond (module resolution, package.json reads) each time. A folder not found is looked for again.
  const cwd = process.cwd()
  if (found !== undefined && found.cwd === cwd) return found.resolution
  const mod = moduleCandidates()
  for (const dir of mod) if (existsSync(join(dir, MARKER))) return remember(cwd, { dir, source: 'module', found: true })
  for (const dir of packageCandidates()) if (existsSync(join(dir, MARKER))) return remember(cwd, { dir, source: 'package', found: true })
  return { dir: mod[0] ?? resolve('lexicons'), source: 'none', found: false }
}

/** The data folder last found by the module or package search, and the working directory it was found from. */
let found: { readonly cwd: string; readonly resolution: DataDirResolution } | undefined

function remember(cwd: string, resolution: DataDirResolution): DataDirResolution {
  found = { cwd, resolution }
  return resolution
}

/** Absolute path of a data file, `parts` relative to the data folder (e.g. `'langid', 'model.tsv'`). */
export function dataPath(dataDir: string | undefined, ...parts: string[]): string {
  return join(resolveDataDir(dataDir).dir, ...parts)
}

/**
 * What to tell a user whose data file is missing: where the folder was looked for and how to name it. Appended to
 * the loaders' "cannot read …" messages.
 */
export function missingDataHint(dataDir?: string): string {
  const r = resolveDataDir(dataDir)
  const where =
    r.source === 'option'
      ? `the dataDir option names ${r.dir}`
      : r.source === 'env'
        ? `${DATA_DIR_ENV} names ${r.dir}`
        : r.source === 'none'
          ? `no textengine data folder was found next to the code or through the installed package (looked in ${r.dir})`
          : `the data folder is ${r.dir}`
  return (
    `${where}; the files ship in the textengine package's lexicons/ folder: install textengine, or pass ` +
    `createEngine({ dataDir: '/path/to/textengine/lexicons' }), or set ${DATA_DIR_ENV} to that folder`
  )
}
