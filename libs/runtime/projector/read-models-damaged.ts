/**
 * The read store's file is damaged (SQLite `SQLITE_CORRUPT`, `SQLITE_NOTADB`); a restart moves it aside and rebuilds from the log
 * (docs/operations.md "Health"). The API answers 503 meanwhile. `detail` is SQLite's word, naming pages and trees, never values.
 */
export class ReadModelsDamaged extends Error {
  constructor(readonly detail: string) {
    super(`the read models are damaged (${detail}); a restart of the service moves them aside and rebuilds them from the event log`);
  }
}

/** One sentence, no detail: the endpoint needs no token. */
export const READ_MODELS_DAMAGED_REASON =
  'the read models are damaged; a restart of the service moves them aside and rebuilds them from the event log';

/** `retryAfterSeconds` for the 503. */
export const READ_MODELS_DAMAGED_ANSWER = {
  message: 'The service cannot read its records at the moment; please try again shortly',
  retryAfterSeconds: 30,
} as const;
