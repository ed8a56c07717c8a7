import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import { blankTags, createAnnotator, readReferences, sourcePosition, utf8Length } from '../../src/nlp/annotate.ts'

const annotator = createAnnotator()

describe('annotate', () => {
  it('should give UTF-8 byte offsets that point at each token in the encoded text', () => {
    const text = 'Café 😀 naïve résumé!\nThe 東京 hotel was great.'
    const doc = annotator.annotate(text)
    const bytes = Buffer.from(text, 'utf8')
    for (const t of doc.tokens) {
      expect(bytes.subarray(t.byteOffset, t.byteOffset + t.byteLength).toString('utf8')).toBe(t.text)
      expect(text.slice(t.start, t.end)).toBe(t.text)
    }
    expect(doc.sentences.length).toBe(2)
  })

  it('should mark tokens in a negation scope and lemmatise', () => {
    const doc = annotator.annotate("I don't like rooms")
    const like = doc.tokens.find((t) => t.text === 'like')
    expect(like?.negated).toBe(true)
    expect(doc.tokens.find((t) => t.text === 'rooms')?.lemma).toBe('room')
    expect(doc.tokens.find((t) => t.text === 'rooms')?.stem).toBe('room')
  })

  it('should keep offsets into the original text when HTML is blanked', () => {
    const text = '<p>Great <b>room</b> &amp; staff</p>'
    const doc = annotator.annotate(text, { html: true })
    const words = doc.tokens.filter((t) => t.kind === 'word').map((t) => t.text)
    expect(words).toEqual(['Great', 'room', 'staff'])
    const room = doc.tokens.find((t) => t.text === 'room')!
    expect(text.slice(room.start, room.end)).toBe('room')
    expect(blankTags(text).length).toBe(text.length)
    expect(blankTags(text)).toBe('\n  Great    room     &amp; staff\n   ')
    // The reference is read as its character and the tags are blanked in the document's text (so that no title sliced
    // from it holds a tag); the byte offsets stay the text's.
    expect(doc.text).toBe('\n  Great    room     & staff\n   ')
    const amp = doc.tokens.find((t) => t.text === '&')!
    expect(Buffer.from(text).subarray(amp.byteOffset, amp.byteOffset + amp.byteLength).toString()).toBe('&amp;')
    const staff = doc.tokens.find((t) => t.text === 'staff')!
    expect(Buffer.from(text).subarray(staff.byteOffset, staff.byteOffset + staff.byteLength).toString()).toBe('staff')
  })

  it('should keep a web address whole when it holds a character reference in HTML ("?q=1&amp;page=2")', () => {
    const text = '<p>See https://example.com/search?q=1&amp;page=2 for the list &amp; more.</p>'
    const doc = annotator.annotate(text, { html: true })
    const url = doc.tokens.filter((t) => t.kind === 'url')
    expect(url.map((t) => t.text)).toEqual(['https://example.com/search?q=1&amp;page=2'])
    expect(text.slice(url[0]!.start, url[0]!.end)).toBe(url[0]!.text)
    // Outside the address the reference is read as its character.
    expect(doc.text).toBe('\n  See https://example.com/search?q=1&amp;page=2 for the list & more.\n   ')
    expect(doc.tokens.find((t) => t.text === '&')!.byteLength).toBe('&amp;'.length)
    // A run longer than any address is not scanned to its start: the reference is read as its character.
    const long = 'https://example.com/' + 'a'.repeat(3000) + '&amp;b'
    expect(readReferences(long).text).toBe('https://example.com/' + 'a'.repeat(3000) + '&b')
  })

  it('should treat the whole text as one sentence in one-sentence mode', () => {
    const doc = annotator.annotate('One. Two. Three.', { oneSentence: true })
    expect(doc.sentences.length).toBe(1)
    expect(doc.tokens.every((t) => t.sentence === 0)).toBe(true)
  })

  it('should give byte offsets equal to the encoded length of the text before each token', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 60 }), (s) => {
        const text = `hello ${s} world`
        const doc = annotator.annotate(text)
        for (const t of doc.tokens) {
          expect(t.byteOffset).toBe(Buffer.byteLength(text.slice(0, t.start), 'utf8'))
          expect(t.byteLength).toBe(Buffer.byteLength(text.slice(t.start, t.end), 'utf8'))
        }
      }),
      { seed: 20261122, numRuns: 200 },
    )
  })

  it('should count UTF-8 bytes like Buffer.byteLength', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme-composite', maxLength: 40 }), (s) => {
        expect(utf8Length(s)).toBe(Buffer.byteLength(s, 'utf8'))
      }),
      { seed: 7, numRuns: 300 },
    )
  })

  it('should annotate empty and blank text without throwing', () => {
    for (const t of ['', ' ', '\n']) expect(annotator.annotate(t).text).toBe(t)
  })

  it('should annotate the same text identically twice', () => {
    const text = 'Tim Cook visited Paris. He loved it!'
    expect(JSON.stringify(annotator.annotate(text))).toBe(JSON.stringify(createAnnotator().annotate(text)))
  })
  it('should annotate words wink gives no lemma ("cannot" before punctuation) with their normal form', () => {
    for (const t of ['cannot,', 'I cannot, sadly.', 'Cannot.', 'We cannot!']) {
      const doc = annotator.annotate(t)
      const tok = doc.tokens.find((x) => x.normal === 'cannot')!
      expect(tok.lemma).toBe('cannot')
    }
  })

  it('should annotate any mix of words, contractions and punctuation without throwing', () => {
    const parts = ['cannot', "can't", "won't", 'gonna', "I'm", 'dunno', 'Hillary', "'s", ',', '.', '!', '?', ';', '(', ')', '"', '-', 'U.S.', '3.5mm', ':)', '#tag', '@user', 'café', 'e-mail', ' ', '\n']
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...parts), { maxLength: 12 }), fc.boolean(), (words, spaced) => {
        const text = words.join(spaced ? ' ' : '')
        const doc = annotator.annotate(text)
        for (const t of doc.tokens) expect(typeof t.lemma).toBe('string')
      }),
      { seed: 11, numRuns: 400 },
    )
  })
  it('should read a web address wink splits into words as one url token, with its own text, forms and offsets', () => {
    for (const [text, address] of [
      ['For details visit www.acme-widgets.com/pricing or call us.', 'www.acme-widgets.com/pricing'],
      ['Our staging server at http://localhost:8080/admin crashed.', 'http://localhost:8080/admin'],
      ['Great article http://url_removed', 'http://url_removed'],
      ['Ça coûte 5 € sur http://intranet/wiki/Été ce soir', 'http://intranet/wiki/Été'],
    ] as const) {
      const doc = annotator.annotate(text)
      const urls = doc.tokens.filter((t) => t.kind === 'url')
      expect(urls.map((t) => t.text), text).toEqual([address])
      const u = urls[0]!
      expect(text.slice(u.start, u.end)).toBe(address)
      expect(Buffer.from(text).subarray(u.byteOffset, u.byteOffset + u.byteLength).toString()).toBe(address)
      expect([u.normal, u.lemma]).toEqual([address.toLowerCase(), address.toLowerCase()])
      expect(doc.tokens.some((t) => ['http', 'www', 'com', 'localhost'].includes(t.normal)), text).toBe(false)
    }
    // Too short for a placeholder address, and not an address at all: left as wink reads them.
    expect(annotator.annotate('see www.x.io now').tokens.some((t) => t.kind === 'url')).toBe(false)
    expect(annotator.annotate('admin at http://192.168.0.1/admin now').tokens.filter((t) => t.kind === 'url').map((t) => t.text)).toEqual(['http://192.168.0.1/admin'])
    expect(annotator.annotate('node.js and www-data').tokens.some((t) => t.kind === 'url')).toBe(false)
  })

  it('should keep every token at its offsets and in its sentence for any text with web addresses and marks', () => {
    const parts = [' www.', ' http://', ' https://', 'localhost', 'example', '.com', '.c', '/a', 'ü', '😀', ':8080', '?q=1', '&amp;', '&quot;', '&#233;', '#x', '(', ')', '.', ',', '!', '...', '"', ' The', ' end', ' ', '\n', ' @user', ' a@b.co']
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...parts), { maxLength: 14 }), fc.boolean(), (words, html) => {
        const text = words.join('')
        const doc = annotator.annotate(text, { html })
        // Offsets index the text as read (its references read as characters), byte offsets the text as given.
        const decoded = readReferences(html ? blankTags(text) : text)
        expect(doc.text).toBe(decoded.text)
        const at = (k: number): number => sourcePosition(decoded.shifts, k)
        let next = 0
        doc.sentences.forEach((s, k) => {
          expect(s.index).toBe(k)
          expect(s.tokenStart).toBe(next)
          next = s.tokenEnd
        })
        if (doc.tokens.length > 0) expect(next).toBe(doc.tokens.length)
        let end = 0
        doc.tokens.forEach((t, i) => {
          expect(t.index).toBe(i)
          expect(t.start).toBeGreaterThanOrEqual(end)
          end = t.end
          if (!html && t.kind === 'url') expect(doc.text.slice(t.start, t.end)).toBe(t.text)
          expect(t.byteOffset).toBe(utf8Length(text, 0, at(t.start)))
          expect(t.byteLength).toBe(utf8Length(text, at(t.start), at(t.end)))
          expect(doc.sentences[t.sentence]!.tokenStart <= i && i < doc.sentences[t.sentence]!.tokenEnd).toBe(true)
        })
        // wink's patterns name the same tokens: a URL pattern is one url token.
        for (const p of doc.patterns) {
          expect(0 <= p.tokenStart && p.tokenStart < p.tokenEnd && p.tokenEnd <= doc.tokens.length).toBe(true)
          if (p.type === 'URL') expect(doc.tokens.slice(p.tokenStart, p.tokenEnd).map((t) => t.kind)).toEqual(['url'])
        }
      }),
      { seed: 17, numRuns: 500 },
    )
  })

  it('should split the marks that end a sentence or a clause off a web address, and end the sentence there', () => {
    const read = (text: string): string[] => annotator.annotate(text).tokens.map((t) => `${t.text}/${t.kind}`)
    expect(read('See https://github.com/acme/widgets. Then go.')).toEqual([
      'See/word', 'https://github.com/acme/widgets/url', './punctuation', 'Then/word', 'go/word', './punctuation',
    ])
    expect(annotator.annotate('See https://github.com/acme/widgets. Then go. Visit www.acme.com/x. The rest.').sentences.map((s) => s.text)).toEqual([
      'See https://github.com/acme/widgets.', 'Then go.', 'Visit www.acme.com/x.', 'The rest.',
    ])
    // wink's patterns still name the right tokens after the split.
    const withPatterns = annotator.annotate('Hi there, see https://github.com/a/b. Then on 3rd May pay $5.')
    expect(withPatterns.patterns.map((p) => [p.type, p.text])).toEqual([['URL', 'https://github.com/a/b'], ['DATE', '3rd May'], ['MONEY', '$5']])
    expect(read('(see https://x.com/a/b), ok')).toEqual(['(/punctuation', 'see/word', 'https://x.com/a/b/url', ')/punctuation', ',/punctuation', 'ok/word'])
    // A closing bracket opened inside the address is the address's; "..." is one mark.
    expect(read('Read https://en.wikipedia.org/wiki/Foo_(bar). Now')).toContain('https://en.wikipedia.org/wiki/Foo_(bar)/url')
    expect(read('wow http://t.co/Zq5lcKF4O4... ok')).toEqual(['wow/word', 'http://t.co/Zq5lcKF4O4/url', '.../punctuation', 'ok/word'])
    // Every token still stands at its offsets, in order, each in the sentence that holds it.
    const text = 'Mira www.bücher.de/neu!! und http://localhost:3000/ü, danach https://a.b/c?d=e&f=g#h.'
    const doc = annotator.annotate(text)
    doc.tokens.forEach((t, i) => {
      expect(t.index).toBe(i)
      expect(text.slice(t.start, t.end)).toBe(t.text)
      expect(t.byteOffset).toBe(utf8Length(text, 0, t.start))
      expect(doc.sentences[t.sentence]!.tokenStart <= i && i < doc.sentences[t.sentence]!.tokenEnd).toBe(true)
    })
    expect(doc.tokens.filter((t) => t.kind === 'url').map((t) => t.text)).toEqual(['www.bücher.de/neu', 'http://localhost:3000/ü', 'https://a.b/c?d=e&f=g#h'])
  })

  it('should keep web addresses, decimals, e-mails, titles and abbreviations inside one sentence, for every analyzer', () => {
    const cases: Array<[string, number]> = [
      ['Trisenx, Inc. (www.trisenx.com), a maker of displays, said revenue rose 3.5 percent.', 1],
      ['Dr. Smith met Mr. Lee at the U.S. office. Write to info@example.com for details.', 2],
      ['We loved the hotel.We will come back.', 2],
    ]
    for (const [text, n] of cases) {
      const doc = annotator.annotate(text)
      expect(doc.sentences.map((x) => x.text), text).toHaveLength(n)
      for (const t of doc.tokens) expect(doc.sentences[t.sentence]!.tokenStart <= t.index && t.index < doc.sentences[t.sentence]!.tokenEnd).toBe(true)
    }
  })
})

describe('character references', () => {
  it('should read the named references amp, lt, gt, quot, apos, nbsp and numeric ones as their characters', () => {
    expect(readReferences('H&amp;M, AT&amp;T &lt;3 &gt; &quot;great&quot; it&#39;s it&apos;s a&nbsp;b &#x1F600; &#233;').text).toBe(
      'H&M, AT&T <3 > "great" it\'s it\'s a b \u{1F600} \u00e9',
    )
    // HTML's upper-case forms, and 128-159 read as windows-1252 ("it&#146;s" from a Windows editor).
    expect(readReferences('&AMP; &LT;&GT; &QUOT; it&#146;s &#150; &#x93;q&#x94;').text).toBe('& <> " it\u2019s \u2013 \u201cq\u201d')
    // Every name of HTML's table, as scraped news writes them.
    expect(readReferences('Wait&hellip; caf&eacute; &mdash; don&rsquo;t &copy;2024 &COPY; &euro;5 &NotEqualTilde;').text).toBe(
      'Wait\u2026 caf\u00e9 \u2014 don\u2019t \u00a92024 \u00a9 \u20ac5 \u2242\u0338',
    )
  })

  it('should leave as written any other reference, and one standing for no character a text may hold', () => {
    for (const kept of ['&notaname;', '&Hellip;', '&Amp;', '&amp', '&ampx;', '& amp;', '&#0;', '&#1;', '&#x7F;', '&#x81;', '&#xD800;', '&#xFFFE;', '&#x110000;', '&#99999999;', '&#x;']) {
      expect(readReferences(`a ${kept} b`), kept).toEqual({ text: `a ${kept} b`, shifts: [] })
    }
    // Read once: an escaped reference reads as the reference.
    expect(readReferences('&amp;amp; &amp;lt;').text).toBe('&amp; &lt;')
    // Tab and line breaks are characters a text holds.
    expect(readReferences('a&#9;b&#10;c').text).toBe('a\tb\nc')
  })

  it('should leave a reference inside a web address as written, and read one that ends the address', () => {
    expect(readReferences('https://example.com/?q=1&amp;page=2 &amp; www.example.com/a?b&amp;c').text).toBe(
      'https://example.com/?q=1&amp;page=2 & www.example.com/a?b&amp;c',
    )
    // A quote or a space cannot stand in an address: read, it ends it, and what follows is no longer the address's.
    expect(readReferences('&quot;https://x.com/a?b=1&amp;c=2&quot;&amp;co').text).toBe('"https://x.com/a?b=1&amp;c=2"&co')
    expect(readReferences('see https://x.com/a&nbsp;H&amp;M').text).toBe('see https://x.com/a H&M')
  })

  it('should map each position of the text as read to the text as written', () => {
    const text = 'H&amp;M &#x1F600; it&#39;s'
    const { text: read, shifts } = readReferences(text)
    expect(read).toBe('H&M \u{1F600} it\'s')
    const pairs: Array<[string, string]> = [['H&M', 'H&amp;M'], ['\u{1F600}', '&#x1F600;'], ["it's", 'it&#39;s'], ['M', 'M'], ['&', '&amp;']]
    for (const [inRead, written] of pairs) {
      const a = read.indexOf(inRead)
      expect(text.slice(sourcePosition(shifts, a), sourcePosition(shifts, a + inRead.length))).toBe(written)
    }
    // Without references the text is the same string, with nothing to map.
    const plain = 'AT&T and Johnson & Johnson'
    expect(readReferences(plain)).toEqual({ text: plain, shifts: [] })
    expect(readReferences(plain).text).toBe(plain)
  })

  it('should annotate the text as read, with byte offsets into the text as given', () => {
    const text = 'H&amp;M Profit Misses Estimates. AT&amp;T and Johnson &amp; Johnson say &quot;hi&quot; &lt;3 caf&#233;'
    const doc = annotator.annotate(text)
    const read = 'H&M Profit Misses Estimates. AT&T and Johnson & Johnson say "hi" <3 caf\u00e9'
    expect(doc.text).toBe(read)
    expect(doc.tokens.map((t) => t.text)).toEqual(annotator.annotate(read).tokens.map((t) => t.text))
    expect(doc.tokens.map((t) => t.text)).toContain('H&M')
    expect(doc.tokens.some((t) => /amp|quot|&lt|#233/.test(t.text))).toBe(false)
    const bytes = Buffer.from(text)
    for (const t of doc.tokens) {
      expect(doc.text.slice(t.start, t.end)).toBe(t.text)
      const written = bytes.subarray(t.byteOffset, t.byteOffset + t.byteLength).toString()
      expect(readReferences(written).text, written).toBe(t.text)
    }
    const hm = doc.tokens.find((t) => t.text === 'H&M')!
    expect(bytes.subarray(hm.byteOffset, hm.byteOffset + hm.byteLength).toString()).toBe('H&amp;M')
    const last = doc.sentences[doc.sentences.length - 1]!
    expect(bytes.subarray(last.byteOffset, last.byteOffset + last.byteLength).toString()).toBe('AT&amp;T and Johnson &amp; Johnson say &quot;hi&quot; &lt;3 caf&#233;')
    // Without references nothing changes: the document's text is the text given.
    const plain = 'AT&T and Johnson & Johnson'
    expect(annotator.annotate(plain).text).toBe(plain)
  })

  it('should give byte offsets of the text as given for any mix of references, words and marks', () => {
    const parts = ['&amp;', '&lt;', '&gt;', '&quot;', '&#39;', '&#x1F600;', '&#233;', '&nbsp;', '&hellip;', 'H', 'M', 'é', '😀', ' ', '\n', '.', '"', 'www.', 'x.com', ' https://', '/a?b=1']
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...parts), { maxLength: 16 }), fc.boolean(), (words, html) => {
        const text = words.join('')
        const doc = annotator.annotate(text, { html })
        const bytes = Buffer.from(text)
        let end = 0
        for (const t of doc.tokens) {
          expect(t.byteOffset).toBeGreaterThanOrEqual(end)
          end = t.byteOffset + t.byteLength
          expect(end).toBeLessThanOrEqual(bytes.length)
          const written = bytes.subarray(t.byteOffset, t.byteOffset + t.byteLength).toString()
          // A token's bytes never cut a reference: read in place, they read as the token.
          if (t.kind !== 'url' && !html) expect(readReferences(written).text, JSON.stringify([text, written])).toBe(t.text)
        }
      }),
      { seed: 14, numRuns: 300 },
    )
  })
})
