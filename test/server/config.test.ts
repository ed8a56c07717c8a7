import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { loadServerConfig, ServerConfigError, SERVER_SETTINGS, type LoadServerConfigInput } from '../../src/server/config.ts'
import { makeSelfSignedCert } from './tls.ts'

const dir = mkdtempSync(join(tmpdir(), 'textengine-config-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

let n = 0
/** Write a configuration file and answer its path. */
function configFile(content: unknown): string {
  const path = join(dir, `config-${++n}.json`)
  writeFileSync(path, typeof content === 'string' ? content : JSON.stringify(content))
  return path
}

/** The message of the ServerConfigError that loading throws (fails the test when none is thrown). */
function problem(input: LoadServerConfigInput): string {
  try {
    loadServerConfig(input)
  } catch (e) {
    expect(e).toBeInstanceOf(ServerConfigError)
    const message = (e as Error).message
    expect(message).not.toContain('\n')
    return message
  }
  throw new Error('expected a ServerConfigError')
}

describe('loadServerConfig', () => {
  it('should give the defaults and a generated development pair when nothing is configured', () => {
    const c = loadServerConfig({ env: {} })
    expect(c).toMatchObject({ host: undefined, port: 8080, basePath: '', tls: undefined, corsOrigins: [], logFormat: 'text', storage: 'memory', storagePrefix: 'textengine:', drainTimeoutMs: 10_000, dev: false, generatedAccount: true })
    expect(c.accounts).toHaveLength(1)
    expect(c.accounts[0]!.key).toMatch(/^dev-[0-9a-f]{12}$/)
    expect(c.accounts[0]!.subscription).toBeUndefined()
    expect(Object.isFrozen(c)).toBe(true)
  })

  it('should read every setting from the file, with account limits', () => {
    const file = configFile({
      host: '127.0.0.1',
      port: 9000,
      base_path: '/api',
      cors_origins: ['https://app.example.com', 'http://localhost:5173'],
      log_format: 'json',
      storage: 'redis://127.0.0.1:6379/2',
      storage_prefix: 'te:',
      drain_timeout_ms: 2500,
      dev: true,
      accounts: [
        { key: 'k1', secret: 's1', name: 'first', subscription: { billing_settings: { settings_calls_limit: 10, settings_calls_interval: 1, docs_balance: 500, expiration_date: '2030-01-01T00:00:00Z' }, basic_settings: { document_length: 10000, incoming_batch_limit: 50, collection_limit: 200 }, feature_settings: { supported_languages: 'English,French', document: { themes: false } } } },
        { key: 'k2', secret: 's2' },
      ],
    })
    const c = loadServerConfig({ file, env: {} })
    expect(c).toMatchObject({ host: '127.0.0.1', port: 9000, basePath: '/api', corsOrigins: ['https://app.example.com', 'http://localhost:5173'], logFormat: 'json', storage: 'redis://127.0.0.1:6379/2', storagePrefix: 'te:', drainTimeoutMs: 2500, dev: true, generatedAccount: false, configFile: file })
    expect(c.accounts).toEqual([
      {
        key: 'k1',
        secret: 's1',
        name: 'first',
        subscription: {
          billing_settings: { settings_calls_limit: 10, settings_calls_interval: 1, docs_balance: 500, expiration_date: Date.UTC(2030, 0, 1) },
          basic_settings: { document_length: 10000, incoming_batch_limit: 50, collection_limit: 200 },
          feature_settings: { supported_languages: 'English,French', document: { themes: false } },
        },
      },
      { key: 'k2', secret: 's2' },
    ])
  })

  it('should let the environment win over the file, and flags over the environment', () => {
    const file = configFile({ host: '127.0.0.1', port: 9000, log_format: 'json', storage: 'memory', accounts: [{ key: 'k1', secret: 's1', subscription: { billing_settings: { data_calls_limit: 5 } } }] })
    const c = loadServerConfig({
      file,
      env: { PORT: '9100', BASE_PATH: '/v4', TEXTENGINE_LOG_FORMAT: 'off', REDIS_URL: 'redis://127.0.0.1:6379', DRAIN_TIMEOUT_MS: '0', TEXTENGINE_CORS_ORIGINS: 'https://a.example, *', API_KEY: 'env-key', API_SECRET: 'env-secret', TEXTENGINE_SUBSCRIPTION: '{"billing_settings":{"settings_calls_limit":3}}' },
    })
    expect(c).toMatchObject({ host: '127.0.0.1', port: 9100, basePath: '/v4', logFormat: 'off', storage: 'redis://127.0.0.1:6379', drainTimeoutMs: 0, corsOrigins: ['https://a.example', '*'] })
    // API_KEY/API_SECRET replace the first account's pair and keep its limits; TEXTENGINE_SUBSCRIPTION merges over them.
    expect(c.accounts).toEqual([{ key: 'env-key', secret: 'env-secret', name: 'default', subscription: { billing_settings: { data_calls_limit: 5, settings_calls_limit: 3 } } }])
    expect(loadServerConfig({ file, env: { PORT: '9100' }, argv: ['--port', '9200', '--host', 'localhost'] })).toMatchObject({ port: 9200, host: 'localhost' })
    // TEXTENGINE_STORAGE wins over REDIS_URL; '' counts as unset.
    expect(loadServerConfig({ env: { TEXTENGINE_STORAGE: 'memory', REDIS_URL: 'redis://127.0.0.1:6379', PORT: '' } })).toMatchObject({ storage: 'memory', port: 8080 })
  })

  it('should find the file through --config and TEXTENGINE_CONFIG', () => {
    const file = configFile({ port: 7001 })
    expect(loadServerConfig({ env: {}, argv: ['--config', file] }).port).toBe(7001)
    expect(loadServerConfig({ env: { TEXTENGINE_CONFIG: file } }).port).toBe(7001)
  })

  it('should take API_KEY and API_SECRET as the one account when the file has none', () => {
    const c = loadServerConfig({ env: { API_KEY: 'k', API_SECRET: 's' } })
    expect(c.accounts).toEqual([{ key: 'k', secret: 's', name: 'default' }])
    expect(c.generatedAccount).toBe(false)
  })

  it('should serve dev mode on 127.0.0.1 by default and refuse it on a non-loopback host', () => {
    expect(loadServerConfig({ env: {}, argv: ['--dev'] })).toMatchObject({ dev: true, host: '127.0.0.1' })
    expect(loadServerConfig({ env: { TEXTENGINE_DEV: '1', HOST: '::1' } })).toMatchObject({ dev: true, host: '::1' })
    expect(loadServerConfig({ env: { TEXTENGINE_DEV: 'false', HOST: '0.0.0.0' } })).toMatchObject({ dev: false, host: '0.0.0.0' })
    expect(problem({ env: { HOST: '0.0.0.0' }, argv: ['--dev'] })).toBe(
      '--dev: development mode (no signature checks) is refused on host "0.0.0.0" (HOST (environment)); it is allowed only on a loopback host: 127.0.0.1, ::1 or localhost',
    )
    expect(problem({ file: configFile({ dev: true, host: '192.168.1.10' }), env: {} })).toMatch(/^dev: development mode .* refused on host "192\.168\.1\.10" \(host\)/)
  })

  it('should name the setting, the value and what is allowed for each bad setting', () => {
    const cases: [LoadServerConfigInput, string][] = [
      [{ env: { PORT: 'eighty' } }, 'PORT (environment): "eighty" is not allowed; expected an integer 0-65535 (0 picks a free port)'],
      [{ env: { PORT: '70000' } }, 'PORT (environment): "70000" is not allowed; expected an integer 0-65535'],
      [{ file: configFile({ port: 80.5 }), env: {} }, 'port: 80.5 is not allowed; expected an integer 0-65535'],
      [{ env: { BASE_PATH: 'api/' } }, 'BASE_PATH (environment): "api/" is not allowed; expected "" or a path that starts with "/"'],
      [{ env: { TEXTENGINE_LOG_FORMAT: 'xml' } }, 'TEXTENGINE_LOG_FORMAT (environment): "xml" is not allowed; expected text, json or off'],
      [{ env: { TEXTENGINE_STORAGE: 'postgres://db' } }, 'TEXTENGINE_STORAGE (environment): "postgres://db" is not allowed; expected "memory" or a Redis URL'],
      [{ env: { REDIS_URL: 'redis://:hunter2@' } }, 'REDIS_URL (environment): "redis://:***@" is not allowed'],
      [{ env: { DRAIN_TIMEOUT_MS: '-1' } }, 'DRAIN_TIMEOUT_MS (environment): "-1" is not allowed; expected an integer number of milliseconds'],
      [{ env: { TEXTENGINE_DEV: 'maybe' } }, 'TEXTENGINE_DEV (environment): "maybe" is not allowed; expected 1, 0, true or false'],
      [{ file: configFile({ dev: 'yes' }), env: {} }, 'dev: "yes" is not allowed; expected true or false'],
      [{ env: { TEXTENGINE_CORS_ORIGINS: 'https://a.example/app' } }, 'TEXTENGINE_CORS_ORIGINS (environment): "https://a.example/app" is not allowed; expected an array of origins'],
      [{ file: configFile({ cors_origins: 'https://a.example' }), env: {} }, 'cors_origins: "https://a.example" is not allowed; expected an array of origins'],
      [{ env: { API_KEY: 'k' } }, 'API_SECRET (environment): missing; set both API_KEY and API_SECRET, or neither'],
      [{ file: configFile({ prot: 80 }), env: {} }, 'prot: not a setting (configuration file '],
      [{ file: configFile({ accounts: [] }), env: {} }, 'accounts: [] is not allowed; expected a non-empty array'],
      [{ file: configFile({ accounts: [{ key: 'k' }] }), env: {} }, 'accounts[0].secret: undefined is not allowed; expected a non-empty string'],
      [{ file: configFile({ accounts: [{ key: 'k', secret: 's' }, { key: 'k', secret: 't' }] }), env: {} }, 'accounts[1].key: "k" is not allowed; expected a key no other account uses'],
      [{ file: configFile({ accounts: [{ key: 'k', secret: 's', limits: {} }] }), env: {} }, 'accounts[0].limits: not a setting; allowed: key, secret, name, subscription'],
      [
        { file: configFile({ accounts: [{ key: 'k', secret: 's', subscription: { billing_settings: { settings_calls_limit: 'ten' } } }] }), env: {} },
        'accounts[0].subscription.billing_settings.settings_calls_limit must be an integer >= 0 (0 for unlimited), found "ten"',
      ],
      [
        { file: configFile({ accounts: [{ key: 'k', secret: 's', subscription: { basic_settings: { document_lenght: 10 } } }] }), env: {} },
        'accounts[0].subscription.basic_settings.document_lenght is not a setting; allowed: collection_limit,',
      ],
      [
        { file: configFile({ accounts: [{ key: 'k', secret: 's', subscription: { billing_settings: { expiration_date: 'next year' } } }] }), env: {} },
        'accounts[0].subscription.billing_settings.expiration_date must be epoch milliseconds or an ISO date',
      ],
      [{ env: { TEXTENGINE_SUBSCRIPTION: '{"billing_settings":' } }, 'TEXTENGINE_SUBSCRIPTION (environment): the value is not valid JSON'],
      [{ env: { TEXTENGINE_SUBSCRIPTION: '{"feature_settings":{"document":{"themes":"no"}}}' } }, 'TEXTENGINE_SUBSCRIPTION.feature_settings.document.themes must be true or false, found "no"'],
      [{ file: join(dir, 'missing.json'), env: {} }, `configuration file ${join(dir, 'missing.json')}: cannot be read (no such file)`],
      [{ file: configFile('{"port": 80,}'), env: {} }, 'is not valid JSON'],
      [{ file: configFile('[1]'), env: {} }, 'expected a JSON object of settings, found an array'],
      [{ env: { TEXTENGINE_TLS_CERT: join(dir, 'cert.pem') } }, 'tls_key: missing; tls_cert ('],
      [{ env: { TEXTENGINE_TLS_CERT: join(dir, 'none.pem'), TEXTENGINE_TLS_KEY: join(dir, 'none.pem') } }, `TEXTENGINE_TLS_CERT (environment): "${join(dir, 'none.pem')}" cannot be read (no such file`],
      [{ env: { TEXTENGINE_TLS_CERT: configFile('not a pem'), TEXTENGINE_TLS_KEY: configFile('nor this') } }, 'is not allowed; expected a PEM certificate file'],
    ]
    for (const [input, expected] of cases) expect(problem(input), JSON.stringify(input.env ?? input.file)).toContain(expected)
  })

  it('should collect the server heap sooner than V8 by default, and read heap_growing_percent from the file or the environment (issue 17)', () => {
    expect(loadServerConfig({ env: {} }).heapGrowingPercent).toBe(15)
    expect(loadServerConfig({ file: configFile({ heap_growing_percent: 0 }), env: {} }).heapGrowingPercent).toBe(0)
    expect(loadServerConfig({ file: configFile({ heap_growing_percent: 50 }), env: { TEXTENGINE_HEAP_GROWING_PERCENT: '25' } }).heapGrowingPercent).toBe(25)
    expect(problem({ env: { TEXTENGINE_HEAP_GROWING_PERCENT: '1.5' } })).toMatch(/^TEXTENGINE_HEAP_GROWING_PERCENT \(environment\): "1\.5" is not allowed; expected an integer 0-400/)
    expect(problem({ file: configFile({ heap_growing_percent: 401 }), env: {} })).toMatch(/^heap_growing_percent: 401 is not allowed; expected an integer 0-400/)
  })

  it('should turn the replay window on by default and read the signing and callback settings (issue 18)', () => {
    const d = loadServerConfig({ env: {} })
    expect(d).toMatchObject({ replayWindowSeconds: 900, replayCacheSize: 100_000, callbackAllow: [], callbackDeny: [] })
    const f = loadServerConfig({ file: configFile({ replay_window_seconds: 0, replay_cache_size: 0, callback_allow: ['127.0.0.1/32', 'hooks.internal'], callback_deny: ['203.0.113.0/24'] }), env: {} })
    expect(f).toMatchObject({ replayWindowSeconds: 0, replayCacheSize: 0, callbackAllow: ['127.0.0.1/32', 'hooks.internal'], callbackDeny: ['203.0.113.0/24'] })
    const e = loadServerConfig({ env: { TEXTENGINE_REPLAY_WINDOW_SECONDS: '300', TEXTENGINE_CALLBACK_ALLOW: '127.0.0.1/32, ::1' } })
    expect(e).toMatchObject({ replayWindowSeconds: 300, callbackAllow: ['127.0.0.1/32', '::1'] })
    expect(problem({ env: { TEXTENGINE_REPLAY_WINDOW_SECONDS: 'abc' } })).toMatch(/^TEXTENGINE_REPLAY_WINDOW_SECONDS \(environment\): "abc" is not allowed; expected an integer number of seconds, 0 to 86400/)
    expect(problem({ file: configFile({ replay_cache_size: -1 }), env: {} })).toMatch(/^replay_cache_size: -1 is not allowed/)
    expect(problem({ env: { TEXTENGINE_CALLBACK_ALLOW: '10.0.0.0/40' } })).toMatch(/TEXTENGINE_CALLBACK_ALLOW \(environment\)\.allow: "10\.0\.0\.0\/40" is not a CIDR range/)
    expect(problem({ file: configFile({ callback_deny: 'x' }), env: {} })).toMatch(/^callback_deny: "x" is not allowed; expected an array/)
  })

  it('should name usage errors of the flags with exit code 2', () => {
    try {
      loadServerConfig({ env: {}, argv: ['--prot', '80'] })
      expect.unreachable()
    } catch (e) {
      expect(e).toBeInstanceOf(ServerConfigError)
      expect((e as ServerConfigError).exitCode).toBe(2)
      expect((e as Error).message).toContain("Unknown option '--prot'")
    }
  })

  it('should read the TLS pair (relative to the configuration file) and refuse a key of another certificate', () => {
    const a = makeSelfSignedCert(dir, 'a')
    const b = makeSelfSignedCert(dir, 'b')
    const c = loadServerConfig({ file: configFile({ tls_cert: 'a-cert.pem', tls_key: 'a-key.pem' }), env: {} })
    expect(c.tls?.certFile).toBe(a.certFile)
    expect(c.tls?.cert).toContain('-----BEGIN CERTIFICATE-----')
    expect(c.tls?.key).toContain('PRIVATE KEY-----')
    expect(problem({ env: { TEXTENGINE_TLS_CERT: a.certFile, TEXTENGINE_TLS_KEY: b.keyFile } })).toMatch(/^tls_key: ".*b-key\.pem" does not go with tls_cert ".*a-cert\.pem"/)
  })

  it('should list every file key in SERVER_SETTINGS (the README table)', () => {
    const keys = SERVER_SETTINGS.map((s) => s.key)
    for (const k of ['host', 'port', 'base_path', 'tls_cert', 'tls_key', 'cors_origins', 'log_format', 'storage', 'storage_prefix', 'drain_timeout_ms', 'dev', 'playground', 'accounts']) expect(keys).toContain(k)
  })

  it('should have every setting and environment variable in the README Server section', () => {
    const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8')
    const section = readme.slice(readme.indexOf('## Server'), readme.indexOf('\n## ', readme.indexOf('## Server') + 1))
    for (const s of SERVER_SETTINGS) {
      if (!s.key.startsWith('(')) expect(section, s.key).toContain(`\`${s.key}\``)
      for (const env of s.env.split(/,|\+/).map((e) => e.trim())) expect(section, env).toContain(`\`${env}\``)
    }
  })
})
