import type { CollectionOutput, DocumentOutput } from '../model/output.ts'
import { StorageValueError } from './errors.ts'
import type { QueueItem } from './types.ts'

/*
 * What every storage can keep: JSON values. Both backends run items through these functions before storing
 * anything, so memory and Redis accept, refuse and drop exactly the same things.
 */

/** Nesting deeper than this is refused (a guard for the recursive walk; JSON parsers of the API refuse far less). */
export const MAX_DEPTH = 1000

const isWellFormed = (s: string): boolean => (s as unknown as { isWellFormed(): boolean }).isWellFormed()

/** Where the first lone surrogate of a string is, for messages. */
function loneSurrogate(s: string): string {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i)
    if (c >= 0xd800 && c <= 0xdbff) {
      const d = s.charCodeAt(i + 1)
      if (d >= 0xdc00 && d <= 0xdfff) {
        i++
        continue
      }
    } else if (!(c >= 0xdc00 && c <= 0xdfff)) continue
    return `a lone surrogate U+${c.toString(16).toUpperCase()} at character ${i + 1}`
  }
  return 'a lone surrogate'
}

function describe(v: unknown): string {
  if (typeof v === 'number') return String(v)
  if (typeof v === 'object' && v !== null) return `an instance of ${(v as object).constructor?.name ?? 'an unknown class'}`
  return `a ${typeof v}`
}

/**
 * A deep copy of a JSON value, frozen (`freeze`) or not, or a {@link StorageValueError} naming the first
 * value that cannot be stored: a non-finite number, a string (or property name) with a lone surrogate, a
 * bigint, function or symbol, an object that is neither a plain object (prototype Object.prototype or null)
 * nor an array, or nesting deeper than {@link MAX_DEPTH}. As JSON does: properties holding `undefined` are
 * dropped, `undefined` array elements and holes become null, -0 becomes 0.
 */
export function storableCopy<T>(value: T, path: string, freeze: boolean): T {
  try {
    return quick(value, 0, true, freeze) as T
  } catch (e) {
    if (e !== REFUSED) throw e
    return walk(value, path, 0, true, freeze) as T
  }
}

/** Throws {@link StorageValueError} as {@link storableCopy} does, copying nothing. */
export function checkStorable(value: unknown, path: string): void {
  try {
    quick(value, 0, false, false)
  } catch (e) {
    if (e !== REFUSED) throw e
    walk(value, path, 0, false, false)
  }
}

/** Thrown by {@link quick} at the first value that cannot be stored (never escapes this module). */
const REFUSED: unique symbol = Symbol('refused')

/**
 * {@link walk} without paths: the same values accepted, copied and frozen, but nothing refused is described (no path
 * string is built per value, which cost more than the check itself on large outputs). At the first refused value it
 * throws {@link REFUSED}, and the caller walks again with paths for the error.
 */
function quick(v: unknown, depth: number, copy: boolean, freeze: boolean): unknown {
  switch (typeof v) {
    case 'string':
      if (!isWellFormed(v)) throw REFUSED
      return v
    case 'number':
      if (!Number.isFinite(v)) throw REFUSED
      return v === 0 ? 0 : v
    case 'boolean':
      return v
    case 'object':
      break
    default:
      throw REFUSED
  }
  if (v === null) return null
  if (depth >= MAX_DEPTH) throw REFUSED
  if (Array.isArray(v)) {
    const out: unknown[] | undefined = copy ? new Array<unknown>(v.length) : undefined
    for (let i = 0; i < v.length; i++) {
      const e = v[i]
      const c = e === undefined ? null : quick(e, depth + 1, copy, freeze)
      if (out !== undefined) out[i] = c
    }
    return out === undefined ? v : freeze ? Object.freeze(out) : out
  }
  const proto = Object.getPrototypeOf(v) as unknown
  if (proto !== Object.prototype && proto !== null) throw REFUSED
  const out: Record<string, unknown> | undefined = copy ? {} : undefined
  for (const k in v as Record<string, unknown>) {
    if (!Object.prototype.hasOwnProperty.call(v, k)) continue
    const e = (v as Record<string, unknown>)[k]
    if (e === undefined) continue
    if (!isWellFormed(k)) throw REFUSED
    const c = quick(e, depth + 1, copy, freeze)
    if (out !== undefined) out[k] = c
  }
  return out === undefined ? v : freeze ? Object.freeze(out) : out
}

function walk(v: unknown, path: string, depth: number, copy: boolean, freeze: boolean): unknown {
  switch (typeof v) {
    case 'string':
      if (!isWellFormed(v)) throw new StorageValueError(path, `should be well-formed text, instead found ${loneSurrogate(v)}`)
      return v
    case 'number':
      if (!Number.isFinite(v)) throw new StorageValueError(path, `should be a finite number, instead found ${String(v)}`)
      return v === 0 ? 0 : v
    case 'boolean':
      return v
    case 'object':
      break
    default:
      throw new StorageValueError(path, `should be a JSON value (object, array, string, number, boolean or null), instead found ${describe(v)}`)
  }
  if (v === null) return null
  if (depth >= MAX_DEPTH) throw new StorageValueError(path, `should be nested at most ${MAX_DEPTH} levels deep, instead found deeper nesting`)
  if (Array.isArray(v)) {
    const out: unknown[] | undefined = copy ? new Array<unknown>(v.length) : undefined
    for (let i = 0; i < v.length; i++) {
      const e = v[i]
      const c = e === undefined ? null : walk(e, `${path}[${i}]`, depth + 1, copy, freeze)
      if (out !== undefined) out[i] = c
    }
    return out === undefined ? v : freeze ? Object.freeze(out) : out
  }
  const proto = Object.getPrototypeOf(v) as unknown
  if (proto !== Object.prototype && proto !== null) throw new StorageValueError(path, `should be a plain object or an array, instead found ${describe(v)}`)
  const out: Record<string, unknown> | undefined = copy ? {} : undefined
  for (const k in v as Record<string, unknown>) {
    if (!Object.prototype.hasOwnProperty.call(v, k)) continue
    const e = (v as Record<string, unknown>)[k]
    if (e === undefined) continue
    if (!isWellFormed(k)) throw new StorageValueError(`${path}[${JSON.stringify(k)}]`, `should have a well-formed property name, instead found ${loneSurrogate(k)}`)
    const c = walk(e, `${path}.${k}`, depth + 1, copy, freeze)
    if (out !== undefined) out[k] = c
  }
  return out === undefined ? v : freeze ? Object.freeze(out) : out
}

/**
 * The outcome `completeItem` stores for `done`: `done` itself when its output (and input) can be stored,
 * otherwise the same item FAILED, with an output holding only its id, configuration, job id, tag and a
 * `failure_reason` naming the value that could not be stored. Workers call it before `completeItem` to send
 * callbacks and count statistics on exactly what was stored.
 */
export function storableOutcome(done: QueueItem): QueueItem {
  try {
    checkStorable(done.output, 'output')
    return done
  } catch (e) {
    if (!(e instanceof StorageValueError)) throw e
    return failedOutcome(done, `the output could not be stored: ${e.message}`)
  }
}

/** `item` FAILED with a minimal output carrying `reason` (its tag kept only when it can be stored). */
export function failedOutcome(item: QueueItem, reason: string): QueueItem {
  const output: DocumentOutput | CollectionOutput = { id: item.id, config_id: item.configId, status: 'FAILED', failure_reason: reason }
  if (item.jobId !== undefined) output.job_id = item.jobId
  const tag = item.input?.tag
  if (typeof tag === 'string' && isWellFormed(tag)) output.tag = tag
  const failed: QueueItem = { ...item, status: 'FAILED', output }
  return failed
}
