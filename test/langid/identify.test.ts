import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import {
  createLanguageIdentifier, findLanguageEntry, LANGUAGES, loadLanguageModel, parseLanguageModel,
  serializeLanguageModel, trainLanguageModel,
} from '../../src/langid/index.ts'

const identifier = createLanguageIdentifier(loadLanguageModel())

// Written for these tests (not taken from the training data).
const SENTENCES: ReadonlyArray<readonly [string, string]> = [
  ['en', 'The committee will publish its final report on the new railway next week.'],
  ['fr', "Le gouvernement a annoncé hier une nouvelle réforme des retraites qui sera votée en juin."],
  ['de', 'Die Stadtverwaltung hat beschlossen, den Park im nächsten Frühjahr neu zu gestalten.'],
  ['es', 'El ayuntamiento ha decidido abrir la biblioteca también durante los fines de semana.'],
  ['it', 'Il comune ha deciso di aprire la biblioteca anche durante il fine settimana.'],
  ['pt', 'A prefeitura decidiu abrir a biblioteca também durante os fins de semana.'],
  ['nl', 'De gemeente heeft besloten de bibliotheek ook in het weekend open te houden.'],
  ['sv', 'Kommunen har beslutat att hålla biblioteket öppet även under helgerna.'],
  ['da', 'Kommunen har besluttet at holde biblioteket åbent også i weekenderne.'],
  ['pl', 'Władze miasta postanowiły otworzyć bibliotekę również w weekendy.'],
  ['cs', 'Vedení města se rozhodlo otevřít knihovnu také o víkendech.'],
  ['tr', 'Belediye, kütüphaneyi hafta sonları da açık tutmaya karar verdi.'],
  ['fi', 'Kaupunki päätti pitää kirjaston auki myös viikonloppuisin.'],
  ['hu', 'A város vezetése úgy döntött, hogy a könyvtár hétvégén is nyitva lesz.'],
  ['ro', 'Primăria a decis să deschidă biblioteca și în weekend.'],
  ['id', 'Pemerintah kota memutuskan untuk membuka perpustakaan juga pada akhir pekan.'],
  ['vi', 'Chính quyền thành phố quyết định mở cửa thư viện vào cuối tuần.'],
  ['ru', 'Городские власти решили открыть библиотеку также по выходным дням.'],
  ['uk', 'Міська влада вирішила відкрити бібліотеку також у вихідні дні.'],
  ['ar', 'قررت البلدية فتح المكتبة أيضا في عطلة نهاية الأسبوع.'],
  ['fa', 'شهرداری تصمیم گرفت کتابخانه را آخر هفته‌ها هم باز نگه دارد.'],
  ['el', 'Ο δήμος αποφάσισε να ανοίξει τη βιβλιοθήκη και τα Σαββατοκύριακα.'],
  ['he', 'העירייה החליטה לפתוח את הספרייה גם בסופי שבוע.'],
  ['hi', 'नगर निगम ने सप्ताहांत में भी पुस्तकालय खोलने का फैसला किया।'],
  ['th', 'เทศบาลตัดสินใจเปิดห้องสมุดในวันหยุดสุดสัปดาห์ด้วย'],
  ['ko', '시청은 주말에도 도서관을 열기로 결정했다.'],
  ['ja', '市役所は週末も図書館を開けることに決めました。'],
  ['zh', '市政府决定周末也开放图书馆。'],
]

describe('LANGUAGES', () => {
  it('lists 28 languages with unique codes and the names the service uses', () => {
    expect(LANGUAGES).toHaveLength(28)
    expect(new Set(LANGUAGES.map((l) => l.code)).size).toBe(28)
    expect(findLanguageEntry('en')?.name).toBe('English')
    expect(findLanguageEntry('french')?.code).toBe('fr')
    expect(findLanguageEntry('zh')?.name).toBe('Chinese')
    expect(findLanguageEntry('xx')).toBeUndefined()
  })
})

describe('createLanguageIdentifier with the committed model', () => {
  it('knows all 28 languages', () => {
    expect([...identifier.languages].sort()).toEqual(LANGUAGES.map((l) => l.code).sort())
  })

  it.each(SENTENCES)('identifies a %s sentence', (code, text) => {
    const r = identifier.identify(text)
    expect(r?.code).toBe(code)
    expect(r?.name).toBe(findLanguageEntry(code)?.name)
    expect(r?.score).toBeGreaterThan(0.5)
  })

  it('tells kana (Japanese) from Han alone (Chinese)', () => {
    expect(identifier.identify('カタカナ')?.code).toBe('ja')
    expect(identifier.identify('图书馆')?.code).toBe('zh')
  })

  it('ranks candidates of the dominant script only, best first, with scores summing to about 1', () => {
    const r = identifier.identify('Городские власти решили открыть библиотеку.')!
    expect(r.ranking.map((x) => x.code).sort()).toEqual(['ru', 'uk'])
    expect(r.ranking[0]).toEqual({ code: r.code, name: r.name, score: r.score })
    const latin = identifier.identify('The committee will publish its report.')!
    expect(latin.ranking).toHaveLength(17)
    for (let i = 1; i < latin.ranking.length; i++) expect(latin.ranking[i - 1]!.score).toBeGreaterThanOrEqual(latin.ranking[i]!.score)
    expect(Math.abs(latin.ranking.reduce((a, x) => a + x.score, 0) - 1)).toBeLessThan(0.01)
  })

  it('gives every identification the same ranking getter, and the ranking as an own member (JSON, equality)', () => {
    const a = identifier.identify('The committee will publish its report.')!
    const b = identifier.identify('Городские власти решили открыть библиотеку.')!
    // One getter for all, not a closure per object: V8 keeps an object literal's getters in old-generation accessor
    // pairs, which held each text's costs alive past two scavenges (npm run bench:old-space).
    const getter = (o: object) => Object.getOwnPropertyDescriptor(o, 'ranking')?.get
    expect(getter(a)).toBeTypeOf('function')
    expect(getter(a)).toBe(getter(b))
    expect(Object.keys(a)).toEqual(['code', 'name', 'score', 'ranking'])
    expect(JSON.parse(JSON.stringify(b)).ranking.map((x: { code: string }) => x.code).sort()).toEqual(['ru', 'uk'])
    expect(Object.isFrozen(a)).toBe(true)
  })

  it('answers undefined for empty input and text without letters', () => {
    expect(identifier.identify('')).toBeUndefined()
    expect(identifier.identify('   \n\t')).toBeUndefined()
    expect(identifier.identify('12345 !!! :-) 3.14 🎉')).toBeUndefined()
  })

  it('rejects a non-string naming what it found', () => {
    expect(() => identifier.identify(42 as unknown as string)).toThrow(/text should be a string, found number/)
  })

  it('gives the same answer for the same text, across calls and identifiers', () => {
    const other = createLanguageIdentifier(loadLanguageModel())
    for (const [, text] of SENTENCES) {
      expect(identifier.identify(text)).toEqual(identifier.identify(text))
      expect(other.identify(text)).toEqual(identifier.identify(text))
    }
  })

  it('should score every text within 0..1 with 4-decimal rounding, and never throw', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 60 }), (text) => {
        const r = identifier.identify(text)
        if (r === undefined) return !/\p{L}/u.test(text)
        return r.ranking.every((x) => x.score >= 0 && x.score <= 1 && Number(x.score.toFixed(4)) === x.score)
      }),
      { seed: 7, numRuns: 200 },
    )
  })
})

describe('training and the model format', () => {
  const samples = new Map([
    ['en', ['the cat sat on the mat', 'this is the house that jack built', 'where is the station']],
    ['de', ['die katze sitzt auf der matte', 'das ist das haus von jack', 'wo ist der bahnhof']],
    ['ru', ['кошка сидит на ковре', 'это дом который построил джек']],
  ])

  it('trains deterministically and round-trips through the text format', () => {
    const a = trainLanguageModel(samples, { minCount: 1 })
    const b = trainLanguageModel(new Map([...samples].reverse()), { minCount: 1 })
    const text = serializeLanguageModel(a)
    expect(serializeLanguageModel(b)).toBe(text)
    const parsed = parseLanguageModel(text)
    expect(serializeLanguageModel(parsed)).toBe(text)
    const id = createLanguageIdentifier(parsed)
    expect(id.identify('where is the cat')?.code).toBe('en')
    expect(id.identify('wo ist die katze')?.code).toBe('de')
    expect(id.identify('где кошка')?.code).toBe('ru')
  })

  it('rejects unknown language codes and malformed lines, naming the line', () => {
    expect(() => trainLanguageModel(new Map([['xx', ['abc']]]))).toThrow(/unknown language code "xx"/)
    const text = serializeLanguageModel(trainLanguageModel(samples, { minCount: 1 }))
    const lines = text.split('\n')
    const at = lines.findIndex((l) => !l.startsWith('@') && l.includes('\t'))
    lines[at] = `${lines[at]!.split('\t')[0]}\ten12 zz7`
    expect(() => parseLanguageModel(lines.join('\n'), 'm.tsv')).toThrow(new RegExp(`m\\.tsv:${at + 1}: expected "<code><cost>" items`))
    expect(() => parseLanguageModel(text.replace('@version\t1', '@version\t9'), 'm.tsv')).toThrow(/expected @version 1/)
  })
})
