import { spawn, spawnSync, type ChildProcess } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Redis } from 'ioredis'
import { describe } from 'vitest'

/** The Redis the storage and server suites use. */
export const REDIS_URL = process.env['REDIS_URL'] ?? 'redis://127.0.0.1:6379'

/** Undefined when Redis answers PING at `url`, else why not (fails fast: 1 s connect timeout, no retries). */
export async function redisReachable(url: string = REDIS_URL): Promise<string | undefined> {
  const probe = new Redis(url, { lazyConnect: true, connectTimeout: 1000, maxRetriesPerRequest: 1, retryStrategy: () => null })
  probe.on('error', () => {})
  try {
    await probe.connect()
    await probe.ping()
    return undefined
  } catch (e) {
    return e instanceof Error ? e.message : String(e)
  } finally {
    probe.disconnect()
  }
}

/** Why `redis-server` cannot be spawned here, or undefined when it can. */
export const REDIS_SERVER_MISSING: string | undefined = (() => {
  const r = spawnSync('redis-server', ['--version'], { encoding: 'utf8' })
  return r.error !== undefined ? `redis-server is not installed (${r.error.message})` : undefined
})()

/**
 * `describe` for suites that spawn their own redis-server: skipped locally (with the reason printed) when it is not
 * installed; in CI (which installs it, `.ci/run`) they always run, and fail loudly without it.
 */
export function describeWithRedisServer(name: string, body: () => void): void {
  const skip = REDIS_SERVER_MISSING !== undefined && process.env['CI'] === undefined
  if (skip) console.warn(`${name}: skipped: ${REDIS_SERVER_MISSING}; set CI=1 to make it run and fail`)
  ;(skip ? describe.skip : describe)(`${name} (${REDIS_SERVER_MISSING ?? 'redis-server spawned by the test'})`, body)
}

/** A free TCP port on 127.0.0.1. */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer()
    srv.once('error', reject)
    srv.listen(0, '127.0.0.1', () => {
      const address = srv.address()
      srv.close(() => (typeof address === 'object' && address !== null ? resolve(address.port) : reject(new Error('no port'))))
    })
  })
}

/** A redis-server a test starts, stops (SIGTERM, data kept) and restarts on its own port and folder. */
export interface SpawnedRedis {
  readonly port: number
  readonly url: string
  /** The running server process, if any (for SIGSTOP/SIGCONT). */
  process(): ChildProcess | undefined
  /** Start the server and wait until it answers PING (15 s at most). */
  start(): Promise<void>
  /** Stop it gracefully; the append-only file keeps the data, as a production Redis does. */
  stop(): Promise<void>
  /** Stop it and remove its folder. */
  dispose(): Promise<void>
}

export async function spawnRedis(folderPrefix: string): Promise<SpawnedRedis> {
  const port = await freePort()
  const dir = mkdtempSync(join(tmpdir(), folderPrefix))
  const url = `redis://127.0.0.1:${port}`
  let server: ChildProcess | undefined
  const stop = async (): Promise<void> => {
    const p = server
    server = undefined
    if (p === undefined || p.exitCode !== null) return
    await new Promise<void>((resolve) => {
      p.once('exit', () => resolve())
      p.kill('SIGTERM')
    })
  }
  return {
    port,
    url,
    process: () => server,
    async start() {
      server = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'yes', '--appendfsync', 'always', '--dir', dir, '--daemonize', 'no'], { stdio: 'ignore' })
      const end = Date.now() + 15_000
      for (;;) {
        const why = await redisReachable(url)
        if (why === undefined) return
        if (Date.now() > end) throw new Error(`redis-server on port ${port} did not answer within 15 s: ${why}`)
        await new Promise((r) => setTimeout(r, 100))
      }
    },
    stop,
    async dispose() {
      await stop()
      rmSync(dir, { recursive: true, force: true })
    },
  }
}
