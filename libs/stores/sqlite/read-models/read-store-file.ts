import { Database, openPrivateDatabase } from '@app/sqlite';
import type { ReadStoreConnectionOptions } from './wal-checkpointer';

/** The projections only: rebuilt from the log on demand, moved aside and built afresh when damaged (docs/operations.md "Health"). */
export const READ_STORE_FILE = 'read-models.sqlite';

/**
 * `secure_delete`, so an erased trainee leaves no bytes in the file (docs/DESIGN.md "Personal data"); a new file with
 * `auto_vacuum = INCREMENTAL`, so the pages of a dropped store go back to the file system (`releaseFreePages`). SQLite takes the
 * setting only before the file's first table: an older file keeps `NONE`.
 */
export function openReadStoreFile(filename: string, options: ReadStoreConnectionOptions): Database.Database {
  const db = openPrivateDatabase(filename);
  // Only on an empty file: on one with tables, setting the mode (even to the mode it has) writes the header in a write transaction,
  // which waits behind the projector's and fails on a full disk.
  if (db.pragma('page_count', { simple: true }) === 0) db.pragma('auto_vacuum = INCREMENTAL');
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('secure_delete = ON');
  db.pragma(`cache_size = -${READ_MODEL_CACHE_KIB}`);
  if (options.walAutocheckpointPages !== undefined) db.pragma(`wal_autocheckpoint = ${options.walAutocheckpointPages}`);
  return db;
}

/**
 * KiB (SQLite's default is 2 MiB). Not memory-mapped: a mapping is dropped at the first read after another connection's commit, and at
 * the projection thread's commit rate the API's reads spent more time in the kernel than in SQLite (docs/DESIGN.md "Read models").
 */
const READ_MODEL_CACHE_KIB = 32 * 1024;
