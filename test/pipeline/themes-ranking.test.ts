import { describe, expect, it } from 'vitest'
import { createEngine } from '../../src/engine/create-engine.ts'
import { createAnnotator } from '../../src/nlp/annotate.ts'
import {
  GENRE_FEATURES,
  THEME_FEATURES,
  THEME_MODEL,
  candidateFeatures,
  genreFeatures,
  modelScore,
  newsShare,
  extractCandidates,
  keyThemes,
  loadBackground,
  loadThemePrior,
  ownSpan,
  parseBackground,
  parseThemePrior,
  rankCandidates,
  removeRedundant,
  themeTitle,
  type RankedCandidate,
} from '../../src/themes/index.ts'
import { f1At, joinedForm, matchForm } from '../../bench/keyphrase-data.ts'

const annotator = createAnnotator()
const background = loadBackground()
const candidates = (text: string): string[] => extractCandidates(annotator.annotate(text)).filter((c) => !c.isPart).map((c) => c.normalized)
const themes = (text: string, limit = 10): string[] => {
  const doc = annotator.annotate(text)
  return keyThemes(doc, background, limit).map((t) => themeTitle(doc, ownSpan(t)))
}

describe('theme candidates', () => {
  it('should keep a hyphenated compound as one word of the phrase', () => {
    expect(candidates('They sell a state-of-the-art battery charger. Fans loved the 3-day festival.')).toEqual([
      'state-of-the-art battery charger',
      'fans',
      '3-day festival',
    ])
  })

  it('should end a phrase at a possessive and keep the number inside a product name', () => {
    const c = candidates('The company\u2019s new iPhone 15 Pro sold well.')
    expect(c).toContain('company')
    expect(c).toContain('iphone 15 pro')
    expect(c.some((x) => x.includes("'s") || x.includes('\u2019s'))).toBe(false)
  })

  it('should run a phrase across a line wrap inside a sentence, not across a blank line or before a capital', () => {
    expect(candidates('We use linear matrix\n\tinequalities and a robust constrained\n  output feedback law.')).toEqual([
      'linear matrix inequality',
      'robust constrain output feedback law',
    ])
    const blank = candidates('Notes on the battery\n\nlife of phones')
    expect(blank).toEqual(expect.arrayContaining(['battery', 'life']))
    expect(blank).not.toContain('battery life')
    expect(candidates('The new battery\nLife Sciences wing')).not.toContain('battery life science wing')
  })

  it('should make a name after common words, and the words before it, two themes', () => {
    const c = candidates('The pop singer Bruno Mars met the Fame star Irene Cara on Friday, opposite Meryl Streep, in the movie Jamon Jamon.')
    expect(c).toEqual(expect.arrayContaining(['pop singer', 'bruno mars', 'fame star', 'irene cara', 'meryl streep', 'movie', 'jamon jamon']))
    // A day alone dates the story; it is no theme.
    expect(c).not.toContain('friday')
    expect(c.some((x) => x.startsWith('opposite') || x.endsWith('mars') && x !== 'bruno mars')).toBe(false)
    // An acronym keeps its adjective: "robust MPC" is a term, not a described name.
    expect(candidates('We design a robust MPC.')).toContain('robust mpc')
  })

  it('should leave the nouns of fixed expressions out, and keep the same nouns elsewhere', () => {
    const text =
      'Of course the pool was full. For instance, the staff were busy. On the other hand, the room had without a doubt the best view. ' +
      'In terms of value it made sense, and a couple of days later we played the golf course and checked the hand luggage.'
    const c = candidates(text)
    for (const noun of ['course', 'instance', 'hand', 'doubt', 'term', 'sense', 'couple']) expect(c).not.toContain(noun)
    expect(candidates('The rooms in the casino are top notch.')).toEqual(['room', 'casino'])
    expect(c).toEqual(expect.arrayContaining(['pool', 'staff', 'room', 'good view', 'value', 'golf course', 'hand luggage']))
    expect(themes(text)).not.toEqual(expect.arrayContaining(['course']))
    // The ranker's training reads them too, as phrases people did not pick.
    const all = extractCandidates(annotator.annotate(text), { unoffered: true }).map((s) => s.normalized)
    expect(all).toEqual(expect.arrayContaining(['course', 'instance', 'hand', 'doubt', 'couple']))
  })

  it('should not make themes of markup: HTML character references, a retweet marker, shorthand letters', () => {
    const c = candidates('RT @FortuneMagazine: police corruption &amp; abuse of power &gt; all. The RT network and AMP pages.')
    expect(c).not.toContain('amp')
    expect(c).not.toContain('gt')
    expect(c).not.toContain('rt')
    expect(c).toEqual(expect.arrayContaining(['police corruption', 'abuse', 'power', 'amp page']))
    // Shorthand letters are not words of a phrase; a capital letter of a name is.
    const short = candidates('A meeting w/ voters in countries w/o rights about Plan B, they said.')
    expect(short).toEqual(expect.arrayContaining(['meeting', 'voter', 'country', 'right', 'plan b']))
    expect(short.some((x) => /\b[wo]\b/.test(x))).toBe(false)
    // Nor are times of day and initials standing alone; an initial inside a name is part of it.
    const dotted = candidates('An update at 3 p.m. on the investigation. V. cool. John F. Kennedy met w. friends.')
    expect(dotted).toEqual(['update', 'investigation', 'john f. kennedy', 'friend'])
  })

  it('should keep a model number in a name, not a count after it', () => {
    const c = candidates('We went to Bellagio 4 times, my iPhone 15 case broke, and we left Paris 3 years ago.')
    expect(c).toEqual(expect.arrayContaining(['bellagio', 'iphone 15 case', 'paris']))
    expect(c.some((x) => /\d/.test(x) && !x.startsWith('iphone'))).toBe(false)
    // The ranker's training reads the whole run (a phrase themes never offer).
    const all = extractCandidates(annotator.annotate('We went to Bellagio 4 times.'), { unoffered: true }).map((s) => s.normalized)
    expect(all).toContain('bellagio 4 time')
  })

  it('should keep a name joined by "&" whole ("Procter & Gamble"), and not a "&" between common words', () => {
    const c = candidates('Procter & Gamble raised prices while Marks & Spencer cut jobs at Barnes & Noble stores.')
    expect(c).toEqual(expect.arrayContaining(['procter & gamble', 'marks & spencer', 'barnes & noble store']))
    expect(c).not.toEqual(expect.arrayContaining(['gamble']))
    expect(candidates('Salt & pepper shakers stood on the table.')).toEqual(['salt', 'pepper shaker', 'table'])
    // A six-word run is cut to five words after the name, not inside it ("Johnson report quarterly earnings").
    const jj = themes('AT&T and Johnson & Johnson report quarterly earnings.').map((t) => t.toLowerCase())
    expect(jj).toEqual(expect.arrayContaining(['johnson & johnson', 'at&t', 'report quarterly earnings']))
    expect(jj.some((t) => t.startsWith('johnson report') || t.startsWith('&') || t.endsWith('&'))).toBe(false)
  })

  it('should keep a name whole across its lower-case particles ("Hotel du Lac", "Leonardo da Vinci", "Bank of America"), and the same words elsewhere as they are', () => {
    expect(candidates('The views are spectacular and Hotel du Lac recommended for dinner.')).toEqual(['view', 'hotel du lac', 'dinner'])
    expect(candidates('We visited Leonardo da Vinci and Ursula von der Leyen. Rio de Janeiro is hot.')).toEqual(['leonardo da vinci', 'ursula von der leyen', 'rio de janeiro'])
    expect(themes('Hotel du Lac is lovely, and the staff of Hotel du Lac were kind.')).toContain('Hotel du Lac')
    // "of" inside a name, between proper nouns that do not open the sentence.
    expect(candidates('He works at Bank of America near the Gulf of Mexico.')).toEqual(['bank of america', 'gulf of mexico'])
    expect(candidates('The roof collapsed at Huntsville\'s Lake of Bays and the rest of Ontario.')).toEqual(['roof', 'huntsville', 'lake of bays', 'ontario'])
    // A particle between common words, or a word that is also English, is not read as one.
    expect(candidates('Ludwig van Beethoven hated the van driver.')).toEqual(['ludwig van beethoven', 'van driver'])
  })

  it('should leave out a title written abbreviated before a full name ("Rep. Martin Heinrich"), keep it before a surname alone, and keep "Mt." and "St." in the names of places', () => {
    expect(candidates('Rep. Martin Heinrich met Col. Jeffrey Marlette and Gov. Brown.')).toEqual(['martin heinrich', 'jeffrey marlette', 'gov. brown'])
    expect(candidates('We climbed Mt. Everest and visited St. Louis and Ft. Worth.')).toEqual(['mt. everest', 'st. louis', 'ft. worth'])
  })

  it('should read a word wink writes with its hyphen as one word of a phrase ("X-Men", "X-ray")', () => {
    expect(candidates('The X-Men movie had an X-ray scene.')).toEqual(['x-men movie', 'x-ray scene'])
  })

  it('should keep a name closed by a number word ("Fantastic Four"), and leave "today" out of a phrase', () => {
    expect(candidates('Fantastic Four opens today. We saw Fantastic Four today.')).toEqual(['fantastic four', 'fantastic four'])
    // A number word counting the noun after it is no part of a name.
    expect(candidates('The Top Four teams met.')).not.toContain('four teams')
    expect(candidates('Fans of the Fantastic Four reboot met.')).toContain('fantastic four')
    // A name the document writes as one elsewhere stays one before a plural too.
    expect(candidates('Fans of the Fantastic Four reboot met. X-Men/Fantastic Four producers like Hugh Jackman.')).toContain('fantastic four producer')
  })

  it('should title a name whole where its better-ranked word is never said alone ("New Mexico", not "Mexico")', () => {
    const titles = themes('Heinrich to run for Senate in New Mexico. Rep. Martin Heinrich announced Saturday that he would run for the Senate seat.')
    expect(titles.map((t) => t.toLowerCase())).toContain('new mexico')
    expect(titles.map((t) => t.toLowerCase())).not.toContain('mexico')
    // A word said alone as well keeps its own theme ("Heinrich" opening the headline).
    expect(titles.map((t) => t.toLowerCase())).toContain('heinrich')
  })

  it('should read the common words of a title-case headline, and an evaluation opening a sentence ("Perfect!"), as common words, and keep names', async () => {
    const engine = createEngine({ background: false })
    await engine.account(engine.defaultAccount).updateConfigurations({ document: { themes_limit: 10 } })
    const read = async (text: string) => ((await engine.analyze(text)).themes ?? []).map((t) => [t.title, t.normalized])
    expect(await read('Friendly Staff, Clean Rooms And A Great Breakfast')).toEqual(
      expect.arrayContaining([['friendly staff', 'friendly staff'], ['clean rooms', 'clean room'], ['great breakfast', 'great breakfast']]),
    )
    // "Best" is no theme: in lower case it is the adjective of "the best".
    expect(await read('Bellagio Is Simply The Best')).toEqual([['Bellagio', 'bellagio']])
    // A name opening the headline stays a name.
    expect((await read('H&M Profit Misses Estimates'))[0]).toEqual(['H&M Profit', 'h&m profit'])
    // Words the text writes in lower case elsewhere are common words in its headline too ("Rude Staff", "Hotel").
    const titled = await read('Worst Hotel Ever - Dirty Rooms And Rude Staff. The staff were rude and the hotel was old.')
    expect(titled).toEqual(expect.arrayContaining([['staff', 'staff'], ['hotel', 'hotel'], ['dirty rooms', 'dirty room']]))
    expect(titled.map(([t]) => t)).not.toEqual(expect.arrayContaining([expect.stringMatching(/^Rude/)]))
    // An evaluation opening a sentence, alone or not, is no theme; a name alone in its sentence stays one.
    expect(await read('Perfect! The room was clean and the staff were friendly.')).toEqual([['staff', 'staff'], ['room', 'room']])
    expect(await read('Excellent. We will come back.')).toEqual([])
    expect(await read('Amazing! Best stay ever.')).toEqual([])
    expect(await read('Obama! He won.')).toEqual([['Obama', 'obama']])
    await engine.close()
  })

  it('should end a phrase before a verb read as a noun after its subject ("air pollution causes an", "champ spreads her")', () => {
    expect(candidates('The report found that air pollution causes an estimated seven million deaths.')).toContain('air pollution')
    expect(candidates('Chess champ spreads her passion for the game.')).toEqual(['chess champ', 'passion', 'game'])
    expect(candidates('Apple shares the spotlight with Google.')).toEqual(['apple', 'spotlight', 'google'])
    // A plural modifier before its head, or a plural phrase before a conjunction, stays a phrase.
    expect(candidates('We love the bus stops and the sales team.')).toEqual(['bus stop', 'sale team'])
    expect(candidates('The sports car stops the traffic.')).toEqual(['sport car', 'traffic'])
  })

  it('should not offer a news dateline\'s place ("WASHINGTON (AP)"), and keep the place where the story names it', () => {
    expect(candidates('WASHINGTON (AP) — The senators met the president at the luncheon.')).toEqual(['senator', 'president', 'luncheon'])
    expect(candidates('LOS ANGELES, CALIF. (Reuters) - Studios cut jobs in Los Angeles.')).toEqual(['studios', 'job', 'los angeles'])
    // A press release's dateline: place, state, date and wire.
    expect(candidates('SAVANNAH, Ga., Jan. 2 /PRNewswire/ -- Trisenx announced a new studio.')).toEqual(['trisenx', 'new studio'])
    expect(candidates('NEW YORK, March 3, 2015 /PRNewswire-FirstCall/ -- Acme reported results.')).toEqual(['acme', 'result'])
    expect(candidates('SAN FRANCISCO--(BUSINESS WIRE)--Acme announced results.')).toEqual(['acme', 'result'])
    // Capitals before parentheses that credit no wire service are no dateline.
    expect(candidates('NASA (the agency) launched a probe.')).toContain('nasa')
    // A state AP writes in full.
    expect(candidates('PARK CITY, Utah (AP) — The festival opened.')).toEqual(['festival'])
  })

  it('should not start a phrase with a bare number, nor make a theme of a number alone', () => {
    const c = candidates('Sales rose 15 percent to 300 units in 2012.')
    expect(c.every((x) => !/^\d/.test(x))).toBe(true)
  })

  it('should offer the words of a name and the nouns of a phrase as competing parts', () => {
    const parts = extractCandidates(annotator.annotate('Director Terrence Malick filmed the battery life test.'))
      .filter((c) => c.isPart)
      .map((c) => c.normalized)
    expect(parts).toEqual(expect.arrayContaining(['malick', 'battery', 'life']))
  })

  it('should offer the shorter phrases inside a long run as parts, not as phrases of their own', () => {
    const all = extractCandidates(annotator.annotate('We study the discrete transfer function model of the plant.'))
    const whole = all.filter((c) => !c.isPart).map((c) => c.normalized)
    const parts = all.filter((c) => c.isPart).map((c) => c.normalized)
    expect(whole).toContain('discrete transfer function model')
    expect(parts).toEqual(expect.arrayContaining(['transfer function', 'function model', 'discrete transfer function', 'transfer function model']))
    expect(whole).not.toContain('transfer function')
  })

  it('should read a participle after a determiner or preposition as a modifier, not one after a subject', () => {
    expect(candidates('The distributed parameter models converge.')).toContain('distributed parameter model')
    expect(candidates('Images from the scanning electron microscope were sharp.')).toContain('scanning electron microscope')
    const c = candidates('We developed new methods. Researchers tested samples.')
    expect(c.some((x) => x.startsWith('develop') || x.startsWith('test'))).toBe(false)
    expect(c).toContain('new method')
  })

  it('should carry predicative adjectives as attributes of the phrase before the verb', () => {
    const c = extractCandidates(annotator.annotate('The room was clean and quiet.')).find((x) => x.normalized === 'room')!
    expect(c.attributes).toEqual(['clean', 'quiet'])
  })
})

describe('theme ranking', () => {
  it('should rank a specific phrase above everyday nouns said as often', () => {
    const list = themes('Analysts said the company liked the long battery life. The company said customers love the battery life.')
    expect(['long battery life', 'battery life']).toContain(list[0])
    expect(list.indexOf('company')).toBeGreaterThan(0)
  })

  it('should list battery, battery life and the battery life as one theme', () => {
    const doc = annotator.annotate('The battery is weak. The battery life is short, and I hate the battery life. Fix the battery.')
    const list = keyThemes(doc, background)
    const keys = list.map((t) => t.key)
    const batteryThemes = keys.filter((k) => k.split(' ').includes('batteri'))
    expect(batteryThemes).toHaveLength(1)
    // Its occurrences cover every place the battery is mentioned, once each.
    const theme = list.find((t) => t.key === batteryThemes[0])!
    expect(theme.spans.map((s) => s.tokenStart)).toEqual([...new Set(theme.spans.map((s) => s.tokenStart))].sort((a, b) => a - b))
    expect(theme.spans.length).toBeGreaterThanOrEqual(4)
  })

  it('should list the words of one name once, and keep names that only stand near each other', () => {
    const doc = annotator.annotate(
      'British actress Geraldine McEwan dies at age 82. The family of actress Geraldine McEwan said she died in a London hospital. ' +
        'McEwan played Miss Marple on television. McEwan also starred on the London stage, and McEwan won awards for it. ' +
        'Geraldine loved the theatre.',
    )
    const titles = keyThemes(doc, background).map((t) => themeTitle(doc, ownSpan(t)))
    const nameWords = titles.filter((t) => t === 'Geraldine' || t === 'McEwan')
    expect(nameWords).toHaveLength(1)
    // The words of the other names and places stay themes of their own.
    expect(titles).toContain('London')
    // The kept word's occurrences: its own, and the other word's said apart from it ("Geraldine loved"), not the other
    // word beside it, which is the same mention of the name.
    const kept = keyThemes(doc, background).find((t) => /^(geraldin|mcewan)$/.test(t.key))!
    const said = (s: { tokenStart: number; tokenEnd: number }): string => doc.text.slice(doc.tokens[s.tokenStart]!.start, doc.tokens[s.tokenEnd - 1]!.end)
    const other = kept.key === 'mcewan' ? 'Geraldine' : 'McEwan'
    expect(kept.spans.filter((s) => said(s) === other).map((s) => doc.text.slice(doc.tokens[s.tokenStart]!.start))).toEqual(
      other === 'Geraldine' ? [doc.text.slice(doc.text.indexOf('Geraldine loved'))] : [],
    )
    expect(kept.spans.length).toBe(new Set(kept.spans.map((s) => s.tokenStart)).size)
  })

  it('should fold a single word into a better-ranked phrase holding it, and a phrase into a better-ranked word of it', () => {
    const span = (k: number) => ({ tokenStart: k, tokenEnd: k + 1 }) as never
    const ranked: RankedCandidate[] = [
      { key: 'batteri life', spans: [span(0)], score: 3 },
      { key: 'screen', spans: [span(5)], score: 2 },
      { key: 'batteri', spans: [span(9)], score: 1 },
      { key: 'long batteri life', spans: [span(12)], score: 0.5 },
      { key: 'big screen', spans: [span(20)], score: 0.4 },
    ]
    const out = removeRedundant(ranked)
    // Two phrases of several words both stay ("batteri life", "long batteri life").
    expect(out.map((t) => t.key)).toEqual(['batteri life', 'screen', 'long batteri life'])
    expect(out[0]!.spans.map((s) => s.tokenStart)).toEqual([0, 9])
    expect(out[1]!.spans.map((s) => s.tokenStart)).toEqual([5, 20])
  })

  it('should keep a word said on its own more often than inside the phrase only when asked to', () => {
    const span = (start: number, end: number, isPart = false) => ({ tokenStart: start, tokenEnd: end, isPart }) as never
    const ranked: RankedCandidate[] = [
      { key: 'batteri life', spans: [span(0, 2)], score: 2 },
      { key: 'batteri', spans: [span(0, 1, true), span(5, 6), span(9, 10), span(12, 13)], score: 1 },
    ]
    // The default follows the issue: "battery" and "battery life" are one theme.
    expect(removeRedundant(ranked).map((t) => t.key)).toEqual(['batteri life'])
    expect(removeRedundant(ranked, Infinity, true).map((t) => t.key)).toEqual(['batteri life', 'batteri'])
    // Said alone as often as inside the phrase: folded either way.
    const twice: RankedCandidate[] = [ranked[0]!, { key: 'batteri', spans: [span(0, 1, true), span(5, 6)], score: 1 }]
    expect(removeRedundant(twice, Infinity, true).map((t) => t.key)).toEqual(['batteri life'])
  })

  it('should title a theme by its own phrase, not by a word folded into it that was said first', () => {
    const span = (start: number, end: number, stemmed: string) => ({ tokenStart: start, tokenEnd: end, stemmed }) as never
    const ranked: RankedCandidate[] = [
      { key: 'neural network', spans: [span(5, 7, 'neural network')], score: 2 },
      { key: 'network', spans: [span(0, 1, 'network')], score: 1 },
    ]
    const [theme] = removeRedundant(ranked)
    expect(theme!.spans.map((s) => s.tokenStart)).toEqual([0, 5])
    expect(ownSpan(theme!).tokenStart).toBe(5)
    const doc = annotator.annotate('The network failed twice. Our neural network learns fast, and the neural network is small.')
    for (const t of keyThemes(doc, background)) expect(ownSpan(t).stemmed).toBe(t.key)
  })

  it('should fold a phrase seen only inside a kept theme, and keep one that also stands elsewhere', () => {
    const span = (start: number, end: number) => ({ tokenStart: start, tokenEnd: end }) as never
    const ranked: RankedCandidate[] = [
      { key: 'new batteri life', spans: [span(0, 3), span(10, 13)], score: 3 },
      { key: 'new batteri', spans: [span(0, 2), span(10, 12)], score: 2 },
      { key: 'batteri life', spans: [span(1, 3), span(11, 13), span(20, 22)], score: 1 },
    ]
    // "new battery" only ever stands inside "new battery life"; "battery life" also stands alone at 20.
    expect(removeRedundant(ranked).map((t) => t.key)).toEqual(['new batteri life', 'batteri life'])
    expect(themes('Tim Cook praised the new battery life. Everyone wants the new battery life.')).not.toContain('new battery')
  })

  it('should rank the same text the same way every time, in a fresh engine too', async () => {
    const text = 'Tim Cook praised the battery life of the new iPhone 15 Pro. Critics said the battery life was short. Apple shares rose.'
    const a = themes(text)
    expect(themes(text)).toEqual(a)
    const run = async (): Promise<string> => {
      const engine = createEngine({ background: false })
      await engine.account(engine.defaultAccount).updateConfigurations({ document: { themes_limit: 10, theme_mentions_limit: 5, mentions: true, entity_themes_limit: 5 } })
      const out = await engine.analyze(text, { id: 'x' })
      await engine.close()
      return JSON.stringify({ themes: out.themes, entities: out.entities })
    }
    expect(await run()).toBe(await run())
  })

  it('should score with a trained model over the features it was trained for, and a telling word prior', () => {
    expect(THEME_MODEL).not.toBeNull()
    expect(THEME_MODEL!.features).toEqual([...THEME_FEATURES])
    expect(THEME_MODEL!.weights).toHaveLength(THEME_FEATURES.length)
    const doc = annotator.annotate('We propose a new method for training recurrent neural networks. Results show the method is fast.')
    for (const c of candidateFeatures(doc, extractCandidates(doc), background)) {
      expect(c.x).toHaveLength(THEME_FEATURES.length)
      expect(c.x.every(Number.isFinite)).toBe(true)
    }
    // Keyphraseness: "network" is a key phrase's word far more often than "result".
    const prior = loadThemePrior()
    expect(prior.get('network')!).toBeGreaterThan(0)
    expect(prior.get('result') ?? 0).toBeLessThan(prior.get('network')!)
    expect(parseThemePrior('# c\nnetwork\t1.5\n').get('network')).toBe(1.5)
    expect(() => parseThemePrior('network\t1\nresult minus\n')).toThrow(/line 2/)
  })

  it('should read how much a text reads like news from its share of name words, and rank words by frequency', () => {
    const at = (name: string): number => THEME_FEATURES.indexOf(name as (typeof THEME_FEATURES)[number])
    const news = annotator.annotate('Tim Cook told Apple investors in Cupertino that iPhone sales rose. Cook said sales in China fell. Sales matter.')
    const abstract = annotator.annotate('We propose a new method for training recurrent neural networks. The method is fast and the networks are small.')
    const feats = (doc: typeof news): Map<string, number[]> => new Map(candidateFeatures(doc, extractCandidates(doc), background).map((c) => [c.key, c.x]))
    const n = feats(news)
    const a = feats(abstract)
    // "sales" is the most frequent content word of the story: rank 0, so topRank 1; a phrase has none.
    expect(n.get('sale')![at('topRank')]).toBe(1)
    expect(n.get('sale')![at('logTokenFreq')]).toBeCloseTo(Math.log(4))
    expect(n.get('iphon sale')?.[at('topRank')] ?? 0).toBe(0)
    // G: names make up a large share of the story's words, none of the abstract's.
    expect(n.get('sale')![at('G*words1')]).toBeGreaterThan(0.5)
    expect(a.get('method')![at('G*words1')]).toBe(0)
  })

  it('should blend the abstracts and news tables by how much the text reads like news', () => {
    const story = annotator.annotate(
      'Johnny Depp returns as Captain Jack Sparrow in the fifth Pirates of the Caribbean film, producer Jerry Bruckheimer ' +
        'told Variety. "We are thrilled," Bruckheimer said in Los Angeles on Friday. Disney confirmed that Penelope Cruz ' +
        'and Geoffrey Rush would join Depp when filming starts in Hawaii.',
    )
    const abstract = annotator.annotate(
      'In this paper we propose a robust output feedback model predictive control algorithm using linear matrix ' +
        'inequalities. We show that the closed-loop system is asymptotically stable under polytopic uncertainty.',
    )
    const remark = annotator.annotate('Analysts said the company liked the long battery life. The company said customers love the battery life.')
    const model = THEME_MODEL!
    expect(model.news).toBeDefined()
    expect(model.news!.weights).toHaveLength(THEME_FEATURES.length)
    expect(model.news!.genre).toHaveLength(GENRE_FEATURES.length + 1)
    expect(genreFeatures(story, background)[0]).toBeGreaterThan(genreFeatures(abstract, background)[0]!)
    // Rare words mark the abstract ("polytopic", "stabilizability"), not the story.
    expect(genreFeatures(abstract, background)[5]).toBeGreaterThan(genreFeatures(story, background)[5]!)
    expect(newsShare(model, story, background)).toBeGreaterThan(0.9)
    expect(newsShare(model, abstract, background)).toBeLessThan(0.1)
    // Reporting verbs are not a sign of news: customers and reviewers report what others said too.
    expect(newsShare(model, remark, background)).toBeLessThan(0.1)
    // A model without a news table reads every text as it reads abstracts.
    const { news: _news, ...abstractsOnly } = model
    expect(newsShare(abstractsOnly, story, background)).toBe(0)
    // Blending 0 or 1 gives the one table's score.
    const x = candidateFeatures(story, extractCandidates(story), background)[0]!.x
    const table = (w: readonly number[]): number => 1 / (1 + Math.exp(-x.reduce((z, v, i) => z + v * w[i]!, model.bias)))
    expect(modelScore(model, x, 0)).toBeCloseTo(table(model.weights), 12)
    expect(modelScore(model, x, 1)).toBeCloseTo(table(model.news!.weights), 12)
  })

  it('should find a document\'s candidates and ranking once, and hand out copies', () => {
    const doc = annotator.annotate('Tim Cook praised the battery life of the new iPhone 15 Pro. Critics said the battery life was short.')
    const first = extractCandidates(doc)
    first.pop()
    const second = extractCandidates(doc)
    expect(second).toHaveLength(first.length + 1)
    expect(second[0]).toBe(first[0])
    const ranked = rankCandidates(doc, second, background)
    ranked.reverse()
    const again = rankCandidates(doc, extractCandidates(doc), background)
    expect(again.map((r) => r.key)).toEqual([...ranked].reverse().map((r) => r.key))
    // Other weights or model: ranked anew, as on a fresh annotation of the same text.
    const fresh = annotator.annotate(doc.text)
    const byHand = rankCandidates(doc, extractCandidates(doc), background, undefined, null)
    expect(byHand.map((r) => [r.key, r.score])).toEqual(rankCandidates(fresh, extractCandidates(fresh), background, undefined, null).map((r) => [r.key, r.score]))
    expect(byHand.map((r) => r.score)).not.toEqual(again.map((r) => r.score))
  })

  it('should match hyphenated words written with or without hyphens, on both sides alike', () => {
    // 500N-KPCrowd's keys drop the hyphens the text has ("37yearold"); Inspec's keep them.
    expect(joinedForm('37-year-old actors')).toBe(joinedForm('37yearold actor'))
    expect(matchForm('syntax-sensitive rules')).toBe('syntax sensit rule')
    expect(f1At(['37-year-old actor', 'syntax-sensitive rules'], [matchForm('37yearold actor'), matchForm('syntax-sensitive rules')], 10, [joinedForm('37yearold actor'), joinedForm('syntax-sensitive rules')])).toBe(1)
    // A key matches once, however many of its forms are predicted.
    expect(f1At(['37-year-old actor', '37yearold actor'], [matchForm('37yearold actor')], 10, [joinedForm('37yearold actor')])).toBeCloseTo((2 * 0.5 * 1) / 1.5)
  })

  it('should read the background list and name the line of a malformed entry', () => {
    expect(parseBackground('# c\nthe\t7.5\nbattery\t3.9\n').get('battery')).toBe(3.9)
    expect(() => parseBackground('the\t7.5\nbattery three\n')).toThrow(/line 2/)
  })
})

describe('entity themes', () => {
  it('should give each entity the themes of its own sentences, not the document list and not itself', async () => {
    const engine = createEngine({ background: false })
    await engine.account(engine.defaultAccount).updateConfigurations({ document: { themes_limit: 10, entity_themes_limit: 3 } })
    const out = await engine.analyze(
      'Tim Cook praised the battery life of the new phone. The weather in Paris was grey and the museum queues were long. Tim Cook also liked the camera.',
    )
    const tim = out.entities!.find((e) => e.title === 'Tim Cook')!
    const paris = out.entities!.find((e) => e.title === 'Paris')!
    const timThemes = tim.themes!.map((t) => t.normalized)
    const parisThemes = paris.themes!.map((t) => t.normalized)
    expect(timThemes).toEqual(expect.arrayContaining(['battery life', 'camera']))
    expect(timThemes).not.toContain('weather')
    expect(timThemes).not.toContain('tim cook')
    expect(parisThemes).toEqual(expect.arrayContaining(['weather']))
    expect(parisThemes).not.toContain('camera')
    await engine.close()
  })
})
