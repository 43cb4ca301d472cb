/**
 * The read models cannot be read: their store's file is damaged (SQLite: `SQLITE_CORRUPT` or
 * `SQLITE_NOTADB`). Nothing is lost: everything the read store holds is made from the event log, and
 * a restart of the service moves the file aside and builds a fresh one (docs/operations.md
 * "Health"). Until then the API answers 503 `ServiceUnavailable` with `Retry-After`, and `/readyz`
 * is not ready ({@link READ_MODELS_DAMAGED_REASON}). `detail` is the store's own word for the damage
 * (no personal data: SQLite names pages and trees, never values).
 */
export class ReadModelsDamaged extends Error {
  constructor(readonly detail: string) {
    super(`the read models are damaged (${detail}); a restart of the service moves them aside and rebuilds them from the event log`);
  }
}

/** What `/readyz` says while the read models are damaged (one sentence, no detail: the endpoint needs no token). */
export const READ_MODELS_DAMAGED_REASON =
  'the read models are damaged; a restart of the service moves them aside and rebuilds them from the event log';

/** What a request answered 503 for damaged read models says, and how long it asks the client to wait (s) before trying again. */
export const READ_MODELS_DAMAGED_ANSWER = {
  message: 'The service cannot read its records at the moment; please try again shortly',
  retryAfterSeconds: 30,
} as const;
