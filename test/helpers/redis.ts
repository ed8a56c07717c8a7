import { Redis } from 'ioredis'

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
