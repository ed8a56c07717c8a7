import { createHash, randomUUID } from 'node:crypto'
import { Redis, ReplyError } from 'ioredis'
import type { RedisOptions } from 'ioredis'
import type { StatisticsCounters } from '../model/account.ts'
import { StorageUnavailableError, StorageValueError } from './errors.ts'
import { checkKey, checkLeaseMs, compareRows, zeroCounters } from './memory.ts'
import { DEFAULT_LEASE_MS } from './types.ts'
import type { ClaimOptions, ItemKey, ItemKind, QueueItem, QueueStatus, SettingsRecord, StatRow, Storage, StorageOptions, TakeFilter } from './types.ts'
import { checkStorable, failedOutcome, storableOutcome } from './values.ts'

export { StorageUnavailableError, isStorageUnavailable } from './errors.ts'

/** Options of {@link createRedisStorage}: a connection URL or a client, a key prefix, leases and logging. */
export interface RedisStorageOptions extends StorageOptions {
  /**
   * Where the one line per outage (and the one on recovery) goes.
   * @defaultValue console.error
   */
  log?: (line: string) => void
  /**
   * Redis URL (`redis://[user:password@]host:port[/db]`); the storage creates its own client and quits it on
   * `close()`. Give either `url` or `client`.
   * @defaultValue `'redis://127.0.0.1:6379'` when neither `url` nor `client` is given
   */
  url?: string
  /**
   * ioredis options for the client created from `url` (ignored with `client`), over
   * {@link FAULT_TOLERANT_OPTIONS} (fail fast while Redis is down, reconnect for ever).
   */
  redisOptions?: RedisOptions
  /** An ioredis client owned by the caller: used as is and NOT quit on `close()`. */
  client?: Redis
  /**
   * Prefix of every key. For Redis Cluster give a prefix with a hash tag (e.g. `'{textengine}:'`) so that all
   * keys share one slot, which the scripts need.
   * @defaultValue `'textengine:'`
   */
  prefix?: string
}

/** A Lua script run by EVALSHA, falling back to EVAL when the server does not know it yet. */
interface LuaScript {
  lua: string
  sha: string
}

function script(lua: string): LuaScript {
  return { lua, sha: createHash('sha1').update(lua).digest('hex') }
}

/*
 * Item layout (all under the prefix). The item key field `k` is JSON [account, kind, configId, id].
 *   KEYS[1]  item:      hash k -> the item as put, JSON, without status, output, finishedAt or lease fields
 *   KEYS[2]  status:    hash k -> QUEUED | PROCESSING | PROCESSED | FAILED
 *   KEYS[3]  seq:       hash k -> seq (as JavaScript printed it)
 *   KEYS[4]  queued:    zset of k by seq, QUEUED items only
 *   KEYS[5]  submitted: zset of k by submittedAt, every item (for purgeBefore)
 *   KEYS[6]  doneidx:   hash k -> name of the finished-items zset that holds k
 *   KEYS[7]  out:       hash k -> JSON {finishedAt?, output?} of a finished item
 *   KEYS[8]  leases:    zset of k by lease expiry (epoch ms), PROCESSING items only
 *   KEYS[9]  claim:     hash k -> lease token of a PROCESSING item
 *   KEYS[10] attempts:  hash k -> how many times the item was claimed
 *   KEYS[11] pending:   hash account -> QUEUED + PROCESSING items of the account (fields at 0 are deleted)
 * Finished items sit in one zset (by seq) per (account, kind, configuration) for items without a job id, or per
 * (account, kind, job id) for items with one; its name is computed in JavaScript (see `doneKey`).
 */
const ITEM_PRELUDE = `
local function addPending(k, delta)
  local account = cjson.decode(k)[1]
  if redis.call('HINCRBY', KEYS[11], account, delta) <= 0 then redis.call('HDEL', KEYS[11], account) end
end
local function isFinished(s)
  return s == 'PROCESSED' or s == 'FAILED'
end
local function removeItem(k)
  local s = redis.call('HGET', KEYS[2], k)
  if not s then return end
  if not isFinished(s) then addPending(k, -1) end
  local d = redis.call('HGET', KEYS[6], k)
  if d then redis.call('ZREM', d, k) end
  redis.call('HDEL', KEYS[1], k)
  redis.call('HDEL', KEYS[2], k)
  redis.call('HDEL', KEYS[3], k)
  redis.call('HDEL', KEYS[6], k)
  redis.call('HDEL', KEYS[7], k)
  redis.call('HDEL', KEYS[9], k)
  redis.call('HDEL', KEYS[10], k)
  redis.call('ZREM', KEYS[4], k)
  redis.call('ZREM', KEYS[5], k)
  redis.call('ZREM', KEYS[8], k)
end
-- The item k when the caller holds its lease (PROCESSING, same seq and token).
local function holds(k, seq, token)
  return redis.call('HGET', KEYS[2], k) == 'PROCESSING' and redis.call('HGET', KEYS[3], k) == seq and redis.call('HGET', KEYS[9], k) == token
end
`

/** ARGV: groups of (k, body, status, seq, submittedAt, doneKey or '', out JSON or ''). PROCESSING is put as QUEUED. */
const PUT = script(`${ITEM_PRELUDE}
for i = 1, #ARGV, 7 do
  local k, status, seq, doneKey = ARGV[i], ARGV[i + 2], ARGV[i + 3], ARGV[i + 5]
  removeItem(k)
  if not isFinished(status) then status = 'QUEUED' end
  redis.call('HSET', KEYS[1], k, ARGV[i + 1])
  redis.call('HSET', KEYS[2], k, status)
  redis.call('HSET', KEYS[3], k, seq)
  redis.call('ZADD', KEYS[5], ARGV[i + 4], k)
  if status == 'QUEUED' then
    redis.call('ZADD', KEYS[4], seq, k)
    addPending(k, 1)
  else
    redis.call('ZADD', doneKey, seq, k)
    redis.call('HSET', KEYS[6], k, doneKey)
    redis.call('HSET', KEYS[7], k, ARGV[i + 6])
  end
end
return #ARGV / 7
`)

/** ARGV: k. Returns {body, status, out or false} or nil. */
const GET = script(`
local body = redis.call('HGET', KEYS[1], ARGV[1])
if not body then return nil end
return {body, redis.call('HGET', KEYS[2], ARGV[1]), redis.call('HGET', KEYS[7], ARGV[1])}
`)

/**
 * ARGV: now, lease expiry, limit (-1 for all), token prefix. Claims expired leases (earliest first), then QUEUED
 * items (lowest seq first). Returns flat {body, token, attempts, ...}.
 */
const CLAIM = script(`${ITEM_PRELUDE}
local n = tonumber(ARGV[3])
local ks
if n < 0 then
  ks = redis.call('ZRANGEBYSCORE', KEYS[8], '-inf', ARGV[1])
else
  ks = redis.call('ZRANGEBYSCORE', KEYS[8], '-inf', ARGV[1], 'LIMIT', 0, n)
end
if n < 0 or #ks < n then
  local q = redis.call('ZRANGE', KEYS[4], 0, n < 0 and -1 or n - #ks - 1)
  for _, k in ipairs(q) do
    redis.call('ZREM', KEYS[4], k)
    redis.call('HSET', KEYS[2], k, 'PROCESSING')
    ks[#ks + 1] = k
  end
end
local out = {}
for i, k in ipairs(ks) do
  local token = ARGV[4] .. (i - 1)
  redis.call('ZADD', KEYS[8], ARGV[2], k)
  redis.call('HSET', KEYS[9], k, token)
  out[#out + 1] = redis.call('HGET', KEYS[1], k)
  out[#out + 1] = token
  out[#out + 1] = redis.call('HINCRBY', KEYS[10], k, 1)
end
return out
`)

/** ARGV: k, seq, token, new expiry. Returns 1 when extended. */
const EXTEND = script(`${ITEM_PRELUDE}
if not holds(ARGV[1], ARGV[2], ARGV[3]) then return 0 end
redis.call('ZADD', KEYS[8], ARGV[4], ARGV[1])
return 1
`)

/** ARGV: k, seq, token. Returns 1 when released (QUEUED again at its seq). */
const RELEASE = script(`${ITEM_PRELUDE}
local k = ARGV[1]
if not holds(k, ARGV[2], ARGV[3]) then return 0 end
redis.call('ZREM', KEYS[8], k)
redis.call('HDEL', KEYS[9], k)
redis.call('HSET', KEYS[2], k, 'QUEUED')
redis.call('ZADD', KEYS[4], ARGV[2], k)
return 1
`)

/** ARGV: k, seq, token, status, out JSON, doneKey. Returns 1 when stored. */
const COMPLETE = script(`${ITEM_PRELUDE}
local k, seq, doneKey = ARGV[1], ARGV[2], ARGV[6]
if not holds(k, seq, ARGV[3]) then return 0 end
redis.call('ZREM', KEYS[8], k)
redis.call('HDEL', KEYS[9], k)
redis.call('HDEL', KEYS[10], k)
redis.call('HSET', KEYS[2], k, ARGV[4])
redis.call('HSET', KEYS[7], k, ARGV[5])
redis.call('ZADD', doneKey, seq, k)
redis.call('HSET', KEYS[6], k, doneKey)
addPending(k, -1)
return 1
`)

/** ARGV: doneKey, last index (limit - 1, or -1 for all). Returns flat {k, body, status, out, ...} of the removed items, oldest seq first. */
const TAKE_PROCESSED = script(`${ITEM_PRELUDE}
local ks = redis.call('ZRANGE', ARGV[1], 0, ARGV[2])
local out = {}
for _, k in ipairs(ks) do
  out[#out + 1] = k
  out[#out + 1] = redis.call('HGET', KEYS[1], k) or ''
  out[#out + 1] = redis.call('HGET', KEYS[2], k) or 'FAILED'
  out[#out + 1] = redis.call('HGET', KEYS[7], k) or ''
  removeItem(k)
end
return out
`)

/** ARGV: k. Returns {body, status, out} of the removed finished item, or nil. */
const TAKE_ITEM = script(`${ITEM_PRELUDE}
local k = ARGV[1]
local status = redis.call('HGET', KEYS[2], k)
if not status or not isFinished(status) then return nil end
local reply = {redis.call('HGET', KEYS[1], k) or '', status, redis.call('HGET', KEYS[7], k) or ''}
removeItem(k)
return reply
`)

/** ARGV: k. Returns 'cancelled', 'not-queued' or 'missing'. */
const CANCEL = script(`${ITEM_PRELUDE}
local k = ARGV[1]
local status = redis.call('HGET', KEYS[2], k)
if not status then return 'missing' end
if isFinished(status) then return 'not-queued' end
removeItem(k)
return 'cancelled'
`)

/** ARGV: beforeMs. Returns how many items were removed. */
/** ARGV: beforeMs, at most how many to remove. Returns how many items were removed. */
const PURGE = script(`${ITEM_PRELUDE}
local ks = redis.call('ZRANGEBYSCORE', KEYS[5], '-inf', '(' .. ARGV[1], 'LIMIT', 0, ARGV[2])
for _, k in ipairs(ks) do removeItem(k) end
return #ks
`)

/** Items one purge script removes at most (a long purge runs as several scripts, so Redis never stalls long). */
const PURGE_BATCH = 1000

/**
 * KEYS: the item keys, then the layout marker. ARGV: now, layout version. Brings items stored by a version without
 * leases up to date, once per prefix: every PROCESSING item without a lease gets one that has already expired (its
 * worker is gone: such items used to stay PROCESSING for ever), and the pending counts are rebuilt. Returns how
 * many leases it added, or -1 when the prefix was already up to date.
 */
const MIGRATE = script(`
if redis.call('GET', KEYS[12]) == ARGV[2] then return -1 end
local flat = redis.call('HGETALL', KEYS[2])
local counts = {}
local added = 0
for i = 1, #flat, 2 do
  local k, s = flat[i], flat[i + 1]
  if s == 'PROCESSING' and not redis.call('ZSCORE', KEYS[8], k) then
    redis.call('ZADD', KEYS[8], ARGV[1], k)
    added = added + 1
  end
  if s == 'QUEUED' or s == 'PROCESSING' then
    local account = cjson.decode(k)[1]
    counts[account] = (counts[account] or 0) + 1
  end
end
redis.call('DEL', KEYS[11])
for account, n in pairs(counts) do redis.call('HSET', KEYS[11], account, n) end
redis.call('SET', KEYS[12], ARGV[2])
return added
`)

/** Version of the key layout (see MIGRATE): 2 added leases and pending counts. */
const LAYOUT = '2'

/** KEYS: settings hash, versions hash. ARGV: account, record JSON, expected version, new version. */
const SAVE_SETTINGS = script(`
local current = redis.call('HGET', KEYS[2], ARGV[1]) or '0'
if tonumber(current) ~= tonumber(ARGV[3]) then return 0 end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
redis.call('HSET', KEYS[2], ARGV[1], ARGV[4])
return 1
`)

/**
 * KEYS: the account's job-id zset (member job id, score last use). ARGV: jobId, nowMs, windowMs, limit.
 * Returns {accepted (0/1), count}.
 */
const USE_JOB_ID = script(`
local now, window, limit = tonumber(ARGV[2]), tonumber(ARGV[3]), tonumber(ARGV[4])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - window)
local last = redis.call('ZSCORE', KEYS[1], ARGV[1])
local count = redis.call('ZCARD', KEYS[1])
if last or count < limit then
  if not last or tonumber(last) < now then redis.call('ZADD', KEYS[1], ARGV[2], ARGV[1]) end
  return {1, redis.call('ZCARD', KEYS[1])}
end
return {0, count}
`)

/**
 * KEYS: the account's counter hash (field JSON [configId, app, language, bucket, name]) and row zset (member
 * JSON [configId, app, language, bucket], score bucket). ARGV: from, to (exclusive), counter names as JSON
 * strings. Returns flat {row, value per name, ...}.
 */
const READ_COUNTERS = script(`
local rows = redis.call('ZRANGEBYSCORE', KEYS[2], ARGV[1], '(' .. ARGV[2])
local out = {}
for _, row in ipairs(rows) do
  out[#out + 1] = row
  local head = string.sub(row, 1, -2)
  for i = 3, #ARGV do
    out[#out + 1] = redis.call('HGET', KEYS[1], head .. ',' .. ARGV[i] .. ']') or '0'
  end
end
return out
`)

const COUNTER_NAMES = Object.keys(zeroCounters()) as Array<keyof StatisticsCounters>

function itemField(key: ItemKey): string {
  return JSON.stringify([key.account, key.kind, key.configId, key.id])
}

function isFinished(status: QueueStatus): boolean {
  return status === 'PROCESSED' || status === 'FAILED'
}

/** A number as a Redis score: finite numbers as JavaScript prints them, infinities as Redis spells them. */
function score(n: number, what: string): string {
  if (Number.isNaN(n)) throw new TypeError(`Redis storage: ${what} should be a number, instead found NaN`)
  if (n === Infinity) return '+inf'
  if (n === -Infinity) return '-inf'
  return String(n)
}

/** The ZRANGE stop index for a limit (as `Array#slice` reads it): undefined for none, -1 for all. */
function lastIndex(limit: number): number | undefined {
  if (limit === Infinity) return -1
  const n = Math.trunc(limit)
  return n > 0 ? n - 1 : undefined
}

/** A number as a Lua script reads it with `tonumber` (which does not know `inf`). */
function luaNumber(n: number, what: string): string {
  if (Number.isNaN(n)) throw new TypeError(`Redis storage: ${what} should be a number, instead found NaN`)
  if (n === Infinity) return '1e999'
  if (n === -Infinity) return '-1e999'
  return String(n)
}

/** Settings of the client the storage creates from a URL: fail fast while Redis is down, reconnect forever. */
export const FAULT_TOLERANT_OPTIONS: RedisOptions = {
  // A command sent while disconnected waits for at most one reconnection attempt, then fails.
  maxRetriesPerRequest: 1,
  connectTimeout: 2_000,
  // A server that accepts the connection but does not answer (stopped, overloaded) fails the command too.
  commandTimeout: 5_000,
  // Keep reconnecting for ever: 100 ms, 200 ms, ... at most 2 s apart.
  retryStrategy: (times: number) => Math.min(100 * 2 ** Math.min(times - 1, 5), 2_000),
}

/** Reply errors that mean "unavailable for now", not "wrong command". */
const TRANSIENT_REPLY = /^(LOADING|BUSY|MASTERDOWN|TRYAGAIN|CLUSTERDOWN|READONLY)\b/

/**
 * A storage in Redis (through ioredis), for engines that share a queue and settings across processes or keep them
 * across restarts. Every method is one Lua script or one MULTI, so each is atomic on its own, as the `Storage`
 * contract asks. Values are checked (see `storableCopy`: what Redis cannot keep is refused, as the memory storage
 * refuses it), stored as JSON and parsed on every read, so callers always get fresh copies.
 *
 * Leases: a claimed item is in a sorted set by lease expiry; `claimQueued` takes expired ones first, so items of a
 * process killed mid-batch are reclaimed by any other process. Lease times come from each caller's clock (`now`
 * option or `nowMs`): keep the clocks of processes sharing a prefix in sync to well under `leaseMs`.
 *
 * Faults: while Redis cannot be reached every call throws {@link StorageUnavailableError} at once (the first call of
 * an outage within about a second), the client keeps reconnecting in the background, and calls work again once
 * it is back. One line is logged when an outage starts and one when it ends; the client's `error` events are
 * handled (a client given in `options.client` gets the same listeners; its own options decide how it retries).
 *
 * Upgrades: the first item call of a storage brings a prefix written by a version without leases up to date once
 * (stuck PROCESSING items become reclaimable, per-account counts are rebuilt; one O(items) script). Stop processes
 * of the older version before starting this one on the same prefix.
 *
 * Uses only EVALSHA/EVAL, hashes and sorted sets (tested with Redis 7.0). Scripts build the names of some keys
 * from stored data, so on Redis Cluster give a prefix with a hash tag (see {@link RedisStorageOptions.prefix}).
 */
export function createRedisStorage(options: RedisStorageOptions = {}): Storage {
  if (options.url !== undefined && options.client !== undefined) {
    throw new TypeError('Redis storage: give either options.url or options.client, not both')
  }
  const prefix = options.prefix ?? 'textengine:'
  if (typeof prefix !== 'string') throw new TypeError(`Redis storage: options.prefix should be a string, instead found ${typeof prefix}`)
  const defaultLeaseMs = options.leaseMs === undefined ? DEFAULT_LEASE_MS : checkLeaseMs(options.leaseMs, 'Redis storage: options.leaseMs')
  const clock = options.now ?? Date.now
  const log = options.log ?? ((line: string) => console.error(line))
  const owned = options.client === undefined
  let lastDelayMs = 1_000
  const given = options.redisOptions ?? {}
  const retry = given.retryStrategy ?? FAULT_TOLERANT_OPTIONS.retryStrategy!
  const client =
    options.client ??
    new Redis(options.url ?? 'redis://127.0.0.1:6379', {
      ...FAULT_TOLERANT_OPTIONS,
      ...given,
      retryStrategy: (times: number) => {
        const d = retry(times)
        if (typeof d === 'number') lastDelayMs = d
        return d
      },
    })
  const where = `${client.options.host ?? '?'}:${client.options.port ?? '?'}`

  // One log line when an outage starts (the first error or lost connection), one when Redis is back.
  let closing = false
  let outage: { since: number; reason: string } | undefined
  const startOutage = (reason: string): void => {
    if (closing || outage !== undefined) return
    outage = { since: Date.now(), reason }
    log(`Redis storage: Redis at ${where} is unavailable (${reason}); calls fail with StorageUnavailableError (503) and the client reconnects in the background`)
  }
  const onError = (e: unknown): void => startOutage(e instanceof Error ? e.message || e.name : String(e))
  const onReconnecting = (): void => startOutage('connection lost')
  const onReady = (): void => {
    if (outage === undefined) return
    log(`Redis storage: Redis at ${where} is reachable again after ${((Date.now() - outage.since) / 1000).toFixed(1)} s`)
    outage = undefined
  }
  client.on('error', onError)
  client.on('reconnecting', onReconnecting)
  client.on('ready', onReady)

  const unavailable = (detail: string, cause?: unknown): StorageUnavailableError =>
    new StorageUnavailableError(`storage unavailable: Redis at ${where} cannot be reached (${detail}); try again shortly`, lastDelayMs / 1000, { cause })

  /** Run one Redis call, failing fast while an outage is known and turning connection failures into StorageUnavailableError. */
  async function call<T>(f: () => Promise<T>): Promise<T> {
    if (closing) throw new Error('Redis storage: closed')
    if (outage !== undefined && client.status !== 'ready') throw unavailable(outage.reason)
    try {
      const result = await f()
      // A stalled server (commands timed out, connection kept) recovers without a new 'ready' event.
      if (outage !== undefined) onReady()
      return result
    } catch (e) {
      if (e instanceof ReplyError && !TRANSIENT_REPLY.test((e as Error).message)) throw e
      const detail = e instanceof Error ? e.message : String(e)
      startOutage(detail)
      throw unavailable(detail, e)
    }
  }

  const itemKeys = ['item', 'status', 'seq', 'queued', 'submitted', 'doneidx', 'out', 'leases', 'claim', 'attempts', 'pending'].map((n) => `${prefix}${n}`)
  const settingsKeys = [`${prefix}settings`, `${prefix}settingsver`]
  const doneKey = (account: string, kind: ItemKind, filter: TakeFilter): string =>
    'jobId' in filter
      ? `${prefix}done:${JSON.stringify([account, kind, 'job', filter.jobId])}`
      : `${prefix}done:${JSON.stringify([account, kind, 'config', filter.configId])}`
  const doneKeyOf = (item: Pick<QueueItem, 'account' | 'kind' | 'configId' | 'jobId'>): string =>
    doneKey(item.account, item.kind, item.jobId === undefined ? { configId: item.configId } : { jobId: item.jobId })

  function run(s: LuaScript, keys: readonly string[], args: ReadonlyArray<string | number>): Promise<unknown> {
    return call(async () => {
      try {
        return await client.evalsha(s.sha, keys.length, ...keys, ...args)
      } catch (e) {
        if (!(e instanceof Error) || !e.message.startsWith('NOSCRIPT')) throw e
        return await client.eval(s.lua, keys.length, ...keys, ...args)
      }
    })
  }

  /** Items stored by an older layout brought up to date, once per storage (retried after a failure). */
  let layoutReady: Promise<void> | undefined
  function ensureLayout(): Promise<void> {
    layoutReady ??= run(MIGRATE, [...itemKeys, `${prefix}layout`], [String(clock()), LAYOUT]).then(
      () => undefined,
      (e: unknown) => {
        layoutReady = undefined
        throw e
      },
    )
    return layoutReady
  }
  /** An item script, after the layout check. */
  async function runItem(s: LuaScript, args: ReadonlyArray<string | number>): Promise<unknown> {
    await ensureLayout()
    return run(s, itemKeys, args)
  }

  function claimOptions(o: ClaimOptions | undefined, what: string): { nowMs: number; leaseMs: number } {
    const nowMs = o?.nowMs ?? clock()
    if (typeof nowMs !== 'number' || !Number.isFinite(nowMs)) throw new TypeError(`Redis storage: ${what}: nowMs should be a finite number, instead found ${String(nowMs)}`)
    const leaseMs = o?.leaseMs === undefined ? defaultLeaseMs : checkLeaseMs(o.leaseMs, `Redis storage: ${what}: leaseMs`)
    return { nowMs, leaseMs }
  }

  /** The put part of an item as JSON (checked: refuses what cannot be stored). */
  function bodyOf(item: QueueItem, path: string): string {
    checkKey(item, path)
    const { status: _s, claim: _c, leaseExpiresAt: _l, attempts: _a, output: _o, finishedAt: _f, ...rest } = item
    checkStorable(rest, path)
    return JSON.stringify(rest)
  }

  /** The finished part of an item as JSON (checked). */
  function outOf(item: QueueItem, path: string): string {
    const out: { finishedAt?: number; output?: unknown } = {}
    if (item.finishedAt !== undefined && Number.isFinite(item.finishedAt)) out.finishedAt = item.finishedAt
    if (item.output !== undefined) out.output = item.output
    checkStorable(out.output, `${path}.output`)
    return JSON.stringify(out)
  }

  /**
   * An item from its stored parts. Parts that cannot be read back (stored by an older version, or changed by
   * hand) never throw: the item comes back FAILED with a reason, so one bad item cannot fail a whole batch.
   */
  function parseItem(k: string, body: string, status: string, out: string | false | null): QueueItem {
    let item: QueueItem
    try {
      item = JSON.parse(body) as QueueItem
      checkKey(item, 'stored item')
    } catch (e) {
      const [account, kind, configId, id] = JSON.parse(k) as [string, ItemKind, string, string]
      const broken: QueueItem = { account, kind, configId, id, status: 'FAILED', seq: 0, submittedAt: 0, input: { text: '' } }
      return failedOutcome(broken, `the stored item could not be read: ${e instanceof Error ? e.message : String(e)}`)
    }
    item.status = status as QueueStatus
    if (!isFinished(item.status) || typeof out !== 'string' || out === '') return item
    try {
      const parsed = JSON.parse(out) as { finishedAt?: number; output?: QueueItem['output'] }
      checkStorable(parsed.output, 'stored output')
      if (parsed.finishedAt !== undefined) item.finishedAt = parsed.finishedAt
      if (parsed.output !== undefined) item.output = parsed.output
      return item
    } catch (e) {
      return failedOutcome(item, `the stored output could not be read: ${e instanceof Error ? e.message : String(e)}`)
    }
  }

  return {
    async loadSettings(account) {
      const json = await call(() => client.hget(settingsKeys[0]!, account))
      return json === null ? undefined : (JSON.parse(json) as SettingsRecord)
    },

    async settingsVersion(account) {
      return Number((await call(() => client.hget(settingsKeys[1]!, account))) ?? 0)
    },

    async saveSettings(account, record, expectedVersion) {
      const json = JSON.stringify(record)
      const stored = await run(SAVE_SETTINGS, settingsKeys, [account, json, luaNumber(expectedVersion, 'expectedVersion'), luaNumber(record.version, 'record.version')])
      return stored === 1
    },

    async putItems(list) {
      if (list.length === 0) return
      // Serialize (and check) everything first so a value that cannot be stored stores nothing.
      const args: string[] = []
      list.forEach((item, i) => {
        const path = `items[${i}]`
        const body = bodyOf(item, path)
        const status = item.status
        if (!isFinished(status) && status !== 'QUEUED' && status !== 'PROCESSING') throw new StorageValueError(`${path}.status`, `is ${JSON.stringify(status)}, not a queue status`)
        const finished = isFinished(status)
        args.push(itemField(item), body, status, String(item.seq), String(item.submittedAt), finished ? doneKeyOf(item) : '', finished ? outOf(item, path) : '')
      })
      await runItem(PUT, args)
    },

    async getItem(key) {
      const k = itemField(key)
      const reply = (await runItem(GET, [k])) as [string, string, string | null] | null
      return reply === null ? undefined : parseItem(k, reply[0], reply[1], reply[2])
    },

    async claimQueued(limit, o) {
      const { nowMs, leaseMs } = claimOptions(o, 'claimQueued')
      const n = limit === Infinity ? -1 : Math.trunc(limit)
      if (limit !== Infinity && !(n > 0)) return []
      const expiresAt = nowMs + leaseMs
      const flat = (await runItem(CLAIM, [String(nowMs), String(expiresAt), n, `${randomUUID()}:`])) as Array<string | number>
      const out: QueueItem[] = []
      for (let i = 0; i + 2 < flat.length; i += 3) {
        const body = flat[i] as string
        const item = JSON.parse(body) as QueueItem
        out.push({ ...item, status: 'PROCESSING', claim: String(flat[i + 1]), leaseExpiresAt: expiresAt, attempts: Number(flat[i + 2]) })
      }
      return out
    },

    async extendLease(item, o) {
      const { nowMs, leaseMs } = claimOptions(o, 'extendLease')
      if (typeof item.claim !== 'string' || !Number.isFinite(item.seq)) return undefined
      const expiresAt = nowMs + leaseMs
      const ok = await runItem(EXTEND, [itemField(item), String(item.seq), item.claim, String(expiresAt)])
      return ok === 1 ? expiresAt : undefined
    },

    async releaseItem(item) {
      if (typeof item.claim !== 'string' || !Number.isFinite(item.seq)) return false
      return (await runItem(RELEASE, [itemField(item), String(item.seq), item.claim])) === 1
    },

    async completeItem(item) {
      if (!isFinished(item.status) || typeof item.claim !== 'string' || !Number.isFinite(item.seq)) return false
      const done = storableOutcome(item)
      const args = [itemField(item), String(item.seq), item.claim, done.status, outOf(done, 'item'), doneKeyOf(item)]
      return (await runItem(COMPLETE, args)) === 1
    },

    async countQueued(account) {
      await ensureLayout()
      return Number((await call(() => client.hget(itemKeys[10]!, account))) ?? 0)
    },

    async takeProcessed(account, kind, filter, limit) {
      const stop = lastIndex(limit)
      if (stop === undefined) return []
      const flat = (await runItem(TAKE_PROCESSED, [doneKey(account, kind, filter), stop])) as string[]
      const out: QueueItem[] = []
      for (let i = 0; i + 3 < flat.length; i += 4) out.push(parseItem(flat[i]!, flat[i + 1]!, flat[i + 2]!, flat[i + 3]!))
      return out
    },

    async takeItem(key) {
      const k = itemField(key)
      const reply = (await runItem(TAKE_ITEM, [k])) as [string, string, string] | null
      return reply === null ? undefined : parseItem(k, reply[0], reply[1], reply[2])
    },

    async cancelQueued(key) {
      return (await runItem(CANCEL, [itemField(key)])) as 'cancelled' | 'not-queued' | 'missing'
    },

    async purgeBefore(beforeMs) {
      const before = score(beforeMs, 'beforeMs')
      let removed = 0
      for (;;) {
        const n = (await runItem(PURGE, [before, PURGE_BATCH])) as number
        removed += n
        if (n < PURGE_BATCH) return removed
      }
    },

    async useJobId(account, jobId, nowMs, windowMs, limit) {
      const args = [jobId, luaNumber(nowMs, 'nowMs'), luaNumber(windowMs, 'windowMs'), luaNumber(limit, 'limit')]
      const [accepted, count] = (await run(USE_JOB_ID, [`${prefix}jobs:${account}`], args)) as [number, number]
      return { accepted: accepted === 1, count }
    },

    async addCounters(account, dims, bucketStartMs, add) {
      const row = [dims.configId, dims.app, dims.language, bucketStartMs]
      const tx = client.multi().zadd(`${prefix}ctrrows:${account}`, score(bucketStartMs, 'bucketStartMs'), JSON.stringify(row))
      for (const name of COUNTER_NAMES) {
        const v = add[name]
        if (typeof v === 'number' && Number.isFinite(v)) tx.hincrbyfloat(`${prefix}ctr:${account}`, JSON.stringify([...row, name]), v)
      }
      const replies = await call(() => tx.exec())
      const failed = replies?.find(([err]) => err !== null)
      if (replies === null) throw new Error('Redis storage: addCounters transaction was aborted')
      if (failed !== undefined) throw failed[0] as Error
    },

    async readCounters(account, fromMs, toMs) {
      const names = COUNTER_NAMES.map((n) => JSON.stringify(n))
      const keys = [`${prefix}ctr:${account}`, `${prefix}ctrrows:${account}`]
      const flat = (await run(READ_COUNTERS, keys, [score(fromMs, 'fromMs'), score(toMs, 'toMs'), ...names])) as string[]
      const rows: StatRow[] = []
      const width = COUNTER_NAMES.length + 1
      for (let i = 0; i + width <= flat.length; i += width) {
        const [configId, app, language, bucketStart] = JSON.parse(flat[i]!) as [string, string, string, number]
        const counters = zeroCounters()
        COUNTER_NAMES.forEach((name, j) => {
          counters[name] = Number(flat[i + 1 + j])
        })
        rows.push({ configId, app, language, bucketStart, counters })
      }
      return rows.sort(compareRows)
    },

    async close() {
      if (closing) return
      closing = true
      client.off('error', onError)
      client.off('reconnecting', onReconnecting)
      client.off('ready', onReady)
      if (!owned) return
      // Swallow errors of a client that is going away (a quit racing a lost connection).
      client.on('error', () => {})
      if (client.status === 'ready') {
        try {
          await client.quit()
          return
        } catch {
          // fall through to a hard disconnect
        }
      }
      client.disconnect()
    },
  }
}
