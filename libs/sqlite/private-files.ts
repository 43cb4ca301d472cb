import { Database } from './database';
import { chmodSync, existsSync, mkdirSync } from 'node:fs';
import { lockWait } from './lock-wait';

/** Read and write for the service's user only: every file under DATA_DIR (docs/operations.md "File permissions"). */
export const PRIVATE_FILE_MODE = 0o600;

const PRIVATE_DIRECTORY_MODE = 0o700;

const SQLITE_COMPANIONS = ['-wal', '-shm', '-journal'];

/** Creates `dir` and missing parents for the service's user only; an existing one keeps its mode. Throws what `mkdir` throws. */
export function makePrivateDirectory(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: PRIVATE_DIRECTORY_MODE });
}

/**
 * Opens (creating) `filename` and makes it and its `-wal`, `-shm`, `-journal` companions 0600 by path, whatever the umask; `:memory:`
 * and `''` as they are. Never opens a descriptor of the file outside SQLite: closing one would drop this process's POSIX locks on it
 * (docs/operations.md "Commands beside the running service"). Waits `lockWait()` for a lock unless `options.timeout`.
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
