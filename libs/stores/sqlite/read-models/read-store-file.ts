import Database from 'better-sqlite3';
import type { ReadStoreConnectionOptions } from './wal-checkpointer';
import { openPrivateDatabase } from '../private-files';

/**
 * A connection to the read store's file (created when missing): WAL, `synchronous=NORMAL`, a busy
 * timeout, the file mapped, `options`' WAL auto-checkpoint, and `secure_delete`, so what a delete
 * frees is zeroed and an erased trainee leaves no bytes in the file (docs/DESIGN.md "Personal data").
 */
export function openReadStoreFile(filename: string, options: ReadStoreConnectionOptions): Database.Database {
  const db = openPrivateDatabase(filename);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('busy_timeout = 5000');
  db.pragma('secure_delete = ON');
  db.pragma(`mmap_size = ${READ_MODEL_MMAP_BYTES}`);
  if (options.walAutocheckpointPages !== undefined) db.pragma(`wal_autocheckpoint = ${options.walAutocheckpointPages}`);
  return db;
}

/**
 * How much of the read-model file reads map instead of copying each page through a read() call
 * (address space, not RSS: the OS page cache holds the pages once for every process).
 */
const READ_MODEL_MMAP_BYTES = 4 * 1024 ** 3;
