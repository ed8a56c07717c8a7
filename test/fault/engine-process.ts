/**
 * One engine process for the fault tests: `node --import tsx test/fault/engine-process.ts REDIS_URL PREFIX LEASE_MS`.
 * It serves account `fault` from the Redis storage at PREFIX with background processing on (in-process analysis,
 * 8 items claimed at a time, a short lease) and writes one stdout line per event the test watches:
 * `ready` once its models are loaded, `claimed <id> ...` for each claim it makes, `done <id>` for each outcome it
 * stored. SIGTERM closes the engine; the test kills it with SIGKILL mid-batch instead. With a fourth argument
 * `stall`, every completion after the first never returns (a process hung mid-batch): it keeps the rest of what it
 * claimed, whatever the machine's speed, until it is killed.
 */
import { createEngine } from '../../src/engine/create-engine.ts'
import { createRedisStorage } from '../../src/storage/redis.ts'
import type { QueueItem, Storage } from '../../src/storage/types.ts'

const [url, prefix, leaseMs, mode] = process.argv.slice(2)
if (url === undefined || prefix === undefined || leaseMs === undefined) {
  process.stderr.write('usage: engine-process.ts REDIS_URL PREFIX LEASE_MS\n')
  process.exit(2)
}
const say = (line: string): void => {
  process.stdout.write(`${line}\n`)
}
const redis = createRedisStorage({ url, prefix, log: (l) => process.stderr.write(`${l}\n`) })
// Completions begun: with `stall`, only the first is stored. Counted before awaiting, so two completions in flight at
// once cannot both pass as the first (both would be stored, and a kill could lose the second's `done` line).
let completions = 0
// The storage as the engine sees it, telling the test what this process claims and completes.
const storage: Storage = {
  ...redis,
  async claimQueued(limit, options) {
    const items = await redis.claimQueued(limit, options)
    if (items.length > 0) say(`claimed ${items.map((i) => i.id).join(' ')}`)
    return items
  },
  async completeItem(item: QueueItem) {
    if (mode === 'stall' && completions++ > 0) return new Promise<boolean>(() => {})
    const stored = await redis.completeItem(item)
    if (stored) say(`done ${item.id}`)
    return stored
  },
}
const engine = createEngine({
  accounts: [{ key: 'fault', secret: 'fault-secret' }],
  storage,
  leaseMs: Number(leaseMs),
  workerBatch: 8,
  pollMs: { min: 10, max: 100 },
  logger: { warn: (m) => process.stderr.write(`${m}\n`), info: (m) => process.stderr.write(`${m}\n`) },
})
await engine.analyze('Warm up the models before any work is claimed.', { account: 'fault' })
say('ready')
process.once('SIGTERM', () => {
  void engine.close().then(() => process.exit(0))
})
// Keep running until killed: the engine's own timers are unref'd, as an embedded engine's must be.
setInterval(() => {}, 60_000)
