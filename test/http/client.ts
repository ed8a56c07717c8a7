import { request } from 'node:http'
import { gunzipSync } from 'node:zlib'
import { signUrl, type SignUrlOptions } from '../../src/auth/signature.ts'

/** Answer of {@link send}. */
export interface WireAnswer {
  readonly status: number
  readonly headers: Record<string, string | string[] | undefined>
  readonly text: string
  readonly json: unknown
  /** Whether the server sent `100 Continue`. */
  readonly continued: boolean
}

/** Options of {@link send}: how the client signs and what it sends. */
export interface SendOptions extends SignUrlOptions {
  readonly key: string
  readonly secret: string
  readonly timestamp: number | string
  readonly body?: string | Buffer
  readonly headers?: Record<string, string>
  /** Send the body only after `100 Continue`. */
  readonly expectContinue?: boolean
}

let nonce = 0

/**
 * A real HTTP client that signs like the SDKs of client-compat §1: the full URL with the oauth parameters
 * appended (as query parameters or in the `oauth_verifier` form) is signed, and sent as the raw request target.
 */
export function send(port: number, method: string, pathAndQuery: string, o: SendOptions): Promise<WireAnswer> {
  nonce++
  const base = `http://127.0.0.1:${port}`
  const signed = signUrl(base + pathAndQuery, o.key, o.secret, String(45095438949668051540n + BigInt(nonce)).slice(0, 20), o.timestamp, o)
  const body = o.body === undefined ? undefined : Buffer.from(o.body)
  return new Promise((resolve, reject) => {
    let continued = false
    const req = request(
      {
        host: '127.0.0.1',
        port,
        method,
        path: signed.url.slice(base.length),
        headers: {
          authorization: signed.authorization,
          'x-api-version': '4.2',
          'x-app-name': 'wire-test/node/1.0/json',
          'accept-encoding': 'gzip',
          ...(body === undefined || o.headers?.['transfer-encoding'] !== undefined ? {} : { 'content-length': String(body.length) }),
          ...(o.expectContinue ? { expect: '100-continue' } : {}),
          ...o.headers,
        },
      },
      (res) => {
        const chunks: Buffer[] = []
        res.on('data', (c: Buffer) => chunks.push(c))
        res.on('end', () => {
          let raw = Buffer.concat(chunks)
          if (res.headers['content-encoding'] === 'gzip') raw = gunzipSync(raw)
          const text = raw.toString('utf8')
          let json: unknown
          try {
            json = text === '' ? undefined : JSON.parse(text)
          } catch {
            json = undefined
          }
          resolve({ status: res.statusCode ?? 0, headers: res.headers, text, json, continued })
        })
        res.on('error', reject)
      },
    )
    req.on('error', reject)
    if (o.expectContinue && body !== undefined) {
      req.on('continue', () => {
        continued = true
        req.end(body)
      })
    } else {
      req.end(body)
    }
  })
}
