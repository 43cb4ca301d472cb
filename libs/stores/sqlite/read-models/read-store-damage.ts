import { Database, PRIVATE_FILE_MODE } from '@app/sqlite';
import { existsSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { ReadModelsDamaged } from '@app/runtime/projector';

/**
 * Beside a read store: damage found while it served (time, SQLite's words). `/readyz` is not ready while it is there, and the next
 * start moves the store aside unchecked (docs/operations.md "Health").
 */
export const DAMAGE_MARK_SUFFIX = '.damaged';

const COMPANIONS = ['-wal', '-shm', '-journal'];

/** Whether or not their mark could be written. */
const damagedHere = new Set<string>();

/** `SQLITE_CORRUPT*` or `SQLITE_NOTADB`; not a full disk, read-only file or I/O error, which leave the file sound. */
export function isCorruption(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' && (code.startsWith('SQLITE_CORRUPT') || code === 'SQLITE_NOTADB');
}

/** Marks `file` damaged, once, 0600 (a mark that cannot be written is left: this thread remembers); returns the error to throw. */
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

/** SQLite's word that `file` is damaged is thrown as {@link ReadModelsDamaged}, the damage marked; other errors as they come. */
export function guardDamage<T>(file: string, fn: () => T): T {
  try {
    return fn();
  } catch (err) {
    throw isCorruption(err) ? markDamaged(file, err instanceof Error ? err.message : String(err)) : err;
  }
}

/** Time and problem, or null. */
export function damageMark(file: string): string | null {
  try {
    return readFileSync(file + DAMAGE_MARK_SUFFIX, 'utf8').trim() || 'damage recorded';
  } catch {
    return null;
  }
}

/** By this thread, or by any process that wrote its mark. */
export function isMarkedDamaged(file: string): boolean {
  return damagedHere.has(file) || existsSync(file + DAMAGE_MARK_SUFFIX);
}

/**
 * Asked of SQLite: exclusive locking mode without waiting, refused while any other process has a connection (WAL holds it open); a
 * file too damaged to read counts as free. Call before this process opens it. When free, the probe's close folds the WAL in.
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

/** To `<file>.damaged-<UTC>`, companions first (a WAL left behind would be read into the fresh file), then its mark removed. */
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

/** One left without its read store (moved aside or deleted by hand first). */
export function forgetStaleMark(file: string): void {
  if (!existsSync(file)) rmSync(file + DAMAGE_MARK_SUFFIX, { force: true });
}
