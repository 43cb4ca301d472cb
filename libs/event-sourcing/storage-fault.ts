/**
 * What a store's error says about the storage under it (docs/operations.md "When the disk fills"):
 * the disk is full, it is read-only, or it cannot be written at all. A write that fails for one of
 * these is the storage's fault, never the request's: the API answers 503 with `Retry-After`, and
 * `/readyz` names the cause until it is gone.
 */
export type StorageFault = 'full' | 'read-only' | 'unwritable';

/** The storage faults, each in the one sentence `/readyz` gives for it (no path, no error text). */
export const STORAGE_FAULT_REASONS: Readonly<Record<StorageFault, string>> = {
  full: 'the data directory is full',
  'read-only': 'the data directory is read-only',
  unwritable: 'the data directory cannot be written',
};

/**
 * The storage fault an error stands for, by its `code` (SQLite's extended result code as
 * better-sqlite3 names it, or Node's `errno` code), or that of an error in its `cause` chain; null
 * for any other error. SQLite: `SQLITE_FULL` (the disk, or the file's size limit), `SQLITE_READONLY*`,
 * `SQLITE_IOERR*` and `SQLITE_CANTOPEN` (sqlite.org/rescode.html). Node: `ENOSPC`, `EDQUOT` (a quota
 * is a full disk for this user), `EROFS`, `EIO`. A busy or locked database, a constraint or a
 * corrupt file is no storage fault here.
 */
export function storageFaultOf(error: unknown): StorageFault | null {
  for (let e = error, depth = 0; e !== null && typeof e === 'object' && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code;
    const fault = typeof code === 'string' ? faultOfCode(code) : null;
    if (fault) return fault;
  }
  return null;
}

function faultOfCode(code: string): StorageFault | null {
  if (code === 'SQLITE_FULL' || code === 'ENOSPC' || code === 'EDQUOT') return 'full';
  if (code === 'EROFS' || code === 'SQLITE_READONLY' || code.startsWith('SQLITE_READONLY_')) return 'read-only';
  if (code === 'EIO' || code === 'SQLITE_CANTOPEN' || code === 'SQLITE_IOERR' || code.startsWith('SQLITE_IOERR_')) return 'unwritable';
  return null;
}
