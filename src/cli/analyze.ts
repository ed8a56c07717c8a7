/** `textengine analyze`: analyse texts from arguments, a file or stdin and print the wire output. */
import { readFileSync } from 'node:fs'
import { createInterface } from 'node:readline'
import { parseArgs } from 'node:util'
import { DEFAULT_BASIC_SETTINGS, DEFAULT_BILLING_SETTINGS, defaultLicenseFeatures, parseSubscriptionOverrides, type SubscriptionOverrides } from '../engine/account.ts'
import { ANALYZE_USAGE, EXIT } from './usage.ts'
import type { DocumentOutput } from '../model/output.ts'

/**
 * Texts per `analyzeMany` call when the texts are known up front (the engine analyses them in batches of 8, about a
 * fifth less CPU per short text than one `analyze` call each); with --jsonl, lines come out a chunk at a time.
 */
const CHUNK = 32

/** A problem with an input or configuration file (exit code 3) or the command line (exit code 2). */
class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode: number,
  ) {
    super(message)
  }
}

function readInputFile(path: string, flag: string): string {
  try {
    return readFileSync(path, 'utf8')
  } catch (e) {
    const code = (e as { code?: string }).code
    const why = code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'it is a folder' : code === 'EACCES' ? 'permission denied' : (code ?? String(e))
    throw new CliError(`${flag} ${path}: cannot be read (${why})`, EXIT.input)
  }
}

function readJsonFile(path: string, flag: string): unknown {
  const text = readInputFile(path, flag)
  try {
    return JSON.parse(text) as unknown
  } catch (e) {
    throw new CliError(`${flag} ${path}: not valid JSON (${e instanceof Error ? e.message : String(e)})`, EXIT.input)
  }
}

/** Turn `--limit NAME=VALUE` flags into nested subscription overrides (values typed by the field they name). */
export function limitsFromFlags(flags: readonly string[]): Record<string, unknown> {
  const out: Record<string, Record<string, unknown>> = {}
  const features = defaultLicenseFeatures()
  for (const flag of flags) {
    const eq = flag.indexOf('=')
    if (eq <= 0) throw new CliError(`--limit ${JSON.stringify(flag)}: expected NAME=VALUE, e.g. --limit document_length=10000`, EXIT.usage)
    const name = flag.slice(0, eq).trim()
    const raw = flag.slice(eq + 1)
    let path: string[]
    if (name.includes('.')) path = name.split('.')
    else if (name in DEFAULT_BILLING_SETTINGS) path = ['billing_settings', name]
    else if (name in DEFAULT_BASIC_SETTINGS) path = ['basic_settings', name]
    else if (name === 'supported_languages' || name === 'html_processing') path = ['feature_settings', name]
    else if (name in features.document || name in features.collection) {
      throw new CliError(`--limit ${name}: say feature_settings.document.${name} or feature_settings.collection.${name}`, EXIT.usage)
    } else {
      throw new CliError(`--limit ${name}: not an account limit; see the fields of billing_settings and basic_settings in GET /subscription`, EXIT.usage)
    }
    // Typed by its text; parseSubscriptionOverrides then checks it against the field.
    const value: unknown = raw === 'true' ? true : raw === 'false' ? false : /^-?\d+$/.test(raw) ? Number(raw) : raw
    let node: Record<string, unknown> = out
    for (const p of path.slice(0, -1)) {
      const next = node[p]
      node = (node[p] = typeof next === 'object' && next !== null ? next : {}) as Record<string, unknown>
    }
    node[path[path.length - 1]!] = value
  }
  return out
}

/** Merge two plain override objects, nested objects field by field. */
function deepMerge(a: Record<string, unknown>, b: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...a }
  for (const [k, v] of Object.entries(b)) {
    const prev = out[k]
    out[k] =
      typeof v === 'object' && v !== null && !Array.isArray(v) && typeof prev === 'object' && prev !== null && !Array.isArray(prev)
        ? deepMerge(prev as Record<string, unknown>, v as Record<string, unknown>)
        : v
  }
  return out
}

/** The subscription overrides of `--server-config`, `--limit` and `--max-length`, checked. */
async function overridesOf(serverConfig: string | undefined, limits: readonly string[], maxLength: string | undefined): Promise<SubscriptionOverrides | undefined> {
  let merged: Record<string, unknown> = {}
  if (serverConfig !== undefined) {
    const { loadServerConfig, ServerConfigError } = await import('../server/config.ts')
    try {
      const config = loadServerConfig({ file: serverConfig, env: {} })
      merged = { ...(config.accounts[0]?.subscription ?? {}) }
    } catch (e) {
      if (e instanceof ServerConfigError) throw new CliError(`--server-config: ${e.message}`, EXIT.input)
      throw e
    }
  }
  merged = deepMerge(merged, limitsFromFlags(limits))
  if (maxLength !== undefined) {
    if (!/^\d+$/.test(maxLength) || Number(maxLength) < 1) throw new CliError(`--max-length ${JSON.stringify(maxLength)}: expected an integer >= 1 (characters per document)`, EXIT.usage)
    merged = deepMerge(merged, { basic_settings: { document_length: Number(maxLength) } })
  }
  if (Object.keys(merged).length === 0) return undefined
  try {
    return parseSubscriptionOverrides(merged, 'limits')
  } catch (e) {
    throw new CliError(`--limit: ${e instanceof Error ? e.message : String(e)}`, EXIT.usage)
  }
}

/** Lines of stdin as they arrive (non-empty ones). */
async function* stdinLines(): AsyncGenerator<string> {
  const rl = createInterface({ input: process.stdin, crlfDelay: Infinity })
  for await (const line of rl) if (line.trim() !== '') yield line
}

const splitLines = (text: string): string[] => text.split(/\r?\n/).filter((l) => l.trim() !== '')

/** Run `textengine analyze`; resolves with the exit code. */
export async function runAnalyze(argv: readonly string[]): Promise<number> {
  try {
    return await analyze(argv)
  } catch (e) {
    if (e instanceof CliError) {
      process.stderr.write(`textengine analyze: ${e.message}\n`)
      if (e.exitCode === EXIT.usage) process.stderr.write('(see textengine analyze --help)\n')
      return e.exitCode
    }
    throw e
  }
}

async function analyze(argv: readonly string[]): Promise<number> {
  let parsed
  try {
    parsed = parseArgs({
      args: [...argv],
      options: {
        file: { type: 'string' },
        config: { type: 'string' },
        collection: { type: 'boolean' },
        pretty: { type: 'boolean' },
        jsonl: { type: 'boolean' },
        'max-length': { type: 'string' },
        limit: { type: 'string', multiple: true },
        'server-config': { type: 'string' },
        'no-progress': { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
      allowPositionals: true,
    })
  } catch (e) {
    throw new CliError(e instanceof Error ? e.message : String(e), EXIT.usage)
  }
  const { values, positionals } = parsed
  if (values.help === true) {
    process.stdout.write(ANALYZE_USAGE + '\n')
    return EXIT.ok
  }
  const jsonl = values.jsonl === true
  const pretty = values.pretty === true
  if (jsonl && pretty) throw new CliError('--jsonl and --pretty exclude each other (one compact line per document)', EXIT.usage)

  // Everything that can fail before analysis is checked before the engine (and its models) load.
  const subscription = await overridesOf(values['server-config'], values.limit ?? [], values['max-length'])
  const settings = values.config === undefined ? undefined : readJsonFile(values.config, '--config')
  const fromStdin = values.file === '-' || (values.file === undefined && positionals.length === 0)
  // Texts known up front, or stdin read line by line (--jsonl streams as lines arrive).
  let texts: string[] | undefined = [...positionals]
  if (values.file !== undefined && values.file !== '-') texts.push(...splitLines(readInputFile(values.file, '--file')))
  else if (fromStdin && !(jsonl && values.collection !== true)) texts.push(...splitLines(readFileSync(0, 'utf8')))
  else if (fromStdin) texts = undefined
  if (texts !== undefined && texts.length === 0) throw new CliError('no text to analyse', EXIT.usage)

  const [{ createEngine }, { isEngineError }, { encodeJson }] = await Promise.all([
    import('../engine/create-engine.ts'),
    import('../errors.ts'),
    import('../codecs/json.ts'),
  ])
  const engine = createEngine({ background: false, accounts: [{ key: 'cli', secret: 'cli', name: 'cli', ...(subscription === undefined ? {} : { subscription }) }] })
  const describe = (e: unknown): string => (isEngineError(e) ? `${e.code} (${e.status}): ${e.message}` : e instanceof Error ? e.message : String(e))
  try {
    const account = engine.account(engine.defaultAccount)
    if (settings !== undefined) {
      try {
        await account.updateConfigurations([settings])
      } catch (e) {
        throw new CliError(`--config ${values.config}: ${describe(e)}`, EXIT.input)
      }
    }
    // The wire form is compact ASCII JSON; --pretty indents it and keeps it ASCII.
    const render = (v: unknown): string => {
      const wire = encodeJson(v)
      if (!pretty) return wire
      return JSON.stringify(JSON.parse(wire), null, 2).replace(/[\u0080-\uffff]/g, (c) => '\\u' + c.charCodeAt(0).toString(16).padStart(4, '0'))
    }
    if (values.collection === true) {
      const out = await engine.analyzeCollection(texts ?? [], { id: 'collection-1' })
      process.stdout.write(render(out) + '\n')
      return EXIT.ok
    }
    const total = texts?.length ?? 0
    const bar = process.stderr.isTTY === true && values['no-progress'] !== true && total > 1 ? await createBar(total) : undefined
    /**
     * The outcomes of `chunk` (ids from `firstId`): one analyzeMany call, which analyses the texts together (batched,
     * the bytes analyze gives each); when it refuses a text, each text alone, so that each failure is that text's own.
     */
    const analyzeChunk = async (chunk: readonly string[], firstId: number): Promise<({ out: DocumentOutput } | { error: unknown })[]> => {
      try {
        return (await engine.analyzeMany(chunk.map((text, k) => ({ text, id: String(firstId + k) })))).map((out) => ({ out }))
      } catch {
        const each: ({ out: DocumentOutput } | { error: unknown })[] = []
        for (const [k, text] of chunk.entries()) {
          try {
            each.push({ out: await engine.analyze(text, { id: String(firstId + k) }) })
          } catch (e) {
            each.push({ error: e })
          }
        }
        return each
      }
    }
    try {
      if (!jsonl) {
        const outs: DocumentOutput[] = []
        for (let i = 0; i < texts!.length; i += CHUNK) {
          for (const r of await analyzeChunk(texts!.slice(i, i + CHUNK), i + 1)) {
            if ('error' in r) throw r.error
            outs.push(r.out)
            bar?.increment()
          }
        }
        bar?.stop()
        process.stdout.write(render(outs.length === 1 ? outs[0] : outs) + '\n')
        return EXIT.ok
      }
      // --jsonl: one line per document as it finishes (texts from a file or the arguments: a chunk at a time; from
      // stdin: each line as it arrives); a failure is reported and the others go on. A reader that goes away
      // (`| head`) ends the run quietly: writeLine answers false.
      process.stdout.on('error', () => {})
      let failed = 0
      let n = 0
      const report = (e: unknown): void => {
        failed++
        // Over a drawn bar: clear its line first; the bar redraws below on its next update.
        process.stderr.write(`${bar === undefined ? '' : '\r\x1b[2K'}document ${n}: ${describe(e)}\n`)
      }
      if (texts !== undefined) {
        outer: for (let i = 0; i < texts.length; i += CHUNK) {
          for (const r of await analyzeChunk(texts.slice(i, i + CHUNK), i + 1)) {
            n++
            if ('error' in r) report(r.error)
            else if (!(await writeLine(render(r.out)))) break outer
            bar?.increment()
          }
        }
      } else {
        for await (const text of stdinLines()) {
          n++
          try {
            const out = await engine.analyze(text, { id: String(n) })
            if (!(await writeLine(render(out)))) break
          } catch (e) {
            report(e)
          }
          bar?.increment()
        }
      }
      bar?.stop()
      if (n === 0) throw new CliError('no text to analyse', EXIT.usage)
      return failed === 0 ? EXIT.ok : EXIT.analysis
    } finally {
      bar?.stop()
    }
  } catch (e) {
    if (e instanceof CliError) throw e
    process.stderr.write(describe(e) + '\n')
    return EXIT.analysis
  } finally {
    await engine.close()
  }
}

/** Write one line to stdout, waiting when the pipe is full; false once stdout is closed (e.g. `| head`). */
function writeLine(line: string): Promise<boolean> {
  return new Promise((resolve) => {
    if (process.stdout.destroyed) {
      resolve(false)
      return
    }
    const ok = process.stdout.write(line + '\n', (err) => {
      if (err !== null && err !== undefined) resolve(false)
      else if (ok) resolve(true)
    })
    if (!ok) process.stdout.once('drain', () => resolve(true))
  })
}

/** A progress bar on stderr (cli-progress), loaded only when drawn. */
async function createBar(total: number): Promise<{ increment(): void; stop(): void }> {
  const { default: progress } = await import('cli-progress')
  const bar = new progress.SingleBar(
    { stream: process.stderr, format: 'analyzing [{bar}] {value}/{total} documents | {eta_formatted} left', hideCursor: true, clearOnComplete: true },
    progress.Presets.shades_classic,
  )
  bar.start(total, 0)
  let stopped = false
  return {
    increment: () => {
      if (!stopped) bar.increment()
    },
    stop: () => {
      if (!stopped) bar.stop()
      stopped = true
    },
  }
}
