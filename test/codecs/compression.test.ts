import { gunzipSync, gzipSync, deflateRawSync, deflateSync, inflateSync } from 'node:zlib'
import { describe, expect, it } from 'vitest'
import {
  chooseResponseEncoding,
  decodeRequestBody,
  encodeResponseBody,
  parseContentEncoding,
} from '../../src/codecs/compression.ts'
import { isCodecError } from '../../src/codecs/errors.ts'
import type { CodecError } from '../../src/codecs/errors.ts'

const body = new TextEncoder().encode('[{"id":"1","text":"Great food \\uD83D\\uDE00"}]')

async function refused(promise: Promise<unknown>): Promise<CodecError> {
  try {
    await promise
  } catch (e) {
    if (isCodecError(e)) return e
    throw e
  }
  throw new Error('expected the body to be refused')
}

describe('decodeRequestBody', () => {
  it.each([
    ['gzip', gzipSync(body)],
    ['x-gzip', gzipSync(body)],
    ['GZIP', gzipSync(body)],
    ['deflate', deflateSync(body)],
    ['deflate', deflateRawSync(body)],
    ['identity', Buffer.from(body)],
    ['gzip, deflate', deflateSync(gzipSync(body))],
  ])('undoes Content-Encoding %s', async (coding, data) => {
    expect(Buffer.from(await decodeRequestBody(data, coding))).toEqual(Buffer.from(body))
  })

  it('returns the body untouched without Content-Encoding', async () => {
    expect(await decodeRequestBody(body, undefined)).toBe(body)
    expect(await decodeRequestBody(body, null)).toBe(body)
  })

  it('refuses a gzip bomb once the output passes the limit, without inflating it all', async () => {
    // 64 concatenated gzip members of 16 MiB of zeros each: 1 GiB once inflated, about 1 MiB on the wire.
    const member = gzipSync(Buffer.alloc(16 * 1024 * 1024), { level: 9 })
    const bomb = Buffer.concat(Array.from({ length: 64 }, () => member))
    expect(bomb.length).toBeLessThan(2 * 1024 * 1024)
    const before = process.memoryUsage().arrayBuffers
    const error = await refused(decodeRequestBody(bomb, 'gzip', { maxBytes: 1024 * 1024 }))
    expect(error.code).toBe('ERR_BODY_TOO_LARGE')
    expect(error.status).toBe(413)
    expect(error.message).toMatch(/decompresses \(gzip\) to more than the limit of 1048576 bytes/)
    expect(process.memoryUsage().arrayBuffers - before).toBeLessThan(256 * 1024 * 1024)
  })

  it('refuses a deflate bomb the same way', async () => {
    const bomb = deflateSync(Buffer.alloc(32 * 1024 * 1024))
    const error = await refused(decodeRequestBody(bomb, 'deflate', { maxBytes: 1024 * 1024 }))
    expect(error.code).toBe('ERR_BODY_TOO_LARGE')
  })

  it('refuses an uncompressed body over the limit', async () => {
    const error = await refused(decodeRequestBody(new Uint8Array(2048), undefined, { maxBytes: 1024 }))
    expect(error.code).toBe('ERR_BODY_TOO_LARGE')
    expect(error.message).toMatch(/2048 bytes is over the limit of 1024/)
  })

  it('refuses corrupt data naming the coding', async () => {
    const error = await refused(decodeRequestBody(new TextEncoder().encode('not gzip at all'), 'gzip'))
    expect(error.code).toBe('ERR_MALFORMED_BODY')
    expect(error.message).toMatch(/not valid gzip data/)
    const truncated = gzipSync(body).subarray(0, 12)
    expect((await refused(decodeRequestBody(truncated, 'gzip'))).code).toBe('ERR_MALFORMED_BODY')
  })

  it('refuses an unknown coding by name', () => {
    expect(() => parseContentEncoding('br')).toThrow(/unsupported Content-Encoding "br"/)
    expect(parseContentEncoding(' identity , gzip')).toEqual(['gzip'])
  })
})

describe('chooseResponseEncoding', () => {
  it.each([
    ['gzip', 'gzip'],
    ['gzip,deflate', 'gzip'],
    ['deflate, gzip', 'gzip'],
    ['deflate', 'deflate'],
    ['gzip;q=0, deflate', 'deflate'],
    ['GZip ; q=0.5', 'gzip'],
    ['x-gzip', 'gzip'],
    ['br', undefined],
    ['*', undefined],
    ['identity', undefined],
    ['', undefined],
    [undefined, undefined],
    [null, undefined],
  ])('answers %j with %s', (header, expected) => {
    expect(chooseResponseEncoding(header)).toBe(expected)
  })
})

describe('encodeResponseBody', () => {
  it('compresses a non-empty body for the chosen coding', async () => {
    const gz = await encodeResponseBody(body, 'gzip')
    expect(gz.encoding).toBe('gzip')
    expect(Buffer.from(gunzipSync(gz.body))).toEqual(Buffer.from(body))
    const df = await encodeResponseBody(body, 'deflate')
    expect(df.encoding).toBe('deflate')
    expect(Buffer.from(inflateSync(df.body))).toEqual(Buffer.from(body))
  })

  it('never compresses an empty body or when no coding was asked for', async () => {
    const empty = new Uint8Array(0)
    expect(await encodeResponseBody(empty, 'gzip')).toEqual({ body: empty, encoding: undefined })
    expect(await encodeResponseBody(body, undefined)).toEqual({ body, encoding: undefined })
  })
})
