import { readFileSync } from 'node:fs'
import { createEngine } from './engine/create-engine.ts'
import { isEngineError } from './errors.ts'
import { encodeJson } from './codecs/json.ts'

const USAGE = `Usage:
  textengine analyze "text"                 analyse one text, print the Detailed output (JSON)
  textengine analyze --file FILE            one document per line of FILE (- for stdin)
  echo "text" | textengine analyze          one document per line of stdin
  textengine analyze --collection ...       analyse all texts together (Discovery output)
Options:
  --config FILE    JSON object of configuration settings to apply (client-compat names)
  --pretty         indent the JSON
The output is byte for byte what the HTTP API returns for the same text and configuration.`

/** Parse argv into the command, its texts and its switches. */
async function main(argv: readonly string[]): Promise<number> {
  const args = [...argv]
  const cmd = args.shift()
  if (cmd === undefined || cmd === '--help' || cmd === '-h' || cmd !== 'analyze') {
    process.stderr.write(USAGE + '\n')
    return cmd === undefined || cmd === '--help' || cmd === '-h' ? 0 : 2
  }
  let file: string | undefined
  let configFile: string | undefined
  let collection = false
  let pretty = false
  const texts: string[] = []
  while (args.length > 0) {
    const a = args.shift()!
    if (a === '--file') file = args.shift()
    else if (a === '--config') configFile = args.shift()
    else if (a === '--collection') collection = true
    else if (a === '--pretty') pretty = true
    else if (a.startsWith('--')) {
      process.stderr.write(`unknown option ${a}\n${USAGE}\n`)
      return 2
    } else texts.push(a)
  }
  if (file !== undefined || texts.length === 0) {
    const source = file === undefined || file === '-' ? readFileSync(0, 'utf8') : readFileSync(file, 'utf8')
    texts.push(...source.split(/\r?\n/).filter((l) => l.trim() !== ''))
  }
  if (texts.length === 0) {
    process.stderr.write('no text to analyse\n')
    return 2
  }
  const engine = createEngine({ background: false })
  try {
    const account = engine.account(engine.defaultAccount)
    if (configFile !== undefined) {
      const settings = JSON.parse(readFileSync(configFile, 'utf8')) as unknown
      await account.updateConfigurations([settings])
    }
    // The wire form is compact ASCII JSON; --pretty indents it and keeps it ASCII.
    const render = (v: unknown): string => {
      const wire = encodeJson(v)
      if (!pretty) return wire
      return JSON.stringify(JSON.parse(wire), null, 2).replace(/[\u0080-\uffff]/g, (c) => '\\u' + c.charCodeAt(0).toString(16).padStart(4, '0'))
    }
    if (collection) {
      const out = await engine.analyzeCollection(texts, { id: 'collection-1' })
      process.stdout.write(render(out) + '\n')
    } else {
      const outs = []
      for (let i = 0; i < texts.length; i++) outs.push(await engine.analyze(texts[i]!, { id: String(i + 1) }))
      process.stdout.write(render(outs.length === 1 ? outs[0] : outs) + '\n')
    }
    return 0
  } catch (e) {
    process.stderr.write(isEngineError(e) ? `${e.code} (${e.status}): ${e.message}\n` : `${String(e)}\n`)
    return 1
  } finally {
    await engine.close()
  }
}

process.exitCode = await main(process.argv.slice(2))
