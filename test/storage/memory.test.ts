import { describe, expect, it } from 'vitest'
import { createMemoryStorage } from '../../src/storage/memory.ts'
import type { DocumentOutput } from '../../src/model/output.ts'
import type { QueueItem } from '../../src/storage/types.ts'
import { runStorageContract } from '../helpers/storage-contract.ts'

runStorageContract('memory', async (options) => createMemoryStorage(options))

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
