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

  describe('short texts (a prior for the configuration language)', () => {
    it.each(['We love Bellagio', 'Nice Bellagio Hotel', 'Microsoft', 'ok', 'I love Paris.'])(
      'should answer English with a low score for %j, and analyse it', async (text) => {
        const engine = createEngine({ background: false })
        const out = await engine.analyze(text)
        expect(out).toMatchObject({ status: 'PROCESSED', language: 'English' })
        expect(out.language_score).toBeGreaterThan(0)
        expect(out.language_score).toBeLessThan(0.5)
        expect(out.sentiment_polarity).toBeDefined()
        await engine.close()
      })

    it('should find German in "Das Hotel war super!" and not analyse it as English', async () => {
      const engine = createEngine({ background: false })
      await engine.account(engine.defaultAccount).updateConfigurations({ document: { themes_limit: 5, sentiment_phrases: true } })
      const out = await engine.analyze('Das Hotel war super!')
      expect(out).toMatchObject({ status: 'FAILED', language: 'German' })
      expect(out.failure_reason).toMatch(/German.*English/)
      // No English analysis: no phrase "war", no theme "hotel war super", no sentiment.
      expect(out.phrases).toBeUndefined()
      expect(out.themes).toBeUndefined()
      expect(out.sentiment_score).toBeUndefined()
      await engine.close()
    })

    it('should keep the long-text rule: a long English text with foreign names stays English and is analysed', async () => {
      const engine = createEngine({ background: false })
      const out = await engine.analyze('We stayed at the Hotel du Lac in Bellagio on Lago di Como and loved the view from the terrace.')
      expect(out).toMatchObject({ status: 'PROCESSED', language: 'English' })
      expect(out.language_score).toBeGreaterThan(0.9)
      await engine.close()
    })
  })
})
