/** A storage fault a store's error names (docs/operations.md "When the disk fills"): the API answers 503 and `/readyz` names it. */
export type StorageFault = 'full' | 'read-only' | 'unwritable';

/** What `/readyz` says of each: no path, no error text. */
export const STORAGE_FAULT_REASONS: Readonly<Record<StorageFault, string>> = {
  full: 'the data directory is full',
  'read-only': 'the data directory is read-only',
  unwritable: 'the data directory cannot be written',
};

/**
 * The fault of `error` or an error in its `cause` chain, by `code` (better-sqlite3's extended result code, or Node's errno; see
 * sqlite.org/rescode.html); null otherwise. `EDQUOT` counts as full; busy, locked, constraint or corrupt are no storage fault.
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
