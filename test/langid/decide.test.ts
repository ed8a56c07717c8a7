import { describe, expect, it } from 'vitest'
import { createLanguageDecider, createLanguageIdentifier, languageSample, SAMPLE_CHARS, SHORT_LETTERS } from '../../src/langid/index.ts'
import { loadBackground } from '../../src/themes/background.ts'

const identifier = createLanguageIdentifier()
const decider = createLanguageDecider(identifier, { vocabularies: { en: loadBackground } })
const decide = (text: string) => decider.decide(text, 'English')

describe('createLanguageDecider under an English configuration', () => {
  it.each([
    ['We love Bellagio', 'it'],
    ['Nice Bellagio Hotel', 'it'],
    ['Microsoft', 'es'],
    ['ok', 'hu'],
    ['I love Paris.', 'it'],
  ])('answers English, not decisive and scored low, for %j (the identifier alone says %s)', (text, alone) => {
    expect(identifier.identify(text)?.code).toBe(alone)
    const d = decide(text)!
    expect(d).toMatchObject({ code: 'en', name: 'English', decisive: false })
    expect(d.score).toBeLessThan(0.5)
    expect(d.letters).toBeLessThan(SHORT_LETTERS)
  })

  it('names another language on its function words, decisively: "Das Hotel war super!"', () => {
    expect(decide('Das Hotel war super!')).toMatchObject({ code: 'de', name: 'German', decisive: true, basis: 'words' })
    expect(decide('Muy bien')).toMatchObject({ code: 'es', decisive: true })
    expect(decide('Bonjour tout le monde')).toMatchObject({ code: 'fr', decisive: true })
    expect(decide('Hotel muy limpio')).toMatchObject({ code: 'es', decisive: true })
  })

  it('does not read a name made of function words as another language', () => {
    expect(decide('Bellagio Las Vegas')).toMatchObject({ code: 'en', decisive: false })
    expect(decide('Las Vegas strip')).toMatchObject({ code: 'en', decisive: false })
    expect(decide('Hotel du Lac')).toMatchObject({ code: 'en', decisive: false })
    expect(decide('Come in')).toMatchObject({ code: 'en', decisive: false })
  })

  it('sets names, numbers and capitals aside: lists of players and title-case headlines stay English', () => {
    for (const t of [
      'Dennis Bergkamp ( Netherlands ) , Juergen Klinsmann ( Germany ) , Marco van Basten ( Netherlands )',
      'Marcelo Rios ( Chile ) beat Goran Ivanisevic ( Croatia ) 6-7 ( 1-7 ) 6-3 6-4',
      'Hashan Tillekeratne , Roshan Mahanama , Kumara Dharmasena ,',
      'Adele Extends Las Vegas Residency At Caesars Palace',
      'Postponed : East Fife v Clydebank , St Johnstone v',
    ]) {
      const d = decider.decide(t, 'English')!
      expect(d.code, t).toBe('en')
      expect(d.decisive, t).toBe(false)
    }
  })

  it('still names the language of short sentences with their own function words beside names', () => {
    const cases: Array<[string, string]> = [
      ['Der Trainer von Bayern München sagte, dass die Mannschaft nicht gut gespielt hat.', 'de'],
      ['Le président Emmanuel Macron est arrivé à Berlin avec sa femme.', 'fr'],
      ['El entrenador del Real Madrid dijo que el equipo no jugó bien.', 'es'],
      ['Het kabinet van Mark Rutte heeft het plan niet gesteund.', 'nl'],
      ['Prezydent Andrzej Duda powiedział, że nie podpisze tej ustawy.', 'pl'],
    ]
    for (const [t, code] of cases) expect(decider.decide(t, 'English')!.code, t).toBe(code)
  })

  it('decides by script however short, and decisively when no Latin letter is there', () => {
    expect(decide('Привет')).toMatchObject({ code: 'ru', decisive: true, basis: 'script' })
    expect(decide('谢谢')).toMatchObject({ code: 'zh', decisive: true })
    expect(decide('ok 谢谢')?.decisive).toBe(false)
  })

  it('keeps the identifier for long texts', () => {
    const text = 'Der Zimmerservice war schrecklich und das Frühstück war kalt, aber das Personal war sehr freundlich.'
    const d = decide(text)!
    const id = identifier.identify(text)!
    expect(d).toMatchObject({ code: id.code, score: id.score, decisive: true, basis: 'model' })
  })

  it('answers undefined for a text without letters, and the same decision for the same text', () => {
    expect(decide('12345 !!!')).toBeUndefined()
    expect(decide('Nice Bellagio Hotel')).toEqual(decide('Nice Bellagio Hotel'))
  })

  it('reads a bounded sample of long texts, cut at a space', () => {
    const long = 'The breakfast was served on the terrace every morning. '.repeat(1000)
    const s = languageSample(long)
    expect(s.length).toBeLessThanOrEqual(SAMPLE_CHARS)
    expect(s.length).toBeGreaterThan(SAMPLE_CHARS - 256)
    expect(long.startsWith(s)).toBe(true)
    expect(long[s.length]).toBe(' ')
    expect(decide(long)).toMatchObject({ code: 'en', decisive: true })
    expect(languageSample('short text')).toBe('short text')
  })

  it('without a vocabulary, still answers the configuration language for names alone', () => {
    const bare = createLanguageDecider(identifier)
    expect(bare.decide('Microsoft', 'English')).toMatchObject({ code: 'en', decisive: false })
    expect(bare.decide('Das Hotel war super!', 'English')).toMatchObject({ code: 'de', decisive: true })
  })
})
