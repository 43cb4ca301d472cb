import type { HistorySources } from '@app/audit';
import type { Stores } from './stores';

/**
 * What a trainee's history report reads of `stores` (libs/audit `HistorySources`): its
 * `auditLog()`, and the read model's mapping of a trainee id given in another case to the
 * stored one (docs/reference/API-FACTS.md §1.10).
 */
export function historySourcesOf(stores: Stores): HistorySources {
  return { ...stores.auditLog(), resolveId: async (id) => (await stores.readModel.getTrainee(id))?.trainee_id ?? null };
}
