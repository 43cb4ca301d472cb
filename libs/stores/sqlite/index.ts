export { SqliteEventStore, openSqliteEventStore } from './event-log/sqlite-event-store';
export { SqliteReadModel } from './read-models/sqlite-read-model';
export { TRAINEE_INDEX_COLUMNS } from './read-models/trainee-tables';
export { SqliteIdempotencyStore } from './sqlite-idempotency-store';
export { SqliteSchoolDirectory } from './sqlite-school-directory';
export { SqliteWebhookOutbox } from './sqlite-webhook-outbox';
export { ProjectionThread, type ProjectionThreadOptions, type ThreadApplied } from './projection-thread/projection-thread';
export { CHECKPOINTED_BY_THREAD, type ReadStoreConnectionOptions } from './read-models/wal-checkpointer';
export { KEYS_FILE, SqliteDataKeyStore, sqlitePersonalData } from './sqlite-data-key-store';
