import type { Database } from '@app/sqlite';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { REGISTRY_PM_CHECKPOINT } from '@app/registry';
import { READ_STORE_FILE } from './read-models/read-store-file';
import { CONSUMER_CHECKPOINTS_TABLE, SqliteConsumerCheckpoints } from './sqlite-consumer-checkpoints';
import { SqliteIdempotencyStore } from './sqlite-idempotency-store';
import { SqliteWebhookOutbox } from './sqlite-webhook-outbox';
import { openStateDatabase, STATE_FILE } from './state-file';

/** Kept in `read-models.sqlite` under the same names by data dirs from before the state file. */
export const MOVED_TABLES = ['idempotency_keys', 'webhook_endpoints', 'webhook_deliveries', 'webhook_dispatcher'] as const;

/** Of a state file into which they were copied (0: not yet). */
const COPIED = 1;

export interface MovedState {
  tables: { name: string; rows: number }[];
  positions: number;
  /** Of a damaged read store, failing `quick_check`, left in it with the first problem found. */
  unreadable: { name: string; problem: string }[];
}

/** For tests that stop a move there, as a crash would. */
export type MoveStep = 'copying' | 'copied';

/**
 * Moves what an older data dir kept in `read-models.sqlite` and the log cannot make again into `state.sqlite`: rows copied in one
 * state file transaction (recorded in its `user_version`), then dropped from the read store in one transaction, zeroed. Safe to repeat
 * and to stop anywhere. With `damaged`, a table failing `quick_check` is left and the read store not written. Null when there was
 * nothing to move; throws better-sqlite3's errors (the copy rolled back). `onStep` hears each step (a throw there stops it as a crash).
 */
export function moveStateOutOfReadStore(
  dataDir: string,
  options: { damaged?: boolean; onStep?: (step: MoveStep) => void } = {},
): MovedState | null {
  const readStore = join(dataDir, READ_STORE_FILE);
  if (!existsSync(readStore)) return null;
  const stateFile = join(dataDir, STATE_FILE);
  const db = openStateDatabase(stateFile, 'FULL');
  try {
    // Attached after secure_delete is set, so what the drops free in the read store is zeroed too.
    db.prepare(`ATTACH DATABASE ? AS rm`).run(readStore);
    const tables = tablesIn(db, 'rm');
    const left = MOVED_TABLES.filter((t) => tables.has(t));
    const withPosition = tables.has('projection_checkpoints') && positionsLeft(db) > 0;
    if (left.length === 0 && !withPosition) return null;
    const moved: MovedState = { tables: [], positions: 0, unreadable: [] };
    const readable = options.damaged ? left.filter((t) => readableTable(db, t, moved)) : left;
    if (db.pragma('main.user_version', { simple: true }) !== COPIED) {
      createStateTables(stateFile);
      db.transaction(() => {
        for (const table of readable) moved.tables.push({ name: table, rows: copyTable(db, table) });
        if (withPosition) moved.positions = copyPositions(db);
        options.onStep?.('copying');
        db.pragma(`main.user_version = ${COPIED}`);
      }).immediate();
    }
    options.onStep?.('copied');
    if (!options.damaged) dropFromReadStore(db, left, withPosition);
    return moved;
  } finally {
    db.close();
  }
}

function tablesIn(db: Database.Database, schema: string): Set<string> {
  return new Set(db.prepare<[], string>(`SELECT name FROM ${schema}.sqlite_schema WHERE type = 'table'`).pluck().all());
}

function positionsLeft(db: Database.Database): number {
  return db.prepare<[string], number>(`SELECT COUNT(*) FROM rm.projection_checkpoints WHERE name = ?`).pluck().get(REGISTRY_PM_CHECKPOINT)!;
}

/** Whether `table` of a damaged read store passes `quick_check`; records it in `moved.unreadable` when not. */
function readableTable(db: Database.Database, table: string, moved: MovedState): boolean {
  try {
    const result = db.prepare<[], string>(`PRAGMA rm.quick_check("${table}")`).pluck().all();
    if (result.length === 1 && result[0] === 'ok') return true;
    moved.unreadable.push({ name: table, problem: result[0] ?? 'no answer' });
  } catch (err) {
    moved.unreadable.push({ name: table, problem: err instanceof Error ? err.message : String(err) });
  }
  return false;
}

/** As their stores make them. */
function createStateTables(stateFile: string): void {
  for (const store of [new SqliteIdempotencyStore(stateFile), new SqliteWebhookOutbox(stateFile), new SqliteConsumerCheckpoints(stateFile)])
    store.close();
}

/** By the columns both have (a row already there kept); returns the rows copied. */
function copyTable(db: Database.Database, table: string): number {
  const columnsOf = (schema: string) => db.prepare<[], string>(`SELECT name FROM pragma_table_info('${table}', '${schema}')`).pluck().all();
  const target = new Set(columnsOf('main'));
  const columns = columnsOf('rm')
    .filter((c) => target.has(c))
    .map((c) => `"${c}"`)
    .join(', ');
  return db.prepare(`INSERT OR IGNORE INTO main."${table}" (${columns}) SELECT ${columns} FROM rm."${table}"`).run().changes;
}

/** The later one where both files hold one. */
function copyPositions(db: Database.Database): number {
  return db
    .prepare(
      `INSERT INTO main.${CONSUMER_CHECKPOINTS_TABLE} (name, position, updated_at)
       SELECT name, position, updated_at FROM rm.projection_checkpoints WHERE name = ?
       ON CONFLICT (name) DO UPDATE SET position = MAX(position, excluded.position)`,
    )
    .run(REGISTRY_PM_CHECKPOINT).changes;
}

function dropFromReadStore(db: Database.Database, tables: readonly string[], withPosition: boolean): void {
  db.transaction(() => {
    for (const table of tables) db.exec(`DROP TABLE IF EXISTS rm."${table}"`);
    if (withPosition) db.prepare(`DELETE FROM rm.projection_checkpoints WHERE name = ?`).run(REGISTRY_PM_CHECKPOINT);
  }).immediate();
}
