/** The `events` table of the embedded event store (docs/DESIGN.md "The event store port"). */

/**
 * Schema version stored in `PRAGMA user_version`. 2: in rows appended since, `id` and `metadata` hold BLOBs (./packed-ids.ts,
 * ./packed-metadata.ts), in rows of before their texts; a file of version 1 needs no migration (its rows read as they are), but code
 * knowing only 1 refuses a file of 2.
 */
export const SCHEMA_VERSION = 2;

export const SCHEMA_SQL = `
CREATE TABLE IF NOT EXISTS events (
  position    INTEGER PRIMARY KEY AUTOINCREMENT,
  id          TEXT    NOT NULL UNIQUE,
  stream_id   TEXT    NOT NULL,
  revision    INTEGER NOT NULL CHECK (revision >= 0),
  type        TEXT    NOT NULL,
  data        TEXT    NOT NULL,
  metadata    TEXT    NOT NULL,
  recorded_at TEXT    NOT NULL,
  UNIQUE (stream_id, revision)
);
-- Per-stream reads (readStream, the stream's last revision) use the index that
-- UNIQUE (stream_id, revision) creates; a second index on the same columns would only slow writes.
CREATE TRIGGER IF NOT EXISTS events_no_update BEFORE UPDATE ON events
BEGIN SELECT RAISE(ABORT, 'events are append-only'); END;
CREATE TRIGGER IF NOT EXISTS events_no_delete BEFORE DELETE ON events
BEGIN SELECT RAISE(ABORT, 'events are append-only'); END;
`;
