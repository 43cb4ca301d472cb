import type { Database } from '@app/sqlite';
import { logPosition } from '@app/event-sourcing';
import { PROJECTION_NAMES, type ProjectionInfo, type ProjectionName } from '@app/runtime/projector';

/** A row of `projection_registry`: the store each projection serves from, and the one being rebuilt. */
export interface RegistryRow {
  name: string;
  version: number;
  store: string;
  rebuilding: string | null;
}

/**
 * Creates (if missing) the tables beside the projections' stores, `projection_checkpoints`,
 * `projection_registry` and `projection_drops` (the stores a swap left to drop, see
 * `dropInSlices`), and returns the statements on them (docs/DESIGN.md "Projection versions and
 * blue/green rebuilds"). `skipped` and `forgetSkipped` read and clear `projection_parked_events`,
 * the events an older version of the service skipped ("parked"), where such a version left that
 * table; null otherwise (docs/operations.md "Health").
 */
export function registryStatements(db: Database.Database) {
  db.exec(`
    CREATE TABLE IF NOT EXISTS projection_checkpoints (
      name TEXT PRIMARY KEY, position INTEGER NOT NULL, version INTEGER NOT NULL, updated_at TEXT NOT NULL);
    CREATE TABLE IF NOT EXISTS projection_registry (
      name TEXT PRIMARY KEY, version INTEGER NOT NULL, store TEXT NOT NULL, rebuilding TEXT, updated_at TEXT NOT NULL);
    CREATE TABLE IF NOT EXISTS projection_drops (
      projection TEXT NOT NULL, store TEXT NOT NULL, requested_at TEXT NOT NULL, PRIMARY KEY (projection, store));
  `);
  const parked = db.prepare(`SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'projection_parked_events'`).get();
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
    skipped: parked ? db.prepare<[string], number>(`SELECT count(*) FROM projection_parked_events WHERE projection = ?`).pluck() : null,
    forgetSkipped: parked ? db.prepare(`DELETE FROM projection_parked_events WHERE projection = ?`) : null,
    requestDrop: db.prepare(`INSERT OR IGNORE INTO projection_drops (projection, store, requested_at) VALUES (?, ?, ?)`),
    drops: db.prepare<[], { projection: string; store: string }>(`SELECT projection, store FROM projection_drops ORDER BY requested_at`),
    dropped: db.prepare(`DELETE FROM projection_drops WHERE projection = ? AND store = ?`),
  };
}

/**
 * Registers each projection's store in a read store that has no registry yet: the `v<code version>`
 * store (`codeVersions`); data dirs from before projections were versioned one by one served both
 * from `*_v1` with one checkpoint `main_v1`, and are adopted, once, as the `v1` stores.
 */
export function registerProjections(
  db: Database.Database,
  stmts: ReturnType<typeof registryStatements>,
  codeVersions: Record<ProjectionName, number>,
): void {
  const now = new Date().toISOString();
  db.transaction(() => {
    if (stmts.registry.all().length > 0) return;
    const legacy = stmts.getCheckpoint.get('main_v1');
    for (const name of PROJECTION_NAMES) {
      const version = legacy ? 1 : codeVersions[name];
      stmts.register.run(name, version, `v${version}`, now);
      if (legacy) stmts.setCheckpoint.run(`${name}_v1`, legacy.position, 1, now);
    }
    if (legacy) db.prepare(`DELETE FROM projection_checkpoints WHERE name = 'main_v1'`).run();
  }).immediate();
}

/**
 * Each projection as an operator sees it (`ReadModelStore.projectionInfo`): the served store of
 * `registry`, its checkpoint and documents (`tablesOf(name)`'s count), against `codeVersions`.
 */
export function projectionInfoOf(
  registry: readonly RegistryRow[],
  codeVersions: Record<ProjectionName, number>,
  stmts: ReturnType<typeof registryStatements>,
  tablesOf: (name: ProjectionName) => { count: Database.Statement<[], { n: number }> },
): ProjectionInfo[] {
  return PROJECTION_NAMES.map((name) => {
    const row = registry.find((r) => r.name === name)!;
    const skipped = stmts.skipped?.get(name) ?? 0;
    return {
      name,
      code_version: codeVersions[name],
      version: row.version,
      store: row.store,
      checkpoint: logPosition(stmts.getCheckpoint.get(`${name}_${row.store}`)?.position ?? 0),
      documents: tablesOf(name).count.get()!.n,
      rebuild_needed: row.version !== codeVersions[name] || skipped > 0,
      skipped_events: skipped,
      rebuilding: row.rebuilding,
    };
  });
}
