import { gunzipSync, inflateSync } from 'node:zlib'
import { signUrl, type SignUrlOptions } from '../../src/auth/signature.ts'
import type { HttpHandler } from '../../src/http/handler.ts'

/** The accounts every HTTP test engine serves. */
export const ACCOUNTS = [
  { key: 'consumer-key', secret: 'consumer-secret', name: 'first' },
  { key: 'other-key', secret: 'other-secret', name: 'second' },
] as const

/** What {@link call} answers: status, headers and the decoded body text. */
export interface Answer {
  readonly status: number
  readonly headers: Headers
  readonly text: string
  /** The body parsed as JSON (undefined for an empty or non-JSON body). */
  readonly json: unknown
}

/** Options of {@link call}. */
export interface CallOptions extends SignUrlOptions {
  readonly body?: string | Uint8Array
  readonly headers?: Record<string, string>
  readonly account?: { readonly key: string; readonly secret: string }
  readonly base?: string
  readonly timestamp?: string | number
}

let nonce = 0

/** Sign a request like the client SDKs do and run it through the handler in-process. */
export async function call(handler: HttpHandler, method: string, path: string, options: CallOptions = {}): Promise<Answer> {
  const account = options.account ?? ACCOUNTS[0]
  nonce++
  const signed = signUrl((options.base ?? 'http://127.0.0.1:8080') + path, account.key, account.secret, String(1000 + nonce), options.timestamp ?? 1551274346, options)
  const response = await handler(
    new Request(signed.url, {
      method,
      headers: { authorization: signed.authorization, 'x-app-name': 'tests/node/1.0/json', ...options.headers },
      ...(options.body === undefined ? {} : { body: options.body as BodyInit }),
    }),
  )
  return read(response)
}

/** Read a response, undoing gzip/deflate. */
export async function read(response: Response): Promise<Answer> {
  let bytes: Buffer = Buffer.from(await response.arrayBuffer())
  const coding = response.headers.get('content-encoding')
  if (coding === 'gzip') bytes = gunzipSync(bytes)
  else if (coding === 'deflate') bytes = inflateSync(bytes)
  const text = bytes.toString('utf8')
  let json: unknown
  try {
    json = text === '' ? undefined : JSON.parse(text)
  } catch {
    json = undefined
  }
  return { status: response.status, headers: response.headers, text, json }
}
