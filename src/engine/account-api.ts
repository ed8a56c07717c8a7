import { fail } from '../errors.ts'
import type { ServiceStatus, Subscription } from '../model/account.ts'
import type { Template } from '../model/configuration.ts'
import type { AccountApi } from './types.ts'
import type { SettingsService } from './settings-service.ts'
import {
  createConfigurations,
  deleteConfigurations,
  listConfigurations,
  updateConfigurations,
} from './configurations.ts'
import { featureRecords } from './features.ts'
import { changeTuning, createTuning, deleteTuning, listTuning, updateTuning } from './tuning.ts'
import { findConfiguration } from './configurations.ts'

/** Version strings reported by `GET /status`. */
export const API_VERSION = '4.2'
/** This engine's version. */
export const SERVICE_VERSION = '0.1.0'

/** The settings half of an account's API: configurations, templates, subscription, features, status. */
export type SettingsApi = Pick<
  AccountApi,
  | 'listConfigurations'
  | 'createConfigurations'
  | 'updateConfigurations'
  | 'deleteConfigurations'
  | 'listTemplates'
  | 'listTuning'
  | 'createTuning'
  | 'updateTuning'
  | 'deleteTuning'
  | 'subscription'
  | 'features'
  | 'status'
>

/** Build the settings half of an account's API over its settings service. */
export function createSettingsApi(settings: SettingsService, subscription: Subscription, templates: readonly Template[]): SettingsApi {
  return {
    async listConfigurations() {
      return listConfigurations(await settings.load())
    },
    async createConfigurations(input) {
      // Items with `template` are clones (E13); createConfigurations plans both kinds in one change.
      return settings.mutate((record, ctx) => createConfigurations(record, input, ctx))
    },
    async updateConfigurations(input) {
      return settings.mutate((record, ctx) => updateConfigurations(record, input, ctx))
    },
    async deleteConfigurations(input) {
      await settings.mutate((record, ctx) => deleteConfigurations(record, input, ctx))
    },
    async listTuning(resource, configId) {
      return listTuning(findConfiguration(await settings.load(), configId), resource)
    },
    async createTuning(resource, input, configId) {
      return settings.mutate((record, ctx) => changeTuning(record, configId, (stored) => createTuning(stored, resource, input, ctx)))
    },
    async updateTuning(resource, input, configId) {
      return settings.mutate((record, ctx) => changeTuning(record, configId, (stored) => updateTuning(stored, resource, input, ctx)))
    },
    async deleteTuning(resource, input, configId) {
      await settings.mutate((record, ctx) => changeTuning(record, configId, (stored) => deleteTuning(stored, resource, input, ctx)))
    },
    async listTemplates() {
      return structuredClone([...templates])
    },
    async subscription() {
      return structuredClone(subscription)
    },
    async features(language) {
      const list = language === undefined ? undefined : typeof language === 'string' ? language.split(',') : [...language]
      const records = featureRecords(subscription.feature_settings, list)
      if (list !== undefined && list.length > 0 && records.length === 0) {
        fail('ERR_LANGUAGE_FORBIDDEN', `language ${list.join(',')} is not supported by the license (supported: ${subscription.feature_settings.supported_languages})`, 'language')
      }
      return records
    },
    async status(): Promise<ServiceStatus> {
      return {
        service_status: 'available',
        api_version: API_VERSION,
        service_version: SERVICE_VERSION,
        supported_encoding: 'UTF-8',
        supported_compression: 'gzip,deflate',
        supported_languages: subscription.feature_settings.supported_languages.split(',').filter((s) => s !== ''),
      }
    },
  }
}
