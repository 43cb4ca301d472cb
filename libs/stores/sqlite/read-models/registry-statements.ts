import type Database from 'better-sqlite3';
import type { ParkedEvent } from '@app/runtime/projector';

/** A row of `projection_registry`: the store each projection serves from, and the one being rebuilt. */
export interface RegistryRow {
  name: string;
  version: number;
  store: string;
  rebuilding: string | null;
}

/**
 * Creates (if missing) the tables beside the projections' stores, `projection_checkpoints`,
 * `projection_registry` and `projection_parked_events`, and returns the statements on them
 * (docs/DESIGN.md "Projection versions and blue/green rebuilds").
 */
export function registryStatements(db: Database.Database) {
  db.exec(`
    CREATE TABLE IF NOT EXISTS projection_checkpoints (
      name TEXT PRIMARY KEY, position INTEGER NOT NULL, version INTEGER NOT NULL, updated_at TEXT NOT NULL);
    CREATE TABLE IF NOT EXISTS projection_registry (
      name TEXT PRIMARY KEY, version INTEGER NOT NULL, store TEXT NOT NULL, rebuilding TEXT, updated_at TEXT NOT NULL);
    CREATE TABLE IF NOT EXISTS projection_parked_events (
      position INTEGER PRIMARY KEY, projection TEXT NOT NULL, stream_id TEXT NOT NULL, revision INTEGER NOT NULL,
      type TEXT NOT NULL, error TEXT NOT NULL, attempts INTEGER NOT NULL, parked_at TEXT NOT NULL);
  `);
  return {
    getCheckpoint: db.prepare<[string], { position: number }>(`SELECT position FROM projection_checkpoints WHERE name = ?`),
    setCheckpoint: db.prepare(`
      INSERT INTO projection_checkpoints (name, position, version, updated_at) VALUES (?, ?, ?, ?)
      ON CONFLICT (name) DO UPDATE SET position = MAX(position, excluded.position), updated_at = excluded.updated_at`),
    registry: db.prepare<[], RegistryRow>(`SELECT name, version, store, rebuilding FROM projection_registry`),
    /** The registry as one string: equal strings, equal registries (one row out, no object per projection). */
    registryKey: db
      .prepare<[], string>(
        `SELECT group_concat(name || ':' || version || ':' || store || ':' || IFNULL(rebuilding, ''), ',') FROM projection_registry`,
      )
      .pluck(),
    register: db.prepare(
      `INSERT INTO projection_registry (name, version, store, rebuilding, updated_at) VALUES (?, ?, ?, NULL, ?) ON CONFLICT (name) DO NOTHING`,
    ),
    setRebuilding: db.prepare(`UPDATE projection_registry SET rebuilding = ?, updated_at = ? WHERE name = ?`),
    swap: db.prepare(`UPDATE projection_registry SET version = ?, store = ?, rebuilding = NULL, updated_at = ? WHERE name = ?`),
    dataVersion: db.prepare('PRAGMA data_version').pluck(),
    park: db.prepare(`
      INSERT INTO projection_parked_events (position, projection, stream_id, revision, type, error, attempts, parked_at)
      VALUES (@position, @projection, @stream_id, @revision, @type, @error, @attempts, @parked_at) ON CONFLICT (position) DO NOTHING`),
    parked: db.prepare<[], ParkedEvent>(`SELECT * FROM projection_parked_events ORDER BY position`),
    unpark: db.prepare(`DELETE FROM projection_parked_events WHERE projection = ?`),
  };
}
