import type { BackupFiles } from '@app/backup';
import { forgetGuardStreams, SQLITE_BACKUP_FILES, type GuardStreamsForgotten } from '@app/stores/sqlite';
import type { StoreConfig } from './stores';

/**
 * The stores `env` names, as the admin CLI reads its environment (docs/operations.md "The admin
 * CLI"): `DATA_DIR` (default `./data`), and `EVENTSTORE_URL` and `MONGODB_URL` when set.
 */
export function storeConfigOf(env: NodeJS.ProcessEnv): StoreConfig {
  return { dataDir: env.DATA_DIR || './data', eventStoreUrl: env.EVENTSTORE_URL || null, mongodbUrl: env.MONGODB_URL || null };
}

/** What only the embedded event log offers, worked on in place with its file closed to other writers. */
export interface EmbeddedLog {
  /**
   * Deletes the duplicate guard streams an older build wrote (`forgetGuardStreams`; docs/operations.md
   * "Forgetting the guard streams of an older log"). Throws when the data dir holds no log.
   */
  forgetGuardStreams(): GuardStreamsForgotten;
}

/** The embedded event log of `config`; null when the configuration names EventStoreDB (`EVENTSTORE_URL`). */
export function embeddedLog(config: StoreConfig): EmbeddedLog | null {
  if (config.eventStoreUrl) return null;
  return { forgetGuardStreams: () => forgetGuardStreams(config.dataDir) };
}

/**
 * The files every backup is made of and checked against (libs/backup's `BackupFiles`): the
 * embedded stores', whatever stores this process is configured with (a backup kept from before a
 * move to the servers is read as it was made).
 */
export function backupFiles(): BackupFiles {
  return SQLITE_BACKUP_FILES;
}

/**
 * The files the service backs up when `config` names the embedded stores alone ({@link backupFiles});
 * null when it names EventStoreDB or MongoDB, whose backups are their own tools' (docs/operations.md
 * "Backups and restore").
 */
export function embeddedBackups(config: StoreConfig): BackupFiles | null {
  return config.eventStoreUrl || config.mongodbUrl ? null : SQLITE_BACKUP_FILES;
}
