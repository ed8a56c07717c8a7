import { describe, expect, it } from 'vitest'
import { ANALYSIS_BATCH, ANALYSIS_BATCH_CHARS, analysisBatches, batchLength, createAnalysisCore, type PreparingAnalyzer } from '../../src/engine/analysis.ts'
import { builtinAnalyzers } from '../../src/engine/features.ts'
import { BATCH_DOCUMENTS } from '../../src/nlp/recent-cache.ts'
import { buildSubscription } from '../../src/engine/account.ts'
import { defaultConfigurationSettings } from '../../src/engine/settings.ts'
import { emptyTuning } from '../../src/engine/templates.ts'
import { createEngine } from '../../src/engine/create-engine.ts'
import type { StoredConfiguration } from '../../src/storage/types.ts'
import { EVERY_OUTPUT_ON } from '../fixtures/golden/golden.ts'

const settings = defaultConfigurationSettings('English')
const stored: StoredConfiguration = {
  configuration: { ...settings, id: 'c', config_id: 'c', is_primary: true, modified: 0, document: { ...settings.document, ...EVERY_OUTPUT_ON.document } },
  tuning: emptyTuning(),
  revision: 1,
}
const subscription = buildSubscription(undefined, 'test')

const TEXTS = [
  'Great location, dirty rooms, friendly staff.',
  '!!!! ???? ....',
  'The food was delicious but the service was terribly slow.',
  'Tesla fell 4% while OpenAI did well.',
  'Der Film war langweilig und viel zu lang, aber die Musik war schön.',
  'Without a doubt the best hotel in town.',
]

describe('analysisBatches', () => {
  it('should cut jobs into consecutive batches by count and characters, a long text alone, in order', () => {
    const short = Array.from({ length: ANALYSIS_BATCH + 3 }, (_, i) => ({ text: 'x'.repeat(10), i }))
    expect(analysisBatches(short).map((b) => b.length)).toEqual([ANALYSIS_BATCH, 3])
    const long = { text: 'y'.repeat(ANALYSIS_BATCH_CHARS + 1), i: 99 }
    const mixed = [short[0]!, long, short[1]!, { text: 'z'.repeat(ANALYSIS_BATCH_CHARS - 10), i: 100 }, short[2]!]
    const batches = analysisBatches(mixed)
    expect(batches.map((b) => b.map((j) => j.i))).toEqual([[0], [99], [1, 100], [2]])
    expect(batches.flat()).toEqual(mixed)
    expect(analysisBatches([])).toEqual([])
  })

  it('should end the next batch (batchLength) at the first job that does not join the first one, from any position', () => {
    const jobs = ['a', 'a', 'b', 'a', 'a'].map((k, i) => ({ text: 'x', k, i }))
    const sameK = (a: { k: string }, b: { k: string }): boolean => a.k === b.k
    expect(batchLength(jobs, 0, sameK)).toBe(2)
    expect(batchLength(jobs, 2, sameK)).toBe(1)
    expect(batchLength(jobs, 3, sameK)).toBe(2)
    expect(batchLength(jobs, 5, sameK)).toBe(0)
    expect(batchLength(jobs)).toBe(5)
  })
})

describe('AnalysisCore.analyzeDocuments', () => {
  it('should give every text the bytes analyzeDocument gives it alone, failed content included', () => {
    const core = createAnalysisCore(builtinAnalyzers())
    const jobs = TEXTS.map((text, i) => ({ text, meta: { id: `d${i}`, tag: 't', metadata: { n: i } } }))
    const together = core.analyzeDocuments(jobs, stored, subscription, 'k')
    const alone = jobs.map((j) => core.analyzeDocument(j.text, j.meta, stored, subscription, 'k'))
    expect(together.map((r) => JSON.stringify(r.output))).toEqual(alone.map((o) => JSON.stringify(o)))
    expect(together[1]!.output).toMatchObject({ id: 'd1', status: 'FAILED' })
    expect(together[0]!.output).toMatchObject({ id: 'd0', status: 'PROCESSED' })
  })

  it('should run a list longer than a batch in slices that the per-document caches remember whole', () => {
    // Two analyzers read the same per-document value (as entities, relations and opinions read one extraction): with
    // a list longer than the caches' BATCH_DOCUMENTS, one analyzer over the whole list would push the first
    // documents out before the second reads them.
    const computed: string[] = []
    const made = new Map<object, number>()
    const recent: object[] = []
    const shared = (doc: object): number => {
      if (recent.includes(doc)) return made.get(doc)!
      computed.push('x')
      made.set(doc, computed.length)
      recent.push(doc)
      if (recent.length > BATCH_DOCUMENTS) recent.shift()
      return computed.length
    }
    const first: PreparingAnalyzer = { name: 'first' as never, needs: ['sentiment'], enabled: () => true, run: (doc) => shared(doc) as never }
    const second: PreparingAnalyzer = { name: 'second' as never, needs: ['first' as never], enabled: () => true, run: (doc) => shared(doc) as never }
    const core = createAnalysisCore([...builtinAnalyzers(), first, second])
    const n = 2 * BATCH_DOCUMENTS + 3
    const jobs = Array.from({ length: n }, (_, i) => ({ text: `Text number ${i} is fine.`, meta: { id: `d${i}` } }))
    const together = core.analyzeDocuments(jobs, stored, subscription, 'k')
    expect(computed).toHaveLength(n)
    expect(together.map((r) => r.output?.id)).toEqual(jobs.map((j) => j.meta.id))
    expect(JSON.stringify(together[n - 1]!.output)).toBe(JSON.stringify(core.analyzeDocument(jobs[n - 1]!.text, jobs[n - 1]!.meta, stored, subscription, 'k')))
  })

  it('should fail only the text an analyzer throws for, with the reason analyzeDocument gives', () => {
    const fragile: PreparingAnalyzer = {
      name: 'fragile' as never,
      needs: ['sentiment'],
      enabled: () => true,
      run: (doc) => {
        if (doc.text.includes('boom')) throw new Error('cannot read boom')
        return undefined as never
      },
    }
    const core = createAnalysisCore([...builtinAnalyzers(), fragile])
    const jobs = ['Nice and quiet.', 'It went boom.', 'Awful noise all night.'].map((text, i) => ({ text, meta: { id: `d${i}` } }))
    const together = core.analyzeDocuments(jobs, stored, subscription, 'k')
    expect(together[1]!.output).toEqual({ id: 'd1', config_id: 'c', status: 'FAILED', failure_reason: 'analysis failed: cannot read boom' })
    expect(together[1]!.output).toEqual(core.analyzeDocument(jobs[1]!.text, jobs[1]!.meta, stored, subscription, 'k'))
    for (const i of [0, 2]) expect(JSON.stringify(together[i]!.output)).toBe(JSON.stringify(core.analyzeDocument(jobs[i]!.text, jobs[i]!.meta, stored, subscription, 'k')))
    expect(together[2]!.output).toMatchObject({ status: 'PROCESSED', sentiment_polarity: 'negative' })
  })
})

describe('batched analysis through the engine', () => {
  it('should give analyzeMany and the queue the outputs analyze gives, one text at a time', async () => {
    const engine = createEngine({ background: false })
    try {
      const acct = engine.account(engine.defaultAccount)
      await acct.updateConfigurations(EVERY_OUTPUT_ON)
      const texts = [...TEXTS, ...TEXTS.map((t) => `${t} Really.`)]
      const alone = await Promise.all(texts.map((text, i) => engine.analyze(text, { id: `d${i}` })))
      const many = await engine.analyzeMany(texts.map((text, i) => ({ text, id: `d${i}` })))
      expect(many.map((o) => JSON.stringify(o))).toEqual(alone.map((o) => JSON.stringify(o)))
      await acct.submitDocuments(texts.map((text, i) => ({ id: `d${i}`, text })), { batch: true })
      await engine.drain()
      const taken = new Map((await acct.takeProcessedDocuments({})).map((o) => [o.id, o]))
      expect(taken.size).toBe(texts.length)
      // The queue's outputs carry the configuration's id the same way; compare everything.
      for (const [i, o] of alone.entries()) expect(JSON.stringify(taken.get(`d${i}`))).toBe(JSON.stringify(o))
    } finally {
      await engine.close()
    }
  }, 60_000)
})
