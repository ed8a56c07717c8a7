/**
 * The one table of engine error codes. Each code has the HTTP status the contract gives it and a short
 * summary; messages carried by an {@link EngineError} name the field, the value and the limit.
 * The HTTP adapter maps `status` straight onto the response; in-process callers test
 * `isEngineError(e) && e.code === 'ERR_…'`.
 */
export const ERROR_CODES = {
  ERR_INVALID_OPTIONS: { status: 500, summary: 'engine options are invalid' },
  ERR_MALFORMED_BODY: { status: 400, summary: 'request body is not valid JSON or XML' },
  ERR_INVALID_FIELD: { status: 400, summary: 'a field has a wrong type, value or length' },
  ERR_MISSING_FIELD: { status: 400, summary: 'a required field is missing' },
  ERR_UNKNOWN_CONFIGURATION: { status: 400, summary: 'no configuration with this id' },
  ERR_UNKNOWN_ITEM: { status: 400, summary: 'no tuning item or template with this id' },
  ERR_PRIMARY_CONFIGURATION: { status: 400, summary: 'the primary configuration cannot be deleted or unset' },
  ERR_QUERY_SYNTAX: { status: 400, summary: 'a boolean query has a syntax error' },
  ERR_JOB_ID: { status: 400, summary: 'job_id used where it is not allowed' },
  ERR_NOT_FOUND: { status: 404, summary: 'no document or collection with this id' },
  ERR_UNAUTHORIZED: { status: 401, summary: 'authentication failed' },
  ERR_BALANCE: { status: 402, summary: 'documents balance exceeded' },
  ERR_CALL_LIMIT: { status: 402, summary: 'API calls limit exceeded' },
  ERR_LICENSE_EXPIRED: { status: 402, summary: 'license expired' },
  ERR_LANGUAGE_FORBIDDEN: { status: 403, summary: 'language not supported by the license' },
  ERR_FEATURE_FORBIDDEN: { status: 403, summary: 'feature not supported by the license' },
  ERR_BATCH_LIMIT: { status: 406, summary: 'too many documents in one batch or collection' },
  ERR_RESOURCE_LIMIT: { status: 406, summary: 'a per-configuration or per-account limit is reached' },
  ERR_DOCUMENT_TOO_LONG: { status: 413, summary: 'characters per single document exceeded' },
  ERR_BODY_TOO_LARGE: { status: 413, summary: 'request body too large' },
  ERR_QUEUE_FULL: { status: 429, summary: 'the account queue is full; retry after the time given (Retry-After)' },
  ERR_INTERNAL: { status: 500, summary: 'internal error' },
} as const satisfies Record<string, { status: number; summary: string }>

/** A code of {@link ERROR_CODES}. */
export type ErrorCode = keyof typeof ERROR_CODES

/** Error thrown by every engine function. `status` is the contract's HTTP status for `code`. */
export class EngineError extends Error {
  override readonly name = 'EngineError'
  readonly code: ErrorCode
  readonly status: number
  /** The field at fault, as a path like `documents[3].text`, when there is one. */
  readonly field: string | undefined
  /**
   * Seconds after which the same request may succeed (the HTTP adapter sends it as `Retry-After`), for refusals
   * that are about load rather than the request (ERR_QUEUE_FULL).
   */
  readonly retryAfterSeconds: number | undefined

  constructor(code: ErrorCode, message: string, field?: string, options?: { readonly retryAfterSeconds?: number }) {
    super(message)
    this.code = code
    this.status = ERROR_CODES[code].status
    this.field = field
    this.retryAfterSeconds = options?.retryAfterSeconds
  }
}

/** True when `e` is an {@link EngineError} (by name and code, so it works across realms and copies). */
export function isEngineError(e: unknown): e is EngineError {
  return (
    typeof e === 'object' &&
    e !== null &&
    (e as { name?: unknown }).name === 'EngineError' &&
    typeof (e as { code?: unknown }).code === 'string' &&
    (e as { code: string }).code in ERROR_CODES
  )
}

/** Shorthand used across the engine: `fail('ERR_INVALID_FIELD', 'name must …', 'name')`. */
export function fail(code: ErrorCode, message: string, field?: string): never {
  throw new EngineError(code, message, field)
}

/** Render a value for an error message: strings quoted and cut to 60 characters. */
export function show(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value.length > 60 ? value.slice(0, 57) + '...' : value)
  if (value === undefined) return 'undefined'
  try {
    const s = JSON.stringify(value)
    return s.length > 60 ? s.slice(0, 57) + '...' : s
  } catch {
    return String(value)
  }
}
