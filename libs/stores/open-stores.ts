import {
  CHECKPOINTED_BY_THREAD,
  type FilesLog,
  isReadStoreDamaged,
  openSqliteEventStore,
  prepareEmbeddedFiles,
  ProjectionThread,
  SqliteConsumerCheckpoints,
  SqliteReadModel,
  SqliteSchoolDirectory,
  SqliteWebhookOutbox,
  SqliteDataKeyStore,
  SqliteIdempotencyStore,
  SqliteDigestTreeStore,
  SqliteUploadFiles,
} from '@app/stores/sqlite';
import type { IdempotencyStore } from '@app/runtime/idempotency';
import type { DigestTreeStore } from '@app/audit';
import { liveKeysOf } from '@app/keys';
import { DataKeys, PersonalData, withPersonalData, type DataKeyStore } from '@app/personal-data';
import { TRAINEE_PERSONAL_DATA } from '@app/trainees/decider';
import type { RegistrationReservations } from '@app/trainees/write';
import type { EventStore, RecordedEvent, StoredLog } from '@app/event-sourcing';
import { ReadModelsDamaged, type ProjectorLogger, type ReadModelStore } from '@app/runtime/projector';
import type { SchoolDirectory } from '@app/schools';
import type { WebhookOutbox } from '@app/webhooks/delivery';
import type { UploadFiles } from '@app/uploads/write';
import type { MongoReadModel } from '@app/stores/mongodb';
import { redact, type ContextLogger, messageFirst } from '@app/runtime/process';
import { instrumentEventStore, type Metrics } from '@app/runtime/telemetry';
import { tracingEnabled } from '@app/runtime/tracing';

/** Where the stores are: the embedded SQLite files, or the production servers (docs/operations.md "Configuration"). */
export interface StoreConfig {
  dataDir: string;
  /** `esdb://…` selects EventStoreDB; null selects SQLite in `dataDir`. */
  eventStoreUrl: string | null;
  /** `mongodb://…` selects MongoDB; null selects SQLite in `dataDir`. */
  mongodbUrl: string | null;
}

export interface Stores {
  /**
   * The event store the commands and the projections use: with `options.personalData`, the
   * trainees' personal values are sealed on append and opened on read (docs/DESIGN.md "Personal data").
   */
  eventStore: EventStore;
  /**
   * The same log as stored, read-only (docs/DESIGN.md "The event store port"): personal values
   * sealed, never opened. For the audit, the export, lag and positions.
   */
  storedLog: StoredLog;
  /**
   * Opens what {@link storedLog} reads: the events with their sealed personal values opened
   * (`[erased]` once a key is destroyed), as {@link eventStore} reads them; the same events when
   * personal data is not sealed. For a reader that shows both forms of one read (a trainee's history).
   */
  openStored<E extends RecordedEvent>(events: E[]): Promise<E[]>;
  readModel: ReadModelStore;
  /**
   * Where the event log's consumers other than the projections keep their positions (the registry
   * process manager's): on SQLite the state file (`state.sqlite`), never the read store, which a
   * rebuild or damage replaces; on MongoDB the read store's registry.
   */
  consumerCheckpoints: Pick<ReadModelStore, 'readCheckpoint' | 'writeCheckpoint'>;
  /**
   * Whether the read store was found damaged since it was opened (SQLite: by any process or thread,
   * its mark beside the file; `ReadModelsDamaged`): `/readyz` is then not ready until a restart
   * moves it aside and rebuilds it (docs/operations.md "Health"). Always false on MongoDB.
   */
  readModelsDamaged(): boolean;
  /** Where this open moved a damaged SQLite read store before building a fresh one; null when it did not. */
  movedAside: string | null;
  /** The schools directory (placements link to it by URN), beside the read models. */
  schools: SchoolDirectory;
  /**
   * The MongoDB read store when `MONGODB_URL` is set (its database also holds the idempotency keys
   * and the rate-limit windows); null on SQLite.
   */
  mongo: MongoReadModel | null;
  /** Which backends were opened, for logs and health answers. */
  backends: { eventStore: 'sqlite' | 'eventstoredb'; readModel: 'sqlite' | 'mongodb' };
  /**
   * Where both stores are SQLite and a projection thread was asked for: the thread that writes the
   * event log and the read models and projects (docs/DESIGN.md "The projection thread"); the
   * event store above appends through it. Null otherwise.
   */
  projectionThread: ProjectionThread | null;
  /**
   * The trainees' personal data, sealed with their data keys (docs/DESIGN.md "Personal data"), when
   * opened with `options.personalData`: the event store above seals and opens through it. Null otherwise.
   */
  personalData: PersonalData | null;
  /**
   * The duplicate rule's registration reservations (docs/DESIGN.md property 3): the key store's,
   * opened with `options.personalData`, so an erasure deletes a trainee's claims with its key. Null otherwise.
   */
  reservations: RegistrationReservations | null;
  close(): Promise<void>;
}

/** How {@link openStores} measures and reports. */
export interface OpenStoresOptions {
  /** Measures the event store's appends (docs/observability.md). */
  metrics?: Metrics | null;
  /** Where the event store's subscriptions log retries and stalls (pino-style: context, then message). */
  logger?: Pick<ContextLogger, 'info' | 'warn' | 'error'> | null;
  /**
   * Where both stores are SQLite: write and project in a thread of this process (the API's
   * projector), with this logger for its projector. Ignored for EventStoreDB or MongoDB.
   */
  projectionThread?: { logger: ProjectorLogger } | null;
  /**
   * Seal and open the trainees' personal data (docs/DESIGN.md "Personal data"): `kek`, the service
   * key's `key-encryption` key, wraps the data keys, kept in `<DATA_DIR>/keys.sqlite` or, with
   * MongoDB, its `data_keys` collection; `newTraineeId` makes the ids of trainees still to be
   * registered (`DataKeys.newTraineeId`; default a random UUID). `sealOnAppend` false stores new events in the clear (the
   * bench's comparison only). `keyringFile`: the service keyring's file, read again by this
   * process and its threads to learn a rotation, and before every key is wrapped
   * (`DataKeysOptions.keyring`); null or absent: the keys given are kept. Absent: events are stored and read as they are.
   */
  personalData?: { kek: Buffer; sealOnAppend?: boolean; newTraineeId?: () => string; keyringFile?: string | null } | null;
  /**
   * Whether the embedded event store chains each stream's events (docs/DESIGN.md "Verifiable
   * history"); default true. False is the bench's comparison only (`HASH_CHAIN`); EventStoreDB always chains.
   */
  hashChain?: boolean;
  /**
   * Where the read store is SQLite: check it with `quick_check` before opening it, waiting at most
   * `waitMs` (Infinity: to the end; the rest goes on beside the service), and move it aside when
   * damaged (`prepareEmbeddedFiles`; the API and the projector process, and `projections rebuild`).
   * Absent: no check, but damage recorded earlier is acted on all the same.
   */
  readStoreCheck?: { waitMs: number } | null;
}

/**
 * The configured event store, checked to answer: EventStoreDB, or SQLite, written through a
 * projection thread where `openStores` runs one. Throws {@link StoreUnavailable}.
 */
async function openEventStore(
  config: StoreConfig,
  options: OpenStoresOptions,
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
        keyEncryptionKey: options.personalData?.kek ?? null,
        keyringFile: options.personalData?.keyringFile ?? null,
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
        ? `Cannot use EventStoreDB at EVENTSTORE_URL (${redact(config.eventStoreUrl)}): ${message(err)}`
        : `Cannot open the SQLite event store in DATA_DIR (${config.dataDir}): ${message(err)}`,
      { cause: err },
    );
  }
}

/** A backend named in the configuration could not be reached; the message says which and why, `cause` the error met. */
export class StoreUnavailable extends Error {}

/**
 * Opens the configured event store and read store and checks both answer (a bad URL or an
 * unreachable server raises {@link StoreUnavailable}; there is never a silent fallback to SQLite).
 * The EventStoreDB and MongoDB clients are loaded only when configured (they take ~0.2 s to load,
 * which the embedded default's start need not pay). With `options.metrics` or tracing on, the event store's appends are
 * measured and traced (docs/observability.md); `options.logger` hears the EventStoreDB subscriptions'
 * retries and stalls. On the embedded read store the files are readied first, before any connection
 * opens them (`prepareFiles`: the read store checked, an older data dir's kept state moved into
 * `state.sqlite`, a damaged read store moved aside), so a damaged read store is never read.
 */
export async function openStores(config: StoreConfig, options: OpenStoresOptions = {}): Promise<Stores> {
  const files = config.mongodbUrl ? null : await prepareFiles(config, options);
  let opened: Awaited<ReturnType<typeof openEventStore>>;
  try {
    opened = await openEventStore(config, options);
  } catch (err) {
    files?.close();
    throw err;
  }
  const thread = opened.thread;
  const storedLog: StoredLog = opened.eventStore;
  let eventStore = opened.eventStore;
  let readModel: ReadModelStore;
  let mongo: MongoReadModel | null = null;
  try {
    if (config.mongodbUrl) readModel = mongo = await (await import('@app/stores/mongodb')).MongoReadModel.connect(config.mongodbUrl);
    else {
      // The stream build's workers open sealed values as the event store does.
      const keyEncryptionKey = options.personalData?.kek ?? null;
      const keyringFile = options.personalData?.keyringFile ?? null;
      readModel = SqliteReadModel.open(config.dataDir, { ...(thread ? CHECKPOINTED_BY_THREAD : {}), keyEncryptionKey, keyringFile });
    }
    await readModel.checkpoint();
  } catch (err) {
    files?.close();
    await (thread ? thread.close() : eventStore.close());
    throw new StoreUnavailable(
      config.mongodbUrl
        ? `Cannot use MongoDB at MONGODB_URL (${redact(config.mongodbUrl)}): ${message(err)}`
        : `Cannot open the SQLite read models in DATA_DIR (${config.dataDir}): ${message(err)}`,
      { cause: err },
    );
  }
  const schools = mongo ? mongo.schoolDirectory() : SqliteSchoolDirectory.open(config.dataDir);
  const consumerCheckpoints = mongo ? readModel : SqliteConsumerCheckpoints.open(config.dataDir);
  const { keyStore, personalData } = openPersonalData(config, options, mongo, thread);
  if (personalData) eventStore = withPersonalData(eventStore, personalData);
  if (options.metrics || tracingEnabled()) eventStore = instrumentEventStore(eventStore, options.metrics ?? null);
  const opener = personalData;
  return {
    eventStore,
    storedLog,
    openStored: opener ? (events) => opener.open(events) : async (events) => events,
    readModel,
    consumerCheckpoints,
    readModelsDamaged: () => !mongo && isReadStoreDamaged(config.dataDir),
    movedAside: files?.movedAside ?? null,
    schools,
    mongo,
    backends: { eventStore: config.eventStoreUrl ? 'eventstoredb' : 'sqlite', readModel: config.mongodbUrl ? 'mongodb' : 'sqlite' },
    projectionThread: thread,
    personalData,
    reservations: keyStore,
    async close() {
      files?.close();
      if (consumerCheckpoints instanceof SqliteConsumerCheckpoints) consumerCheckpoints.close();
      await schools.close();
      await keyStore?.close();
      await readModel.close();
      // The thread stops its projector, flushes its writes and closes its connections, then this event store's.
      await (thread ? thread.close() : eventStore.close());
    },
  };
}

/**
 * The key store and the sealing of personal data of `options.personalData` (docs/DESIGN.md
 * "Personal data"), or nulls without it: on MongoDB its `data_keys`, on SQLite `keys.sqlite`, whose
 * new keys are stored from a thread of their own beside a projection thread (HTTP never waits on
 * their sync), and which tells that thread of each key opened and each event's values sealed here.
 */
function openPersonalData(
  config: StoreConfig,
  options: OpenStoresOptions,
  mongo: MongoReadModel | null,
  thread: ProjectionThread | null,
): { keyStore: (DataKeyStore & RegistrationReservations) | null; personalData: PersonalData | null } {
  if (!options.personalData) return { keyStore: null, personalData: null };
  const keyStore = mongo ? mongo.dataKeyStore() : SqliteDataKeyStore.open(config.dataDir, { newKeysInThread: thread !== null });
  const personalData = new PersonalData(
    new DataKeys(keyStore, options.personalData.kek, {
      newId: options.personalData.newTraineeId,
      onOpened: thread ? shareWith(thread) : undefined,
      keyring: options.personalData.keyringFile ? liveKeysOf(options.personalData.keyringFile, 'key-encryption') : undefined,
    }),
    TRAINEE_PERSONAL_DATA,
    options.personalData.sealOnAppend,
    { onSealed: thread ? sealedValuesTo(thread) : undefined },
  );
  return { keyStore, personalData };
}

function message(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
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

/**
 * The webhook outbox of the configured stores (docs/change-feed.md "How deliveries are kept"): its
 * tables in the SQLite state file (`state.sqlite`), or collections in the MongoDB read store's database.
 */
export async function openWebhookOutbox(config: Pick<StoreConfig, 'dataDir'>, stores: Stores): Promise<WebhookOutbox> {
  if (!stores.mongo) return SqliteWebhookOutbox.open(config.dataDir);
  const { MongoWebhookOutbox } = await import('@app/stores/mongodb');
  const outbox = new MongoWebhookOutbox(stores.mongo.database);
  await outbox.ensureIndexes();
  return outbox;
}

/**
 * The idempotency keys of the configured stores (docs/operations.md "Limits"): a table of the SQLite
 * state file (`state.sqlite`), or a collection in the MongoDB read store's database.
 */
export function openIdempotencyStore(config: Pick<StoreConfig, 'dataDir'>, stores: Stores): IdempotencyStore {
  return stores.mongo ? stores.mongo.idempotencyStore() : SqliteIdempotencyStore.open(config.dataDir);
}

/**
 * Where the uploads' files and row messages are kept (docs/DESIGN.md "Uploads"): the file
 * `<DATA_DIR>/uploads.sqlite` (its writes in a thread of their own with `writesInThread`: the API,
 * whose thread must not wait on their syncs), or the collection `upload_parts` in the MongoDB read
 * store's database; outside the log and the projections either way. The caller closes it.
 */
export async function openUploadFiles(
  config: Pick<StoreConfig, 'dataDir'>,
  stores: Pick<Stores, 'mongo'>,
  options: { writesInThread?: boolean } = {},
): Promise<UploadFiles> {
  if (!stores.mongo) return SqliteUploadFiles.open(config.dataDir, options);
  const { MongoUploadFiles } = await import('@app/stores/mongodb');
  return new MongoUploadFiles(stores.mongo.database);
}

/**
 * Where the latest signed digest's tree is kept (docs/DESIGN.md "Inclusion proofs"): the file
 * `<DATA_DIR>/audit.sqlite`, or collections in the MongoDB read store's database; outside the
 * projections either way. The caller closes it.
 */
export async function openDigestTreeStore(config: Pick<StoreConfig, 'dataDir'>, stores: Pick<Stores, 'mongo'>): Promise<DigestTreeStore> {
  if (!stores.mongo) return SqliteDigestTreeStore.open(config.dataDir);
  const { MongoDigestTreeStore } = await import('@app/stores/mongodb');
  const store = new MongoDigestTreeStore(stores.mongo.database);
  await store.ensureIndexes();
  return store;
}

/** Tells `thread` of each data key opened in this thread (`DataKeysOptions.onOpened`). */
function shareWith(thread: ProjectionThread): (traineeId: string, key: Buffer) => void {
  return (traineeId, key) => thread.shareDataKey(traineeId, key);
}

/** Tells `thread` of the values of each event sealed in this thread (`PersonalDataOptions.onSealed`). */
function sealedValuesTo(thread: ProjectionThread): (eventId: string, values: string) => void {
  return (eventId, values) => thread.shareSealedValues(eventId, values);
}
