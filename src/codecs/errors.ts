/**
 * Errors of the wire codecs (JSON, XML, compression). Codes reuse the names of the engine's error table
 * (`src/errors.ts`) so the HTTP handler can map them the same way: `ERR_MALFORMED_BODY` -> 400,
 * `ERR_BODY_TOO_LARGE` -> 413, `ERR_UNSUPPORTED_ENCODING` -> 400, `ERR_UNENCODABLE` -> 500 (a bug on our side:
 * a response value that has no wire form).
 */
export const CODEC_ERROR_STATUS = {
  ERR_MALFORMED_BODY: 400,
  ERR_BODY_TOO_LARGE: 413,
  ERR_UNSUPPORTED_ENCODING: 400,
  ERR_UNENCODABLE: 500,
} as const satisfies Record<string, number>

/** A code of {@link CODEC_ERROR_STATUS}. */
export type CodecErrorCode = keyof typeof CODEC_ERROR_STATUS

/** Where in the input a problem was found. `line` and `column` are 1-based; `offset` counts UTF-16 units. */
export interface CodecErrorLocation {
  readonly line?: number
  readonly column?: number
  readonly offset?: number
  /** Path of the value at fault, e.g. `documents.document[2].text` or `$[0].weight`. */
  readonly path?: string
}

/** Error thrown by every codec function; `status` is the HTTP status the handler should answer with. */
export class CodecError extends Error {
  override readonly name = 'CodecError'
  readonly code: CodecErrorCode
  readonly status: number
  readonly location: CodecErrorLocation

  constructor(code: CodecErrorCode, message: string, location: CodecErrorLocation = {}) {
    super(message)
    this.code = code
    this.status = CODEC_ERROR_STATUS[code]
    this.location = location
  }
}

/** True when `e` is a {@link CodecError} (checked by name and code, so copies across realms pass too). */
export function isCodecError(e: unknown): e is CodecError {
  return (
    typeof e === 'object' &&
    e !== null &&
    (e as { name?: unknown }).name === 'CodecError' &&
    typeof (e as { code?: unknown }).code === 'string' &&
    (e as { code: string }).code in CODEC_ERROR_STATUS
  )
}

/** 1-based line and column of a UTF-16 offset in `text`. */
export function lineColumnAt(text: string, offset: number): { line: number; column: number } {
  let line = 1
  let lineStart = 0
  const end = Math.min(offset, text.length)
  for (let i = 0; i < end; i++) {
    if (text.charCodeAt(i) === 10) {
      line++
      lineStart = i + 1
    }
  }
  return { line, column: end - lineStart + 1 }
}
