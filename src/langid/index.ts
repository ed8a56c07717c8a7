/** Language identification: the public surface of `src/langid/`. */
export { createLanguageIdentifier, type LanguageIdentification, type LanguageIdentifier, type LanguageScore } from './identify.ts'
export {
  compileLanguageModel, compileLanguageModelText, loadCompiledLanguageModel, type CompiledLanguageModel,
} from './compiled.ts'
export { findLanguageEntry, LANGUAGES, type LanguageEntry, type ScriptGroup } from './languages.ts'
export {
  defaultLanguageModelPath, loadLanguageModel, parseLanguageModel, readLanguageModelFile, readLanguageModelText, serializeLanguageModel, trainLanguageModel,
  type LanguageModelData, type ModelHeader, type ModelTextSink, type TrainOptions,
} from './model.ts'
export {
  createLanguageDecider, languageSample, MEDIUM_LETTERS, SAMPLE_CHARS, SHORT_LETTERS,
  type LanguageDecider, type LanguageDeciderOptions, type LanguageDecision, type Vocabulary,
} from './decide.ts'
export { FUNCTION_WORDS } from './words.ts'
