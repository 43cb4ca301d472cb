import type { HistorySources } from '@app/audit';
import type { Stores } from './stores';

/** `auditLog()` and the stored id of a trainee id given in another case (docs/reference/API-FACTS.md §1.10). */
export function historySourcesOf(stores: Stores): HistorySources {
  return { ...stores.auditLog(), resolveId: async (id) => (await stores.readModel.getTrainee(id))?.trainee_id ?? null };
}
