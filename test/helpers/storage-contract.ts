import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { isStorageValueError } from '../../src/storage/errors.ts'
import type { QueueItem, SettingsRecord, Storage, StorageOptions } from '../../src/storage/types.ts'

/**
 * The contract every `Storage` implementation must pass. Registers vitest tests under `describe(name)`;
 * `makeStorage` is called once per test (with the storage options the test needs: lease length, clock) and must
 * return an empty storage (the suite closes it).
 */
export function runStorageContract(name: string, makeStorage: (options?: StorageOptions) => Promise<Storage>): void {
  describe(`Storage contract: ${name}`, () => {
    let s: Storage
    /** The clock of `s` (epoch ms): tests move it to expire leases. */
    let now = 1_000_000
    beforeEach(async () => {
      now = 1_000_000
      s = await makeStorage({ now: () => now, leaseMs: 1_000 })
    })
    afterEach(async () => {
      await s.close()
    })

    let seq = 0
    const item = (over: Partial<QueueItem> = {}): QueueItem => ({
      account: 'a',
      kind: 'document',
      configId: 'c1',
      id: `d${++seq}`,
      status: 'QUEUED',
      seq: ++seq,
      submittedAt: 1_000,
      input: { text: 'hello', tag: 't', metadata: { n: [1, 2] } },
      ...over,
    })
    const record = (version: number, name = 'primary'): SettingsRecord => ({
      version,
      configurations: [{ configuration: { name } as never, tuning: { queries: [] } as never, revision: 1 }],
    })
    const finish = (i: QueueItem, status: 'PROCESSED' | 'FAILED' = 'PROCESSED'): QueueItem => ({
      ...i,
      status,
      finishedAt: i.submittedAt + 1,
      output: { id: i.id, config_id: i.configId, status },
    })
    /** Put, claim and complete items; returns them as stored finished. */
    const processed = async (list: QueueItem[]): Promise<QueueItem[]> => {
      await s.putItems(list)
      const claimed = await s.claimQueued(list.length)
      const done = claimed.map((i) => finish(i))
      for (const d of done) expect(await s.completeItem(d)).toBe(true)
      return done
    }

    describe('settings', () => {
      it('should answer undefined for an account with no record', async () => {
        expect(await s.loadSettings('nobody')).toBeUndefined()
      })
      it('should store a first record only when the expected version is 0', async () => {
        expect(await s.saveSettings('a', record(1), 5)).toBe(false)
        expect(await s.loadSettings('a')).toBeUndefined()
        expect(await s.saveSettings('a', record(1), 0)).toBe(true)
        expect(await s.loadSettings('a')).toEqual(record(1))
      })
      it('should refuse a save whose expected version is stale, keeping the stored record', async () => {
        await s.saveSettings('a', record(1), 0)
        expect(await s.saveSettings('a', record(2, 'x'), 1)).toBe(true)
        expect(await s.saveSettings('a', record(3, 'y'), 1)).toBe(false)
        expect(await s.loadSettings('a')).toEqual(record(2, 'x'))
      })
      it('should let exactly one of two concurrent saves from the same version win', async () => {
        await s.saveSettings('a', record(1), 0)
        const results = await Promise.all([s.saveSettings('a', record(2, 'p'), 1), s.saveSettings('a', record(2, 'q'), 1)])
        expect(results.filter(Boolean)).toHaveLength(1)
      })
      it('should report the stored version, 0 when nothing is stored, unchanged by a refused save', async () => {
        expect(await s.settingsVersion('a')).toBe(0)
        await s.saveSettings('a', record(1), 0)
        expect(await s.settingsVersion('a')).toBe(1)
        expect(await s.saveSettings('a', record(3), 2)).toBe(false)
        expect(await s.settingsVersion('a')).toBe(1)
        expect(await s.saveSettings('a', record(2), 1)).toBe(true)
        expect(await s.settingsVersion('a')).toBe(2)
        expect(await s.settingsVersion('b')).toBe(0)
      })
      it('should keep accounts apart', async () => {
        await s.saveSettings('a', record(1, 'A'), 0)
        await s.saveSettings('b', record(1, 'B'), 0)
        expect((await s.loadSettings('a'))?.configurations[0]?.configuration.name).toBe('A')
        expect((await s.loadSettings('b'))?.configurations[0]?.configuration.name).toBe('B')
      })
      it('should not let callers change the stored record through references', async () => {
        const r = record(1)
        await s.saveSettings('a', r, 0)
        r.configurations[0]!.revision = 99
        const loaded = await s.loadSettings('a')
        loaded!.configurations.pop()
        expect(await s.loadSettings('a')).toEqual(record(1))
      })
    })

    describe('items', () => {
      it('should return a stored item by key, whatever its status, with metadata of any JSON type', async () => {
        const i = item({ input: { text: 'x', metadata: ['a', 1, null, { b: true }] } })
        await s.putItems([i])
        expect(await s.getItem(i)).toEqual(i)
        expect(await s.getItem({ ...i, configId: 'other' })).toBeUndefined()
        expect(await s.getItem({ ...i, kind: 'collection' })).toBeUndefined()
        expect(await s.getItem({ ...i, account: 'b' })).toBeUndefined()
      })
      it('should replace an item put again with the same key', async () => {
        const i = item()
        await s.putItems([i])
        const again = { ...i, seq: i.seq + 100, input: { text: 'second' } }
        await s.putItems([again])
        expect(await s.getItem(i)).toEqual(again)
      })
      it('should copy items in and never let a returned item change what is stored', async () => {
        const i = item({ input: { text: 'x', metadata: { deep: { v: 1 } } } })
        await s.putItems([i])
        ;(i.input.metadata as { deep: { v: number } }).deep.v = 2
        const got = await s.getItem(i)
        // Returned values are frozen (memory) or fresh copies (Redis): a write either throws or changes nothing stored.
        try {
          ;(got!.input.metadata as { deep: { v: number } }).deep.v = 3
        } catch (e) {
          expect(e).toBeInstanceOf(TypeError)
        }
        got!.status = 'FAILED'
        expect(await s.getItem(i)).toEqual({ ...i, input: { text: 'x', metadata: { deep: { v: 1 } } } })
        const [claimed] = await s.claimQueued(1)
        expect(await s.completeItem(finish(claimed!))).toBe(true)
        const [taken] = await s.takeProcessed('a', 'document', { configId: 'c1' }, 1)
        try {
          ;(taken!.output as { status: string }).status = 'changed'
        } catch (e) {
          expect(e).toBeInstanceOf(TypeError)
        }
        expect(await s.takeProcessed('a', 'document', { configId: 'c1' }, 1)).toEqual([])
      })
      it('should claim queued items oldest seq first, at most limit, moving them to PROCESSING', async () => {
        const a = item({ seq: 30 })
        const b = item({ seq: 10, account: 'other' })
        const c = item({ seq: 20, kind: 'collection', input: { documents: ['x'] } })
        await s.putItems([a, b, c])
        const first = await s.claimQueued(2)
        expect(first.map((i) => i.seq)).toEqual([10, 20])
        expect(first.every((i) => i.status === 'PROCESSING')).toBe(true)
        expect(first.every((i) => typeof i.claim === 'string' && i.leaseExpiresAt === now + 1_000 && i.attempts === 1)).toBe(true)
        expect((await s.getItem(b))?.status).toBe('PROCESSING')
        expect((await s.claimQueued(5)).map((i) => i.seq)).toEqual([30])
        expect(await s.claimQueued(5)).toEqual([])
        expect(await s.claimQueued(0)).toEqual([])
      })
      it('should never give the same item to two concurrent claims', async () => {
        await s.putItems(Array.from({ length: 10 }, () => item()))
        const [x, y] = await Promise.all([s.claimQueued(7), s.claimQueued(7)])
        const ids = [...x!, ...y!].map((i) => i.id)
        expect(new Set(ids).size).toBe(10)
        expect(ids).toHaveLength(10)
      })
      it('should store a completion only for the same seq still PROCESSING', async () => {
        const i = item()
        await s.putItems([i])
        expect(await s.completeItem(finish(i))).toBe(false) // still QUEUED, never claimed
        const [claimed] = await s.claimQueued(1)
        expect(await s.completeItem(finish({ ...claimed!, seq: claimed!.seq + 1 }))).toBe(false)
        expect(await s.completeItem(finish(claimed!, 'FAILED'))).toBe(true)
        expect((await s.getItem(i))?.status).toBe('FAILED')
        expect((await s.getItem(i))?.output).toEqual({ id: i.id, config_id: 'c1', status: 'FAILED' })
        expect(await s.completeItem(finish(claimed!))).toBe(false) // already finished
      })
      it('should refuse a completion when the item was replaced while processing', async () => {
        const i = item()
        await s.putItems([i])
        const [claimed] = await s.claimQueued(1)
        const replacement = { ...i, seq: i.seq + 1000, input: { text: 'new' } }
        await s.putItems([replacement])
        expect(await s.completeItem(finish(claimed!))).toBe(false)
        expect(await s.getItem(i)).toEqual(replacement)
      })
      it('should take finished items of one account and kind by configuration, oldest first, removing them', async () => {
        const list = [item({ seq: 3 }), item({ seq: 1 }), item({ seq: 2, configId: 'c2' }), item({ seq: 4, account: 'b' })]
        await processed(list)
        const queued = item({ seq: 5 })
        await s.putItems([queued])
        const taken = await s.takeProcessed('a', 'document', { configId: 'c1' }, 10)
        expect(taken.map((i) => i.seq)).toEqual([1, 3])
        expect(taken.every((i) => i.status === 'PROCESSED' && i.output !== undefined)).toBe(true)
        expect(await s.takeProcessed('a', 'document', { configId: 'c1' }, 10)).toEqual([])
        expect(await s.getItem(queued)).toBeDefined()
        expect(await s.takeProcessed('a', 'collection', { configId: 'c2' }, 10)).toEqual([])
        expect((await s.takeProcessed('a', 'document', { configId: 'c2' }, 10)).map((i) => i.seq)).toEqual([2])
      })
      it('should never give the same finished item to two concurrent takes', async () => {
        await processed(Array.from({ length: 8 }, () => item()))
        const [x, y] = await Promise.all([
          s.takeProcessed('a', 'document', { configId: 'c1' }, 5),
          s.takeProcessed('a', 'document', { configId: 'c1' }, 5),
        ])
        const ids = [...x!, ...y!].map((i) => i.id)
        expect(ids).toHaveLength(8)
        expect(new Set(ids).size).toBe(8)
      })
      it('should respect the take limit', async () => {
        await processed([item(), item(), item()])
        expect(await s.takeProcessed('a', 'document', { configId: 'c1' }, 2)).toHaveLength(2)
        expect(await s.takeProcessed('a', 'document', { configId: 'c1' }, 0)).toHaveLength(0)
        expect(await s.takeProcessed('a', 'document', { configId: 'c1' }, 2)).toHaveLength(1)
      })
      it('should take job items only by their job id, across configurations', async () => {
        await processed([item({ jobId: 'j1' }), item({ jobId: 'j1', configId: 'c2' }), item({ jobId: 'j2' }), item()])
        expect(await s.takeProcessed('a', 'document', { configId: 'c1' }, 10)).toHaveLength(1)
        const byJob = await s.takeProcessed('a', 'document', { jobId: 'j1' }, 10)
        expect(byJob.map((i) => i.configId).sort()).toEqual(['c1', 'c2'])
        expect(await s.takeProcessed('a', 'document', { configId: 'c1' }, 10)).toEqual([])
        expect(await s.takeProcessed('a', 'document', { jobId: 'j2' }, 10)).toHaveLength(1)
      })
      it('should take one finished item by key and nothing that is not finished', async () => {
        const q = item()
        await s.putItems([q])
        expect(await s.takeItem(q)).toBeUndefined()
        expect(await s.getItem(q)).toBeDefined()
        const [claimed] = await s.claimQueued(1)
        expect(await s.takeItem(q)).toBeUndefined()
        await s.completeItem(finish(claimed!, 'FAILED'))
        expect((await s.takeItem(q))?.status).toBe('FAILED')
        expect(await s.getItem(q)).toBeUndefined()
        expect(await s.takeItem(q)).toBeUndefined()
      })
      it('should cancel queued and processing items but leave finished ones', async () => {
        const q = item()
        const p = item()
        await s.putItems([q])
        expect(await s.cancelQueued(q)).toBe('cancelled')
        expect(await s.getItem(q)).toBeUndefined()
        expect(await s.cancelQueued(q)).toBe('missing')
        const [done] = await processed([p])
        expect(await s.cancelQueued(p)).toBe('not-queued')
        const { claim: _c, leaseExpiresAt: _l, attempts: _a, ...stored } = done!
        expect(await s.getItem(p)).toEqual(stored)
        const r = item()
        await s.putItems([r])
        const [claimed] = await s.claimQueued(1)
        expect(await s.cancelQueued(r)).toBe('cancelled')
        expect(await s.completeItem(finish(claimed!))).toBe(false)
        expect(await s.getItem(r)).toBeUndefined()
      })
      it('should purge every item submitted before a time, whatever its status', async () => {
        const old = [item({ submittedAt: 10 }), item({ submittedAt: 99 })]
        await processed([old[1]!])
        await s.putItems([old[0]!])
        const kept = item({ submittedAt: 100 })
        await s.putItems([kept])
        expect(await s.purgeBefore(100)).toBe(2)
        expect(await s.getItem(old[0]!)).toBeUndefined()
        expect(await s.getItem(old[1]!)).toBeUndefined()
        expect(await s.getItem(kept)).toBeDefined()
        expect(await s.purgeBefore(100)).toBe(0)
      })
    })

    describe('leases', () => {
      const keyOf = (i: QueueItem): string => i.id
      it('should reclaim an item whose lease expired, for a new holder, and refuse the old holder', async () => {
        const i = item()
        await s.putItems([i])
        const [first] = await s.claimQueued(5)
        expect(first?.attempts).toBe(1)
        now += 999
        expect(await s.claimQueued(5)).toEqual([]) // lease still valid
        now += 1 // expiry reached: the holder is presumed dead
        const [second] = await s.claimQueued(5, { leaseMs: 5_000 })
        expect(second?.id).toBe(i.id)
        expect(second?.attempts).toBe(2)
        expect(second?.leaseExpiresAt).toBe(now + 5_000)
        expect(second?.claim).not.toBe(first?.claim)
        expect(await s.completeItem(finish(first!))).toBe(false) // late worker cannot overwrite
        expect(await s.extendLease(first!)).toBeUndefined()
        expect(await s.releaseItem(first!)).toBe(false)
        expect((await s.getItem(i))?.status).toBe('PROCESSING')
        expect(await s.completeItem(finish(second!))).toBe(true)
        expect((await s.getItem(i))?.status).toBe('PROCESSED')
      })
      it('should claim expired leases before queued items, and honour nowMs given by the caller', async () => {
        await s.putItems([item({ seq: 1 }), item({ seq: 2 })])
        const [a] = await s.claimQueued(1)
        await s.putItems([item({ seq: 0.5 })])
        const got = await s.claimQueued(2, { nowMs: now + 1_000 })
        expect(got.map((g) => g.seq)).toEqual([1, 0.5])
        expect(got[0]?.id).toBe(a?.id)
      })
      it('should let a holder whose lease expired complete while nobody reclaimed it', async () => {
        await s.putItems([item()])
        const [c] = await s.claimQueued(1)
        now += 10_000
        expect(await s.completeItem(finish(c!))).toBe(true)
        expect(await s.claimQueued(5)).toEqual([])
      })
      it('should refuse a completion that carries no lease token or another token', async () => {
        await s.putItems([item()])
        const [c] = await s.claimQueued(1)
        const { claim: _claim, ...noClaim } = c!
        expect(await s.completeItem(finish(noClaim))).toBe(false)
        expect(await s.completeItem(finish({ ...c!, claim: `${c!.claim}x` }))).toBe(false)
        expect(await s.completeItem(finish(c!))).toBe(true)
      })
      it('should extend a lease for its holder only', async () => {
        await s.putItems([item()])
        const [c] = await s.claimQueued(1)
        now += 900
        expect(await s.extendLease(c!)).toBe(now + 1_000)
        now += 900 // past the first expiry, within the extended one
        expect(await s.claimQueued(5)).toEqual([])
        expect(await s.extendLease({ ...c!, claim: 'not-mine' })).toBeUndefined()
        now += 100
        const [again] = await s.claimQueued(5)
        expect(again?.attempts).toBe(2)
        expect(await s.extendLease(c!)).toBeUndefined()
        expect(await s.extendLease(again!, { leaseMs: 10 })).toBe(now + 10)
      })
      it('should give a released item back to the queue at its place, claimable at once', async () => {
        await s.putItems([item({ seq: 1 }), item({ seq: 2 })])
        const [first] = await s.claimQueued(1)
        expect(await s.releaseItem({ ...first!, claim: 'not-mine' })).toBe(false)
        expect(await s.releaseItem(first!)).toBe(true)
        expect(await s.releaseItem(first!)).toBe(false)
        expect((await s.getItem(first!))?.status).toBe('QUEUED')
        expect(await s.completeItem(finish(first!))).toBe(false)
        const again = await s.claimQueued(5)
        expect(again.map((g) => g.seq)).toEqual([1, 2])
        expect(again[0]?.attempts).toBe(2)
      })
      it('should never give one item to two concurrent claims among expired leases', async () => {
        await s.putItems(Array.from({ length: 12 }, () => item()))
        const first = await s.claimQueued(8)
        now += 1_000
        const [x, y, z] = await Promise.all([s.claimQueued(5), s.claimQueued(5), s.claimQueued(5)])
        const ids = [...x!, ...y!, ...z!].map(keyOf)
        expect(ids).toHaveLength(12)
        expect(new Set(ids).size).toBe(12)
        for (const f of first) expect(await s.completeItem(finish(f))).toBe(false)
      })
      it('should refuse a lease of zero or a non-finite time', async () => {
        await expect(s.claimQueued(1, { leaseMs: 0 })).rejects.toThrow(/leaseMs/)
        await expect(s.claimQueued(1, { nowMs: Number.NaN })).rejects.toThrow(/nowMs/)
        await expect(makeStorage({ leaseMs: -5 })).rejects.toThrow(/leaseMs/)
      })
    })

    describe('pending count per account', () => {
      it('should count QUEUED and PROCESSING items per account through every transition', async () => {
        const a = [item(), item(), item(), item()]
        const b = item({ account: 'b' })
        await s.putItems([...a, b])
        expect([await s.countQueued('a'), await s.countQueued('b'), await s.countQueued('nobody')]).toEqual([4, 1, 0])
        await s.putItems([{ ...a[0]!, seq: 999 }]) // replacing keeps the count
        expect(await s.countQueued('a')).toBe(4)
        const claimed = await s.claimQueued(2)
        expect(await s.countQueued('a')).toBe(4) // PROCESSING still counts
        expect(await s.completeItem(finish(claimed[0]!))).toBe(true)
        expect(await s.countQueued('a')).toBe(3)
        expect(await s.releaseItem(claimed[1]!)).toBe(true)
        expect(await s.countQueued('a')).toBe(3)
        expect(await s.cancelQueued(a[2]!)).toBe('cancelled')
        expect(await s.countQueued('a')).toBe(2)
        await s.takeProcessed('a', 'document', { configId: 'c1' }, 10)
        expect(await s.countQueued('a')).toBe(2)
        now += 5_000
        const again = await s.claimQueued(10)
        expect(await s.countQueued('a')).toBe(2)
        for (const c of again) await s.completeItem(finish(c, 'FAILED'))
        expect(await s.countQueued('a')).toBe(0)
        expect(await s.countQueued('b')).toBe(0)
        await s.putItems([item({ submittedAt: 5 }), finish(item({ submittedAt: 5 }))])
        expect(await s.countQueued('a')).toBe(1) // a finished item put as such does not count
        expect(await s.purgeBefore(10)).toBe(2)
        expect(await s.countQueued('a')).toBe(0)
      })
    })

    describe('values that cannot be stored', () => {
      it('should refuse a put holding a non-finite number or a lone surrogate, naming it, and store none of the batch', async () => {
        const good = item()
        const cases: Array<[unknown, RegExp]> = [
          [{ score: Number.POSITIVE_INFINITY }, /items\[1\]\.input\.metadata\.score should be a finite number, instead found Infinity/],
          [[1, Number.NaN], /items\[1\]\.input\.metadata\[1\] should be a finite number, instead found NaN/],
          [{ s: 'a\uD800b' }, /items\[1\]\.input\.metadata\.s should be well-formed text, instead found a lone surrogate U\+D800 at character 2/],
          [{ big: 1n }, /items\[1\]\.input\.metadata\.big should be a JSON value .*, instead found a bigint/],
          [{ when: new Date(0) }, /items\[1\]\.input\.metadata\.when should be a plain object or an array, instead found an instance of Date/],
        ]
        for (const [metadata, message] of cases) {
          const bad = item({ input: { text: 'x', metadata } })
          const err = await s.putItems([good, bad]).then(() => undefined, (e: unknown) => e)
          expect(isStorageValueError(err)).toBe(true)
          expect((err as Error).message).toMatch(message)
          expect(await s.getItem(good)).toBeUndefined()
          expect(await s.countQueued('a')).toBe(0)
        }
        await expect(s.putItems([item({ input: { text: '\uDC00' } })])).rejects.toThrow(/items\[0\]\.input\.text should be well-formed text, instead found a lone surrogate U\+DC00 at character 1/)
      })
      it('should drop undefined properties and keep well-formed text (emoji, CJK) as JSON does', async () => {
        const i = item({ input: { text: 'ok \u{1F600} 中文', metadata: { a: undefined, b: [undefined, 1], c: -0 } } })
        await s.putItems([i])
        expect((await s.getItem(i))?.input).toEqual({ text: 'ok \u{1F600} 中文', metadata: { b: [null, 1], c: 0 } })
      })
      it('should store an output it cannot keep as FAILED naming the value, and deliver the rest of the batch', async () => {
        const list = Array.from({ length: 5 }, (_, n) => item({ seq: n + 1, jobId: 'j' }))
        await s.putItems(list)
        const claimed = await s.claimQueued(5)
        for (const c of claimed) {
          const done = finish(c)
          if (c.seq === 2) (done.output as unknown as Record<string, unknown>)['sentiment_score'] = Number.POSITIVE_INFINITY
          if (c.seq === 4) (done.output as unknown as Record<string, unknown>)['tag'] = 'x\uD83D'
          expect(await s.completeItem(done)).toBe(true)
        }
        const taken = await s.takeProcessed('a', 'document', { jobId: 'j' }, 10)
        expect(taken.map((t) => [t.seq, t.status])).toEqual([[1, 'PROCESSED'], [2, 'FAILED'], [3, 'PROCESSED'], [4, 'FAILED'], [5, 'PROCESSED']])
        expect(taken[1]?.output).toEqual({
          id: list[1]!.id, config_id: 'c1', job_id: 'j', tag: 't', status: 'FAILED',
          failure_reason: 'the output could not be stored: output.sentiment_score should be a finite number, instead found Infinity',
        })
        expect(taken[3]?.output?.failure_reason).toMatch(/output\.tag should be well-formed text, instead found a lone surrogate U\+D83D at character 2/)
        expect(JSON.parse(JSON.stringify(taken))).toEqual(taken)
        expect(await s.countQueued('a')).toBe(0)
      })
    })

    describe('job ids', () => {
      it('should accept up to limit distinct job ids in the window and always a known one', async () => {
        expect(await s.useJobId('a', 'j1', 1000, 500, 2)).toEqual({ accepted: true, count: 1 })
        expect(await s.useJobId('a', 'j2', 1100, 500, 2)).toEqual({ accepted: true, count: 2 })
        expect(await s.useJobId('a', 'j3', 1200, 500, 2)).toEqual({ accepted: false, count: 2 })
        expect(await s.useJobId('a', 'j1', 1300, 500, 2)).toEqual({ accepted: true, count: 2 })
        expect(await s.useJobId('b', 'j3', 1300, 500, 2)).toEqual({ accepted: true, count: 1 })
      })
      it('should forget job ids once they fall out of the window', async () => {
        await s.useJobId('a', 'j1', 1000, 500, 1)
        expect((await s.useJobId('a', 'j2', 1499, 500, 1)).accepted).toBe(false)
        expect(await s.useJobId('a', 'j2', 1500, 500, 1)).toEqual({ accepted: true, count: 1 })
      })
      it('should count a re-used job id from its latest use', async () => {
        await s.useJobId('a', 'j1', 1000, 500, 1)
        await s.useJobId('a', 'j1', 1400, 500, 1)
        expect((await s.useJobId('a', 'j2', 1600, 500, 1)).accepted).toBe(false)
        expect((await s.useJobId('a', 'j2', 1900, 500, 1)).accepted).toBe(true)
      })
    })

    describe('counters', () => {
      const dims = { configId: 'c1', app: 'app', language: 'en' }
      it('should add counters into one row per account, dimensions and bucket', async () => {
        await s.addCounters('a', dims, 60_000, { calls_data: 1, total_api_calls: 1 })
        await s.addCounters('a', dims, 60_000, { calls_data: 2, docs_queued: 5 })
        await s.addCounters('a', { ...dims, app: 'other' }, 60_000, { calls_polling: 1 })
        await s.addCounters('a', dims, 120_000, { docs_failed: 1 })
        await s.addCounters('b', dims, 60_000, { calls_data: 7 })
        const rows = await s.readCounters('a', 0, 1e15)
        expect(rows).toHaveLength(3)
        const row = rows.find((r) => r.app === 'app' && r.bucketStart === 60_000)
        expect(row?.counters).toEqual({
          batches_queued: 0,
          calls_data: 3,
          calls_polling: 0,
          calls_settings: 0,
          docs_failed: 0,
          docs_queued: 5,
          docs_retrieved: 0,
          docs_successful: 0,
          total_api_calls: 1,
        })
        expect((await s.readCounters('b', 0, 1e15))[0]?.counters.calls_data).toBe(7)
        expect(await s.readCounters('nobody', 0, 1e15)).toEqual([])
      })
      it('should read rows whose bucket starts within [from, to)', async () => {
        for (const t of [0, 60_000, 120_000, 180_000]) await s.addCounters('a', dims, t, { calls_data: 1 })
        const rows = await s.readCounters('a', 60_000, 180_000)
        expect(rows.map((r) => r.bucketStart).sort((x, y) => x - y)).toEqual([60_000, 120_000])
      })
      it('should sum concurrent additions without losing any', async () => {
        await Promise.all(Array.from({ length: 50 }, () => s.addCounters('a', dims, 0, { docs_queued: 1 })))
        expect((await s.readCounters('a', 0, 1))[0]?.counters.docs_queued).toBe(50)
      })
    })
  })
}
