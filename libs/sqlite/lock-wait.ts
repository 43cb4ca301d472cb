export const DEFAULT_LOCK_WAIT_MS = 5_000;

let lockWaitMs = DEFAULT_LOCK_WAIT_MS;

/** The `busy_timeout` (ms) of connections this process opens: how long they wait for another's lock before `SQLITE_BUSY`. */
export function lockWait(): number {
  return lockWaitMs;
}

/** For connections this thread opens from now on (docs/operations.md "The admin CLI"); RangeError unless a whole number ≥ 0. */
export function setLockWait(ms: number): void {
  if (!Number.isInteger(ms) || ms < 0) throw new RangeError(`a lock wait is a whole number of ms ≥ 0, got ${ms}`);
  lockWaitMs = ms;
}
