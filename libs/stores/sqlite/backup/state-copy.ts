import { Database } from '@app/sqlite';

/**
 * What a backup leaves out of `state.sqlite` (docs/operations.md "Backups and restore"): `idempotency_keys`' rows (whole HTTP answers,
 * personal data in the clear), and webhook payloads (a change with its TRN): pending deliveries left out whole, the dispatcher's
 * checkpoint set back before the first so a restore makes them again; delivered or abandoned ones kept with an empty payload; the
 * uploads page's sessions (`page_sessions`), so a restore signs no one in whose session had ended since.
 */
const LEFT_OUT = {
  answers: 'idempotency_keys',
  sessions: 'page_sessions',
  deliveries: 'webhook_deliveries',
  dispatcher: 'webhook_dispatcher',
} as const;

interface SchemaRow {
  type: string;
  name: string;
  sql: string;
}

/**
 * Copies `source` as of one read transaction into `target` (new, 0600) without what {@link LEFT_OUT} names: never a whole copy then
 * deleted from, which would leave them in free pages or the journal. Throws better-sqlite3's errors (the caller discards the target).
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

/** Same schema at both ends. */
function copyRows(from: Database.Database, to: Database.Database, table: string): void {
  if (table === LEFT_OUT.answers || table === LEFT_OUT.sessions) return;
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

/** Just before the first pending delivery left out: a position is its event's row number, so each is made again (kept ones' ids taken). */
function rewindDispatcher(from: Database.Database, to: Database.Database, tables: readonly SchemaRow[]): void {
  const has = (name: string) => tables.some((t) => t.name === name);
  if (!has(LEFT_OUT.deliveries) || !has(LEFT_OUT.dispatcher)) return;
  const first = from.prepare<[], number | null>(`SELECT MIN(position) FROM webhook_deliveries WHERE status = 'pending'`).pluck().get();
  if (first === null || first === undefined) return;
  to.prepare(`UPDATE webhook_dispatcher SET position = MIN(position, ?) WHERE name = 'checkpoint'`).run(first - 1);
}
