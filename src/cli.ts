/**
 * The `textengine` command. Only argument handling is loaded up front: `--help` and `--version` answer without
 * loading any model, and each command imports its code when it runs.
 */
import { readFileSync } from 'node:fs'
import { EXIT, USAGE } from './cli/usage.ts'

/** The package version: package.json is one folder up from src/cli.ts and two from the build's dist/src/cli.js. */
function version(): string {
  for (const path of ['../package.json', '../../package.json']) {
    let pkg: { name?: string; version?: string }
    try {
      pkg = JSON.parse(readFileSync(new URL(path, import.meta.url), 'utf8')) as { name?: string; version?: string }
    } catch {
      continue
    }
    if (pkg.name === 'textengine' && pkg.version !== undefined) return pkg.version
  }
  return 'unknown'
}

/** Run the command line; resolves with the exit code. */
async function main(argv: readonly string[]): Promise<number> {
  const [cmd, ...rest] = argv
  switch (cmd) {
    case undefined:
    case '--help':
    case '-h':
    case 'help':
      process.stdout.write(USAGE + '\n')
      return EXIT.ok
    case '--version':
    case '-v':
    case 'version':
      process.stdout.write(version() + '\n')
      return EXIT.ok
    case 'analyze': {
      const { runAnalyze } = await import('./cli/analyze.ts')
      return runAnalyze(rest)
    }
    case 'sign': {
      const { runSign } = await import('./cli/sign.ts')
      return runSign(rest, process.env)
    }
    case 'serve': {
      const { runServer } = await import('./server.ts')
      // The server runs until SIGTERM/SIGINT; exit then, whatever handles (Redis) remain. Failures to start that
      // are not a bad setting (a broken installation) are one line too; exit code 1.
      const code = await runServer(rest, process.env).catch((e: unknown) => {
        process.stderr.write(`textengine serve: ${e instanceof Error ? e.message : String(e)}\n`)
        return EXIT.analysis
      })
      return process.exit(code)
    }
    default:
      process.stderr.write(`textengine: unknown command ${JSON.stringify(cmd)}\n\n${USAGE}\n`)
      return EXIT.usage
  }
}

process.exitCode = await main(process.argv.slice(2))
