import { randomBytes } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { createEngine } from '../../src/engine/create-engine.ts'
import { createMemoryStorage } from '../../src/storage/memory.ts'
import { createRedisStorage } from '../../src/storage/redis.ts'
import type { Storage } from '../../src/storage/types.ts'
import { REDIS_URL, redisReachable } from '../helpers/redis.ts'

/*
 * Issue 18: 9 of 40 concurrent settings writes on Redis answered 500 "changed concurrently". Writes are
 * compare-and-set; the settings service retries a lost race after a random (jittered) back-off.
 */

/** A storage whose settings writes take a little, random, time: every concurrent writer races. */
function slowSettings(s: Storage): Storage {
  return {
    ...s,
    async saveSettings(account, record, expected) {
      await new Promise((r) => setTimeout(r, Math.random() * 3))
      return s.saveSettings(account, record, expected)
    },
  }
}

async function fortyConcurrentCreates(storage: Storage): Promise<void> {
  const engine = createEngine({ background: false, storage, accounts: [{ key: 'k', secret: 's', subscription: { basic_settings: { configurations_limit: 100 } } }] })
  try {
    const account = engine.account('k')
    const results = await Promise.allSettled(
      Array.from({ length: 40 }, (_, i) => account.createConfigurations({ name: `c${i}`, is_primary: false, language: 'en' })),
    )
    const failed = results.filter((r) => r.status === 'rejected').map((r) => String((r as PromiseRejectedResult).reason))
    expect(failed).toEqual([])
    const names = (await account.listConfigurations()).map((c) => c.name)
    for (let i = 0; i < 40; i++) expect(names).toContain(`c${i}`)
  } finally {
    await engine.close()
  }
}

const unreachable = await redisReachable()

describe('settings writes under contention', () => {
  it('should apply all of 40 concurrent configuration creations (memory storage)', async () => {
    await fortyConcurrentCreates(slowSettings(createMemoryStorage()))
  })

  const redisIt = unreachable === undefined || process.env.CI !== undefined ? it : it.skip
  redisIt(`should apply all of 40 concurrent configuration creations (Redis at ${REDIS_URL})`, async () => {
    const prefix = `textengine-test:${randomBytes(6).toString('hex')}:`
    const storage = createRedisStorage({ url: REDIS_URL, prefix })
    try {
      await fortyConcurrentCreates(storage)
    } finally {
      const { Redis } = await import('ioredis')
      const c = new Redis(REDIS_URL)
      const keys = await c.keys(`${prefix}*`)
      if (keys.length > 0) await c.del(...keys)
      await c.quit()
    }
  })
})
