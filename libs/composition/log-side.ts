import { verifyLog, type AuditLog } from '@app/audit';
import type { EventStore, StoredLog } from '@app/event-sourcing';
import type { KeySource } from '@app/keys';
import { messageFirst, redact } from '@app/runtime/process';
import { tracingEnabled } from '@app/runtime/tracing';
import { asOfScanInThreads, digestInThread, openSqliteEventStore, ProjectionThread, verifyInThreads } from '@app/stores/sqlite';
import { scanInThisThread, type AsOfScan } from '@app/trainees/read';
import { StoreUnavailable, type OpenStoresOptions, type StoreConfig, type Stores } from './stores';

/**
 * The configured event store, checked to answer: EventStoreDB (its client loaded only then), or
 * SQLite, written through a projection thread where `options.projectionThread` asks for one and
 * both stores are SQLite (which opens sealed values with `keyEncryptionKeys`). Throws {@link StoreUnavailable}.
 */
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

/**
 * A provider's streams folded to an instant (docs/DESIGN.md "A provider's trainees at an
 * instant"): on threads of their own on the embedded log of `embeddedLog` (its data dir);
 * elsewhere (null) in this thread, from the log as stored.
 */
export function asOfScanOn(embeddedLog: string | null, storedLog: StoredLog): AsOfScan {
  return embeddedLog !== null ? asOfScanInThreads(embeddedLog) : scanInThisThread(storedLog);
}

/**
 * The log of `stores` as the audit reads and records it (`Stores.auditLog`): on the embedded log of
 * `embeddedLog` (its data dir) the chains checked on two threads (`verifyInThreads`) and scheduled
 * digests signed on a thread of their own (`digestInThread`); elsewhere (null) `verifyLog` of the
 * log as stored, and digests signed in the calling thread.
 */
export function auditLogOn(embeddedLog: string | null, stores: Stores): AuditLog {
  return {
    storedLog: stores.storedLog,
    eventStore: stores.eventStore,
    verify: embeddedLog !== null ? (options) => verifyInThreads(embeddedLog, options) : (options) => verifyLog(stores.storedLog, options),
    openTrees: () => stores.digestTrees(),
    digestApart: embeddedLog !== null ? (privateKey, by) => digestInThread(embeddedLog, privateKey, by) : null,
  };
}

/** The message of `err`, or its text when it is not an Error. */
export function errorMessage(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
