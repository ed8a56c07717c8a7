import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { createMemoryStorage } from '../../src/storage/memory.ts'
import { churnOps, createStorageModel, opArb, play } from '../helpers/storage-ops.ts'
import type { Op } from '../helpers/storage-ops.ts'

/*
 * The memory storage's indexes (heaps with lazy deletion and compaction, per-group finished heaps, the pending
 * count) checked against a model that scans everything, on random operation sequences large enough (up to 150
 * keys) for heaps to compact. The Redis suite compares Redis with the memory storage the same way.
 */

/** Runs `ops` on the memory storage and on the model and compares every answer. */
async function compare(ops: readonly Op[], compressOutputsAbove?: number): Promise<void> {
  const c1 = { now: 1_000_000 }
  const c2 = { now: 1_000_000 }
  const got = await play(createMemoryStorage({ now: () => c1.now, leaseMs: 1_000, ...(compressOutputsAbove === undefined ? {} : { compressOutputsAbove }) }), ops, c1)
  const want = await play(createStorageModel(1_000, () => c2.now), ops, c2)
  expect(got).toEqual(want)
}

describe('memory storage against a scanning model', () => {
  it('should answer every sequence of operations exactly as the model does', async () => {
    await fc.assert(fc.asyncProperty(fc.array(opArb, { minLength: 40, maxLength: 200 }), (ops) => compare(ops)), { seed: 20261123, numRuns: 100 })
  })

  it('should stay exact through heavy churn, where every heap compacts many times', async () => {
    await compare(churnOps())
  })

  it('should answer as the model does with outputs packed past a small bound (some packed, some not, in turn)', async () => {
    await fc.assert(fc.asyncProperty(fc.array(opArb, { minLength: 40, maxLength: 200 }), (ops) => compare(ops, 200)), { seed: 20261124, numRuns: 50 })
    await compare(churnOps(), 200)
  })
})
