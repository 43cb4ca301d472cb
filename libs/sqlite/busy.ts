import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { Database } from './database';

/** `SQLITE_BUSY` or `SQLITE_LOCKED`, extended codes too, on `error` or its `cause` chain, also as carried from a worker thread. */
export function isStoreBusy(error: unknown): boolean {
  for (let e = error, depth = 0; e !== null && typeof e === 'object' && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && /^SQLITE_(BUSY|LOCKED)(_|$)/.test(code)) return true;
  }
  return false;
}

/** The `*.sqlite` file of `dataDir` whose write lock another connection holds (a busy error does not say which), or null. */
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
