/**
 * Request signing of client-compat §1 for Node and browsers alike: no `node:` import, only `@noble/hashes`
 * (MD5, SHA-1, HMAC) and web globals (`TextEncoder`, `crypto.getRandomValues`, `btoa`).
 */
import { hmac } from '@noble/hashes/hmac.js'
import { md5, sha1 } from '@noble/hashes/legacy.js'
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js'

/** Options of {@link signUrl}. Both default to fresh values; tests pin them to reproduce a signature. */
export interface SignOptions {
  /** `oauth_nonce`: a random 64-bit unsigned decimal string when absent. */
  readonly nonce?: string
  /** `oauth_timestamp`: epoch seconds now when absent (clients also send milliseconds). */
  readonly timestamp?: string | number
}

/** What {@link signUrl} answers. */
export interface SignedRequest {
  /** The URL to request: the input with the five oauth parameters appended. */
  readonly url: string
  /** Value of the `Authorization` header (the signature in it percent-encoded). */
  readonly authorization: string
  /** Base64 HMAC-SHA1 signature, not percent-encoded. */
  readonly signature: string
}

/**
 * ESCAPE of client-compat §1, family 1 (RFC 3986): only `A-Z a-z 0-9 - . _ ~` kept, UTF-8 bytes as upper-case
 * `%XX`. Throws a `TypeError` for a lone surrogate (it has no UTF-8 form, so no URL holding it can be signed).
 */
export function escapeRfc3986(text: string): string {
  let encoded: string
  try {
    encoded = encodeURIComponent(text)
  } catch {
    throw new TypeError('the text holds a lone surrogate and cannot be percent-encoded')
  }
  return encoded.replace(/[!'()*]/g, (c) => '%' + c.charCodeAt(0).toString(16).toUpperCase())
}

/** The HMAC key of a secret: the lower-case hex MD5 of its UTF-8 bytes (32 ASCII characters, not the raw digest). */
export function signingKey(secret: string): string {
  return bytesToHex(md5(utf8ToBytes(secret)))
}

function base64(bytes: Uint8Array): string {
  let binary = ''
  for (const b of bytes) binary += String.fromCharCode(b)
  return btoa(binary)
}

/** The base64 signature of a full URL that already carries the oauth parameters. */
export function computeSignature(fullUrl: string, secret: string): string {
  const base = escapeRfc3986(fullUrl)
  return base64(hmac(sha1, utf8ToBytes(signingKey(secret)), utf8ToBytes(base)))
}

/** A random unsigned 64-bit integer in decimal (1 to 20 digits), as the SDKs send `oauth_nonce`. */
export function randomNonce(): string {
  const words = new Uint32Array(2)
  globalThis.crypto.getRandomValues(words)
  return ((BigInt(words[0] ?? 0) << 32n) | BigInt(words[1] ?? 0)).toString()
}

/**
 * Sign a request as client-compat §1 says: append `oauth_consumer_key`, `oauth_nonce`,
 * `oauth_signature_method=HMAC-SHA1`, `oauth_timestamp` and `oauth_version=1.0` to `url` (after `?` or `&`),
 * sign the whole URL with HMAC-SHA1 (key: the MD5 hex of the secret) over its RFC 3986 escaping, and build the
 * `Authorization` header: `OAuth realm="",` then the six parameters sorted and quoted, the signature
 * percent-encoded again. Neither the method nor the body is signed, so send `url` exactly as returned.
 */
export function signUrl(url: string, key: string, secret: string, options: SignOptions = {}): SignedRequest {
  const nonce = options.nonce ?? randomNonce()
  const timestamp = options.timestamp ?? Math.floor(Date.now() / 1000)
  const params =
    `oauth_consumer_key=${key}&oauth_nonce=${nonce}&oauth_signature_method=HMAC-SHA1` +
    `&oauth_timestamp=${timestamp}&oauth_version=1.0`
  const sep = url.includes('?') ? (url.endsWith('?') || url.endsWith('&') ? '' : '&') : '?'
  const full = url + sep + params
  const signature = computeSignature(full, secret)
  const authorization =
    `OAuth realm="",oauth_consumer_key="${key}",oauth_nonce="${nonce}",` +
    `oauth_signature="${encodeURIComponent(signature)}",oauth_signature_method="HMAC-SHA1",` +
    `oauth_timestamp="${timestamp}",oauth_version="1.0"`
  return { url: full, authorization, signature }
}
