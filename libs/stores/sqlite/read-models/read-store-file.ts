import { Database, openPrivateDatabase } from '@app/sqlite';
import type { ReadStoreConnectionOptions } from './wal-checkpointer';

/**
 * The read store's file in the data directory: the projections only, each rebuilt from the event
 * log on demand, and moved aside and built afresh when found damaged (docs/operations.md "Health").
 */
export const READ_STORE_FILE = 'read-models.sqlite';

/**
 * A connection to the read store's file (created when missing): WAL, `synchronous=NORMAL`, the
 * process's lock wait (`lockWait`), a page cache of {@link READ_MODEL_CACHE_KIB}, `options`' WAL auto-checkpoint, and
 * `secure_delete`, so what a delete frees is zeroed and an erased trainee leaves no bytes in the
 * file (docs/DESIGN.md "Personal data").
 */
export function openReadStoreFile(filename: string, options: ReadStoreConnectionOptions): Database.Database {
  const db = openPrivateDatabase(filename);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('secure_delete = ON');
  db.pragma(`cache_size = -${READ_MODEL_CACHE_KIB}`);
  if (options.walAutocheckpointPages !== undefined) db.pragma(`wal_autocheckpoint = ${options.walAutocheckpointPages}`);
  return db;
}

/**
 * The page cache of a connection, KiB (SQLite's default is 2 MiB). The file is not mapped: a
 * connection that maps it unmaps the whole mapping at the first read after another connection's
 * commit and faults every page in again, so at the projection thread's commit rate the API's
 * reads spent more time in the kernel than in SQLite (docs/DESIGN.md "Read models").
 */
const READ_MODEL_CACHE_KIB = 32 * 1024;
