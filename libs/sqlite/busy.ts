import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { Database } from './database';

/**
 * Whether `error` is SQLite's answer that a store is busy: `SQLITE_BUSY` or `SQLITE_LOCKED`, with
 * their extended codes (`SQLITE_BUSY_SNAPSHOT`, …), thrown in this thread or carried from a worker
 * thread (which keeps the code), or the `cause` of the error thrown (`StoreUnavailable` when the
 * stores could not be opened).
 */
export function isStoreBusy(error: unknown): boolean {
  for (let e = error, depth = 0; e !== null && typeof e === 'object' && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && /^SQLITE_(BUSY|LOCKED)(_|$)/.test(code)) return true;
  }
  return false;
}

/**
 * The SQLite file of `dataDir` whose write lock another connection holds now, found by trying
 * `BEGIN IMMEDIATE` on each `*.sqlite` file there without waiting and rolling it back at once
 * (nothing is written); null when none is held (the holder has let go meanwhile) or the directory
 * cannot be read. SQLite's busy error does not say which file it came from.
 */
export function busyStoreIn(dataDir: string): string | null {
  let names: string[];
  try {
    names = readdirSync(dataDir).filter((n) => n.endsWith('.sqlite'));
  } catch {
    return null;
  }
  for (const name of names.sort()) {
    const file = join(dataDir, name);
    if (!existsSync(file)) continue;
    let db: Database.Database | null = null;
    try {
      db = new Database(file, { fileMustExist: true, timeout: 0 });
      db.exec('BEGIN IMMEDIATE');
      db.exec('ROLLBACK');
    } catch (error) {
      if (isStoreBusy(error)) return file;
    } finally {
      db?.close();
    }
  }
  return null;
}
