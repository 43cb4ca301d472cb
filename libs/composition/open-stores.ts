import { type FilesLog, prepareEmbeddedFiles, ProjectionThread } from '@app/stores/sqlite';
import { keySourceOf, type KeySource } from '@app/keys';
import { DataKeys, PersonalData, withPersonalData, type DataKeyStore } from '@app/personal-data';
import { TRAINEE_PERSONAL_DATA } from '@app/trainees/decider';
import type { RegistrationReservations } from '@app/trainees/write';
import type { StoredLog } from '@app/event-sourcing';
import { ReadModelsDamaged } from '@app/runtime/projector';
import { redact, messageFirst } from '@app/runtime/process';
import { instrumentEventStore } from '@app/runtime/telemetry';
import { tracingEnabled } from '@app/runtime/tracing';
import { auditLogOn, asOfScanOn, errorMessage, openEventStore } from './log-side';
import { embeddedReadSide, mongoReadSide, type ReadSide } from './read-side';
import { StoreUnavailable, type OpenStoresOptions, type StoreConfig, type Stores } from './stores';

/**
 * The one place that chooses the adapters: opens the configured stores and checks both answer ({@link StoreUnavailable}, never a silent
 * fallback to SQLite); server clients loaded only when configured (~0.2 s). Embedded files are readied before any connection opens them,
 * so a damaged read store is never read. Appends measured and traced with `options.metrics` or tracing on (docs/observability.md).
 */
export async function openStores(config: StoreConfig, options: OpenStoresOptions = {}): Promise<Stores> {
  const files = config.mongodbUrl ? null : await prepareFiles(config, options);
  const sealing = options.personalData;
  const keyEncryptionKeys = sealing ? keySourceOf(sealing.kek, sealing.keyringFile ?? null, 'key-encryption') : null;
  let opened: Awaited<ReturnType<typeof openEventStore>>;
  try {
    opened = await openEventStore(config, options, keyEncryptionKeys);
  } catch (err) {
    files?.close();
    throw err;
  }
  const thread = opened.thread;
  const storedLog: StoredLog = opened.eventStore;
  let eventStore = opened.eventStore;
  let side: ReadSide;
  try {
    side = config.mongodbUrl
      ? await mongoReadSide(config.mongodbUrl)
      : embeddedReadSide(config.dataDir, {
          threaded: thread !== null,
          keyEncryptionKeys,
        });
    await side.readModel.checkpoint();
  } catch (err) {
    files?.close();
    await (thread ? thread.close() : eventStore.close());
    throw new StoreUnavailable(
      config.mongodbUrl
        ? `Cannot use MongoDB at MONGODB_URL (${redact(config.mongodbUrl)}): ${errorMessage(err)}`
        : `Cannot open the SQLite read models in DATA_DIR (${config.dataDir}): ${errorMessage(err)}`,
      { cause: err },
    );
  }
  const readModel = side.readModel;
  const { schools, consumerCheckpoints } = side.openBeside();
  const { keyStore, personalData } = openPersonalData(options, keyEncryptionKeys, side, thread);
  if (personalData) eventStore = withPersonalData(eventStore, personalData);
  if (options.metrics || tracingEnabled()) eventStore = instrumentEventStore(eventStore, options.metrics ?? null);
  const opener = personalData;
  const embeddedLog = config.eventStoreUrl ? null : config.dataDir;
  const stores: Stores = {
    eventStore,
    storedLog,
    openStored: opener ? (events) => opener.open(events) : async (events) => events,
    readModel,
    consumerCheckpoints,
    readModelsDamaged: () => side.damaged(),
    unavailable: (error) => side.unavailable(error),
    movedAside: files?.movedAside ?? null,
    schools,
    backends: { eventStore: embeddedLog === null ? 'eventstoredb' : 'sqlite', readModel: side.backend },
    projectionThread: thread,
    personalData,
    reservations: keyStore,
    webhookOutbox: () => side.webhookOutbox(),
    idempotencyStore: () => side.idempotencyStore(),
    pageSessionStore: () => side.pageSessionStore(),
    uploadFiles: (opts = {}) => side.uploadFiles(opts),
    digestTrees: () => side.digestTrees(),
    windowCounter: () => side.windowCounter(),
    asOfScan: () => asOfScanOn(embeddedLog, storedLog),
    auditLog: () => auditLogOn(embeddedLog, stores),
    async close() {
      files?.close();
      await side.closeBeside();
      await keyStore?.close();
      await readModel.close();
      // The thread stops its projector and flushes its writes before it closes this event store's connections.
      await (thread ? thread.close() : eventStore.close());
    },
  };
  return stores;
}

/** Nulls without it; beside a projection thread, new keys stored off this thread, and each key opened or value sealed told to it. */
function openPersonalData(
  options: OpenStoresOptions,
  kek: KeySource | null,
  side: ReadSide,
  thread: ProjectionThread | null,
): { keyStore: (DataKeyStore & RegistrationReservations) | null; personalData: PersonalData | null } {
  if (!options.personalData || !kek) return { keyStore: null, personalData: null };
  const keyStore = side.keyStore(thread !== null);
  const personalData = new PersonalData(
    new DataKeys(keyStore, kek.keys, {
      newId: options.personalData.newTraineeId,
      onOpened: thread ? shareWith(thread) : undefined,
      keyring: kek.live ?? undefined,
    }),
    TRAINEE_PERSONAL_DATA,
    options.personalData.sealOnAppend,
    { onSealed: thread ? sealedValuesTo(thread) : undefined },
  );
  return { keyStore, personalData };
}

/** `prepareEmbeddedFiles`, logged; {@link StoreUnavailable} when a damaged read store is open in another process. */
async function prepareFiles(config: StoreConfig, options: OpenStoresOptions): Promise<Awaited<ReturnType<typeof prepareEmbeddedFiles>>> {
  const log: FilesLog = options.logger ? messageFirst(options.logger) : stderrLog;
  try {
    return await prepareEmbeddedFiles(config.dataDir, options.readStoreCheck?.waitMs ?? null, log);
  } catch (err) {
    if (!(err instanceof ReadModelsDamaged)) throw err;
    throw new StoreUnavailable(
      `The SQLite read models in DATA_DIR (${config.dataDir}) are damaged (${err.detail}); restart the service ` +
        '(stop every process on DATA_DIR, then start it), which moves them aside and rebuilds them from the event log',
    );
  }
}

/** For a process without a logger (the admin CLI). */
const stderrLog: FilesLog = {
  info: (message, context) => process.stderr.write(`${message} ${JSON.stringify(context ?? {})}\n`),
  warn: (message, context) => process.stderr.write(`${message} ${JSON.stringify(context ?? {})}\n`),
  error: (message, context) => process.stderr.write(`${message} ${JSON.stringify(context ?? {})}\n`),
};

function shareWith(thread: ProjectionThread): (traineeId: string, key: Buffer) => void {
  return (traineeId, key) => thread.shareDataKey(traineeId, key);
}

function sealedValuesTo(thread: ProjectionThread): (eventId: string, values: string) => void {
  return (eventId, values) => thread.shareSealedValues(eventId, values);
}
