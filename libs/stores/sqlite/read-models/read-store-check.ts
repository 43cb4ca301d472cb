import { startWorker } from '../start-worker';

/** What a read store's check found: sound (`problem` null), damaged (`problem`: SQLite's words), or no verdict (`error`). */
export type CheckOutcome = { problem: string | null } | { error: string };

/** A check under way: its outcome, and how to end it early. */
export interface ReadStoreCheck {
  outcome: Promise<CheckOutcome>;
  /** Ends the check's thread (its outcome then says so as an `error`); resolves once it has ended. */
  stop(): Promise<void>;
}

/**
 * Checks the read store `file` with `PRAGMA quick_check` on a thread of its own
 * (read-store-check.worker.ts), on a read-only connection: every page of every table and index is
 * read, which takes about 0.5 s for 20,000 trainees with the file in the page cache, several times
 * that from a cold disk (docs/operations.md "Health"). The thread does not keep the process alive.
 */
export function checkReadStore(file: string): ReadStoreCheck {
  const worker = startWorker(__dirname, 'read-store-check', { file });
  worker.unref();
  const outcome = new Promise<CheckOutcome>((resolve) => {
    worker.once('message', (message: CheckOutcome) => resolve(message));
    worker.once('error', (err) => resolve({ error: err.message }));
    worker.once('exit', (code) => resolve({ error: `the check's thread ended (code ${code}) without a verdict` }));
  });
  return {
    outcome,
    stop: async () => {
      await worker.terminate();
    },
  };
}
