import { execFileSync, spawnSync } from 'node:child_process'
import { gunzipSync as zlibGunzip } from 'node:zlib'
import { gunzipSync, unzipSync } from 'fflate'
import { parseTar } from 'nanotar'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { signUrl } from '../../src/auth/signature.ts'
import { createEngine } from '../../src/engine/create-engine.ts'
import { packUserDirectory } from '../../src/engine/salience-export.ts'
import type { Engine } from '../../src/engine/types.ts'
import { createHttpHandler, type HttpHandler } from '../../src/http/handler.ts'
import { buildOpenApi } from '../../src/http/openapi.ts'
import { ACCOUNTS, call } from './helpers.ts'

// Issue 10 item 6: GET /salience/user-directory.{zip|tar|tar.gz}, a configuration's tuning as a Salience user
// directory (client-compat §9). The SDKs' own tests check manifest.txt and imports/query-topics.dat by name
// (Python tarfile, Java commons-compress) and search the tar bytes for the query text (Node.js, Ruby, PHP, .NET).

let engine: Engine
let handler: HttpHandler

beforeEach(() => {
  engine = createEngine({ accounts: [{ ...ACCOUNTS[0] }] })
  handler = createHttpHandler(engine)
})
afterEach(async () => {
  await engine.close()
})

const QUERY = 'Amazon AND ("web services" OR (EC2 NEAR/5 AWS)) NOT \\(retail\\)'

/** A signed GET answered as raw bytes (no decoding but Content-Encoding). */
async function download(path: string, headers: Record<string, string> = {}): Promise<{ status: number; headers: Headers; bytes: Uint8Array; text: string }> {
  const signed = signUrl('http://127.0.0.1:8080' + path, ACCOUNTS[0].key, ACCOUNTS[0].secret, '7', 1551274346)
  const response = await handler(new Request(signed.url, { headers: { authorization: signed.authorization, ...headers } }))
  let bytes = new Uint8Array(await response.arrayBuffer())
  if (response.headers.get('content-encoding') === 'gzip') bytes = new Uint8Array(zlibGunzip(bytes))
  return { status: response.status, headers: response.headers, bytes, text: Buffer.from(bytes).toString('utf8') }
}

/** The files of an archive, by name. */
function list(bytes: Uint8Array, format: 'zip' | 'tar' | 'tar.gz'): Map<string, string> {
  const decoder = new TextDecoder('utf-8', { fatal: true })
  if (format === 'zip') return new Map(Object.entries(unzipSync(bytes)).map(([name, data]) => [name, decoder.decode(data)]))
  const tar = format === 'tar' ? bytes : gunzipSync(bytes)
  return new Map(parseTar(tar).map((f) => [f.name, decoder.decode(f.data)]))
}

async function post(path: string, value: unknown): Promise<unknown> {
  const r = await call(handler, 'POST', path, { body: JSON.stringify(value) })
  expect(r.status, r.text).toBe(200)
  return r.json
}

async function newConfiguration(name: string): Promise<string> {
  const [created] = (await post('/configurations.json', [{ name, language: 'English' }])) as { id: string }[]
  return created!.id
}

/** Fill a configuration with one or more items of every tuning resource. */
async function tune(configId?: string): Promise<void> {
  const q = configId === undefined ? '' : `?config_id=${configId}`
  await post(`/queries.json${q}`, [
    { name: 'cloud', query: QUERY },
    { name: 'pets', query: 'dog OR cat' },
  ])
  await post(`/categories.json${q}`, [{ name: 'Food', weight: 0.75, samples: ['food', 'meals', 'fresh fruit'] }])
  await post(`/phrases.json${q}`, [
    { name: 'killer app', weight: 1.5 },
    { name: 'not great', weight: -0.5 },
  ])
  await post(`/entities.json${q}`, [
    { name: 'Lexalytics', type: 'Company', label: 'Text Analytics', normalized: 'Lexalytics, Inc' },
    { name: '+Semantria OR "Semantria API"', type: 'Product' },
  ])
  await post(`/blacklist.json${q}`, ['spam', 'buy now*'])
}

const FORMATS = [
  { format: 'zip', type: 'application/zip' },
  { format: 'tar', type: 'application/x-tar' },
  { format: 'tar.gz', type: 'application/gzip' },
] as const

describe('GET /salience/user-directory', () => {
  for (const { format, type } of FORMATS) {
    it(`answers a ${format} archive for the path suffix .${format} with the manifest and the tuning under imports/`, async () => {
      const id = await newConfiguration('ARCHIVE')
      await tune(id)
      const r = await download(`/salience/user-directory.${format}?config_id=${id}`)
      expect(r.status, r.text).toBe(200)
      expect(r.headers.get('content-type')).toBe(type)
      expect(r.headers.get('content-disposition')).toBe(`attachment; filename="user-directory-${id}.${format}"`)
      const files = list(r.bytes, format)
      expect([...files.keys()]).toEqual([
        'manifest.txt',
        'imports/query-topics.dat',
        'imports/concept-topics.dat',
        'imports/sentiment-phrases.hsd',
        'imports/user-entities.dat',
        'imports/blacklist.dat',
      ])
      expect(files.get('imports/query-topics.dat')).toBe(`cloud\t${QUERY}\npets\tdog OR cat\n`)
      expect(files.get('imports/concept-topics.dat')).toBe('Food\tfood, meals, fresh fruit\t0.75\n')
      expect(files.get('imports/sentiment-phrases.hsd')).toBe('killer app\t1.5\nnot great\t-0.5\n')
      expect(files.get('imports/user-entities.dat')).toBe(
        'Lexalytics\tlabel=Text Analytics, type=Company, normalized=Lexalytics, Inc\n+Semantria OR "Semantria API"\ttype=Product\n',
      )
      expect(files.get('imports/blacklist.dat')).toBe('spam\nbuy now*\n')
      const manifest = files.get('manifest.txt')!
      expect(manifest).toContain(`config_id\t${id}\n`)
      expect(manifest).toContain('config_name\tARCHIVE\n')
      expect(manifest).toContain('language\tEnglish\n')
      expect(manifest).toContain('file\timports/query-topics.dat\t2 query topics\t')
      expect(manifest).toContain('file\timports/blacklist.dat\t2 blacklist items\t')
    })
  }

  it('holds the query text verbatim in the tar and zip bytes, as the Node.js, Ruby, PHP and .NET SDK tests search it', async () => {
    await post('/queries.json', [{ name: 'q2', query: 'dog AND cat' }])
    for (const format of ['tar', 'zip'] as const) {
      const r = await download(`/salience/user-directory.${format}`)
      expect(r.status).toBe(200)
      expect(Buffer.from(r.bytes).includes('dog AND cat'), format).toBe(true)
      expect(Buffer.from(r.bytes).includes(`q2\tdog AND cat\n`), format).toBe(true)
    }
  })

  it('takes the format from the format parameter beside no suffix or .json, zip by default', async () => {
    await post('/queries.json', [{ name: 'q', query: QUERY }])
    const cases = [
      ['/salience/user-directory?format=tar', 'tar'],
      ['/salience/user-directory.json?format=tar.gz', 'tar.gz'],
      ['/salience/user-directory?format=.ZIP', 'zip'],
      ['/salience/user-directory.tar?format=tar', 'tar'],
      ['/salience/user-directory', 'zip'],
      ['/salience/user-directory.json', 'zip'],
    ] as const
    for (const [path, format] of cases) {
      const r = await download(path)
      expect(r.status, `${path}: ${r.text}`).toBe(200)
      expect(r.headers.get('content-disposition'), path).toMatch(new RegExp(`\\.${format.replace('.', '\\.')}"$`))
      expect(list(r.bytes, format).get('imports/query-topics.dat'), path).toBe(`q\t${QUERY}\n`)
    }
  })

  it('exports the primary configuration when config_id is omitted, and the named one otherwise', async () => {
    await post('/queries.json', [{ name: 'primary-query', query: 'alpha' }])
    const other = await newConfiguration('OTHER')
    await post(`/queries.json?config_id=${other}`, [{ name: 'other-query', query: 'beta' }])
    const primary = list((await download('/salience/user-directory.tar')).bytes, 'tar')
    expect(primary.get('imports/query-topics.dat')).toBe('primary-query\talpha\n')
    const named = list((await download(`/salience/user-directory.tar?config_id=${other}`)).bytes, 'tar')
    expect(named.get('imports/query-topics.dat')).toBe('other-query\tbeta\n')
    expect(named.get('manifest.txt')).toContain('config_name\tOTHER\n')
  })

  it('writes every file of an untuned configuration, empty', async () => {
    const files = list((await download('/salience/user-directory.zip')).bytes, 'zip')
    expect(files.get('imports/query-topics.dat')).toBe('')
    expect(files.get('imports/blacklist.dat')).toBe('')
    expect(files.get('manifest.txt')).toContain('file\timports/query-topics.dat\t0 query topics\t')
  })

  it('writes a TAB, CR or LF inside a value as one space, keeping each entry on its line', async () => {
    await post('/queries.json', [{ name: 'multi line', query: 'dog\r\nOR\t"hot\ndog"' }])
    const files = list((await download('/salience/user-directory.tar')).bytes, 'tar')
    expect(files.get('imports/query-topics.dat')).toBe('multi line\tdog  OR "hot dog"\n')
  })

  it('answers 404 naming the id for an unknown configuration', async () => {
    for (const path of ['/salience/user-directory.zip?config_id=no-such-config', '/salience/user-directory?format=tar&config_id=no-such-config']) {
      const r = await download(path)
      expect(r.status, path).toBe(404)
      expect(r.headers.get('content-type')).toBe('application/json; charset=utf-8')
      expect(JSON.parse(r.text)).toEqual({ status: 404, message: 'config_id: no configuration with id "no-such-config"' })
    }
  })

  it('answers 400 for an unknown or contradictory format', async () => {
    const cases = [
      ['/salience/user-directory.rar', 'path extension: unknown archive format "rar"; expected one of zip, tar, tar.gz'],
      ['/salience/user-directory?format=7z', 'format: unknown archive format "7z"; expected one of zip, tar, tar.gz'],
      ['/salience/user-directory.zip?format=tar', 'format: tar contradicts the path extension .zip'],
    ] as const
    for (const [path, message] of cases) {
      const r = await download(path)
      expect(r.status, path).toBe(400)
      expect(JSON.parse(r.text), path).toEqual({ status: 400, message })
    }
  })

  it('requires a valid signature (401 with a body), like every other endpoint', async () => {
    const unsigned = await handler(new Request('http://127.0.0.1:8080/salience/user-directory.tar'))
    expect(unsigned.status).toBe(401)
    expect(await unsigned.text()).toContain('authentication failed')
    const signed = signUrl('http://127.0.0.1:8080/salience/user-directory.tar', ACCOUNTS[0].key, 'wrong-secret', '1', 1551274346)
    const forged = await handler(new Request(signed.url, { headers: { authorization: signed.authorization } }))
    expect(forged.status).toBe(401)
  })

  it('is counted as a settings call', async () => {
    await download('/salience/user-directory.zip')
    const stats = (await call(handler, 'GET', '/statistics.json?interval=day')).json as { calls_settings: number }[]
    // This statistics call is counted before it answers.
    expect(stats[0]!.calls_settings).toBe(2)
  })

  it('gzips the archive on the wire when Accept-Encoding asks, as for every body (the Java SDK always gunzips then)', async () => {
    await post('/queries.json', [{ name: 'q', query: QUERY }])
    const signed = signUrl('http://127.0.0.1:8080/salience/user-directory.tar', ACCOUNTS[0].key, ACCOUNTS[0].secret, '9', 1551274346)
    const response = await handler(new Request(signed.url, { headers: { authorization: signed.authorization, 'accept-encoding': 'gzip,deflate' } }))
    expect(response.headers.get('content-encoding')).toBe('gzip')
    expect(response.headers.get('content-type')).toBe('application/x-tar')
    const tar = zlibGunzip(new Uint8Array(await response.arrayBuffer()))
    expect(list(tar, 'tar').get('imports/query-topics.dat')).toBe(`q\t${QUERY}\n`)
  })

  it('answers the same bytes for the same tuning, and other bytes once the tuning changes', async () => {
    await tune()
    for (const { format } of FORMATS) {
      const a = await download(`/salience/user-directory.${format}`)
      const b = await download(`/salience/user-directory.${format}`)
      expect(Buffer.from(a.bytes).equals(Buffer.from(b.bytes)), format).toBe(true)
    }
    const before = await download('/salience/user-directory.tar.gz')
    await post('/queries.json', [{ name: 'added', query: 'zebra' }])
    const after = await download('/salience/user-directory.tar.gz')
    expect(Buffer.from(before.bytes).equals(Buffer.from(after.bytes))).toBe(false)
  })

  it('writes fixed entry times: 1980-01-01 00:00 in zip (any time zone) and in tar headers', () => {
    const files = [{ path: 'manifest.txt', text: 'x\n' }]
    const zip = packUserDirectory(files, 'zip')
    // Local file header: DOS time at offset 10, DOS date at 12 ((year-1980)<<9 | month<<5 | day).
    expect(Buffer.from(zip).readUInt16LE(10)).toBe(0)
    expect(Buffer.from(zip).readUInt16LE(12)).toBe((1 << 5) | 1)
    const [entry] = parseTar(packUserDirectory(files, 'tar'))
    // nanotar reads mtime back in seconds.
    expect(entry!.attrs).toMatchObject({ mtime: Date.UTC(1980, 0, 1) / 1000, uid: 0, gid: 0, mode: '0000644' })
    const gz = packUserDirectory(files, 'tar.gz')
    expect([...gz.subarray(4, 8)]).toEqual([0, 0, 0, 0])
  })

  it('ends a tar whose entries fill the last 10 KiB record exactly with an end-of-archive record', () => {
    // One header (512) and 19 data blocks fill 10240 bytes, where nanotar alone would leave no zero blocks.
    const tar = packUserDirectory([{ path: 'imports/query-topics.dat', text: 'q\t' + 'a'.repeat(19 * 512 - 3) + '\n' }], 'tar')
    expect(tar.length).toBe(20480)
    expect(tar.subarray(10240).every((b) => b === 0)).toBe(true)
    expect(parseTar(tar).map((f) => f.name)).toEqual(['imports/query-topics.dat'])
  })

  it('is in the OpenAPI document with the format parameter and its archive media types', () => {
    const doc = buildOpenApi(handler.routes) as { paths: Record<string, { get?: { parameters: { name: string }[]; responses: Record<string, { content?: Record<string, unknown> }> } }> }
    const op = doc.paths['/salience/user-directory']?.get
    expect(op).toBeDefined()
    expect(op!.parameters.map((p) => p.name)).toEqual(['config_id', 'format', 'x-app-name'])
    expect(Object.keys(op!.responses['200']!.content!)).toEqual(['application/zip', 'application/x-tar', 'application/gzip'])
    expect(op!.responses['404']).toBeDefined()
  })
})

// The Python SDK's own check (tests/unittests.py test_GetUserDirectory) and its zip reader, run on our bytes.
const python = spawnSync('python3', ['--version']).status === 0

describe.skipIf(!python)('archives as Python reads them', () => {
  it('tarfile (PAX_FORMAT, utf-8) lists manifest.txt and imports/query-topics.dat; zipfile and tarfile r:gz read the same', async () => {
    await post('/queries.json', [{ name: 'query1', query: 'dog' }, { name: 'query2', query: 'dog OR cat' }])
    const script = [
      'import io, sys, tarfile, zipfile',
      'data = sys.stdin.buffer.read()',
      'fmt = sys.argv[1]',
      "if fmt == 'zip':",
      '    z = zipfile.ZipFile(io.BytesIO(data)); assert z.testzip() is None; names = z.namelist()',
      '    body = z.read("imports/query-topics.dat")',
      'else:',
      "    t = tarfile.TarFile(fileobj=io.BytesIO(data), mode='r', format=tarfile.PAX_FORMAT, encoding='utf-8') if fmt == 'tar' else tarfile.open(fileobj=io.BytesIO(data), mode='r:gz')",
      '    names = t.getnames(); body = t.extractfile("imports/query-topics.dat").read()',
      "assert 'imports/query-topics.dat' in names and 'manifest.txt' in names, names",
      'sys.stdout.write(body.decode("utf-8"))',
    ].join('\n')
    for (const { format } of FORMATS) {
      const r = await download(`/salience/user-directory.${format}`)
      const out = execFileSync('python3', ['-c', script, format], { input: r.bytes }).toString('utf8')
      expect(out, format).toBe('query1\tdog\nquery2\tdog OR cat\n')
    }
  })
})
