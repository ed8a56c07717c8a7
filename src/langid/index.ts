/** Language identification: the public surface of `src/langid/`. */
export { createLanguageIdentifier, type LanguageIdentification, type LanguageIdentifier, type LanguageScore } from './identify.ts'
export { findLanguageEntry, LANGUAGES, type LanguageEntry, type ScriptGroup } from './languages.ts'
export {
  defaultLanguageModelPath, loadLanguageModel, parseLanguageModel, serializeLanguageModel, trainLanguageModel,
  type LanguageModelData, type TrainOptions,
} from './model.ts'
