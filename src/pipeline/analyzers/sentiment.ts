import type { Phrase } from '../../model/output.ts'
import type { StoredConfiguration } from '../../storage/types.ts'
import { createSentimentScorer, type SentimentResult, type SentimentScorer, type UserSentimentPhrase } from '../../sentiment/index.ts'
import { need } from '../pipeline.ts'
import type { Subscription } from '../../model/account.ts'
import { createQueryGrammar, type QueryGrammar } from '../../query/index.ts'
import { compileQuerySet, hasQuerySyntax, type QuerySet } from '../../query/query-set.ts'
import type { DocumentIndex } from '../../query/document-index.ts'
import { queryLimitsOf } from './topics.ts'
import type { Analyzer, SentimentSection } from '../types.ts'

/** The sentiment section plus the scorer's full result (phrases, model), for the analyzers that map it. */
export interface SentimentSectionWithResult extends SentimentSection {
  readonly result: SentimentResult
}

/** Compiled sentiment tuning of a configuration: plain user phrases, and phrases with operators as queries. */
export interface SentimentResources {
  readonly userPhrases: readonly UserSentimentPhrase[]
  readonly operatorPhrases: QuerySet
  readonly weights: ReadonlyMap<string, number>
}

/**
 * The sentiment analyzers of one engine, sharing one scorer (lexicons and model loaded once):
 * `sentiment` (document score and polarity, per-token and per-sentence scores), `phrases`
 * (detected and possible sentiment phrases) and `model_sentiment`.
 */
export function createSentimentAnalyzers(scorer: SentimentScorer = createSentimentScorer(), grammar: QueryGrammar = createQueryGrammar()): Analyzer[] {
  const sentiment: Analyzer<'sentiment'> & { prepare(stored: StoredConfiguration, subscription: Subscription): SentimentResources } = {
    name: 'sentiment',
    needs: ['query_index'],
    enabled: () => true,
    prepare(stored, subscription) {
      // Phrases written with query operators are matched by the query language; plain ones go to the scorer.
      const plain = stored.tuning.phrases.filter((p) => !hasQuerySyntax(p.name))
      const withOperators = stored.tuning.phrases.filter((p) => hasQuerySyntax(p.name))
      const operatorPhrases = compileQuerySet(
        withOperators.map((p) => ({ id: p.id, name: p.name, query: p.name })),
        [],
        { grammar, limits: { ...queryLimitsOf(subscription), unquotedWordsLimit: 3 } },
      )
      return {
        userPhrases: plain.map((p) => ({ name: p.name, weight: p.weight })),
        operatorPhrases,
        weights: new Map(withOperators.map((p) => [p.id, p.weight])),
      }
    },
    run(doc, sections, ctx) {
      const res = ctx.resources['sentiment'] as SentimentResources | undefined
      const phrases: UserSentimentPhrase[] = [...(res?.userPhrases ?? [])]
      if (res !== undefined && res.operatorPhrases.size > 0) {
        // A matched operator phrase lends its weight to the words that satisfied it ("good NEAR/2 food").
        for (const hit of res.operatorPhrases.evaluate(doc, sections['query_index'] as DocumentIndex)) {
          const weight = res.weights.get(hit.id) ?? 0
          for (const h of hit.hits) if (!phrases.some((p) => p.name.toLowerCase() === h.text.toLowerCase())) phrases.push({ name: h.text, weight })
        }
      }
      const result = scorer.score(doc, phrases)
      const section: SentimentSectionWithResult = {
        result,
        score: result.sentiment_score,
        polarity: result.sentiment_polarity,
        tokenScores: result.tokenScores,
        sentenceScores: result.sentences.map((s) => s.sentiment_score),
        sentencePolar: result.sentences.map((s) => s.is_polar),
        polarityOf: (score) => result.polarityOf(score),
        aspect: (spans, options) => {
          const score = result.aspectSentiment(spans, options)
          return { score, polarity: result.polarityOf(score) }
        },
        span: (a, b) => {
          const score = result.spanSentiment(a, b)
          return { score, polarity: result.polarityOf(score) }
        },
      }
      return section
    },
    toWire(value, out) {
      out.sentiment_score = value.score
      out.sentiment_polarity = value.polarity
    },
  }

  const phrases: Analyzer = {
    name: 'phrases',
    needs: ['sentiment'],
    enabled: (ctx) =>
      ctx.subscription.feature_settings.document.sentiment_phrases &&
      ctx.configuration.document.sentiment_phrases &&
      (ctx.configuration.document.phrases_limit > 0 || ctx.configuration.document.possible_phrases_limit > 0),
    run(doc, sections, ctx) {
      const { result } = need(sections, 'sentiment') as SentimentSectionWithResult
      const d = ctx.configuration.document
      const withOffsets = d.mentions && ctx.subscription.feature_settings.document.mentions
      const span = (a: number, b: number): { offset: number; length: number } => {
        const first = doc.tokens[a]!
        const last = doc.tokens[b - 1]!
        return { offset: first.byteOffset, length: last.byteOffset + last.byteLength - first.byteOffset }
      }
      const out: Phrase[] = []
      for (const p of result.phrases.slice(0, d.phrases_limit)) {
        const item: Phrase = {
          title: p.title,
          type: 'detected',
          sentiment_score: p.sentiment_score,
          sentiment_polarity: p.sentiment_polarity,
          is_negated: p.is_negated,
        }
        if (p.negating_phrase !== undefined) item.negating_phrase = p.negating_phrase
        item.is_intensified = p.is_intensified
        if (p.intensifying_phrase !== undefined) item.intensifying_phrase = p.intensifying_phrase
        if (withOffsets) Object.assign(item, span(p.tokenStart, p.tokenEnd))
        out.push(item)
      }
      for (const p of result.possiblePhrases.slice(0, d.possible_phrases_limit)) {
        const item: Phrase = { title: p.title, type: 'possible', sentiment_polarity: p.sentiment_polarity }
        if (withOffsets) Object.assign(item, span(p.tokenStart, p.tokenEnd))
        out.push(item)
      }
      return out
    },
    toWire(value, out) {
      const list = value as Phrase[]
      if (list.length > 0) out.phrases = list
    },
  }

  const model: Analyzer = {
    name: 'model_sentiment',
    needs: ['sentiment'],
    enabled: (ctx) =>
      scorer.model !== undefined &&
      ctx.subscription.feature_settings.document.model_sentiment &&
      ctx.configuration.document.model_sentiment,
    run(_doc, sections) {
      return (need(sections, 'sentiment') as SentimentSectionWithResult).result.model_sentiment
    },
    toWire(value, out) {
      if (value !== undefined) out.model_sentiment = { ...(value as NonNullable<SentimentResult['model_sentiment']>) }
    },
  }
  return [sentiment as Analyzer, phrases, model]
}
