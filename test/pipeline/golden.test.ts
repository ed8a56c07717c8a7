import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { goldenOutputs, OUTPUTS_URL, TEXTS } from '../fixtures/golden/golden.ts'

// Outputs recorded before the speed work of issue 17 (annotation in one pass, the scorer's trie, lazy query
// index and grammar): every output on, every tuning resource kind. A change that is meant to move outputs
// re-records them with `npx tsx test/fixtures/golden/record.ts` in the same commit.
const recorded = readFileSync(OUTPUTS_URL, 'utf8').split('\n').filter((l) => l !== '')

describe('golden outputs (every output on)', () => {
  it('should reproduce the recorded JSON byte for byte', async () => {
    expect(recorded).toHaveLength(TEXTS.length)
    const now = await goldenOutputs()
    for (let i = 0; i < TEXTS.length; i++) expect(now[i], `text ${i}: ${TEXTS[i]!}`).toBe(recorded[i])
  }, 60_000)

  it('should reproduce them when the texts are analysed together (analyzeMany: batches through the pipeline step by step)', async () => {
    const now = await goldenOutputs(TEXTS, true)
    for (let i = 0; i < TEXTS.length; i++) expect(now[i], `text ${i}: ${TEXTS[i]!}`).toBe(recorded[i])
  }, 60_000)

  it('should not depend on what the process analysed before (reverse order, fresh engine)', async () => {
    const reversed = [...TEXTS].reverse()
    const now = (await goldenOutputs(reversed)).reverse()
    // ids follow the order of analysis; everything else must be the same bytes.
    const strip = (s: string): string => s.replace(/^\{"id":"g\d+",/, '{')
    for (let i = 0; i < TEXTS.length; i++) expect(strip(now[i]!), `text ${i}`).toBe(strip(recorded[i]!))
  }, 60_000)
})
