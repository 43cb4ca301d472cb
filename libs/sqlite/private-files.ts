import { Database } from './database';
import { chmodSync, existsSync, mkdirSync } from 'node:fs';
import { lockWait } from './lock-wait';

/** Read and write for the service's user only: every file under DATA_DIR (docs/operations.md "File permissions"). */
export const PRIVATE_FILE_MODE = 0o600;

/** A directory the service creates under or as DATA_DIR: the service's user only (an existing one keeps its mode). */
const PRIVATE_DIRECTORY_MODE = 0o700;

/** The files SQLite keeps beside a database, created with the database file's own mode. */
const SQLITE_COMPANIONS = ['-wal', '-shm', '-journal'];

/**
 * Creates `dir` (and its missing parents) readable by the service's user only when it does not
 * exist; an existing directory keeps the mode its operator gave it (docs/operations.md "File
 * permissions"). Throws what `mkdir` throws.
 */
export function makePrivateDirectory(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: PRIVATE_DIRECTORY_MODE });
}

/**
 * Opens the SQLite database `filename` (created when missing), then makes it and the WAL,
 * shared-memory and journal files beside it 0600 by path, whatever the umask: SQLite creates those
 * companions with the database file's mode, and an older file made 0644 is narrowed at its next
 * open (docs/operations.md "File permissions"). No descriptor of the file is opened outside
 * SQLite: POSIX locks belong to the process, and closing any descriptor of a file drops every lock
 * the process holds on it, so another process would take a database this one has open for unused
 * (docs/operations.md "Commands beside the running service"). `:memory:` and `''` are opened as they are.
 * The connection waits for another's lock for the process's `lockWait()` (its `busy_timeout`), unless
 * `options.timeout` says otherwise. Throws what better-sqlite3 or `chmod` throw.
 */
export function openPrivateDatabase(filename: string, options?: Database.Options): Database.Database {
  const db = new Database(filename, { timeout: lockWait(), ...options });
  if (filename === ':memory:' || filename === '' || options?.readonly) return db;
  try {
    chmodSync(filename, PRIVATE_FILE_MODE);
    for (const suffix of SQLITE_COMPANIONS) {
      if (existsSync(filename + suffix)) chmodSync(filename + suffix, PRIVATE_FILE_MODE);
    }
  } catch (err) {
    db.close();
    throw err;
  }
  return db;
}
