import type { AnnotatedDocument, Token } from '../../nlp/types.ts'
import type { Theme } from '../../model/output.ts'
import { contextSentiment, round4, spanMentions } from '../spans.ts'
import { need } from '../pipeline.ts'
import type { Analyzer, SentimentSection } from '../types.ts'

/** One noun phrase found in the text: token range, its head noun and the adjectives before it. */
export interface ThemeSpan {
  readonly tokenStart: number
  readonly tokenEnd: number
  /** Lower-cased lemma form of the whole phrase ("friendly staff"). */
  readonly normalized: string
  /** Head noun's lemma ("staff"). */
  readonly head: string
  /** Lemmas of the adjectives in the phrase ("friendly"). */
  readonly attributes: readonly string[]
}

/** A theme of a document before limits and wire mapping. */
export interface FoundTheme {
  readonly normalized: string
  readonly title: string
  readonly stemmed: string
  readonly spans: readonly ThemeSpan[]
  readonly evidence: number
  readonly strength: number
  readonly sentiment: { readonly score: number; readonly polarity: 'positive' | 'negative' | 'neutral' }
}

/** The themes section: every theme (ranked) and every noun phrase (for Discovery facets). */
export interface ThemesSection {
  readonly themes: readonly FoundTheme[]
  readonly phrases: readonly ThemeSpan[]
}

const GENERIC = new Set([
  'thing', 'things', 'lot', 'lots', 'way', 'time', 'day', 'one', 'ones', 'bit', 'kind', 'sort', 'stuff', 'something',
  'anything', 'everything', 'nothing', 'someone', 'anyone', 'everyone', 'people', 'person', 'year', 'years', 'today',
  'yesterday', 'tomorrow', 'week', 'month', 'part', 'place', 'number', 'end', 'fact', 'case', 'point',
])

/**
 * Noun phrases of a document: maximal runs of adjectives and nouns that end in a common noun, at most
 * four words, without stop words, numbers or proper-noun-only runs (those are entities).
 */
export function nounPhrases(doc: AnnotatedDocument): ThemeSpan[] {
  const out: ThemeSpan[] = []
  const toks = doc.tokens
  // A capitalised word opening a sentence ("Breakfast was cold") is often tagged PROPN; alone, it is a noun.
  const posOf = (t: Token): string => {
    if (t.pos !== 'PROPN') return t.pos
    const first = doc.sentences[t.sentence]
    const opens = first !== undefined && doc.tokens.slice(first.tokenStart, t.index).every((x) => x.kind !== 'word')
    return opens && toks[t.index + 1]?.pos !== 'PROPN' ? 'NOUN' : 'PROPN'
  }
  const isPart = (t: Token): boolean =>
    t.kind === 'word' && (t.pos === 'ADJ' || t.pos === 'NOUN' || t.pos === 'PROPN') && !t.isStopWord && /^[\p{L}][\p{L}\p{M}'-]*$/u.test(t.text)
  let i = 0
  while (i < toks.length) {
    if (!isPart(toks[i]!)) {
      i++
      continue
    }
    let j = i
    while (j < toks.length && isPart(toks[j]!) && toks[j]!.sentence === toks[i]!.sentence) j++
    // The phrase ends at its last common noun; trailing adjectives are predicates, not part of it.
    let end = j
    while (end > i && posOf(toks[end - 1]!) !== 'NOUN') end--
    const start = Math.max(i, end - 4)
    if (end > start) {
      const words = toks.slice(start, end)
      const head = words[words.length - 1]!
      if (!GENERIC.has(head.lemma) && head.lemma.length > 1 && !words.every((w) => posOf(w) === 'PROPN')) {
        out.push({
          tokenStart: start,
          tokenEnd: end,
          normalized: words.map((w) => w.lemma.toLowerCase()).join(' '),
          head: head.lemma,
          attributes: [...words.filter((w) => w.pos === 'ADJ').map((w) => w.lemma.toLowerCase()), ...predicates(doc, end)],
        })
      }
    }
    i = j
  }
  return out
}

const LINKING = new Set(['be', 'seem', 'look', 'feel', 'remain', 'become', 'get', 'appear', 'stay'])

/**
 * Predicative adjectives of a noun phrase ending before token `end`: "the room was (very) clean",
 * "staff seemed friendly and helpful" give clean; friendly, helpful.
 */
function predicates(doc: AnnotatedDocument, end: number): string[] {
  const toks = doc.tokens
  let k = end
  const sentence = toks[end - 1]?.sentence
  const at = (i: number): Token | undefined => (toks[i]?.sentence === sentence ? toks[i] : undefined)
  const verb = at(k)
  if (verb === undefined || !(verb.pos === 'AUX' || verb.pos === 'VERB') || !LINKING.has(verb.lemma)) return []
  k++
  const out: string[] = []
  for (let guard = 0; guard < 8; guard++) {
    const t = at(k)
    if (t === undefined) break
    if (t.pos === 'ADV' || t.pos === 'PART' || t.pos === 'CCONJ' || t.text === ',') {
      k++
      continue
    }
    if (t.pos !== 'ADJ') break
    out.push(t.lemma.toLowerCase())
    k++
  }
  return out
}

/**
 * `themes`: the document's key noun phrases, ranked by strength (occurrences, weighted by length so
 * that "room service" outranks "room", plus a bonus for sentiment-bearing context), with the sentiment
 * of the sentences they stand in.
 */
export const themesAnalyzer: Analyzer<'themes'> = {
  name: 'themes',
  needs: ['sentiment'],
  enabled: (ctx) => ctx.subscription.feature_settings.document.themes && ctx.configuration.document.themes_limit > 0,
  run(doc, sections) {
    const sentiment = need(sections, 'sentiment')
    const phrases = nounPhrases(doc)
    return { themes: rankThemes(doc, phrases, sentiment), phrases }
  },
  toWire(value, out, ctx, doc) {
    const d = ctx.configuration.document
    const withMentions = d.mentions && ctx.subscription.feature_settings.document.mentions && d.theme_mentions_limit > 0
    const list = (value as ThemesSection).themes.slice(0, d.themes_limit)
    if (list.length === 0) return
    out.themes = list.map((t, k) => themeWire(doc, t, k === 0, withMentions ? d.theme_mentions_limit : 0))
  },
}

/** Group phrases into themes and rank them. */
export function rankThemes(doc: AnnotatedDocument, phrases: readonly ThemeSpan[], sentiment: SentimentSection): FoundTheme[] {
  const groups = new Map<string, ThemeSpan[]>()
  for (const p of phrases) {
    const list = groups.get(p.normalized) ?? []
    list.push(p)
    groups.set(p.normalized, list)
  }
  const words = doc.tokens.filter((t) => t.kind === 'word').length || 1
  const found: FoundTheme[] = []
  for (const [normalized, spans] of groups) {
    const n = spans[0]!.tokenEnd - spans[0]!.tokenStart
    const context = contextSentiment(doc, spans, sentiment)
    const evidence = context.sentences.filter((i) => sentiment.sentencePolar[i] === true).length
    const first = spans[0]!
    const a = doc.tokens[first.tokenStart]!
    const b = doc.tokens[first.tokenEnd - 1]!
    const strength = round4((spans.length * (1 + 0.5 * (n - 1)) * (1 + 0.25 * Math.min(evidence, 4))) / Math.sqrt(words))
    found.push({
      normalized,
      title: doc.text.slice(a.start, b.end).toLowerCase(),
      stemmed: doc.tokens.slice(first.tokenStart, first.tokenEnd).map((t) => t.stem).join(' '),
      spans,
      evidence: Math.min(7, evidence),
      strength,
      sentiment: { score: context.score, polarity: context.polarity },
    })
  }
  found.sort((x, y) => y.strength - x.strength || x.spans[0]!.tokenStart - y.spans[0]!.tokenStart)
  return found
}

/** The wire form of a theme; `mentionsLimit` 0 leaves mentions out. */
export function themeWire(doc: AnnotatedDocument, t: FoundTheme, isAbout: boolean, mentionsLimit: number): Theme {
  const item: Theme = {
    title: t.title,
    normalized: t.normalized,
    stemmed: t.stemmed,
    evidence: t.evidence,
    is_about: isAbout,
    strength_score: t.strength,
    sentiment_score: t.sentiment.score,
    sentiment_polarity: t.sentiment.polarity,
  }
  if (mentionsLimit > 0) item.mentions = spanMentions(doc, t.spans, mentionsLimit)
  return item
}

