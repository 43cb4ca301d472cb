import type { Database } from '@app/sqlite';

/** How long an erasure tries to truncate a WAL readers hold, ms. */
export const FORGET_WAL_WITHIN_MS = 2_000;

const RETRY_MS = 25;

/**
 * `wal_checkpoint(TRUNCATE)`, so the pages a deletion left in the WAL go (docs/DESIGN.md "Personal data"); retried while a reader holds
 * it up to `withinMs`, the busy timeout 0 meanwhile, so the thread is free between tries. Whether it was truncated.
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
