/**
 * Sentiment: the lexicon engine ({@link createSentimentScorer}) and the statistical model
 * (`model_sentiment`, {@link loadSentimentModel}).
 */
export {
  createSentimentScorer,
  SentimentInputError,
  type DetectedPhrase,
  type LexiconFeatures,
  type PossiblePhrase,
  type SentenceSentimentResult,
  type SentimentPolarity,
  type SentimentResult,
  type SentimentScorer,
  type SentimentScorerOptions,
  type UserSentimentPhrase,
} from './scorer.ts'
export { loadSentimentLexicon, defaultLexiconDir, phraseKey, LexiconError, type SentimentLexicon } from './lexicon.ts'
export {
  createSentimentModel,
  loadSentimentModel,
  type ModelSentiment,
  type SentimentModel,
  type SentimentModelData,
} from './model.ts'
