import { describe, expect, it } from 'vitest'
import { createEngine } from '../../src/engine/create-engine.ts'
import { isEngineError } from '../../src/errors.ts'
import type { DocumentOutput } from '../../src/model/output.ts'

const codeOf = async (p: Promise<unknown>): Promise<string> => {
  try {
    await p
    return 'no error'
  } catch (e) {
    return isEngineError(e) ? e.code : `other: ${String(e)}`
  }
}

describe('createEngine', () => {
  it('should analyse a text in process with the primary configuration', async () => {
    const engine = createEngine({ background: false })
    const out = await engine.analyze('The staff were wonderful and the room was spotless.', { id: 'a', tag: 't', metadata: { k: [1] } })
    expect(out).toMatchObject({ id: 'a', tag: 't', metadata: { k: [1] }, status: 'PROCESSED', sentiment_polarity: 'positive' })
    expect(out.details?.[0]?.words.map((w) => w.title)).toContain('spotless')
    expect(Object.keys(out).slice(0, 3)).toEqual(['id', 'config_id', 'tag'])
    await engine.close()
  })

  it('should give byte-identical output for the same input twice and across engines', async () => {
    const a = createEngine({ background: false, newId: () => 'fixed' })
    const b = createEngine({ background: false, newId: () => 'fixed' })
    const text = 'Tim Cook said Apple had a terrible quarter, but the iPhone sold well in Paris!'
    const x = JSON.stringify(await a.analyze(text, { id: '1' }))
    expect(JSON.stringify(await a.analyze(text, { id: '1' }))).toBe(x)
    expect(JSON.stringify(await b.analyze(text, { id: '1' }))).toBe(x)
    await a.close()
    await b.close()
  })

  it('should fail content it cannot analyse with a reason, and refuse oversize text', async () => {
    const engine = createEngine({ background: false })
    const out = await engine.analyze('%%%% $$$$ #### ab')
    expect(out.status).toBe('FAILED')
    expect(out.failure_reason).toMatch(/alphanumeric/)
    expect(await codeOf(engine.analyze('x'.repeat(2049)))).toBe('ERR_DOCUMENT_TOO_LONG')
    await engine.close()
  })

  it('should queue, process in the background and hand out processed documents once', async () => {
    const engine = createEngine()
    const acct = engine.account(engine.defaultAccount)
    await acct.submitDocuments([{ id: 'd1', text: 'I love this hotel.' }, { id: 'd2', text: 'Awful service.' }], { batch: true })
    const queued = await acct.getDocument('d1')
    expect(['QUEUED', 'PROCESSED']).toContain(queued.status)
    await engine.drain()
    expect((await acct.getDocument('d1')).status).toBe('PROCESSED')
    const first = await acct.takeProcessedDocuments({})
    expect(first.map((d) => d.id).sort()).toEqual(['d1', 'd2'])
    expect(await acct.takeProcessedDocuments({})).toEqual([])
    expect(await codeOf(acct.getDocument('d1'))).toBe('ERR_NOT_FOUND')
    await engine.close()
  })

  it('should keep job streams apart and refuse config_id with job_id', async () => {
    const engine = createEngine()
    const acct = engine.account(engine.defaultAccount)
    await acct.submitDocuments([{ id: 'j', text: 'Fine day.', job_id: 'qa' }], { batch: true })
    await acct.submitDocuments([{ id: 'p', text: 'Fine day.' }], { batch: true })
    await engine.drain()
    expect((await acct.takeProcessedDocuments({})).map((d) => d.id)).toEqual(['p'])
    expect(await codeOf(acct.takeProcessedDocuments({ jobId: 'qa', configId: 'x' }))).toBe('ERR_JOB_ID')
    const byJob = await acct.takeProcessedDocuments({ jobId: 'qa' })
    expect(byJob.map((d) => [d.id, d.job_id])).toEqual([['j', 'qa']])
    await engine.close()
  })

  it('should cancel a queued document and leave a processed one', async () => {
    const engine = createEngine({ background: false })
    const acct = engine.account(engine.defaultAccount)
    await acct.submitDocuments({ id: 'c', text: 'Cancel me.' }, { batch: false })
    await acct.cancelDocument('c')
    expect(await codeOf(acct.getDocument('c'))).toBe('ERR_NOT_FOUND')
    await acct.submitDocuments({ id: 'k', text: 'Keep me.' }, { batch: false })
    await engine.drain()
    await acct.cancelDocument('k')
    expect((await acct.getDocument('k')).status).toBe('PROCESSED')
    expect(await codeOf(acct.cancelDocument('nope'))).toBe('ERR_NOT_FOUND')
    await engine.close()
  })

  it('should validate a whole batch before storing any of it', async () => {
    const engine = createEngine({ background: false })
    const acct = engine.account(engine.defaultAccount)
    const code = await codeOf(acct.submitDocuments([{ id: 'ok', text: 'Fine.' }, { id: 'bad', text: 42 }], { batch: true }))
    expect(code).toBe('ERR_INVALID_FIELD')
    expect(await codeOf(acct.getDocument('ok'))).toBe('ERR_NOT_FOUND')
    const big = Array.from({ length: 101 }, (_, i) => ({ id: String(i), text: 'x' }))
    expect(await codeOf(acct.submitDocuments(big, { batch: true }))).toBe('ERR_BATCH_LIMIT')
    expect(await codeOf(acct.submitDocuments([{ text: 'y'.repeat(2049) }], { batch: true }))).toBe('ERR_DOCUMENT_TOO_LONG')
    await engine.close()
  })

  it('should answer auto_response submissions with already processed items', async () => {
    const engine = createEngine()
    const acct = engine.account(engine.defaultAccount)
    await acct.updateConfigurations({ auto_response: true })
    const r1 = await acct.submitDocuments({ id: 'a1', text: 'Good.' }, { batch: false })
    expect(r1.autoResponse).toEqual([])
    await engine.drain()
    const r2 = await acct.submitDocuments({ id: 'a2', text: 'Bad.' }, { batch: false })
    expect(r2.autoResponse.map((d: DocumentOutput) => d.id)).toEqual(['a1'])
    expect(await codeOf(acct.submitDocuments([{ text: 'x', job_id: 'j' }], { batch: true }))).toBe('ERR_JOB_ID')
    await engine.close()
  })

  it('should apply a sentiment phrase from tuning to the next document', async () => {
    const engine = createEngine({ background: false })
    const acct = engine.account(engine.defaultAccount)
    const before = await engine.analyze('The lobby was gorgeous.')
    await acct.createTuning('phrases', [{ name: 'gorgeous', weight: -2 }])
    const after = await engine.analyze('The lobby was gorgeous.')
    expect(before.sentiment_polarity).toBe('positive')
    expect(after.sentiment_polarity).toBe('negative')
    await engine.close()
  })

  it('should keep accounts and engines apart', async () => {
    const engine = createEngine({
      accounts: [
        { key: 'k1', secret: 's1' },
        { key: 'k2', secret: 's2' },
      ],
      background: false,
    })
    await engine.account('k1').createTuning('phrases', [{ name: 'gorgeous', weight: -2 }])
    expect(await engine.account('k2').listTuning('phrases')).toEqual([])
    expect((await engine.analyze('gorgeous', { account: 'k2' })).sentiment_polarity).toBe('positive')
    expect(engine.secretOf('k2')).toBe('s2')
    expect(() => engine.account('k3')).toThrow(/unknown account/)
    const other = createEngine({ accounts: [{ key: 'k1', secret: 's1' }], background: false })
    expect(await other.account('k1').listTuning('phrases')).toEqual([])
    await engine.close()
    await other.close()
  })

  it('should refuse bad options at createEngine', () => {
    expect(() => createEngine({ accounts: [] })).toThrow(/non-empty/)
    expect(() => createEngine({ accounts: [{ key: 'a', secret: 'b' }, { key: 'a', secret: 'c' }] })).toThrow(/two accounts/)
    expect(() => createEngine({ workerBatch: 0 })).toThrow(/workerBatch/)
  })

  it('should count calls and documents in statistics, grouped by configuration', async () => {
    let now = Date.UTC(2026, 10, 22, 12)
    const engine = createEngine({ now: () => now })
    const acct = engine.account(engine.defaultAccount)
    await acct.recordCall('data', 'sdk/1.0')
    await acct.submitDocuments([{ text: 'Good.' }, { text: 'Bad.' }], { batch: true, app: 'sdk/1.0' })
    await engine.drain()
    now += 1000
    const [total] = await acct.statistics({ interval: 'Day' })
    expect(total).toMatchObject({ calls_data: 1, total_api_calls: 1, docs_queued: 2, batches_queued: 1, docs_successful: 2, latest_used_app: 'sdk/1.0' })
    const grouped = await acct.statistics({ interval: 'day', group: 'config,1h' })
    expect(grouped.length).toBeGreaterThan(0)
    expect(grouped[0]!.values!.length).toBeGreaterThan(0)
    await engine.close()
  })

  it('should enforce the call rate of a class', async () => {
    const now = Date.UTC(2026, 0, 1)
    const engine = createEngine({ now: () => now, accounts: [{ key: 'k', secret: 's', subscription: { billing_settings: { settings_calls_limit: 2 } } }] })
    const acct = engine.account('k')
    await acct.recordCall('settings')
    await acct.recordCall('settings')
    expect(await codeOf(acct.recordCall('settings'))).toBe('ERR_CALL_LIMIT')
    await acct.recordCall('data')
    await engine.close()
  })

  it('should report features truthfully and the status record', async () => {
    const engine = createEngine()
    const acct = engine.account(engine.defaultAccount)
    const [f] = await acct.features('English')
    expect(f).toMatchObject({ id: 'en', language: 'English' })
    expect(f!.detailed_mode['relations']).toBe(true)
    expect(f!.detailed_mode['pos_tagging']).toBe(true)
    expect(await acct.status()).toMatchObject({ service_status: 'available', api_version: '4.2', supported_languages: ['English'] })
    const sub = await acct.subscription()
    expect(sub.basic_settings.incoming_batch_limit).toBeGreaterThanOrEqual(100)
    await engine.close()
  })
})
