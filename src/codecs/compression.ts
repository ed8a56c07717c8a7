import { promisify } from 'node:util'
import * as zlib from 'node:zlib'
import { CodecError } from './errors.ts'

/** A content coding this server reads and writes. */
export type ContentCoding = 'gzip' | 'deflate'

/** Options of {@link decodeRequestBody}. */
export interface DecodeBodyOptions {
  /**
   * Largest decompressed body accepted, in bytes; beyond it decompression stops and `ERR_BODY_TOO_LARGE` is thrown.
   * @defaultValue 8 MiB
   */
  readonly maxBytes?: number
}

const DEFAULT_MAX_BYTES = 8 * 1024 * 1024

const gunzip = promisify(zlib.gunzip)
const inflate = promisify(zlib.inflate)
const inflateRaw = promisify(zlib.inflateRaw)
const gzip = promisify(zlib.gzip)
const deflate = promisify(zlib.deflate)

function zlibCode(e: unknown): string | undefined {
  return typeof e === 'object' && e !== null ? String((e as { code?: unknown }).code ?? '') : undefined
}

async function inflateOne(
  coding: ContentCoding,
  input: Uint8Array,
  maxBytes: number,
): Promise<Uint8Array> {
  // maxOutputLength makes zlib stop (RangeError ERR_BUFFER_TOO_LARGE) once the output passes the limit, so a
  // gzip bomb costs at most maxBytes of memory.
  const opts = { maxOutputLength: maxBytes + 1 }
  try {
    if (coding === 'gzip') return await gunzip(input, opts)
    try {
      return await inflate(input, opts)
    } catch (e) {
      // "deflate" is meant to be zlib-wrapped, but some HTTP libraries send raw deflate.
      if (zlibCode(e) === 'ERR_BUFFER_TOO_LARGE') throw e
      return await inflateRaw(input, opts)
    }
  } catch (e) {
    if (zlibCode(e) === 'ERR_BUFFER_TOO_LARGE') {
      throw new CodecError(
        'ERR_BODY_TOO_LARGE',
        `request body decompresses (${coding}) to more than the limit of ${maxBytes} bytes`,
      )
    }
    const detail = e instanceof Error ? e.message : String(e)
    throw new CodecError('ERR_MALFORMED_BODY', `request body is not valid ${coding} data: ${detail}`)
  }
}

/**
 * The codings named by a `Content-Encoding` header, in the order they were applied. `identity` and empty pieces
 * are dropped; `x-gzip` is `gzip`. Throws `ERR_UNSUPPORTED_ENCODING` naming any other coding.
 */
export function parseContentEncoding(header: string | null | undefined): ContentCoding[] {
  if (header === null || header === undefined) return []
  const codings: ContentCoding[] = []
  for (const piece of header.split(',')) {
    const name = piece.trim().toLowerCase()
    if (name === '' || name === 'identity') continue
    if (name === 'gzip' || name === 'x-gzip') codings.push('gzip')
    else if (name === 'deflate') codings.push('deflate')
    else {
      throw new CodecError(
        'ERR_UNSUPPORTED_ENCODING',
        `unsupported Content-Encoding ${JSON.stringify(piece.trim())}: expected gzip, deflate or identity`,
      )
    }
  }
  return codings
}

/**
 * Undo the request's `Content-Encoding` (gzip, deflate, or none) with a limit on the decompressed size. The body
 * is returned as is when the header is absent or `identity`. Errors: `ERR_BODY_TOO_LARGE` when the output would
 * pass `maxBytes` (a compression bomb is stopped there), `ERR_MALFORMED_BODY` for corrupt data,
 * `ERR_UNSUPPORTED_ENCODING` for other codings.
 */
export async function decodeRequestBody(
  body: Uint8Array,
  contentEncoding: string | null | undefined,
  options: DecodeBodyOptions = {},
): Promise<Uint8Array> {
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_BYTES
  const codings = parseContentEncoding(contentEncoding)
  let data = body
  for (let i = codings.length - 1; i >= 0; i--) {
    const coding = codings[i]
    if (coding === undefined) continue
    data = await inflateOne(coding, data, maxBytes)
  }
  if (data.byteLength > maxBytes) {
    throw new CodecError('ERR_BODY_TOO_LARGE', `request body of ${data.byteLength} bytes is over the limit of ${maxBytes}`)
  }
  return data
}

/**
 * The coding to answer with, from the request's `Accept-Encoding` (client-compat §4): `gzip` when it is named
 * with a non-zero quality, else `deflate` when that is named, else none. `*` alone never compresses, as some
 * clients cannot read a coding they did not name.
 */
export function chooseResponseEncoding(acceptEncoding: string | null | undefined): ContentCoding | undefined {
  if (acceptEncoding === null || acceptEncoding === undefined) return undefined
  const accepted = new Set<string>()
  for (const piece of acceptEncoding.split(',')) {
    const [rawName, ...params] = piece.split(';')
    const name = (rawName ?? '').trim().toLowerCase()
    let quality = 1
    for (const p of params) {
      const m = /^\s*q\s*=\s*([0-9.]+)\s*$/i.exec(p)
      if (m?.[1] !== undefined) quality = Number(m[1])
    }
    if (quality > 0 && name !== '') accepted.add(name === 'x-gzip' ? 'gzip' : name)
  }
  if (accepted.has('gzip')) return 'gzip'
  if (accepted.has('deflate')) return 'deflate'
  return undefined
}

/**
 * Compress a response body for the coding {@link chooseResponseEncoding} chose. An empty body or no coding is
 * returned unchanged with `encoding: undefined` (so no `Content-Encoding` header is set).
 */
export async function encodeResponseBody(
  body: Uint8Array,
  coding: ContentCoding | undefined,
): Promise<{ body: Uint8Array; encoding: ContentCoding | undefined }> {
  if (coding === undefined || body.byteLength === 0) return { body, encoding: undefined }
  const out = coding === 'gzip' ? await gzip(body) : await deflate(body)
  return { body: out, encoding: coding }
}
