/**
 * textengine: an embeddable text-analysis engine. The public surface is `createEngine` and the wire
 * types; the HTTP adapter is a separate entry point (`textengine/http`).
 */
export { createEngine } from './engine/create-engine.ts'
export type { Engine, AccountApi, AnalyzeOptions, AnalyzeManyItem, SubmitOptions, SubmitResult, TakeOptions, StatisticsQuery, TuningResource, CallClass } from './engine/types.ts'
export type { EngineOptions, EngineLogger, AccountOptions, ProcessedEvent } from './engine/options.ts'
export type { SubscriptionOverrides } from './engine/account.ts'
export type { Analyzer, AnalyzeContext, Sections, SectionName, SentimentSection } from './pipeline/types.ts'
export type { Storage, StorageOptions, ClaimOptions, QueueItem, QueueStatus, ItemKey, ItemKind, TakeFilter, SettingsRecord, StoredConfiguration, StatDimensions, StatRow, DocumentInput, CollectionInput } from './storage/types.ts'
export { createMemoryStorage } from './storage/memory.ts'
export { StorageUnavailableError, StorageValueError, isStorageUnavailable, isStorageValueError } from './storage/errors.ts'
export { EngineError, isEngineError, ERROR_CODES, type ErrorCode } from './errors.ts'
export type * from './model/output.ts'
export type * from './model/configuration.ts'
export type * from './model/tuning.ts'
export type * from './model/account.ts'
