import { Database, PRIVATE_FILE_MODE } from '@app/sqlite';
import { existsSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { ReadModelsDamaged } from '@app/runtime/projector';

/**
 * The file beside a read store (`read-models.sqlite.damaged`) that records damage found in it while
 * it served: its time and SQLite's words. `/readyz` is not ready while it is there, and the next
 * start moves the store aside without checking it again (docs/operations.md "Health").
 */
export const DAMAGE_MARK_SUFFIX = '.damaged';

/** The files SQLite keeps beside a database, moved aside with it. */
const COMPANIONS = ['-wal', '-shm', '-journal'];

/** Read stores of this thread found damaged since they were opened, by file (whether or not their mark could be written). */
const damagedHere = new Set<string>();

/**
 * Whether `err` is SQLite saying a file is damaged: `SQLITE_CORRUPT` (with its extended codes) or
 * `SQLITE_NOTADB`, as better-sqlite3 names them in `code`. Not a full disk, a read-only file or an
 * I/O error: those leave the file sound.
 */
export function isCorruption(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' && (code.startsWith('SQLITE_CORRUPT') || code === 'SQLITE_NOTADB');
}

/**
 * Records that the read store `file` is damaged (`problem`: SQLite's words): its mark written, once,
 * 0600 (a mark that cannot be written is left: this thread remembers it all the same). Returns the
 * {@link ReadModelsDamaged} to throw in place of the store's error.
 */
export function markDamaged(file: string, problem: string): ReadModelsDamaged {
  damagedHere.add(file);
  const mark = file + DAMAGE_MARK_SUFFIX;
  try {
    if (!existsSync(mark)) writeFileSync(mark, `${new Date().toISOString()} ${problem}\n`, { mode: PRIVATE_FILE_MODE, flag: 'wx' });
  } catch {
    // A full disk or a mark written meanwhile by another process: the thread's record stands.
  }
  return new ReadModelsDamaged(problem);
}

/**
 * Runs `fn` on the read store `file`; SQLite's word that the file is damaged ({@link isCorruption})
 * is thrown as {@link ReadModelsDamaged}, the damage marked ({@link markDamaged}). Other errors as they come.
 */
export function guardDamage<T>(file: string, fn: () => T): T {
  try {
    return fn();
  } catch (err) {
    throw isCorruption(err) ? markDamaged(file, err instanceof Error ? err.message : String(err)) : err;
  }
}

/** What the mark of the read store `file` says (time and problem), or null when none is recorded. */
export function damageMark(file: string): string | null {
  try {
    return readFileSync(file + DAMAGE_MARK_SUFFIX, 'utf8').trim() || 'damage recorded';
  } catch {
    return null;
  }
}

/** Whether the read store `file` was found damaged: by this thread, or by any process that wrote its mark. */
export function isMarkedDamaged(file: string): boolean {
  return damagedHere.has(file) || existsSync(file + DAMAGE_MARK_SUFFIX);
}

/**
 * Whether another process has the database `file` open: asked of SQLite itself, by taking the file
 * in exclusive locking mode with no wait. A WAL database is held by every connection to it for as
 * long as it is open, so the lock is refused (`SQLITE_BUSY`) while any other process has a
 * connection; a file so damaged that SQLite cannot read it once locked counts as free. Call it
 * before this process opens the file (its own connections would not stand in the way). When free,
 * the probe's close, the last of the file, folds the WAL into the file and removes it, as the last
 * close of a database always does.
 */
export function openElsewhere(file: string): boolean {
  const db = new Database(file, { fileMustExist: true, timeout: 0 });
  try {
    db.pragma('locking_mode = EXCLUSIVE');
    db.prepare('SELECT COUNT(*) FROM sqlite_schema').get();
    return false;
  } catch (err) {
    return String((err as { code?: unknown } | null)?.code).startsWith('SQLITE_BUSY');
  } finally {
    try {
      db.close();
    } catch {
      // Closing a damaged file may fail its last checkpoint; it is moved aside all the same.
    }
  }
}

/**
 * Moves the read store `file` aside as `<file>.damaged-<UTC time>` (e.g.
 * `read-models.sqlite.damaged-20261207T101500Z`): its WAL, shared-memory and journal files first,
 * where there are any (renamed with it: a WAL left behind would be read into the fresh file), the
 * file last, then removes its mark. Returns the new name of the file. Throws what `rename` throws.
 */
export function moveAside(file: string, now = new Date()): string {
  const stamp = now
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d+Z$/, 'Z');
  const target = `${file}.damaged-${stamp}`;
  for (const suffix of COMPANIONS) if (existsSync(file + suffix)) renameSync(file + suffix, target + suffix);
  renameSync(file, target);
  rmSync(file + DAMAGE_MARK_SUFFIX, { force: true });
  damagedHere.delete(file);
  return target;
}

/** Removes a mark left without its read store (moved aside or deleted by hand before the mark). */
export function forgetStaleMark(file: string): void {
  if (!existsSync(file)) rmSync(file + DAMAGE_MARK_SUFFIX, { force: true });
}
