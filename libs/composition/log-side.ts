import { verifyLog, type AuditLog } from '@app/audit';
import type { EventStore, StoredLog } from '@app/event-sourcing';
import type { KeySource } from '@app/keys';
import { messageFirst, redact } from '@app/runtime/process';
import { tracingEnabled } from '@app/runtime/tracing';
import { asOfScanInThreads, digestInThread, openSqliteEventStore, ProjectionThread, verifyInThreads } from '@app/stores/sqlite';
import { scanInThisThread, type AsOfScan } from '@app/trainees/read';
import { StoreUnavailable, type OpenStoresOptions, type StoreConfig, type Stores } from './stores';

/** Checked to answer (StoreUnavailable); EventStoreDB's client loaded only when named; a projection thread if asked and both are SQLite. */
export async function openEventStore(
  config: StoreConfig,
  options: OpenStoresOptions,
  keyEncryptionKeys: KeySource | null,
): Promise<{ eventStore: EventStore; thread: ProjectionThread | null }> {
  let eventStore: EventStore;
  const threaded = !!options.projectionThread && !config.eventStoreUrl && !config.mongodbUrl;
  let thread: ProjectionThread | null = null;
  try {
    if (config.eventStoreUrl)
      eventStore = (await import('@app/stores/eventstoredb')).openEventStoreDb(config.eventStoreUrl, {
        // Subscriptions log their retries and stalls here (docs/DESIGN.md "Failures of the subscription").
        logger: options.logger ? messageFirst(options.logger) : undefined,
      });
    else if (threaded) {
      thread = new ProjectionThread({
        dataDir: config.dataDir,
        ...options.projectionThread!,
        traced: tracingEnabled(),
        keyEncryptionKeys,
        hashChain: options.hashChain,
      });
      eventStore = thread.eventStore;
    } else eventStore = openSqliteEventStore(config.dataDir, { hashChain: options.hashChain });
    await eventStore.headPosition();
    return { eventStore, thread };
  } catch (err) {
    await thread?.close();
    throw new StoreUnavailable(
      config.eventStoreUrl
        ? `Cannot use EventStoreDB at EVENTSTORE_URL (${redact(config.eventStoreUrl)}): ${errorMessage(err)}`
        : `Cannot open the SQLite event store in DATA_DIR (${config.dataDir}): ${errorMessage(err)}`,
      { cause: err },
    );
  }
}

/** On threads of their own on the embedded log of `embeddedLog` (its data dir); null: in this thread, from the log as stored. */
export function asOfScanOn(embeddedLog: string | null, storedLog: StoredLog): AsOfScan {
  return embeddedLog !== null ? asOfScanInThreads(embeddedLog) : scanInThisThread(storedLog);
}

/** `Stores.auditLog`: with `embeddedLog` (its data dir), chains checked on two threads and digests signed on one of their own. */
export function auditLogOn(embeddedLog: string | null, stores: Stores): AuditLog {
  return {
    storedLog: stores.storedLog,
    eventStore: stores.eventStore,
    verify: embeddedLog !== null ? (options) => verifyInThreads(embeddedLog, options) : (options) => verifyLog(stores.storedLog, options),
    openTrees: () => stores.digestTrees(),
    digestApart: embeddedLog !== null ? (privateKey, by) => digestInThread(embeddedLog, privateKey, by) : null,
  };
}

export function errorMessage(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
