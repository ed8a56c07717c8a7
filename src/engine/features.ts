import { fail } from '../errors.ts'
import type { FeatureRecord, FeatureSettings, Subscription } from '../model/account.ts'
import type { Configuration } from '../model/configuration.ts'
import { detailsAnalyzer } from '../pipeline/analyzers/details.ts'
import { summaryAnalyzer } from '../pipeline/analyzers/summary.ts'
import { createSentimentAnalyzers } from '../pipeline/analyzers/sentiment.ts'
import { createEntitiesAnalyzer } from '../pipeline/analyzers/entities.ts'
import { createThemesAnalyzer, lazyBackground } from '../pipeline/analyzers/themes.ts'
import { loadThemePrior } from '../themes/index.ts'
import { createLanguageAnalyzer } from '../pipeline/analyzers/language.ts'
import { createTopicsAnalyzer, queryIndexAnalyzer } from '../pipeline/analyzers/topics.ts'
import { createCategoriesAnalyzer } from '../pipeline/analyzers/categories.ts'
import { createSemanticModel, type SemanticModel } from '../semantic/index.ts'
import { createQueryGrammar, type QueryGrammar } from '../query/index.ts'
import { createEntityExtractor, type EntityExtractor, type EntityTagger } from '../entities/index.ts'
import { createLanguageIdentifier, loadCompiledLanguageModel, type LanguageIdentifier } from '../langid/index.ts'
import { createSentimentScorer, type SentimentScorer } from '../sentiment/index.ts'
import type { PreparingAnalyzer } from './analysis.ts'
import { SUPPORTED_LANGUAGES } from './settings.ts'
import { createRelationsAnalyzer, shareExtraction } from '../pipeline/analyzers/relations.ts'
import { createOpinionsAnalyzer } from '../pipeline/analyzers/opinions.ts'
import { intentionsAnalyzer } from '../pipeline/analyzers/intentions.ts'
import { loadRelationResources } from '../relations/index.ts'

/** Languages the engine analyses (name as on the wire, ISO 639-1 code). */
export const ANALYSIS_LANGUAGES = SUPPORTED_LANGUAGES

/** A value made on first use, then kept (a model loaded when a section first needs it). */
function once<T>(make: () => T): () => T {
  let value: T | undefined
  let made = false
  return () => {
    if (!made) {
      value = make()
      made = true
    }
    return value as T
  }
}

/**
 * The built-in models of one engine, each loaded from the data folder when an analysis first needs it, so that
 * `createEngine` (and any program that only imports the engine, such as `textengine --help`) reads no model file.
 * Loading is a pure function of the files, so results are the same bytes whenever it happens.
 */
function lazyModels(dataDir: string | undefined, semantic: SemanticModel): { identifier: LanguageIdentifier; scorer: SentimentScorer; extractor: EntityExtractor } {
  const identifier = once(() => createLanguageIdentifier(loadCompiledLanguageModel(undefined, dataDir)))
  // The sentiment model's text vector reads the word vectors of the semantic layer: one copy per engine.
  const scorer = once(() => createSentimentScorer(dataDir === undefined ? { vectors: semantic } : { dataDir, vectors: semantic }))
  const extractor = once(() => createEntityExtractor(dataDir === undefined ? {} : { dataDir }))
  return {
    identifier: {
      identify: (text) => identifier().identify(text),
      get languages() {
        return identifier().languages
      },
    },
    scorer: {
      score: (doc, userPhrases) => scorer().score(doc, userPhrases),
      get options() {
        return scorer().options
      },
      get lexicon() {
        return scorer().lexicon
      },
      get model() {
        return scorer().model
      },
    },
    extractor: {
      extract: (doc) => extractor().extract(doc),
      get tagger(): EntityTagger {
        return extractor().tagger
      },
    },
  }
}

/**
 * The analyzers every engine runs, in no particular order (the pipeline orders them by `needs`).
 * Built per engine: the sentiment scorer's lexicons and model belong to one engine only. Models come from
 * `dataDir` (see `resolveDataDir`) and load on first use.
 */
export function builtinAnalyzers(dataDir?: string, grammar: QueryGrammar = createQueryGrammar()): PreparingAnalyzer[] {
  // Word vectors and the built-in taxonomy: read when sentiment's model, concept topics or auto-categories first run.
  const semantic = createSemanticModel(dataDir)
  const models = lazyModels(dataDir, semantic)
  // The theme background frequency list, read on first use, shared by themes and entity themes.
  const background = lazyBackground(dataDir)
  // Entities, relations and opinions read one extraction per document.
  const extractor = shareExtraction(models.extractor)
  const relationResources = once(() => loadRelationResources(dataDir))
  return [
    createLanguageAnalyzer(models.identifier, background),
    queryIndexAnalyzer,
    ...createSentimentAnalyzers(models.scorer, grammar),
    createEntitiesAnalyzer(extractor, grammar, background, () => loadThemePrior(dataDir)),
    createRelationsAnalyzer(extractor, relationResources),
    createOpinionsAnalyzer(extractor),
    intentionsAnalyzer,
    createTopicsAnalyzer(grammar, semantic),
    createCategoriesAnalyzer(semantic),
    createThemesAnalyzer(dataDir, background),
    detailsAnalyzer,
    summaryAnalyzer,
  ] as PreparingAnalyzer[]
}

/**
 * What the engine produces, by Detailed-mode feature name of the subscription. Only features with a
 * real analyzer behind them are true; the rest stay false until their analyzer exists.
 */
export function engineCapabilities(): FeatureSettings {
  return {
    document: {
      concept_topics: true,
      query_topics: true,
      sentiment_phrases: true,
      user_entities: true,
      intentions: true,
      model_sentiment: true,
      language_detection: true,
      named_entities: true,
      pos_tagging: true,
      summary: true,
      themes: true,
      relations: true,
      mentions: true,
      opinions: true,
      auto_categories: true,
    },
    collection: {
      concept_topics: true,
      query_topics: true,
      user_entities: true,
      named_entities: true,
      themes: true,
      mentions: true,
      facets: true,
    },
    html_processing: true,
    supported_languages: ANALYSIS_LANGUAGES.map((l) => l.name).join(','),
  }
}

/** A license's feature settings narrowed to what the engine really produces. */
export function engineFeatureSettings(license: FeatureSettings): FeatureSettings {
  const cap = engineCapabilities()
  const and = <T extends Record<string, boolean>>(a: T, b: T): T => {
    const o: Record<string, boolean> = {}
    for (const k of Object.keys(a)) o[k] = a[k] === true && b[k] === true
    return o as T
  }
  const capLangs = new Set(cap.supported_languages.split(',').map((s) => s.trim().toLowerCase()))
  return {
    document: and(license.document, cap.document),
    collection: and(license.collection, cap.collection),
    html_processing: license.html_processing && cap.html_processing,
    supported_languages: license.supported_languages
      .split(',')
      .map((s) => s.trim())
      .filter((s) => capLangs.has(s.toLowerCase()))
      .join(','),
  }
}

/**
 * Feature records of `GET /features` for the languages a license covers (all of them, or those asked
 * for by name or ISO code). Both key sets of the spec are filled from the same facts.
 */
export function featureRecords(f: FeatureSettings, languages?: readonly string[]): FeatureRecord[] {
  const licensed = f.supported_languages.split(',').map((s) => s.trim().toLowerCase())
  const wanted = languages?.map((l) => l.trim().toLowerCase()).filter((l) => l !== '')
  const d = f.document
  const c = f.collection
  return ANALYSIS_LANGUAGES.filter((l) => licensed.includes(l.name.toLowerCase()))
    .filter((l) => wanted === undefined || wanted.length === 0 || wanted.includes(l.name.toLowerCase()) || wanted.includes(l.code))
    .map((l) => ({ l, english: l.code === 'en' }))
    // Relations, opinions and intentions have English models and rules only.
    .map(({ l, english }) => ({
      id: l.code,
      language: l.name,
      html_processing: f.html_processing,
      settings: {
        blacklist: d.query_topics,
        user_entities: d.user_entities,
        sentiment_phrases: d.sentiment_phrases,
        queries: d.query_topics,
        user_categories: d.concept_topics,
        concept_topics: d.concept_topics,
        query_topics: d.query_topics,
      },
      detailed_mode: {
        language_detection: d.language_detection,
        pos_tagging: d.pos_tagging,
        intentions: d.intentions && english,
        mentions: d.mentions,
        sentiment_phrases: d.sentiment_phrases,
        themes: d.themes,
        relations: d.relations && english,
        named_entities: d.named_entities,
        sentiment: d.sentiment_phrases,
        summarization: d.summary,
        user_entities: d.user_entities,
        query_topics: d.query_topics,
        // The built-in taxonomy is described by English words.
        auto_categories: d.auto_categories && l.code === 'en',
        concept_topics: d.concept_topics,
        opinions: d.opinions && english,
        theme_mentions: d.themes && d.mentions,
        entity_themes: d.named_entities && d.themes,
        entity_relations: d.relations && english,
        entity_mentions: d.named_entities && d.mentions,
        entity_opinions: d.opinions && english,
        queries: d.query_topics,
        user_categories: d.concept_topics,
      },
      discovery_mode: {
        named_entities: c.named_entities,
        mentions: c.mentions,
        facets: c.facets,
        user_entities: c.user_entities,
        concept_topics: c.concept_topics,
        themes: c.themes,
        query_topics: c.query_topics,
        attributes: c.facets,
        entity_mentions: c.named_entities && c.mentions,
        facet_mentioins: c.facets && c.mentions,
        theme_mentions: c.themes && c.mentions,
        user_categories: c.concept_topics,
        queries: c.query_topics,
        facet_attributes: c.facets,
      },
    }))
}

/** ERR_LANGUAGE_FORBIDDEN when the license does not cover the configuration's language. */
export function checkLanguage(subscription: Subscription, config: Configuration): void {
  const allowed = subscription.feature_settings.supported_languages.split(',').map((s) => s.trim().toLowerCase())
  if (!allowed.includes(config.language.toLowerCase())) {
    fail('ERR_LANGUAGE_FORBIDDEN', `language "${config.language}" of configuration ${config.config_id} is not supported by the license (supported: ${subscription.feature_settings.supported_languages})`)
  }
}

