/**
 * Errors a {@link Storage} raises on purpose. Both carry a stable `code` and the HTTP `status` the server
 * should answer with, so the HTTP layer can map them without knowing the backend.
 */

/**
 * The storage cannot be reached right now (Redis down, connection lost, command timed out). Raised fast
 * (well under a second once an outage is known) instead of hanging; nothing was changed by the failed call,
 * or, for a call that was sent but whose reply was lost, the call is one of the atomic storage methods, so
 * it either fully happened or not at all. Answer 503 with `Retry-After: retryAfterSeconds`.
 */
export class StorageUnavailableError extends Error {
  override readonly name = 'StorageUnavailableError'
  readonly code = 'ERR_STORAGE_UNAVAILABLE'
  /** HTTP status to answer with. */
  readonly status = 503
  /** Seconds after which a retry may succeed (at least 1): the storage's next reconnection attempt. */
  readonly retryAfterSeconds: number

  constructor(message: string, retryAfterSeconds = 1, options?: { cause?: unknown }) {
    super(message, options)
    this.retryAfterSeconds = Math.max(1, Math.ceil(retryAfterSeconds))
  }
}

/**
 * A value handed to the storage cannot be stored as it is: a number that is not finite (NaN, Infinity, as
 * `1e400` parses), a string with a lone surrogate, a value JSON has no form for (bigint, function, symbol,
 * class instances other than plain objects and arrays), or nesting too deep. `path` names the value, e.g.
 * `items[2].input.metadata.score`. Nothing of the call was stored. For submitted input answer 400.
 */
export class StorageValueError extends TypeError {
  override readonly name = 'StorageValueError'
  readonly code = 'ERR_STORAGE_VALUE'
  /** HTTP status to answer with when the value came from a request. */
  readonly status = 400
  /** Where the value sits, as a path like `items[0].output.entities[3].sentiment_score`. */
  readonly path: string

  constructor(path: string, problem: string) {
    super(`${path} ${problem}`)
    this.path = path
  }
}

/** True when `e` is a {@link StorageUnavailableError} (by name, so it works across copies of the module). */
export function isStorageUnavailable(e: unknown): e is StorageUnavailableError {
  return typeof e === 'object' && e !== null && (e as { name?: unknown }).name === 'StorageUnavailableError'
}

/** True when `e` is a {@link StorageValueError} (by name). */
export function isStorageValueError(e: unknown): e is StorageValueError {
  return typeof e === 'object' && e !== null && (e as { name?: unknown }).name === 'StorageValueError'
}
