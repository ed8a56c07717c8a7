import { describe, expect, it } from 'vitest'
import { createEngine } from '../../src/engine/create-engine.ts'

describe('language analyzer', () => {
  it('should report the detected language and its score', async () => {
    const engine = createEngine({ background: false })
    const out = await engine.analyze('The breakfast was served on the terrace every morning.')
    expect(out.language).toBe('English')
    expect(out.language_score).toBeGreaterThan(0.5)
    await engine.close()
  })

  it('should fail a long text confidently in another language, naming both languages', async () => {
    const engine = createEngine({ background: false })
    const out = await engine.analyze('Der Zimmerservice war schrecklich und das Frühstück war kalt, aber das Personal war sehr freundlich.')
    expect(out).toMatchObject({ status: 'FAILED', language: 'German' })
    expect(out.failure_reason).toMatch(/German.*English/)
    expect(out.sentiment_score).toBeUndefined()
    await engine.close()
  })

  it('should take the configuration language without a score when detection is off', async () => {
    const engine = createEngine({ background: false })
    await engine.account(engine.defaultAccount).updateConfigurations({ document: { detect_language: false } })
    const out = await engine.analyze('Der Zimmerservice war schrecklich und das Frühstück war kalt, aber das Personal war sehr freundlich.')
    expect(out.status).toBe('PROCESSED')
    expect(out.language).toBe('English')
    expect(out.language_score).toBeUndefined()
    await engine.close()
  })
})
