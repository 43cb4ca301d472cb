import Database from 'better-sqlite3';

/**
 * The SQLite driver (better-sqlite3), imported here alone (docs/DESIGN.md "Layout"): every part
 * that opens a SQLite file takes it from `@app/sqlite`, with the house's ways of opening one beside it.
 */
export { Database };

/** The version of the SQLite library the driver is built with (`sqlite_version()`, e.g. `3.50.4`). */
export function sqliteVersion(): string {
  const db = new Database(':memory:');
  try {
    return db.prepare('SELECT sqlite_version()').pluck().get() as string;
  } finally {
    db.close();
  }
}
