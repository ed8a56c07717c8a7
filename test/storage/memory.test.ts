import { describe, expect, it } from 'vitest'
import { createMemoryStorage, LIVE_OUTPUTS } from '../../src/storage/memory.ts'
import type { DocumentOutput } from '../../src/model/output.ts'
import type { QueueItem } from '../../src/storage/types.ts'
import { runStorageContract } from '../helpers/storage-contract.ts'

runStorageContract('memory', async (options) => createMemoryStorage(options))
// Every output deflated: the same contract.
runStorageContract('memory, outputs packed', async (options) => createMemoryStorage({ ...options, compressOutputsAbove: 0 }))
// Every output handed over (kept as the object itself until taken): the same contract.
runStorageContract('memory, outputs handed over', async (options) => {
  const s = createMemoryStorage(options)
  const complete = s.completeItem.bind(s)
  return Object.assign(s, { completeItem: (item: QueueItem) => complete(structuredClone(item), { handOver: true }) })
})

describe('memory storage: outputs kept encoded', () => {
  const item: QueueItem = { account: 'a', kind: 'document', configId: 'c', id: 'd1', status: 'QUEUED', seq: 1, submittedAt: 1, input: { text: 'x' } }

  it('should hand out a fresh output per read, equal to the stored one as JSON keeps it', async () => {
    const s = createMemoryStorage()
    await s.putItems([item])
    const [claimed] = await s.claimQueued(1)
    const output = { id: 'd1', config_id: 'c', status: 'PROCESSED', sentiment_score: -0, tag: undefined, details: [{ words: ['é', '\u{1F600}'] }] }
    expect(await s.completeItem({ ...claimed!, status: 'PROCESSED', finishedAt: 2, output: output as unknown as DocumentOutput })).toBe(true)
    output.details[0]!.words[0] = 'changed'
    const first = await s.getItem(item)
    const second = await s.getItem(item)
    expect(first!.output).toEqual({ id: 'd1', config_id: 'c', status: 'PROCESSED', sentiment_score: 0, details: [{ words: ['é', '\u{1F600}'] }] })
    expect(Object.is((first!.output as { sentiment_score: number }).sentiment_score, 0)).toBe(true)
    expect('tag' in first!.output!).toBe(false)
    expect(second!.output).not.toBe(first!.output)
    ;(first!.output as { status: string }).status = 'changed'
    expect((await s.takeItem(item))!.output).toEqual(second!.output)
  })

  it('should give back the same outputs whether they are kept packed or not', async () => {
    const outputs = Array.from({ length: 6 }, (_, i) => ({ id: `d${i}`, config_id: 'c', status: 'PROCESSED', words: Array.from({ length: 40 * i }, (_, j) => `w${j % 7}é\u{1F600}`) }))
    const stores = [createMemoryStorage(), createMemoryStorage({ compressOutputsAbove: 0 }), createMemoryStorage({ compressOutputsAbove: 500 })]
    const got = []
    for (const s of stores) {
      await s.putItems(outputs.map((o, i) => ({ ...item, id: o.id, seq: i + 1 })))
      for (const c of await s.claimQueued(10)) expect(await s.completeItem({ ...c, status: 'PROCESSED', finishedAt: 2, output: outputs[Number(c.id.slice(1))] as unknown as DocumentOutput })).toBe(true)
      got.push([await s.getItem({ ...item, id: 'd5' }), ...(await s.takeProcessed('a', 'document', { configId: 'c' }, 10))])
    }
    expect(got[0]!.map((x) => x!.output)).toEqual([outputs[5], ...outputs])
    expect(got[1]).toEqual(got[0])
    expect(got[2]).toEqual(got[0])
    expect(() => createMemoryStorage({ compressOutputsAbove: -1 })).toThrow(/compressOutputsAbove/)
  })

  it('should store FAILED, naming the value, an output it cannot keep, as the copy did', async () => {
    const s = createMemoryStorage()
    await s.putItems([item])
    const [claimed] = await s.claimQueued(1)
    const output = { id: 'd1', config_id: 'c', status: 'PROCESSED', sentiment_score: NaN }
    expect(await s.completeItem({ ...claimed!, status: 'PROCESSED', output: output as unknown as DocumentOutput })).toBe(true)
    const got = await s.takeItem(item)
    expect(got!.status).toBe('FAILED')
    expect((got!.output as { failure_reason: string }).failure_reason).toMatch(/output\.sentiment_score.*finite number/)
  })
})

describe('memory storage: outputs handed over', () => {
  const item: QueueItem = { account: 'a', kind: 'document', configId: 'c', id: 'd1', status: 'QUEUED', seq: 1, submittedAt: 1, input: { text: 'x', metadata: { source: 'web' } } }

  it('should give the handed-over object to its taker, and copies to every other read', async () => {
    const s = createMemoryStorage()
    await s.putItems([item])
    const [claimed] = await s.claimQueued(1)
    const output = { id: 'd1', config_id: 'c', status: 'PROCESSED', sentiment_score: 0.5, metadata: claimed!.input.metadata }
    expect(Object.isFrozen(output.metadata)).toBe(true)
    expect(await s.completeItem({ ...claimed!, status: 'PROCESSED', finishedAt: 2, output: output as unknown as DocumentOutput }, { handOver: true })).toBe(true)
    const read = await s.getItem(item)
    expect(read!.output).toEqual(output)
    expect(read!.output).not.toBe(output)
    ;(read!.output as { status: string }).status = 'changed'
    const taken = await s.takeItem(item)
    expect(taken!.output).toBe(output)
    expect(taken!.output).toEqual({ id: 'd1', config_id: 'c', status: 'PROCESSED', sentiment_score: 0.5, metadata: { source: 'web' } })
    // Its taker may change every part of it, the metadata it carries from the frozen input too.
    expect(Object.isFrozen((taken!.output as { metadata: object }).metadata)).toBe(false)
    expect(await s.getItem(item)).toBeUndefined()
  })

  it('should store FAILED a handed-over output it cannot keep, and encode those past the bound', async () => {
    const s = createMemoryStorage()
    await s.putItems([item])
    const [claimed] = await s.claimQueued(1)
    const bad = { id: 'd1', config_id: 'c', status: 'PROCESSED', sentiment_score: NaN }
    expect(await s.completeItem({ ...claimed!, status: 'PROCESSED', output: bad as unknown as DocumentOutput }, { handOver: true })).toBe(true)
    const got = await s.takeItem(item)
    expect(got!.status).toBe('FAILED')
    expect((got!.output as { failure_reason: string }).failure_reason).toMatch(/output\.sentiment_score.*finite number/)

    const n = LIVE_OUTPUTS + 2
    const outputs = Array.from({ length: n }, (_, i) => ({ id: `d${i}`, config_id: 'c', status: 'PROCESSED' }))
    await s.putItems(outputs.map((o, i) => ({ ...item, id: o.id, seq: i + 10 })))
    for (const c of await s.claimQueued(n)) await s.completeItem({ ...c, status: 'PROCESSED', output: outputs[Number(c.id.slice(1))] as unknown as DocumentOutput }, { handOver: true })
    const taken = await s.takeProcessed('a', 'document', { configId: 'c' }, n)
    expect(taken.map((t) => t.output)).toEqual(outputs)
    // The first LIVE_OUTPUTS came back as the objects handed over, the rest as decoded copies.
    expect(taken.filter((t, i) => t.output === outputs[i]).length).toBe(LIVE_OUTPUTS)
  })
})
