import { describe, expect, it } from 'vitest'
import { createMemoryStorage } from '../../src/storage/memory.ts'
import type { DocumentOutput } from '../../src/model/output.ts'
import type { QueueItem } from '../../src/storage/types.ts'
import { runStorageContract } from '../helpers/storage-contract.ts'

runStorageContract('memory', async (options) => createMemoryStorage(options))
// Every output deflated: the same contract.
runStorageContract('memory, outputs packed', async (options) => createMemoryStorage({ ...options, compressOutputsAbove: 0 }))

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
