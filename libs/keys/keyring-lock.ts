import { Database } from '@app/sqlite';
import { chmodSync, statSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { KeyringError } from './keyring';

/** How long a change or a use of the keyring waits for the lock by default, in ms: 30 s. */
export const KEYRING_LOCK_WAIT_MS = 30_000;

/** The keyring's lock file: `<keyring>.lock`, beside it. */
export function lockFileOf(keyringFile: string): string {
  return `${keyringFile}.lock`;
}

/**
 * The keyring's lock stayed held by another process for the whole wait: one sentence naming the
 * lock file and what to do (never anything of the keyring itself).
 */
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
 * Takes the keyring's lock alone, waiting at most `waitMs` for its holders, and returns its
 * release. The lock is SQLite's on the database `lockFile` (made when missing, never written: it
 * stays empty), taken by `BEGIN EXCLUSIVE` with the journal in memory: a POSIX lock the operating
 * system drops when its process dies, whose waiting (SQLite's `PENDING` lock) keeps new sharers
 * out. The wait blocks this thread. Throws {@link KeyringBusy} past the wait, and `KeyringError`
 * when the lock file can be neither opened nor made.
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
 * Takes the keyring's lock shared with other sharers, waiting at most `waitMs` for a holder alone
 * (trying again every few ms without blocking this thread), and returns its release: while it is
 * held, no keyring change can be made. Null when the lock file can be neither opened nor made (a
 * read-only mount that no process can change the keyring in either). Throws {@link KeyringBusy}
 * past the wait, and `KeyringError` when the file is not a lock SQLite can take (not a database).
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

/** The lock file opened to be shared (made when missing), read-only when it cannot be written; null when neither can be. */
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
 * Makes the lock file readable and writable by its owner only, whatever the umask
 * (docs/operations.md "File permissions"), by its path: a descriptor opened and closed here would
 * drop every lock this process holds on the file. It holds nothing, so one that cannot be changed
 * (another user's) is left as it is.
 */
function keepPrivate(lockFile: string): void {
  try {
    if ((statSync(lockFile).mode & 0o777) !== 0o600) chmodSync(lockFile, 0o600);
  } catch {
    // Another user's file, or a read-only mount: nothing in it to keep private.
  }
}
