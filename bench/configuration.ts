/**
 * The stored configuration the benches analyse under when they drive an analysis core directly (`createAnalysisCore`,
 * no engine): the English defaults with `document` settings laid over them, empty tuning but what `tuning` gives,
 * revision 1, and the default subscription.
 */
import { buildSubscription } from '../src/engine/account.ts'
import { defaultConfigurationSettings } from '../src/engine/settings.ts'
import { emptyTuning } from '../src/engine/templates.ts'
import type { DocumentSettings } from '../src/model/configuration.ts'
import type { Subscription } from '../src/model/account.ts'
import type { StoredConfiguration } from '../src/storage/types.ts'
import type { Tuning } from '../src/model/tuning.ts'

export function benchConfiguration(
  document: Partial<DocumentSettings> = {},
  tuning: Partial<Tuning> = {},
): { stored: StoredConfiguration; subscription: Subscription } {
  const settings = defaultConfigurationSettings('English')
  return {
    stored: {
      configuration: { ...settings, id: 'bench', config_id: 'bench', is_primary: true, modified: 0, document: { ...settings.document, ...document } },
      tuning: { ...emptyTuning(), ...tuning },
      revision: 1,
    },
    subscription: buildSubscription(undefined, 'bench'),
  }
}
