import type { ConsumerCheckpoints } from '@app/registry';
import type { AuditLog, DigestTreeStore } from '@app/audit';
import type { EventStore, RecordedEvent, StoredLog } from '@app/event-sourcing';
import type { PersonalData } from '@app/personal-data';
import type { WindowCounter } from '@app/runtime/admission';
import type { IdempotencyStore } from '@app/runtime/idempotency';
import type { PageSessionStore } from '@app/runtime/page-sessions';
import type { ProjectorLogger, ReadModelStore } from '@app/runtime/projector';
import type { ContextLogger } from '@app/runtime/process';
import type { Metrics } from '@app/runtime/telemetry';
import type { SchoolDirectory } from '@app/schools';
import type { AsOfScan } from '@app/trainees/read';
import type { RegistrationReservations } from '@app/trainees/write';
import type { UploadFiles } from '@app/uploads/write';
import type { WebhookOutbox } from '@app/webhooks/delivery';
import type { ProjectionThread } from '@app/stores/sqlite';

/** Where the stores are (docs/operations.md "Configuration"): a URL selects EventStoreDB or MongoDB; null, SQLite in `dataDir`. */
export interface StoreConfig {
  dataDir: string;
  eventStoreUrl: string | null;
  mongodbUrl: string | null;
}

/** The stores a process opened, each port on the backend the configuration chose: nothing above this part asks which. */
export interface Stores {
  /** Seals personal values on append and opens them on read with `options.personalData` (docs/DESIGN.md "Personal data"). */
  eventStore: EventStore;
  /** The same log as stored, read-only, personal values sealed (docs/DESIGN.md "The event store port"): audit, export, lag. */
  storedLog: StoredLog;
  /** `events` of {@link storedLog} opened as {@link eventStore} reads them (`[erased]` once a key is destroyed), for a history. */
  openStored<E extends RecordedEvent>(events: E[]): Promise<E[]>;
  readModel: ReadModelStore;
  /** Positions of consumers other than projections: SQLite's state file (a rebuild replaces the read store), MongoDB's registry. */
  consumerCheckpoints: ConsumerCheckpoints;
  /** Found damaged since opened (SQLite: by any process; `ReadModelsDamaged`): not ready until a restart (docs/operations.md "Health"). */
  readModelsDamaged(): boolean;
  /** True for an error of a store's database that says it cannot answer now (MongoDB: no primary, connection lost); the API: 503. */
  unavailable(error: unknown): boolean;
  /** Where this open moved a damaged SQLite read store; null when it did not. */
  movedAside: string | null;
  schools: SchoolDirectory;
  backends: { eventStore: 'sqlite' | 'eventstoredb'; readModel: 'sqlite' | 'mongodb' };
  /** Writes the log and read models and projects, where both stores are SQLite and asked (docs/DESIGN.md "The projection thread"). */
  projectionThread: ProjectionThread | null;
  /** With `options.personalData` (docs/DESIGN.md "Personal data"); null otherwise. */
  personalData: PersonalData | null;
  /** The key store's (docs/DESIGN.md property 3), so an erasure deletes a trainee's claims with its key; null without personal data. */
  reservations: RegistrationReservations | null;
  /** docs/change-feed.md "How deliveries are kept". This and each store below: opened for the caller, who closes it. */
  webhookOutbox(): Promise<WebhookOutbox>;
  /** docs/operations.md "Limits". */
  idempotencyStore(): IdempotencyStore;
  /** docs/DESIGN.md "The uploads page": in `state.sqlite`, or MongoDB when it holds the read models. */
  pageSessionStore(): PageSessionStore;
  /** docs/DESIGN.md "Uploads"; `writesInThread` syncs on a thread of their own (the API's thread must not wait on them). */
  uploadFiles(options?: { writesInThread?: boolean }): Promise<UploadFiles>;
  /** The latest signed digest's tree (docs/DESIGN.md "Inclusion proofs"). */
  digestTrees(): Promise<DigestTreeStore>;
  /** Rate-limit windows (docs/operations.md "Limits"): in MongoDB when it holds the read models, shared by replicas; else here. */
  windowCounter(): Promise<WindowCounter>;
  /** docs/DESIGN.md "A provider's trainees at an instant": on threads of their own on the embedded log. */
  asOfScan(): AsOfScan;
  /** libs/audit `AuditLog` (docs/DESIGN.md "Verifiable history"); on the embedded log chains checked on two threads, digests on one. */
  auditLog(): AuditLog;
  close(): Promise<void>;
}

export interface OpenStoresOptions {
  /** Measures the event store's appends (docs/observability.md). */
  metrics?: Metrics | null;
  /** Hears the EventStoreDB subscriptions' retries and stalls. */
  logger?: Pick<ContextLogger, 'info' | 'warn' | 'error'> | null;
  /** Both stores SQLite: write and project in a thread of this process, its projector logging here; ignored otherwise. */
  projectionThread?: { logger: ProjectorLogger } | null;
  /**
   * Seal personal data (docs/DESIGN.md "Personal data"): `kek` wraps the data keys; `sealOnAppend` false only for the bench's comparison;
   * `keyringFile` read again by this process and its threads to learn a rotation (null: `kek` kept). Absent: events stored as they are.
   */
  personalData?: { kek: Buffer; sealOnAppend?: boolean; newTraineeId?: () => string; keyringFile?: string | null } | null;
  /** Chains each stream on the embedded log (docs/DESIGN.md "Verifiable history"); false only for the bench's comparison. */
  hashChain?: boolean;
  /** SQLite: `quick_check` the read store first for at most `waitMs` (Infinity: to the end); absent: only damage marked earlier counts. */
  readStoreCheck?: { waitMs: number } | null;
}

/** A backend named in the configuration could not be reached; the message says which and why, `cause` the error met. */
export class StoreUnavailable extends Error {}
