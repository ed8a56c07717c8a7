import { spawn } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, describe, expect, it } from 'vitest'
import { verifySignature } from '../../src/auth/signature.ts'
import { encodeJson } from '../../src/codecs/json.ts'
import { createEngine } from '../../src/engine/create-engine.ts'

const root = fileURLToPath(new URL('../..', import.meta.url))
const dir = mkdtempSync(join(tmpdir(), 'textengine-cli-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

interface Run {
  readonly code: number | null
  readonly stdout: string
  readonly stderr: string
}

/** Run `node --import tsx src/cli.ts ...args` with optional stdin. */
function cli(args: readonly string[], o: { stdin?: string; env?: Record<string, string> } = {}): Promise<Run> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli.ts', ...args], { cwd: root, env: { ...process.env, API_KEY: '', API_SECRET: '', ...o.env }, stdio: ['pipe', 'pipe', 'pipe'] })
  let stdout = ''
  let stderr = ''
  child.stdout.on('data', (c: Buffer) => (stdout += c.toString('utf8')))
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString('utf8')))
  child.stdin.end(o.stdin ?? '')
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr })))
}

const noStack = (text: string): void => expect(text).not.toMatch(/\n\s+at /)
const withoutConfigId = (json: string): string => json.replace(/"config_id":"[^"]*"/g, '"config_id":"-"')

describe('textengine --help and --version', () => {
  it('should print the usage with the exit codes on stdout and exit 0', async () => {
    const r = await cli(['--help'])
    expect(r.code).toBe(0)
    expect(r.stdout).toMatch(/^Usage: textengine <command>/)
    expect(r.stdout).toContain('Exit codes: 0 ok, 1 analysis error, 2 usage error, 3 input file or configuration error.')
    expect(r.stderr).toBe('')
  })

  it('should print the package version and exit 0', async () => {
    const r = await cli(['--version'])
    expect(r).toEqual({ code: 0, stdout: `${(JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string }).version}\n`, stderr: '' })
  })

  it('should import no analysis code up front (only node builtins and the usage texts)', () => {
    for (const file of ['src/cli.ts', 'src/cli/usage.ts']) {
      const source = readFileSync(join(root, file), 'utf8')
      const statics = [...source.matchAll(/^import\s[^'"]*['"]([^'"]+)['"]/gm)].map((m) => m[1])
      for (const spec of statics) expect(spec, `${file} imports ${spec}`).toMatch(/^(node:|\.\/cli\/usage\.ts$)/)
    }
  })

  it('should print analyze --help and serve --help on stdout', async () => {
    const a = await cli(['analyze', '--help'])
    expect(a.code).toBe(0)
    expect(a.stdout).toContain('--jsonl')
    expect(a.stdout).toContain('--max-length N')
    expect(a.stdout).toContain('Exit codes:')
    const s = await cli(['serve', '--help'])
    expect(s.code).toBe(0)
    expect(s.stdout).toContain('TEXTENGINE_TLS_CERT')
  })

  it('should answer an unknown command or flag with exit code 2', async () => {
    const r = await cli(['analyse', 'x'])
    expect(r.code).toBe(2)
    expect(r.stderr).toContain('textengine: unknown command "analyse"')
    const f = await cli(['analyze', '--colection', 'x'])
    expect(f.code).toBe(2)
    expect(f.stderr).toContain("Unknown option '--colection'")
    const l = await cli(['analyze', '--limit', 'document_length=ten', 'x'])
    expect(l.code).toBe(2)
    expect(l.stderr).toContain('textengine analyze: --limit: limits.basic_settings.document_length must be an integer >= 1, found "ten"')
  })
})

describe('textengine analyze', () => {
  it('should print what the engine (and so the HTTP API) returns for one text', async () => {
    const text = 'The staff were friendly, but the room was not clean.'
    const r = await cli(['analyze', text])
    expect(r.code).toBe(0)
    const engine = createEngine({ background: false })
    const expected = encodeJson(await engine.analyze(text, { id: '1' }))
    await engine.close()
    expect(withoutConfigId(r.stdout)).toBe(withoutConfigId(expected) + '\n')
  })

  it('should name a missing file or a malformed configuration with exit code 3 and no stack trace', async () => {
    const missing = join(dir, 'missing.txt')
    const m = await cli(['analyze', '--file', missing])
    expect(m.code).toBe(3)
    expect(m.stderr).toBe(`textengine analyze: --file ${missing}: cannot be read (no such file)\n`)
    const bad = join(dir, 'bad.json')
    writeFileSync(bad, '{"language": ')
    const c = await cli(['analyze', '--config', bad, 'text'])
    expect(c.code).toBe(3)
    expect(c.stderr).toMatch(new RegExp(`^textengine analyze: --config ${bad.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}: not valid JSON \\(`))
    noStack(c.stderr)
    const server = join(dir, 'server.json')
    writeFileSync(server, JSON.stringify({ accounts: [{ key: 'k', secret: 's', subscription: { basic_settings: { document_length: 0 } } }] }))
    const s = await cli(['analyze', '--server-config', server, 'text'])
    expect(s.code).toBe(3)
    expect(s.stderr).toBe('textengine analyze: --server-config: accounts[0].subscription.basic_settings.document_length must be an integer >= 1, found 0\n')
  })

  it('should apply --max-length and fail a longer document with exit code 1', async () => {
    const r = await cli(['analyze', '--max-length', '10', 'This text is longer than ten characters.'])
    expect(r.code).toBe(1)
    expect(r.stdout).toBe('')
    expect(r.stderr).toBe('ERR_DOCUMENT_TOO_LONG (413): text has 40 characters, more than the limit of 10\n')
  })

  it('should take limits from a server configuration file, with --limit over them', async () => {
    const server = join(dir, 'limits.json')
    writeFileSync(server, JSON.stringify({ accounts: [{ key: 'k', secret: 's', subscription: { basic_settings: { document_length: 5 } } }] }))
    const r = await cli(['analyze', '--server-config', server, 'Six chars or more'])
    expect(r.code).toBe(1)
    expect(r.stderr).toContain('more than the limit of 5')
    const over = await cli(['analyze', '--server-config', server, '--limit', 'basic_settings.document_length=100', 'Six chars or more'])
    expect(over.code).toBe(0)
    expect(JSON.parse(over.stdout)).toMatchObject({ id: '1', status: 'PROCESSED' })
  })

  it('should give a file of texts, analysed in chunks, the outputs one text at a time gives, each failure its own', async () => {
    const file = join(dir, 'texts.txt')
    const texts = Array.from({ length: 35 }, (_, i) => (i === 33 ? 'This line is far longer than sixty characters, so it is refused.' : `Review ${i}: the staff were ${i % 2 === 0 ? 'great' : 'rude'}.`))
    writeFileSync(file, texts.join('\n') + '\n')
    const jsonl = await cli(['analyze', '--jsonl', '--max-length', '60', '--file', file])
    expect(jsonl.code).toBe(1)
    expect(jsonl.stderr).toBe('document 34: ERR_DOCUMENT_TOO_LONG (413): text has 64 characters, more than the limit of 60\n')
    const lines = jsonl.stdout.trim().split('\n')
    expect(lines.map((l) => (JSON.parse(l) as { id: string }).id)).toEqual([...Array.from({ length: 33 }, (_, i) => String(i + 1)), '35'])
    // Each line as `analyze` prints that text alone (its id and the run's configuration id aside).
    const strip = (line: string): string => line.replace(/^\{"id":"\d+","config_id":"[^"]+"/, '')
    for (const k of [0, 1, 32, 33]) {
      const alone = await cli(['analyze', '--max-length', '60', texts[k === 33 ? 34 : k]!])
      expect(strip(lines[k]!)).toBe(strip(alone.stdout.trim()))
    }
    const whole = await cli(['analyze', '--file', file])
    expect(whole.code).toBe(0)
    expect((JSON.parse(whole.stdout) as unknown[]).length).toBe(35)
  }, 120_000)

  it('should stream --jsonl: each document as it finishes, failures on stderr and exit code 1', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli.ts', 'analyze', '--jsonl', '--max-length', '20'], { cwd: root, stdio: ['pipe', 'pipe', 'pipe'] })
    let stdout = ''
    let stderr = ''
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString('utf8')))
    const firstLine = new Promise<void>((resolve) =>
      child.stdout.on('data', (c: Buffer) => {
        stdout += c.toString('utf8')
        if (stdout.includes('\n')) resolve()
      }),
    )
    const closed = new Promise<number | null>((resolve) => child.on('close', resolve))
    child.stdin.write('Great food.\n')
    // The first document is printed while stdin is still open: the output streams.
    await firstLine
    expect(stdout.split('\n').filter((l) => l !== '')).toHaveLength(1)
    child.stdin.end('This line is far longer than twenty characters.\n\nTerrible service.\n')
    expect(await closed).toBe(1)
    const lines = stdout.trim().split('\n').map((l) => JSON.parse(l) as { id: string; status: string })
    expect(lines.map((l) => [l.id, l.status])).toEqual([
      ['1', 'PROCESSED'],
      ['3', 'PROCESSED'],
    ])
    expect(stderr).toBe('document 2: ERR_DOCUMENT_TOO_LONG (413): text has 47 characters, more than the limit of 20\n')
  }, 60_000)
})

describe('textengine serve', () => {
  it('should stop before listening with one line naming a bad setting and exit code 3', async () => {
    const r = await cli(['serve'], { env: { PORT: '0', HOST: '10.1.2.3', TEXTENGINE_DEV: 'true' } })
    expect(r.code).toBe(3)
    expect(r.stdout).toBe('')
    expect(r.stderr).toBe(
      'textengine serve: TEXTENGINE_DEV (environment): development mode (no signature checks) is refused on host "10.1.2.3" (HOST (environment)); it is allowed only on a loopback host: 127.0.0.1, ::1 or localhost\n',
    )
    const flag = await cli(['serve', '--port'])
    expect(flag.code).toBe(2)
    expect(flag.stderr).toContain("textengine serve: Option '--port <value>' argument missing")
  })
})

describe('textengine sign', () => {
  it('should print a curl command whose URL and Authorization header verify with the secret', async () => {
    const r = await cli(['sign', 'post', 'http://127.0.0.1:8080/document.json', '--data', '{"id":"1","text":"It\'s fine."}'], { env: { API_KEY: 'my-key', API_SECRET: 'my-secret' } })
    expect(r.code).toBe(0)
    const m = /^curl -X POST -H '(Authorization: [^']+)' -H 'Content-Type: application\/json' --data-binary '\{"id":"1","text":"It'\\''s fine\."\}' '([^']+)'\n$/.exec(r.stdout)
    expect(m, r.stdout).not.toBeNull()
    const url = new URL(m![2]!)
    const result = verifySignature({ rawTarget: url.pathname + url.search, host: url.host, authorization: m![1]!.slice('Authorization: '.length), secretFor: (k) => (k === 'my-key' ? 'my-secret' : undefined) })
    expect(result).toMatchObject({ ok: true, key: 'my-key' })
    const wrong = verifySignature({ rawTarget: url.pathname + url.search, host: url.host, authorization: m![1]!.slice('Authorization: '.length), secretFor: () => 'other-secret' })
    expect(wrong.ok).toBe(false)
  })

  it('should refuse a missing account, a relative URL or a bad method with exit code 2', async () => {
    expect((await cli(['sign', 'GET', 'http://127.0.0.1:8080/status.json'])).stderr).toContain('no account: give --key and --secret, or set API_KEY and API_SECRET')
    const rel = await cli(['sign', 'GET', '/status.json', '--key', 'k', '--secret', 's'])
    expect(rel.code).toBe(2)
    expect(rel.stderr).toContain('URL "/status.json" is not an absolute http:// or https:// URL')
    expect((await cli(['sign', 'PATCH', 'http://h/x', '--key', 'k', '--secret', 's'])).code).toBe(2)
  })
})
