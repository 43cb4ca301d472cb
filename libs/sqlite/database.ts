import Database from 'better-sqlite3';

/** better-sqlite3, imported here alone (docs/DESIGN.md "Layout"). */
export { Database };

/** `sqlite_version()` of the library the driver is built with, e.g. `3.50.4`. */
export function sqliteVersion(): string {
  const db = new Database(':memory:');
  try {
    return db.prepare('SELECT sqlite_version()').pluck().get() as string;
  } finally {
    db.close();
  }
}
