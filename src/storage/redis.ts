import { createHash } from 'node:crypto'
import { Redis } from 'ioredis'
import type { RedisOptions } from 'ioredis'
import type { StatisticsCounters } from '../model/account.ts'
import { compareRows, zeroCounters } from './memory.ts'
import type { ItemKey, ItemKind, QueueItem, QueueStatus, SettingsRecord, StatRow, Storage, TakeFilter } from './types.ts'

/** Options of {@link createRedisStorage}: a connection URL or a client, and a key prefix. */
export interface RedisStorageOptions {
  /**
   * Redis URL (`redis://[user:password@]host:port[/db]`); the storage creates its own client and quits it on
   * `close()`. Give either `url` or `client`.
   * @defaultValue `'redis://127.0.0.1:6379'` when neither `url` nor `client` is given
   */
  url?: string
  /** ioredis options for the client created from `url` (ignored with `client`). */
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
 *   KEYS[1] item:      hash k -> item JSON (its `status` field is stale; the status hash is authoritative)
 *   KEYS[2] status:    hash k -> QUEUED | PROCESSING | PROCESSED | FAILED
 *   KEYS[3] seq:       hash k -> seq (as JavaScript printed it)
 *   KEYS[4] queued:    zset of k by seq, QUEUED items only
 *   KEYS[5] submitted: zset of k by submittedAt, every item (for purgeBefore)
 *   KEYS[6] doneidx:   hash k -> name of the finished-items zset that holds k
 * Finished items sit in one zset (by seq) per (account, kind, configuration) for items without a job id, or per
 * (account, kind, job id) for items with one; its name is computed in JavaScript (see `doneKey`).
 */
const ITEM_PRELUDE = `
local function removeItem(k)
  local d = redis.call('HGET', KEYS[6], k)
  if d then redis.call('ZREM', d, k) end
  redis.call('HDEL', KEYS[1], k)
  redis.call('HDEL', KEYS[2], k)
  redis.call('HDEL', KEYS[3], k)
  redis.call('HDEL', KEYS[6], k)
  redis.call('ZREM', KEYS[4], k)
  redis.call('ZREM', KEYS[5], k)
end
local function isFinished(s)
  return s == 'PROCESSED' or s == 'FAILED'
end
`

/** ARGV: groups of (k, body, status, seq, submittedAt, doneKey or ''). */
const PUT = script(`${ITEM_PRELUDE}
for i = 1, #ARGV, 6 do
  local k, status, seq, doneKey = ARGV[i], ARGV[i + 2], ARGV[i + 3], ARGV[i + 5]
  removeItem(k)
  redis.call('HSET', KEYS[1], k, ARGV[i + 1])
  redis.call('HSET', KEYS[2], k, status)
  redis.call('HSET', KEYS[3], k, seq)
  redis.call('ZADD', KEYS[5], ARGV[i + 4], k)
  if status == 'QUEUED' then redis.call('ZADD', KEYS[4], seq, k) end
  if isFinished(status) then
    redis.call('ZADD', doneKey, seq, k)
    redis.call('HSET', KEYS[6], k, doneKey)
  end
end
return #ARGV / 6
`)

/** ARGV: k. Returns {body, status} or nil. */
const GET = script(`
local body = redis.call('HGET', KEYS[1], ARGV[1])
if not body then return nil end
return {body, redis.call('HGET', KEYS[2], ARGV[1])}
`)

/** ARGV: last index (limit - 1, or -1 for all). Returns the claimed bodies (now PROCESSING), oldest seq first. */
const CLAIM = script(`
local ks = redis.call('ZRANGE', KEYS[4], 0, ARGV[1])
local out = {}
for _, k in ipairs(ks) do
  redis.call('ZREM', KEYS[4], k)
  redis.call('HSET', KEYS[2], k, 'PROCESSING')
  out[#out + 1] = redis.call('HGET', KEYS[1], k)
end
return out
`)

/** ARGV: k, seq, body, status, submittedAt, doneKey. Returns 1 when stored. */
const COMPLETE = script(`
local k, seq, status, doneKey = ARGV[1], ARGV[2], ARGV[4], ARGV[6]
if redis.call('HGET', KEYS[2], k) ~= 'PROCESSING' or redis.call('HGET', KEYS[3], k) ~= seq then return 0 end
redis.call('HSET', KEYS[1], k, ARGV[3])
redis.call('HSET', KEYS[2], k, status)
redis.call('ZADD', KEYS[5], ARGV[5], k)
redis.call('ZADD', doneKey, seq, k)
redis.call('HSET', KEYS[6], k, doneKey)
return 1
`)

/** ARGV: doneKey, last index (limit - 1, or -1 for all). Returns flat {body, status, ...} of the removed items, oldest seq first. */
const TAKE_PROCESSED = script(`${ITEM_PRELUDE}
local ks = redis.call('ZRANGE', ARGV[1], 0, ARGV[2])
local out = {}
for _, k in ipairs(ks) do
  out[#out + 1] = redis.call('HGET', KEYS[1], k)
  out[#out + 1] = redis.call('HGET', KEYS[2], k)
  removeItem(k)
end
return out
`)

/** ARGV: k. Returns {body, status} of the removed finished item, or nil. */
const TAKE_ITEM = script(`${ITEM_PRELUDE}
local k = ARGV[1]
local status = redis.call('HGET', KEYS[2], k)
if not status or not isFinished(status) then return nil end
local body = redis.call('HGET', KEYS[1], k)
removeItem(k)
return {body, status}
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
const PURGE = script(`${ITEM_PRELUDE}
local ks = redis.call('ZRANGEBYSCORE', KEYS[5], '-inf', '(' .. ARGV[1])
for _, k in ipairs(ks) do removeItem(k) end
return #ks
`)

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

function checkItem(item: QueueItem, where: string): void {
  for (const f of ['account', 'kind', 'configId', 'id'] as const) {
    if (typeof item[f] !== 'string') throw new TypeError(`Redis storage: ${where}.${f} should be a string, instead found ${typeof item[f]}`)
  }
  if (!Number.isFinite(item.seq)) throw new TypeError(`Redis storage: ${where}.seq should be a finite number, instead found ${String(item.seq)}`)
  if (!Number.isFinite(item.submittedAt)) {
    throw new TypeError(`Redis storage: ${where}.submittedAt should be a finite number, instead found ${String(item.submittedAt)}`)
  }
}

/**
 * A storage in Redis (through ioredis), for engines that share a queue and settings across processes or keep them
 * across restarts. Every method is one Lua script or one MULTI, so each is atomic on its own, as the `Storage`
 * contract asks. Values are stored as JSON and parsed on every read, so callers always get fresh copies; like
 * JSON, stored values drop `undefined` properties and turn non-finite numbers into `null`.
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
  const owned = options.client === undefined
  const client = options.client ?? new Redis(options.url ?? 'redis://127.0.0.1:6379', options.redisOptions ?? {})

  const itemKeys = ['item', 'status', 'seq', 'queued', 'submitted', 'doneidx'].map((n) => `${prefix}${n}`)
  const settingsKeys = [`${prefix}settings`, `${prefix}settingsver`]
  const doneKey = (account: string, kind: ItemKind, filter: TakeFilter): string =>
    'jobId' in filter
      ? `${prefix}done:${JSON.stringify([account, kind, 'job', filter.jobId])}`
      : `${prefix}done:${JSON.stringify([account, kind, 'config', filter.configId])}`
  const doneKeyOf = (item: QueueItem): string =>
    doneKey(item.account, item.kind, item.jobId === undefined ? { configId: item.configId } : { jobId: item.jobId })

  async function run(s: LuaScript, keys: readonly string[], args: ReadonlyArray<string | number>): Promise<unknown> {
    try {
      return await client.evalsha(s.sha, keys.length, ...keys, ...args)
    } catch (e) {
      if (!(e instanceof Error) || !e.message.startsWith('NOSCRIPT')) throw e
      return await client.eval(s.lua, keys.length, ...keys, ...args)
    }
  }

  const parseItem = (body: string, status: string): QueueItem => {
    const item = JSON.parse(body) as QueueItem
    item.status = status as QueueStatus
    return item
  }
  /** Items from a flat {body, status, ...} reply. */
  const parsePairs = (reply: unknown): QueueItem[] => {
    const flat = reply as string[]
    const out: QueueItem[] = []
    for (let i = 0; i + 1 < flat.length; i += 2) out.push(parseItem(flat[i]!, flat[i + 1]!))
    return out
  }

  return {
    async loadSettings(account) {
      const json = await client.hget(settingsKeys[0]!, account)
      return json === null ? undefined : (JSON.parse(json) as SettingsRecord)
    },

    async settingsVersion(account) {
      return Number((await client.hget(settingsKeys[1]!, account)) ?? 0)
    },

    async saveSettings(account, record, expectedVersion) {
      const json = JSON.stringify(record)
      const stored = await run(SAVE_SETTINGS, settingsKeys, [account, json, luaNumber(expectedVersion, 'expectedVersion'), luaNumber(record.version, 'record.version')])
      return stored === 1
    },

    async putItems(list) {
      if (list.length === 0) return
      // Serialize everything first so a value that cannot be serialized stores nothing.
      const args: string[] = []
      list.forEach((item, i) => {
        checkItem(item, `items[${i}]`)
        const status = item.status
        args.push(itemField(item), JSON.stringify(item), status, String(item.seq), String(item.submittedAt), isFinished(status) ? doneKeyOf(item) : '')
      })
      await run(PUT, itemKeys, args)
    },

    async getItem(key) {
      const reply = (await run(GET, itemKeys, [itemField(key)])) as [string, string] | null
      return reply === null ? undefined : parseItem(reply[0], reply[1])
    },

    async claimQueued(limit) {
      const stop = lastIndex(limit)
      if (stop === undefined) return []
      const reply = (await run(CLAIM, itemKeys, [stop])) as string[]
      return reply.map((body) => parseItem(body, 'PROCESSING'))
    },

    async completeItem(item) {
      if (!isFinished(item.status)) return false
      checkItem(item, 'item')
      const args = [itemField(item), String(item.seq), JSON.stringify(item), item.status, String(item.submittedAt), doneKeyOf(item)]
      return (await run(COMPLETE, itemKeys, args)) === 1
    },

    async takeProcessed(account, kind, filter, limit) {
      const stop = lastIndex(limit)
      if (stop === undefined) return []
      return parsePairs(await run(TAKE_PROCESSED, itemKeys, [doneKey(account, kind, filter), stop]))
    },

    async takeItem(key) {
      const reply = (await run(TAKE_ITEM, itemKeys, [itemField(key)])) as [string, string] | null
      return reply === null ? undefined : parseItem(reply[0], reply[1])
    },

    async cancelQueued(key) {
      return (await run(CANCEL, itemKeys, [itemField(key)])) as 'cancelled' | 'not-queued' | 'missing'
    },

    async purgeBefore(beforeMs) {
      return (await run(PURGE, itemKeys, [score(beforeMs, 'beforeMs')])) as number
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
      const replies = await tx.exec()
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
      if (owned) await client.quit()
    },
  }
}
