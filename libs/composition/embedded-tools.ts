import type { BackupFiles } from '@app/backup';
import { forgetGuardStreams, SQLITE_BACKUP_FILES, type GuardStreamsForgotten } from '@app/stores/sqlite';
import type { StoreConfig } from './stores';

/** As the admin CLI reads its environment (docs/operations.md "The admin CLI"). */
export function storeConfigOf(env: NodeJS.ProcessEnv): StoreConfig {
  return { dataDir: env.DATA_DIR || './data', eventStoreUrl: env.EVENTSTORE_URL || null, mongodbUrl: env.MONGODB_URL || null };
}

/** Worked on in place with its file closed to other writers. */
export interface EmbeddedLog {
  /** docs/operations.md "Forgetting the guard streams of an older log"; throws when the data dir holds no log. */
  forgetGuardStreams(): GuardStreamsForgotten;
}

/** Null when the configuration names EventStoreDB. */
export function embeddedLog(config: StoreConfig): EmbeddedLog | null {
  if (config.eventStoreUrl) return null;
  return { forgetGuardStreams: () => forgetGuardStreams(config.dataDir) };
}

/** The embedded stores', whatever this process is configured with: a backup kept from before a move to the servers reads as made. */
export function backupFiles(): BackupFiles {
  return SQLITE_BACKUP_FILES;
}

/** Null for EventStoreDB or MongoDB, backed up by their own tools (docs/operations.md "Backups and restore"). */
export function embeddedBackups(config: StoreConfig): BackupFiles | null {
  return config.eventStoreUrl || config.mongodbUrl ? null : SQLITE_BACKUP_FILES;
}
