import { describe, expect, it } from 'vitest'
import { createEngine } from '../../src/engine/create-engine.ts'
import { isEngineError, type EngineError } from '../../src/errors.ts'
import { createMemoryStorage } from '../../src/storage/memory.ts'

/** The rejection of `p` as an EngineError (fails the test when it resolves or throws something else). */
async function engineError(p: Promise<unknown>): Promise<EngineError> {
  const e = await p.then(
    () => undefined,
    (err: unknown) => err,
  )
  expect(isEngineError(e), `expected an EngineError, got ${String(e)}`).toBe(true)
  return e as EngineError
}

const docs = (prefix: string, n: number): Array<{ id: string; text: string }> =>
  Array.from({ length: n }, (_, i) => ({ id: `${prefix}${i}`, text: `The room ${i} was clean.` }))

describe('back-pressure: a bounded queue per account', () => {
  it('should refuse a whole submission that would pass maxQueuedPerAccount with 429 and Retry-After, storing none of it', async () => {
    const storage = createMemoryStorage()
    const engine = createEngine({
      background: false,
      storage,
      maxQueuedPerAccount: 5,
      accounts: [
        { key: 'a', secret: 's' },
        { key: 'b', secret: 's' },
      ],
    })
    try {
      const a = engine.account('a')
      await a.submitDocuments(docs('x', 3), { batch: true })
      const e = await engineError(a.submitDocuments(docs('y', 3), { batch: true }))
      expect(e.code).toBe('ERR_QUEUE_FULL')
      expect(e.status).toBe(429)
      expect(e.retryAfterSeconds).toBeGreaterThanOrEqual(1)
      expect(e.retryAfterSeconds).toBeLessThanOrEqual(60)
      expect(e.message).toMatch(/holds 3 unfinished item\(s\) of at most 5; this request adds 3/)
      expect(await storage.countQueued('a')).toBe(3)
      // Nothing of the refused request was stored.
      const missing = await engineError(a.getDocument('y0'))
      expect(missing.code).toBe('ERR_NOT_FOUND')
      // A request that fits is accepted; a collection counts as one item.
      await a.submitDocuments(docs('z', 1), { batch: true })
      await a.submitCollection({ id: 'c1', documents: ['one text', 'another text'] }, {})
      expect(await storage.countQueued('a')).toBe(5)
      expect((await engineError(a.submitCollection({ id: 'c2', documents: ['t'] }, {}))).code).toBe('ERR_QUEUE_FULL')
      // Another tenant is not held back by a's full queue.
      await engine.account('b').submitDocuments(docs('b', 5), { batch: true })
      // Processing makes room again.
      await engine.drain()
      expect(await storage.countQueued('a')).toBe(0)
      await a.submitDocuments(docs('y', 3), { batch: true })
      expect(await storage.countQueued('a')).toBe(3)
    } finally {
      await engine.close()
    }
  })

  it('should not bound the queue with maxQueuedPerAccount 0, and default to 10000', async () => {
    const unbounded = createEngine({ background: false, maxQueuedPerAccount: 0 })
    try {
      const acct = unbounded.account(unbounded.defaultAccount)
      for (let i = 0; i < 3; i++) await acct.submitDocuments(docs(`u${i}-`, 100), { batch: true })
    } finally {
      await unbounded.close()
    }
    expect(() => createEngine({ maxQueuedPerAccount: -1 })).toThrow(/maxQueuedPerAccount must be an integer/)
    const storage = createMemoryStorage()
    const engine = createEngine({ background: false, storage })
    try {
      const acct = engine.account(engine.defaultAccount)
      for (let i = 0; i < 100; i++) await acct.submitDocuments(docs(`d${i}-`, 100), { batch: true })
      expect(await storage.countQueued(engine.defaultAccount)).toBe(10_000)
      expect((await engineError(acct.submitDocuments({ id: 'one-more', text: 'x' }, { batch: false }))).code).toBe('ERR_QUEUE_FULL')
    } finally {
      await engine.close()
    }
  })
})

describe('values that cannot be stored or answered are refused at submit (issue 18: metadata 1e400)', () => {
  it('should answer 400 naming the path of a non-finite number or a lone surrogate, storing nothing of the batch', async () => {
    const storage = createMemoryStorage()
    const engine = createEngine({ background: false, storage })
    try {
      const acct = engine.account(engine.defaultAccount)
      // JSON.parse('1e400') is Infinity: what a body {"metadata": {"score": 1e400}} decodes to.
      const poisoned = [
        { id: 'ok', text: 'fine' },
        { id: 'bad', text: 'fine', metadata: JSON.parse('{"score": 1e400}') as unknown },
      ]
      const e = await engineError(acct.submitDocuments(poisoned, { batch: true }))
      expect(e.code).toBe('ERR_INVALID_FIELD')
      expect(e.status).toBe(400)
      expect(e.field).toBe('documents[1].metadata.score')
      expect(e.message).toMatch(/documents\[1\]\.metadata\.score/)
      expect(await storage.countQueued(engine.defaultAccount)).toBe(0)

      const lone = await engineError(acct.submitDocuments({ id: 'l', text: 'bad \ud800 text' }, { batch: false }))
      expect(lone.status).toBe(400)
      expect(lone.field).toBe('document.text')
      const coll = await engineError(acct.submitCollection({ id: 'c', documents: ['ok', 'x\udc00'], metadata: { n: Number.NaN } }, {}))
      expect(coll.status).toBe(400)
      expect(coll.field).toBe('collection.documents[1]')
      const collMeta = await engineError(acct.submitCollection({ id: 'c', documents: ['ok'], metadata: { n: Number.NEGATIVE_INFINITY } }, {}))
      expect(collMeta.field).toBe('collection.metadata.n')
      expect(await storage.countQueued(engine.defaultAccount)).toBe(0)
    } finally {
      await engine.close()
    }
  })
})
