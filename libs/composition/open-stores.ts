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
 * Opens the configured event store and read store and checks both answer (a bad URL or an
 * unreachable server raises {@link StoreUnavailable}; there is never a silent fallback to SQLite).
 * The EventStoreDB and MongoDB clients are loaded only when configured (they take ~0.2 s to load,
 * which the embedded default's start need not pay). With `options.metrics` or tracing on, the event store's appends are
 * measured and traced (docs/observability.md); `options.logger` hears the EventStoreDB subscriptions'
 * retries and stalls. On the embedded read store the files are readied first, before any connection
 * opens them (`prepareFiles`: the read store checked, an older data dir's kept state moved into
 * `state.sqlite`, a damaged read store moved aside), so a damaged read store is never read. The one
 * place that chooses the adapters: every port of the answer is on the backend chosen here.
 */
export async function openStores(config: StoreConfig, options: OpenStoresOptions = {}): Promise<Stores> {
  const files = config.mongodbUrl ? null : await prepareFiles(config, options);
  // The key-encryption keys, read again from the keyring's file where one is named: the stores see the source, never the file.
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
          // The stream build's workers open sealed values as the event store does.
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
    movedAside: files?.movedAside ?? null,
    schools,
    backends: { eventStore: embeddedLog === null ? 'eventstoredb' : 'sqlite', readModel: side.backend },
    projectionThread: thread,
    personalData,
    reservations: keyStore,
    webhookOutbox: () => side.webhookOutbox(),
    idempotencyStore: () => side.idempotencyStore(),
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
      // The thread stops its projector, flushes its writes and closes its connections, then this event store's.
      await (thread ? thread.close() : eventStore.close());
    },
  };
  return stores;
}

/**
 * The key store and the sealing of personal data of `options.personalData` (docs/DESIGN.md
 * "Personal data"), or nulls without it: the read side's (on MongoDB its `data_keys`, on SQLite
 * `keys.sqlite`, whose new keys are stored from a thread of their own beside a projection thread:
 * HTTP never waits on their sync), and which tells that thread of each key opened and each event's
 * values sealed here.
 */
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

/**
 * The embedded files readied before any connection opens them (`prepareEmbeddedFiles`): the read
 * store checked as `options.readStoreCheck` asks, the kept state of an older data dir moved into
 * `state.sqlite`, a damaged read store moved aside, each logged. Throws {@link StoreUnavailable}
 * when a damaged read store is open in another process.
 */
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

/** Where a process without a logger (the admin CLI) hears of its files: stderr, one line each. */
const stderrLog: FilesLog = {
  info: (message, context) => process.stderr.write(`${message} ${JSON.stringify(context ?? {})}\n`),
  warn: (message, context) => process.stderr.write(`${message} ${JSON.stringify(context ?? {})}\n`),
  error: (message, context) => process.stderr.write(`${message} ${JSON.stringify(context ?? {})}\n`),
};

/** Tells `thread` of each data key opened in this thread (`DataKeysOptions.onOpened`). */
function shareWith(thread: ProjectionThread): (traineeId: string, key: Buffer) => void {
  return (traineeId, key) => thread.shareDataKey(traineeId, key);
}

/** Tells `thread` of the values of each event sealed in this thread (`PersonalDataOptions.onSealed`). */
function sealedValuesTo(thread: ProjectionThread): (eventId: string, values: string) => void {
  return (eventId, values) => thread.shareSealedValues(eventId, values);
}
