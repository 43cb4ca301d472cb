import type { ConsumerCheckpoints } from '@app/registry';
import type { DigestTreeStore } from '@app/audit';
import type { KeySource } from '@app/keys';
import type { DataKeyStore } from '@app/personal-data';
import { MemoryWindowCounter, type WindowCounter } from '@app/runtime/admission';
import type { IdempotencyStore } from '@app/runtime/idempotency';
import type { PageSessionStore } from '@app/runtime/page-sessions';
import type { ReadModelStore } from '@app/runtime/projector';
import type { SchoolDirectory } from '@app/schools';
import {
  CHECKPOINTED_BY_THREAD,
  isReadStoreDamaged,
  SqliteConsumerCheckpoints,
  SqliteDataKeyStore,
  SqliteDigestTreeStore,
  SqliteIdempotencyStore,
  SqlitePageSessionStore,
  SqliteReadModel,
  SqliteSchoolDirectory,
  SqliteUploadFiles,
  SqliteWebhookOutbox,
} from '@app/stores/sqlite';
import type { RegistrationReservations } from '@app/trainees/write';
import type { UploadFiles } from '@app/uploads/write';
import type { WebhookOutbox } from '@app/webhooks/delivery';

/** The read store and the stores beside it on one backend, chosen once by `openStores`. */
export interface ReadSide {
  backend: 'sqlite' | 'mongodb';
  readModel: ReadModelStore;
  /** Once the read store answered. */
  openBeside(): { schools: SchoolDirectory; consumerCheckpoints: ConsumerCheckpoints };
  /** Holds the registration reservations too; SQLite stores new keys from a thread of their own with `newKeysInThread`. */
  keyStore(newKeysInThread: boolean): DataKeyStore & RegistrationReservations;
  /** Always false on MongoDB. */
  damaged(): boolean;
  /** True for an error of the read side's database that says it cannot answer now (never on SQLite: its faults are the disk's). */
  unavailable(error: unknown): boolean;
  webhookOutbox(): Promise<WebhookOutbox>;
  idempotencyStore(): IdempotencyStore;
  /** The uploads page's sessions, shared by every process on these stores. */
  pageSessionStore(): PageSessionStore;
  uploadFiles(options: { writesInThread?: boolean }): Promise<UploadFiles>;
  digestTrees(): Promise<DigestTreeStore>;
  windowCounter(): Promise<WindowCounter>;
  closeBeside(): Promise<void>;
}

/** Each store in a file of its own in `dataDir`, checkpointed by the projection thread when `threaded`; windows in this process. */
export function embeddedReadSide(dataDir: string, options: { threaded: boolean; keyEncryptionKeys: KeySource | null }): ReadSide {
  const { keyEncryptionKeys } = options;
  const readModel = SqliteReadModel.open(dataDir, { ...(options.threaded ? CHECKPOINTED_BY_THREAD : {}), keyEncryptionKeys });
  let beside: { schools: SqliteSchoolDirectory; consumerCheckpoints: SqliteConsumerCheckpoints } | null = null;
  return {
    backend: 'sqlite',
    readModel,
    openBeside() {
      beside = { schools: SqliteSchoolDirectory.open(dataDir), consumerCheckpoints: SqliteConsumerCheckpoints.open(dataDir) };
      return beside;
    },
    keyStore: (newKeysInThread) => SqliteDataKeyStore.open(dataDir, { newKeysInThread }),
    damaged: () => isReadStoreDamaged(dataDir),
    unavailable: () => false,
    webhookOutbox: async () => SqliteWebhookOutbox.open(dataDir),
    idempotencyStore: () => SqliteIdempotencyStore.open(dataDir),
    pageSessionStore: () => SqlitePageSessionStore.open(dataDir),
    uploadFiles: async (opts) => SqliteUploadFiles.open(dataDir, opts),
    digestTrees: async () => SqliteDigestTreeStore.open(dataDir),
    windowCounter: async () => new MemoryWindowCounter(),
    async closeBeside() {
      beside?.consumerCheckpoints.close();
      await beside?.schools.close();
    },
  };
}

/** Loaded only when configured (its client takes ~0.1 s to load); every store beside in its database, shared by every replica. */
export async function mongoReadSide(url: string): Promise<ReadSide> {
  const mongodb = await import('@app/stores/mongodb');
  const mongo = await mongodb.MongoReadModel.connect(url);
  let schools: SchoolDirectory | null = null;
  return {
    backend: 'mongodb',
    readModel: mongo,
    openBeside: () => ({ schools: (schools = mongo.schoolDirectory()), consumerCheckpoints: mongo }),
    keyStore: () => mongo.dataKeyStore(),
    damaged: () => false,
    unavailable: mongodb.isMongoUnavailable,
    async webhookOutbox() {
      const outbox = new mongodb.MongoWebhookOutbox(mongo.database);
      await outbox.ensureIndexes();
      return outbox;
    },
    idempotencyStore: () => mongo.idempotencyStore(),
    pageSessionStore: () => new mongodb.MongoPageSessionStore(mongo.database),
    uploadFiles: async () => new mongodb.MongoUploadFiles(mongo.database),
    async digestTrees() {
      const store = new mongodb.MongoDigestTreeStore(mongo.database);
      await store.ensureIndexes();
      return store;
    },
    windowCounter: async () => new mongodb.MongoWindowCounter(mongo.database),
    async closeBeside() {
      await schools?.close();
    },
  };
}
