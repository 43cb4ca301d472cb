import type { Database } from '@app/sqlite';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { REGISTRY_PM_CHECKPOINT } from '@app/registry';
import { READ_STORE_FILE } from './read-models/read-store-file';
import { CONSUMER_CHECKPOINTS_TABLE, SqliteConsumerCheckpoints } from './sqlite-consumer-checkpoints';
import { SqliteIdempotencyStore } from './sqlite-idempotency-store';
import { SqliteWebhookOutbox } from './sqlite-webhook-outbox';
import { openStateDatabase, STATE_FILE } from './state-file';

/** The state file's tables that data dirs written before it kept in `read-models.sqlite`, under the same names. */
export const MOVED_TABLES = ['idempotency_keys', 'webhook_endpoints', 'webhook_deliveries', 'webhook_dispatcher'] as const;

/** `PRAGMA user_version` of a state file into which the read store's tables were copied (0: not yet). */
const COPIED = 1;

/** What {@link moveStateOutOfReadStore} moved: rows per table, the consumers' positions, and the tables it could not read. */
export interface MovedState {
  tables: { name: string; rows: number }[];
  positions: number;
  /** Tables of a damaged read store that did not pass `quick_check` and were left in it, each with the first problem found. */
  unreadable: { name: string; problem: string }[];
}

/** Where a move stands (for tests that stop it there, as a crash would). */
export type MoveStep = 'copying' | 'copied';

/**
 * Moves what a data dir written before the state file kept in `<dataDir>/read-models.sqlite` and
 * the log cannot make again (the tables of {@link MOVED_TABLES}, the registry process manager's
 * row of `projection_checkpoints`) into `<dataDir>/state.sqlite` (docs/operations.md "Backups and
 * restore"): first every row copied in one transaction of the state file (which records the copy
 * in its `user_version`), then the tables dropped and the row deleted in one transaction of the read
 * store, zeroed there (`secure_delete`). Safe to repeat and to stop anywhere: a process that dies in
 * the copy leaves nothing copied; one that dies after it finds the copy recorded and only drops.
 * With `damaged`, a table whose `quick_check` fails is left where it is (named in the answer) and
 * the read store is not written. Returns null when there was nothing to move (no read store, or
 * nothing of it left); throws what better-sqlite3 throws (the copy rolled back). `onStep` is told of
 * each step as it is reached (a throw there stops the move as a crash would).
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

/** The tables of schema `schema` of `db`. */
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

/** The state file's tables and indexes, as its stores make them (one schema, theirs). */
function createStateTables(stateFile: string): void {
  for (const store of [new SqliteIdempotencyStore(stateFile), new SqliteWebhookOutbox(stateFile), new SqliteConsumerCheckpoints(stateFile)])
    store.close();
}

/** Copies the rows of `rm.<table>` into `main.<table>` by the columns both have (a row already there is kept); returns the rows copied. */
function copyTable(db: Database.Database, table: string): number {
  const columnsOf = (schema: string) => db.prepare<[], string>(`SELECT name FROM pragma_table_info('${table}', '${schema}')`).pluck().all();
  const target = new Set(columnsOf('main'));
  const columns = columnsOf('rm')
    .filter((c) => target.has(c))
    .map((c) => `"${c}"`)
    .join(', ');
  return db.prepare(`INSERT OR IGNORE INTO main."${table}" (${columns}) SELECT ${columns} FROM rm."${table}"`).run().changes;
}

/** Copies the registry process manager's position (the later one where both files hold one); returns the rows copied. */
function copyPositions(db: Database.Database): number {
  return db
    .prepare(
      `INSERT INTO main.${CONSUMER_CHECKPOINTS_TABLE} (name, position, updated_at)
       SELECT name, position, updated_at FROM rm.projection_checkpoints WHERE name = ?
       ON CONFLICT (name) DO UPDATE SET position = MAX(position, excluded.position)`,
    )
    .run(REGISTRY_PM_CHECKPOINT).changes;
}

/** Drops the moved tables and deletes the moved position from the read store, in one transaction. */
function dropFromReadStore(db: Database.Database, tables: readonly string[], withPosition: boolean): void {
  db.transaction(() => {
    for (const table of tables) db.exec(`DROP TABLE IF EXISTS rm."${table}"`);
    if (withPosition) db.prepare(`DELETE FROM rm.projection_checkpoints WHERE name = ?`).run(REGISTRY_PM_CHECKPOINT);
  }).immediate();
}
