import { verifyLog, type AuditLog, type HistorySources } from '@app/audit';
import { digestInThread, verifyInThreads } from '@app/stores/sqlite';
import { openDigestTreeStore, type StoreConfig, type Stores } from './open-stores';

/**
 * The log as the audit of `stores` reads and records it (libs/audit `AuditLog`; docs/DESIGN.md
 * "Verifiable history"): the log as stored and the event store, the kept digest tree's store
 * (`openDigestTreeStore`), and on the embedded event store its own faster paths: the chains checked
 * on two threads (`verifyInThreads`) and scheduled digests signed on a thread of their own
 * (`digestInThread`), each with connections of its own to `<dataDir>/events.sqlite`.
 */
export function auditLogOf(config: Pick<StoreConfig, 'dataDir'>, stores: Stores): AuditLog {
  const embedded = stores.backends.eventStore === 'sqlite';
  return {
    storedLog: stores.storedLog,
    eventStore: stores.eventStore,
    verify: embedded ? (options) => verifyInThreads(config.dataDir, options) : (options) => verifyLog(stores.storedLog, options),
    openTrees: () => openDigestTreeStore(config, stores),
    digestApart: embedded ? (privateKey, by) => digestInThread(config.dataDir, privateKey, by) : null,
  };
}

/**
 * What a trainee's history report reads of `stores` (libs/audit `HistorySources`): its
 * {@link auditLogOf}, and the read model's mapping of a trainee id given in another case to the
 * stored one (docs/reference/API-FACTS.md §1.10).
 */
export function historySourcesOf(config: Pick<StoreConfig, 'dataDir'>, stores: Stores): HistorySources {
  return { ...auditLogOf(config, stores), resolveId: async (id) => (await stores.readModel.getTrainee(id))?.trainee_id ?? null };
}
