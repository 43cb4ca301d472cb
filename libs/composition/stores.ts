import type { AuditLog, DigestTreeStore } from '@app/audit';
import type { EventStore, RecordedEvent, StoredLog } from '@app/event-sourcing';
import type { PersonalData } from '@app/personal-data';
import type { WindowCounter } from '@app/runtime/admission';
import type { IdempotencyStore } from '@app/runtime/idempotency';
import type { ProjectorLogger, ReadModelStore } from '@app/runtime/projector';
import type { ContextLogger } from '@app/runtime/process';
import type { Metrics } from '@app/runtime/telemetry';
import type { SchoolDirectory } from '@app/schools';
import type { AsOfScan } from '@app/trainees/read';
import type { RegistrationReservations } from '@app/trainees/write';
import type { UploadFiles } from '@app/uploads/write';
import type { WebhookOutbox } from '@app/webhooks/delivery';
import type { ProjectionThread } from '@app/stores/sqlite';

/** Where the stores are: the embedded SQLite files, or the production servers (docs/operations.md "Configuration"). */
export interface StoreConfig {
  dataDir: string;
  /** `esdb://…` selects EventStoreDB; null selects SQLite in `dataDir`. */
  eventStoreUrl: string | null;
  /** `mongodb://…` selects MongoDB; null selects SQLite in `dataDir`. */
  mongodbUrl: string | null;
}

/**
 * The stores a process opened (`openStores`), each port on the backend the configuration chose:
 * nothing above this part asks which database is in use.
 */
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
  /**
   * The webhook outbox (docs/change-feed.md "How deliveries are kept"), opened for the caller, who
   * closes it: tables of the SQLite state file (`state.sqlite`), or collections in the MongoDB read
   * store's database.
   */
  webhookOutbox(): Promise<WebhookOutbox>;
  /**
   * The idempotency keys (docs/operations.md "Limits"), opened for the caller, who closes it: a
   * table of the SQLite state file (`state.sqlite`), or a collection in the MongoDB read store's database.
   */
  idempotencyStore(): IdempotencyStore;
  /**
   * Where the uploads' files and row messages are kept (docs/DESIGN.md "Uploads"), opened for the
   * caller, who closes it: the file `<DATA_DIR>/uploads.sqlite` (its writes in a thread of their own
   * with `writesInThread`: the API, whose thread must not wait on their syncs), or the collection
   * `upload_parts` in the MongoDB read store's database; outside the log and the projections either way.
   */
  uploadFiles(options?: { writesInThread?: boolean }): Promise<UploadFiles>;
  /**
   * Where the latest signed digest's tree is kept (docs/DESIGN.md "Inclusion proofs"), opened for
   * the caller, who closes it: the file `<DATA_DIR>/audit.sqlite`, or collections in the MongoDB
   * read store's database; outside the projections either way.
   */
  digestTrees(): Promise<DigestTreeStore>;
  /**
   * Where the rate-limit windows are counted (docs/operations.md "Limits"): in MongoDB beside the
   * read models when it holds them, so every API replica shares the limits; otherwise in this process (one replica).
   */
  windowCounter(): Promise<WindowCounter>;
  /**
   * A provider's streams folded to an instant (docs/DESIGN.md "A provider's trainees at an
   * instant"): on threads of their own on the embedded log, elsewhere in this thread from the log as stored.
   */
  asOfScan(): AsOfScan;
  /**
   * The log as the audit reads and records it (libs/audit `AuditLog`; docs/DESIGN.md "Verifiable
   * history"): the log as stored and the event store, the kept digest tree's store
   * ({@link digestTrees}), and on the embedded event store its own faster paths: the chains checked
   * on two threads and scheduled digests signed on a thread of their own, each with connections of
   * its own to `<dataDir>/events.sqlite`.
   */
  auditLog(): AuditLog;
  close(): Promise<void>;
}

/** How `openStores` measures and reports. */
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

/** A backend named in the configuration could not be reached; the message says which and why, `cause` the error met. */
export class StoreUnavailable extends Error {}
