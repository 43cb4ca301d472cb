import type { Database } from '@app/sqlite';
import { ProviderTables } from './provider-tables';
import { SharedWriteLock } from './shared-write-lock';
import type { registryStatements } from './registry-statements';
import { TraineeTables } from './trainee-tables';

/** How a store is dropped: by default in slices sized by {@link SharedWriteLock}, yielding as it does. */
export interface SliceOptions {
  /** A fixed pause after each slice instead (ms; the tests'). */
  pauseMs?: number;
  /** Told of each slice committed: its table and the rows it deleted. */
  onSlice?: (table: string, rows: number) => void;
}

/**
 * Drops `tables` (missing ones are skipped) without holding the database's write lock for long:
 * per table, its secondary indexes and triggers one by one, then its rows in slices sized from the
 * last slice's time ({@link SharedWriteLock}), each its own transaction and followed by a pause
 * (`pauseMs`, or where others write as long as the slice held the lock), then the emptied table.
 * A `DROP TABLE` of a large table holds the lock while it frees every page (about 3 s at 100,000
 * trainees), and every write waits for it. Resolves once all are gone; a call interrupted (a
 * crash) leaves them partly emptied, and a later call goes on.
 */
export async function dropInSlices(db: Database.Database, tables: readonly string[], options: SliceOptions = {}): Promise<void> {
  const lock = new SharedWriteLock(db);
  const step = slicer(lock, options);
  const exists = db.prepare<[string], number>(`SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?`).pluck();
  const attached = db.prepare<[string], { type: string; name: string }>(
    `SELECT type, name FROM sqlite_master WHERE tbl_name = ? AND type IN ('index', 'trigger') AND sql IS NOT NULL`,
  );
  for (const table of tables) {
    if (!exists.get(table)) continue;
    for (const { type, name } of attached.all(table))
      await step(0, () => db.exec(`DROP ${type === 'index' ? 'INDEX' : 'TRIGGER'} IF EXISTS "${name}"`));
    if (hasRowid(db, table)) {
      const slice = db.prepare<[number]>(`DELETE FROM "${table}" WHERE rowid IN (SELECT rowid FROM "${table}" LIMIT ?)`);
      for (let more = true; more;) {
        const rows = lock.size();
        let deleted = 0;
        await step(rows, () => {
          deleted = slice.run(rows).changes;
        });
        more = deleted === rows;
        options.onSlice?.(table, deleted);
      }
    }
    await step(0, () => db.exec(`DROP TABLE IF EXISTS "${table}"`));
  }
}

/** A slice's transaction: {@link SharedWriteLock.run}, or `write` then the fixed pause of `options`. */
function slicer(lock: SharedWriteLock, options: SliceOptions): (units: number, write: () => void) => Promise<void> {
  return async (units, write) => {
    if (options.pauseMs === undefined) return lock.run(units, write);
    write();
    await new Promise((resolve) => setTimeout(resolve, options.pauseMs));
  };
}

/** SQLite's `auto_vacuum` mode that keeps free pages until `PRAGMA incremental_vacuum` returns them. */
const AUTO_VACUUM_INCREMENTAL = 2;

/**
 * Gives the file's free pages back to the file system, as many as were free when called, in slices of the write lock as
 * {@link dropInSlices} takes it (each slice an `incremental_vacuum` of that many pages; `onSlice` told `free pages` and the count). Only
 * a file made with `auto_vacuum = INCREMENTAL` (`openReadStoreFile`); older files keep their free pages for later writes. The file
 * shrinks at the WAL's next checkpoint.
 */
export async function releaseFreePages(db: Database.Database, options: SliceOptions = {}): Promise<void> {
  if (db.pragma('auto_vacuum', { simple: true }) !== AUTO_VACUUM_INCREMENTAL) return;
  const lock = new SharedWriteLock(db);
  const step = slicer(lock, options);
  const freePages = db.prepare<[], number>('PRAGMA freelist_count').pluck();
  for (let left = freePages.get()!; left > 0;) {
    const pages = Math.min(left, lock.size());
    await step(pages, () => db.exec(`PRAGMA incremental_vacuum(${pages})`));
    options.onSlice?.('free pages', pages);
    left = Math.min(left - pages, freePages.get()!);
  }
}

/**
 * Drops every store recorded in `projection_drops` (a swap's old store), each with
 * {@link dropInSlices} and then its checkpoint and its record, until none is left; then
 * {@link releaseFreePages}.
 */
export async function dropRecordedStores(
  db: Database.Database,
  stmts: Pick<ReturnType<typeof registryStatements>, 'drops' | 'dropped'>,
  options?: SliceOptions,
): Promise<void> {
  const forget = db.prepare(`DELETE FROM projection_checkpoints WHERE name = ?`);
  for (let pending = stmts.drops.all(); pending.length > 0; pending = stmts.drops.all()) {
    for (const { projection, store } of pending) {
      await dropInSlices(db, projection === 'trainees' ? TraineeTables.tableNames(store) : ProviderTables.tableNames(store), options);
      db.transaction(() => {
        forget.run(`${projection}_${store}`);
        stmts.dropped.run(projection, store);
      }).immediate();
    }
  }
  await releaseFreePages(db, options);
}

/** False for a `WITHOUT ROWID` table (small ones here: dropped whole). */
function hasRowid(db: Database.Database, table: string): boolean {
  try {
    db.prepare(`SELECT rowid FROM "${table}" LIMIT 0`);
    return true;
  } catch {
    return false;
  }
}
