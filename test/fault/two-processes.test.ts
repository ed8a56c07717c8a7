import { spawn, type ChildProcess } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { createInterface } from 'node:readline'
import { fileURLToPath } from 'node:url'
import { Redis } from 'ioredis'
import { afterAll, describe, expect, it } from 'vitest'
import { createEngine } from '../../src/engine/create-engine.ts'
import { createRedisStorage } from '../../src/storage/redis.ts'
import type { DocumentOutput } from '../../src/model/output.ts'
import { REDIS_URL, redisReachable } from '../helpers/redis.ts'
import { TEXTS } from '../fixtures/golden/golden.ts'

/*
 * Issue 18's fault test: two engine processes on one Redis key prefix; one is killed with SIGKILL while it holds a
 * claimed batch; the other finishes every document, each exactly once, with no new submission (the dead process's
 * leases expire after 3 s and are taken over; a lease long enough that a loaded machine analysing one long text does not lose it between two extensions). Needs Redis: skipped only when it is unreachable outside CI.
 */

const unreachable = await redisReachable()
const skip = unreachable !== undefined && process.env['CI'] === undefined
if (skip) console.warn(`two-process fault test skipped: Redis at ${REDIS_URL} is not reachable (${unreachable}); set CI=1 to make it run and fail`)
const suite = skip ? describe.skip : describe

const ROOT = fileURLToPath(new URL('../..', import.meta.url))
const LEASE_MS = 3000
const N = 80

/** A child engine process, with the lines it printed so far and a way to wait for one. */
interface Child {
  readonly proc: ChildProcess
  readonly claimed: string[]
  readonly done: string[]
  readonly stderr: string[]
  waitFor(test: () => boolean, what: string, ms?: number): Promise<void>
}

function startChild(prefix: string, mode = ''): Child {
  const proc = spawn(process.execPath, ['--import', 'tsx', 'test/fault/engine-process.ts', REDIS_URL, prefix, String(LEASE_MS), mode], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  const child: Child = {
    proc,
    claimed: [],
    done: [],
    stderr: [],
    async waitFor(test, what, ms = 60_000) {
      const end = Date.now() + ms
      while (!test()) {
        if (proc.exitCode !== null) throw new Error(`${what}: the child exited (${proc.exitCode}); stderr: ${child.stderr.join('\n')}`)
        if (Date.now() > end) throw new Error(`${what}: not after ${ms} ms; stderr: ${child.stderr.join('\n')}`)
        await new Promise((r) => setTimeout(r, 10))
      }
    },
  }
  let ready = false
  createInterface({ input: proc.stdout! }).on('line', (line) => {
    if (line === 'ready') ready = true
    else if (line.startsWith('claimed ')) child.claimed.push(...line.slice(8).split(' '))
    else if (line.startsWith('done ')) child.done.push(line.slice(5))
  })
  createInterface({ input: proc.stderr! }).on('line', (line) => child.stderr.push(line))
  Object.defineProperty(child, 'ready', { get: () => ready })
  return child
}

const isReady = (c: Child): boolean => (c as unknown as { ready: boolean }).ready

suite('fault: a process killed mid-batch (two engines on one Redis prefix)', () => {
  const prefix = `fault-${randomBytes(4).toString('hex')}:`
  const children: Child[] = []

  afterAll(async () => {
    for (const c of children) if (c.proc.exitCode === null) c.proc.kill('SIGKILL')
    const client = new Redis(REDIS_URL)
    const keys = await client.keys(`${prefix}*`)
    if (keys.length > 0) await client.del(...keys)
    client.disconnect()
  })

  it('should finish every document exactly once in the surviving process, with no new submission', async () => {
    // The submitter: settings created and every document queued before either worker process starts.
    const submitter = createEngine({
      accounts: [{ key: 'fault', secret: 'fault-secret' }],
      storage: createRedisStorage({ url: REDIS_URL, prefix }),
      background: false,
      logger: { warn: () => {}, info: () => {} },
    })
    try {
      const acct = submitter.account('fault')
      await acct.listConfigurations()
      const ids = Array.from({ length: N }, (_, i) => `doc${i}`)
      await acct.submitDocuments(ids.map((id, i) => ({ id, text: TEXTS[i % 8]! })), { batch: true })

      // The victim hangs after its first stored outcome (its later completions never return), so it still holds
      // claimed items when it is killed, however fast this machine finishes a batch. It starts first and the survivor
      // once the victim holds them: started together, the survivor could take every other document before the
      // victim claimed a second one.
      const victim = startChild(prefix, 'stall')
      children.push(victim)
      await victim.waitFor(() => isReady(victim), 'victim ready')
      await victim.waitFor(() => victim.done.length > 0 && victim.claimed.length > victim.done.length, 'victim finished a first document and holds more')
      const survivor = startChild(prefix)
      children.push(survivor)
      await survivor.waitFor(() => isReady(survivor), 'survivor ready')
      // Both engines run on the prefix now; kill the victim while it holds its claims.
      victim.proc.kill('SIGKILL')
      await new Promise<void>((r) => (victim.proc.exitCode !== null || victim.proc.signalCode !== null ? r() : victim.proc.once('exit', () => r())))
      const orphaned = victim.claimed.filter((id) => !victim.done.includes(id))
      expect(orphaned.length, `the victim held claimed items when it died (claimed ${victim.claimed.length}, done ${victim.done.length})`).toBeGreaterThan(0)

      // No new submission: the survivor alone finishes the queue, the orphaned items once their leases expire.
      await survivor.waitFor(() => victim.done.length + survivor.done.length >= N, 'every document done', 120_000).catch(async (e: unknown) => {
        const done = new Set([...victim.done, ...survivor.done])
        const missing = ids.filter((id) => !done.has(id))
        // Where the missing items stand in Redis: status and lease expiry (against now), so a recurrence says why.
        const client = new Redis(REDIS_URL)
        const leases = await client.zrange(`${prefix}leases`, 0, -1, 'WITHSCORES')
        const statuses = await client.hgetall(`${prefix}status`)
        const attempts = await client.hgetall(`${prefix}attempts`)
        client.disconnect()
        const state = Object.entries(statuses)
          .filter(([k]) => missing.some((id) => k.includes(`"${id}"`)))
          .map(([k, st]) => `${k} ${st} attempts ${attempts[k] ?? '-'} lease ${leases[leases.indexOf(k) + 1] ?? 'none'}`)
        throw new Error(
          `now ${Date.now()}; missing in Redis: ${state.join('; ') || 'none found'}; ` +
          `${e instanceof Error ? e.message : String(e)}; victim claimed ${victim.claimed.length} done ${victim.done.length}; survivor claimed ${survivor.claimed.length} (${new Set(survivor.claimed).size} distinct) done ${survivor.done.length}; missing ${missing.join(' ')}; orphaned ${orphaned.join(' ')}; survivor's last claims ${survivor.claimed.slice(-16).join(' ')}`,
        )
      })
      for (const id of orphaned) expect(survivor.done).toContain(id)

      // Every document retrieved exactly once.
      const got: DocumentOutput[] = []
      const end = Date.now() + 30_000
      while (got.length < N && Date.now() < end) {
        const batch = await acct.takeProcessedDocuments({})
        got.push(...batch)
        if (batch.length === 0) await new Promise((r) => setTimeout(r, 50))
      }
      // A little longer: nothing may come back twice.
      await new Promise((r) => setTimeout(r, LEASE_MS))
      got.push(...(await acct.takeProcessedDocuments({})))
      expect(got.map((o) => o.id).sort()).toEqual([...ids].sort())
      expect(got.every((o) => o.status === 'PROCESSED' || o.failure_reason?.includes('language') === true)).toBe(true)
      expect(new Set([...victim.done, ...survivor.done]).size).toBe(victim.done.length + survivor.done.length)
      expect(survivor.proc.exitCode).toBeNull()
    } finally {
      await submitter.close()
    }
  }, 180_000)
})
