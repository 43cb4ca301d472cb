import type { Database } from '@app/sqlite';

/** How long an erasure tries to truncate a WAL while readers hold it, in ms: 2 s (the key store's and the read store's). */
export const FORGET_WAL_WITHIN_MS = 2_000;

/** How often a truncation held off by a reader is tried again, in ms. */
const RETRY_MS = 25;

/**
 * Copies `db`'s WAL into its file and truncates it (`wal_checkpoint(TRUNCATE)`), so the pages a
 * deletion left in the WAL go with it (docs/DESIGN.md "Personal data"). While a reader holds the
 * WAL it tries again every 25 ms, for up to `withinMs`, never waiting on the connection's busy
 * timeout (set to 0 meanwhile, then back to what it was), so the thread is free between tries.
 * Returns whether the WAL was truncated.
 */
export async function truncateWalWithin(db: Database.Database, withinMs: number): Promise<boolean> {
  const deadline = Date.now() + withinMs;
  const busyTimeoutMs = db.pragma('busy_timeout', { simple: true }) as number;
  db.pragma('busy_timeout = 0');
  try {
    for (;;) {
      const [result] = db.pragma('wal_checkpoint(TRUNCATE)') as { busy: number }[];
      if (result.busy === 0) return true;
      if (Date.now() >= deadline) return false;
      await new Promise((resolve) => setTimeout(resolve, RETRY_MS));
    }
  } finally {
    db.pragma(`busy_timeout = ${busyTimeoutMs}`);
  }
}
