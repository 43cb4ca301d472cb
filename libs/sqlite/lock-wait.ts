/** How long a SQLite connection waits for another connection's lock by default, in ms: 5 s. */
export const DEFAULT_LOCK_WAIT_MS = 5_000;

let lockWaitMs = DEFAULT_LOCK_WAIT_MS;

/**
 * How long, in ms, the SQLite connections this process opens wait for another connection's lock
 * before SQLite answers `SQLITE_BUSY` (their `busy_timeout`: SQLite tries again for the lock with
 * sleeps that grow from 1 to 100 ms; a statement waiting for a lock has done nothing yet):
 * {@link DEFAULT_LOCK_WAIT_MS} unless the process set another with {@link setLockWait}.
 */
export function lockWait(): number {
  return lockWaitMs;
}

/**
 * Sets {@link lockWait} (a whole number of ms ≥ 0) for the connections this process opens from
 * now on, in this thread: for a process that would rather wait for a busy store than fail, the
 * admin CLI (docs/operations.md "The admin CLI"). Throws RangeError for any other value.
 */
export function setLockWait(ms: number): void {
  if (!Number.isInteger(ms) || ms < 0) throw new RangeError(`a lock wait is a whole number of ms ≥ 0, got ${ms}`);
  lockWaitMs = ms;
}
