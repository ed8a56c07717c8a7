import { afterAll, describe, expect, it } from 'vitest'
import { createEngine } from '../../src/engine/create-engine.ts'
import type { DocumentOutput, Location } from '../../src/model/output.ts'

// Issue 14: plain text carries the HTML/XML character references scrapers and the Twitter API leave ("H&amp;M",
// "it&#39;s", "&lt;3"). The engine reads each as the character it stands for, and reports every location in the text
// as sent.

const engine = createEngine({ background: false })
const ready = engine.account(engine.defaultAccount).updateConfigurations({
  document: {
    themes_limit: 10, theme_mentions_limit: 5, named_entities_limit: 10, named_mentions_limit: 5, mentions: true,
    sentiment_phrases: true, phrases_limit: 5,
  },
})
afterAll(() => engine.close())

async function analyze(text: string): Promise<DocumentOutput> {
  await ready
  return engine.analyze(text)
}

/** The text's bytes at a location, as written. */
const at = (text: string, l: Pick<Location, 'offset' | 'length'>): string => Buffer.from(text).subarray(l.offset, l.offset + l.length).toString()

/** Every location an output carries (mentions of themes and entities, phrases). */
function locations(out: DocumentOutput): Array<{ label: string; location: Pick<Location, 'offset' | 'length'> }> {
  const found: Array<{ label: string; location: Pick<Location, 'offset' | 'length'> }> = []
  for (const x of [...(out.themes ?? []), ...(out.entities ?? [])]) {
    for (const m of x.mentions ?? []) for (const l of m.locations) found.push({ label: m.label, location: l })
  }
  for (const p of out.phrases ?? []) if (p.offset !== undefined && p.length !== undefined) found.push({ label: p.title, location: { offset: p.offset, length: p.length } })
  return found
}

/** The output without its locations (what a text with references and the same text written out should share). */
function withoutLocations(out: DocumentOutput): unknown {
  return JSON.parse(JSON.stringify(out, (k, v: unknown) => (k === 'locations' || k === 'offset' || k === 'length' || k === 'id' ? undefined : v)))
}

describe('character references in plain text', () => {
  it('should read "H&amp;M" as the name H&M: a theme and an entity, no "amp" theme', async () => {
    const text = 'H&amp;M Profit Misses Estimates'
    const out = await analyze(text)
    const themes = out.themes!.map((t) => t.title)
    expect(themes.some((t) => t.startsWith('H&M'))).toBe(true)
    // A title-case headline: its common words read as such ("profit", "estimates"), the name as a name.
    expect(out.themes!.map((t) => t.normalized)).toEqual(expect.arrayContaining(['h&m profit', 'estimate']))
    for (const t of out.themes!) expect(`${t.title} ${t.normalized}`).not.toMatch(/&amp|\bamp\b/)
    const hm = out.entities!.find((e) => e.title === 'H&M')!
    expect(hm.entity_type).toBe('Company')
    expect(hm.mentions![0]!.label).toBe('H&M')
    expect(at(text, hm.mentions![0]!.locations[0]!)).toBe('H&amp;M')
  })

  it('should read "AT&amp;T and Johnson &amp; Johnson" as AT&T and Johnson & Johnson', async () => {
    const text = 'AT&amp;T and Johnson &amp; Johnson report quarterly earnings'
    const out = await analyze(text)
    const entities = out.entities!.map((e) => e.title)
    expect(entities).toEqual(expect.arrayContaining(['AT&T', 'Johnson & Johnson']))
    expect(out.themes!.map((t) => t.title)).toContain('AT&T')
    for (const t of out.themes!) expect(`${t.title} ${t.normalized}`).not.toMatch(/&amp|\bamp\b/)
    const jj = out.entities!.find((e) => e.title === 'Johnson & Johnson')!
    expect(at(text, jj.mentions![0]!.locations[0]!)).toBe('Johnson &amp; Johnson')
    const att = out.entities!.find((e) => e.title === 'AT&T')!
    expect(at(text, att.mentions![0]!.locations[0]!)).toBe('AT&amp;T')
  })

  it('should give every location in the text as sent: its bytes, references read, are the label', async () => {
    const texts = [
      'H&amp;M Profit Misses Estimates',
      'AT&amp;T and Johnson &amp; Johnson report quarterly earnings',
      'Protesters decry corruption &amp; abuse in the city council',
      'The movie was &quot;great&quot;, it&#39;s a must see &lt;3',
      'Caf&#233; owners in S&#xE3;o Paulo praise the new &quot;Caf&eacute; Law&quot; &amp; its tax cuts',
    ]
    const read = (s: string): string =>
      s.replace(/&amp;/g, '&').replace(/&quot;/g, '"').replace(/&lt;/g, '<').replace(/&#39;/g, "'").replace(/&#233;|&eacute;/g, 'é').replace(/&#xE3;/g, 'ã')
    for (const text of texts) {
      const out = await analyze(text)
      const found = locations(out)
      expect(found.length, text).toBeGreaterThan(0)
      for (const { label, location } of found) {
        const written = at(text, location)
        expect(read(written), text).toBe(label)
        // A location never cuts a reference in two.
        const before = Buffer.from(text).subarray(0, location.offset).toString()
        expect(before, text).not.toMatch(/&#?[a-zA-Z0-9]*$/)
      }
    }
  })

  it('should read quotes, apostrophes and "&lt;3" as characters: no "great&quot" or "lt" theme, "<3" a phrase', async () => {
    const out = await analyze('The movie was &quot;great&quot;, it&#39;s a must see &lt;3')
    const themes = out.themes!.map((t) => t.normalized)
    expect(themes).toContain('movie')
    expect(themes.some((t) => /quot|\blt\b|#39/.test(t))).toBe(false)
    expect(out.summary).toBe('The movie was "great", it\'s a must see <3')
    expect(out.phrases!.map((p) => p.title)).toContain('<3')
    const corruption = await analyze('Protesters decry corruption &amp; abuse in the city council')
    expect(corruption.themes!.map((t) => t.normalized)).toEqual(expect.arrayContaining(['corruption', 'abuse', 'city council']))
    expect(corruption.themes!.some((t) => /amp/.test(t.normalized))).toBe(false)
  })

  it('should give the output of the same text with its references written out, but for the locations', async () => {
    for (const [text, written] of [
      ['H&amp;M Profit Misses Estimates', 'H&M Profit Misses Estimates'],
      ['AT&amp;T and Johnson &amp; Johnson report quarterly earnings', 'AT&T and Johnson & Johnson report quarterly earnings'],
      ['RT @user: I &lt;3 the new caf&#xE9; &amp; its &quot;quiet&quot; room, it&#39;s great', 'RT @user: I <3 the new café & its "quiet" room, it\'s great'],
    ] as const) {
      expect(withoutLocations(await analyze(text)), text).toEqual(withoutLocations(await analyze(written)))
    }
  })

  it('should read every named reference of HTML ("&hellip;", "&mdash;"): no theme holds one', async () => {
    const out = await analyze('Wait &hellip; what &mdash; the merger deal &ndash; a disaster &#8212; collapsed')
    expect(out.themes!.map((t) => t.normalized)).toEqual(['merger deal', 'disaster'])
    expect(out.summary).toBe('Wait \u2026 what \u2014 the merger deal \u2013 a disaster \u2014 collapsed')
    // Glued to a word, "&hellip;" made the theme "police corruption&hellip" while it was left as written.
    const glued = await analyze('The report found police corruption&hellip; and nobody resigned.')
    expect(glued.themes!.map((t) => t.normalized)).toContain('police corruption')
    expect(JSON.stringify(glued.themes)).not.toContain('hellip')
  })

  it('should leave a reference inside a web address as written', async () => {
    const text = 'See https://example.com/report?q=1&amp;page=2 for the H&amp;M report'
    const out = await analyze(text)
    const url = out.entities!.find((e) => e.entity_type === 'URL')!
    expect(url.title).toBe('https://example.com/report?q=1&amp;page=2')
    expect(at(text, url.mentions![0]!.locations[0]!)).toBe('https://example.com/report?q=1&amp;page=2')
    expect(out.entities!.map((e) => e.title)).toContain('H&M')
    expect(out.themes!.map((t) => t.title)).toContain('H&M report')
  })

  it('should read references in HTML too, as characters rather than a character and spaces', async () => {
    await ready
    const html = createEngine({ background: false })
    try {
      await html.account(html.defaultAccount).updateConfigurations({ process_html: true, document: { named_entities_limit: 10, named_mentions_limit: 5, mentions: true, summary_limit: 3 } })
      const text = '<p>H&amp;M profit misses estimates.</p><p>AT&amp;T and Johnson &amp; Johnson report &lt;b&gt; earnings.</p>'
      const out = await html.analyze(text)
      const entities = out.entities!.map((e) => e.title)
      expect(entities).toEqual(expect.arrayContaining(['H&M', 'AT&T', 'Johnson & Johnson']))
      expect(at(text, out.entities!.find((e) => e.title === 'H&M')!.mentions![0]!.locations[0]!)).toBe('H&amp;M')
      // An escaped tag is text, not a tag.
      expect(out.summary).toContain('<b>')
      expect(out.summary).not.toMatch(/&amp;|&lt;/)
    } finally {
      await html.close()
    }
  })

  it('should give titles and labels without the tags a phrase spans in HTML ("H&M <b>Profit</b> Misses")', async () => {
    const html = createEngine({ background: false })
    try {
      await html.account(html.defaultAccount).updateConfigurations({ process_html: true, document: { themes_limit: 10, theme_mentions_limit: 5, mentions: true } })
      const text = '<p>H&amp;M <b>Profit</b> Misses Estimates</p><p>The <i>battery life</i> of the new phone is great.</p>'
      const out = await html.analyze(text)
      const titles = out.themes!.map((t) => t.title)
      expect(titles).toContain('H&M Profit Misses Estimates')
      expect(titles).toContain('battery life')
      for (const t of out.themes!) {
        expect(`${t.title} ${t.normalized}`).not.toMatch(/[<>]/)
        for (const m of t.mentions ?? []) {
          expect(m.label).not.toMatch(/[<>]/)
          // The label is the text with its tags blanked; the location is still the text as sent, tags included.
          for (const l of m.locations) expect(at(text, l).replace(/<[^>]*>/g, (tag) => ' '.repeat(tag.length)).replace(/&amp;/g, '&')).toBe(m.label)
        }
      }
    } finally {
      await html.close()
    }
  })
})
