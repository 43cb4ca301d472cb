import { Database } from '@app/sqlite';
import { chmodSync, statSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { KeyringError } from './keyring';

export const KEYRING_LOCK_WAIT_MS = 30_000;

export function lockFileOf(keyringFile: string): string {
  return `${keyringFile}.lock`;
}

/** The keyring's lock stayed held by another process for the whole wait; the message names the lock file only. */
export class KeyringBusy extends Error {
  constructor(
    readonly lockFile: string,
    readonly waitedMs: number,
  ) {
    super(
      `the service keyring's lock ${lockFile} stayed held for ${waitedMs / 1000} s by another process ` +
        '(keys rotate or keys retire, or a process storing new keys); run the command again once that process has finished',
    );
    this.name = 'KeyringBusy';
  }
}

function isBusy(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' && /^SQLITE_(BUSY|LOCKED)/.test(code);
}

/**
 * Takes the keyring's lock alone (blocking this thread up to `waitMs`) and returns its release: SQLite's `BEGIN EXCLUSIVE` on the
 * empty database `lockFile`, a POSIX lock dropped when its process dies, whose PENDING state keeps new sharers out.
 * Throws {@link KeyringBusy} past the wait, `KeyringError` when the lock file can be neither opened nor made.
 */
export function lockAlone(lockFile: string, waitMs: number): () => void {
  const deadline = Date.now() + waitMs;
  let db: Database.Database;
  try {
    db = new Database(lockFile);
  } catch (err) {
    throw cannotLock(lockFile, err);
  }
  keepPrivate(lockFile);
  const within = () => db.pragma(`busy_timeout = ${Math.max(0, deadline - Date.now())}`);
  try {
    within();
    db.pragma('journal_mode = MEMORY');
    within();
    db.exec('BEGIN EXCLUSIVE');
  } catch (err) {
    db.close();
    throw isBusy(err) ? new KeyringBusy(lockFile, waitMs) : cannotLock(lockFile, err);
  }
  return () => {
    try {
      db.exec('ROLLBACK');
    } finally {
      db.close();
    }
  };
}

function cannotLock(lockFile: string, err: unknown): KeyringError {
  const code = (err as { code?: unknown } | null)?.code ?? 'error';
  return new KeyringError(
    `cannot take the keyring's lock ${lockFile} (${String(code)}): keys are changed and stored only where that file can be made and locked`,
  );
}

/**
 * Takes the lock shared, polling without blocking this thread up to `waitMs`; returns its release, or null when the lock file can be
 * neither opened nor made (a read-only mount, where no process can change the keyring either). Throws {@link KeyringBusy}, `KeyringError`.
 */
export async function lockShared(lockFile: string, waitMs: number): Promise<(() => void) | null> {
  const db = openForSharing(lockFile);
  if (db === null) return null;
  const deadline = Date.now() + waitMs;
  for (let pause = 2; ; pause = Math.min(pause * 2, 50)) {
    try {
      db.exec('BEGIN');
      db.prepare('SELECT count(*) FROM sqlite_master').get();
      break;
    } catch (err) {
      if (db.inTransaction) db.exec('ROLLBACK');
      if (!isBusy(err)) {
        db.close();
        throw cannotLock(lockFile, err);
      }
      if (Date.now() >= deadline) {
        db.close();
        throw new KeyringBusy(lockFile, waitMs);
      }
      await sleep(pause);
    }
  }
  return () => {
    try {
      db.exec('ROLLBACK');
    } finally {
      db.close();
    }
  };
}

/** Read-only when it cannot be written; null when neither. */
function openForSharing(lockFile: string): Database.Database | null {
  for (const options of [{ timeout: 0 }, { timeout: 0, readonly: true, fileMustExist: true }]) {
    try {
      const db = new Database(lockFile, options);
      keepPrivate(lockFile);
      return db;
    } catch {
      // The next way, or none.
    }
  }
  return null;
}

/**
 * 0600 whatever the umask (docs/operations.md "File permissions"), by path: a descriptor opened and closed here would drop every lock
 * this process holds on the file.
 */
function keepPrivate(lockFile: string): void {
  try {
    if ((statSync(lockFile).mode & 0o777) !== 0o600) chmodSync(lockFile, 0o600);
  } catch {
    // Another user's file, or a read-only mount: nothing in it to keep private.
  }
}
