import { Database } from '@app/sqlite';

/**
 * What a backup leaves out of the state file, `state.sqlite` (its tables are libs/stores/sqlite's
 * `SqliteIdempotencyStore` and `SqliteWebhookOutbox`; docs/DESIGN.md "Personal data";
 * docs/operations.md "Backups and restore"), by table: the rows of `idempotency_keys` (a kept answer is a whole HTTP
 * answer, personal data in the clear and not always any trainee's), and the payloads of
 * `webhook_deliveries` (a change with its TRN): pending deliveries are left out whole, and the
 * dispatcher's checkpoint is set back to before the first of them, so that a restored dispatcher
 * makes them again from the change feed; a delivered or abandoned one keeps its row (its attempts)
 * with an empty payload, and is not made again. Every other table is copied whole.
 */
const LEFT_OUT = { answers: 'idempotency_keys', deliveries: 'webhook_deliveries', dispatcher: 'webhook_dispatcher' } as const;

/** A schema entry of the source: what makes a table, index, trigger or view. */
interface SchemaRow {
  type: string;
  name: string;
  sql: string;
}

/**
 * Copies the state file `source` (read-only, one read transaction: the file as of one commit,
 * whatever other processes write meanwhile) into `target` (an empty file the caller made 0600),
 * leaving out what {@link LEFT_OUT} names, so that no kept answer or webhook payload is ever written
 * to the target: never a copy made whole and then deleted from, which would leave them in its free
 * pages or journal. Schema, rows and `user_version` otherwise as the source's. Throws what
 * better-sqlite3 throws (the target then holds part of the copy: the caller discards it).
 */
export function copyStateForBackup(source: string, target: string): void {
  const from = new Database(source, { readonly: true, fileMustExist: true });
  const to = new Database(target);
  try {
    // No journal: the target is new, and a copy that stops midway is thrown away whole.
    to.pragma('journal_mode = OFF');
    to.pragma('synchronous = OFF');
    from.exec('BEGIN');
    const schema = from
      .prepare<[], SchemaRow>(`SELECT type, name, sql FROM sqlite_schema WHERE sql IS NOT NULL AND name NOT LIKE 'sqlite_%'`)
      .all();
    const tables = schema.filter((s) => s.type === 'table');
    to.transaction(() => {
      for (const t of tables) to.exec(t.sql);
      for (const t of tables) copyRows(from, to, t.name);
      for (const s of schema.filter((x) => x.type !== 'table')) to.exec(s.sql);
      rewindDispatcher(from, to, tables);
      to.pragma(`user_version = ${Number(from.pragma('user_version', { simple: true }))}`);
    })();
    from.exec('COMMIT');
  } finally {
    from.close();
    to.close();
  }
}

/** The rows of `table` the backup keeps, copied from `from` to `to` (the same schema). */
function copyRows(from: Database.Database, to: Database.Database, table: string): void {
  if (table === LEFT_OUT.answers) return;
  const columns = from
    .prepare<[string], { name: string }>(`SELECT name FROM pragma_table_info(?)`)
    .all(table)
    .map((c) => c.name);
  const quoted = (name: string) => `"${name.replaceAll('"', '""')}"`;
  let select = `SELECT ${columns.map(quoted).join(', ')} FROM ${quoted(table)}`;
  if (table === LEFT_OUT.deliveries)
    select = `SELECT ${columns.map((c) => (c === 'payload' ? `'' AS payload` : quoted(c))).join(', ')} FROM ${quoted(table)} WHERE status <> 'pending'`;
  const insert = to.prepare(
    `INSERT INTO ${quoted(table)} (${columns.map(quoted).join(', ')}) VALUES (${columns.map(() => '?').join(', ')})`,
  );
  for (const row of from.prepare(select).raw(true).iterate()) insert.run(row as unknown[]);
}

/**
 * Sets the copied dispatcher's checkpoint back to just before the first pending delivery left out:
 * on the embedded log a position is its event's row number, so every change from that one on is
 * read again, and each pending delivery made again (one kept as delivered or abandoned is not:
 * its id is taken).
 */
function rewindDispatcher(from: Database.Database, to: Database.Database, tables: readonly SchemaRow[]): void {
  const has = (name: string) => tables.some((t) => t.name === name);
  if (!has(LEFT_OUT.deliveries) || !has(LEFT_OUT.dispatcher)) return;
  const first = from.prepare<[], number | null>(`SELECT MIN(position) FROM webhook_deliveries WHERE status = 'pending'`).pluck().get();
  if (first === null || first === undefined) return;
  to.prepare(`UPDATE webhook_dispatcher SET position = MIN(position, ?) WHERE name = 'checkpoint'`).run(first - 1);
}
