/**
 * A thread of `copyInThread` (./copy-in-thread.ts): one SQLite file copied online, on connections
 * of its own, into a file that stands alone (a rollback journal, no WAL beside it). Posts
 * `{done: true}` or `{error}`.
 *
 * - `whole`: `VACUUM INTO` the target (docs/operations.md "Backups and restore"): one read
 *   transaction, so the copy is the database as of one commit, whatever other connections and
 *   processes write meanwhile; never a copy of the file's bytes, which a live WAL database tears.
 * - `tables`: the named tables (with their indexes) copied by `INSERT … SELECT` from the source,
 *   attached read-only, inside one transaction: every table as of one commit of the source. A
 *   table's `where` keeps only the rows it names; a table the source lacks is left out.
 */
import Database from 'better-sqlite3';
import { parentPort, workerData } from 'node:worker_threads';

/** One table of a `tables` copy, and the rows of it kept (an SQL condition; all when absent). */
export interface CopiedTable {
  name: string;
  where?: string;
}

/** What the thread is started with (`workerData.job`). */
export type CopyJob =
  { kind: 'whole'; source: string; target: string } | { kind: 'tables'; source: string; target: string; tables: CopiedTable[] };

interface SchemaRow {
  type: string;
  name: string;
  tbl_name: string;
  sql: string | null;
}

/** `VACUUM INTO` from a read-only connection to `source` (the target exists empty, made 0600 by the caller). */
function copyWhole(source: string, target: string): void {
  const db = new Database(source, { readonly: true, fileMustExist: true });
  try {
    db.prepare('VACUUM INTO ?').run(target);
  } finally {
    db.close();
  }
}

/** The named tables of `source`, their schema and rows, into `target` in one transaction. */
function copyTables(source: string, target: string, tables: CopiedTable[]): void {
  const db = new Database(target);
  try {
    db.prepare(`ATTACH DATABASE ? AS src`).run(source);
    db.transaction(() => {
      const schema = db.prepare<[], SchemaRow>(`SELECT type, name, tbl_name, sql FROM src.sqlite_schema WHERE sql IS NOT NULL`).all();
      for (const table of tables) {
        const rows = schema.filter((r) => r.tbl_name === table.name);
        const create = rows.find((r) => r.type === 'table');
        if (!create) continue;
        db.exec(create.sql!);
        db.exec(`INSERT INTO main."${table.name}" SELECT * FROM src."${table.name}"${table.where ? ` WHERE ${table.where}` : ''}`);
        for (const index of rows.filter((r) => r.type === 'index')) db.exec(index.sql!);
      }
    })();
    db.exec('DETACH DATABASE src');
  } finally {
    db.close();
  }
}

const job = (workerData as { job: CopyJob }).job;
try {
  if (job.kind === 'whole') copyWhole(job.source, job.target);
  else copyTables(job.source, job.target, job.tables);
  parentPort!.postMessage({ done: true });
} catch (error) {
  parentPort!.postMessage({ error: error instanceof Error ? error.message : String(error) });
}
