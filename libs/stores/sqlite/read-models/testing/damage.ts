/**
 * Damage done to a SQLite file for the tests of a damaged read store (docs/operations.md "Health"):
 * one page in the middle of a table overwritten with garbage, as a torn write or a bad sector
 * leaves it.
 */
import { Database } from '@app/sqlite';
import { closeSync, existsSync, openSync, statSync, writeSync } from 'node:fs';

/**
 * Overwrites with garbage the middle leaf page of the first table of `file` whose name starts with
 * `tablePrefix` (found with the `dbstat` table), while no connection has the file open (its WAL
 * empty or gone). Returns the page's number. Throws when there is no such table or a WAL still
 * holds pages (they would shadow the damage).
 */
export function corruptPage(file: string, tablePrefix: string): number {
  if (existsSync(`${file}-wal`) && statSync(`${file}-wal`).size > 0) throw new Error(`${file} has a WAL: close every connection first`);
  const db = new Database(file, { readonly: true, fileMustExist: true });
  let page: number;
  let pageSize: number;
  try {
    pageSize = db.pragma('page_size', { simple: true }) as number;
    const pages = db
      .prepare<[string], number>(`SELECT pageno FROM dbstat WHERE name LIKE ? || '%' AND pagetype = 'leaf' ORDER BY pageno`)
      .pluck()
      .all(tablePrefix);
    if (pages.length === 0) throw new Error(`no leaf page of a table ${tablePrefix}… in ${file}`);
    page = pages[Math.floor(pages.length / 2)];
  } finally {
    db.close();
  }
  const garbage = Buffer.alloc(pageSize);
  for (let i = 0; i < pageSize; i++) garbage[i] = (i * 151 + 89) & 0xff;
  const fd = openSync(file, 'r+');
  try {
    writeSync(fd, garbage, 0, pageSize, (page - 1) * pageSize);
  } finally {
    closeSync(fd);
  }
  return page;
}

/** What `PRAGMA quick_check` answers on `file`: `['ok']` when sound. */
export function quickCheck(file: string): string[] {
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    return db.prepare<[], string>('PRAGMA quick_check').pluck().all();
  } catch (err) {
    return [err instanceof Error ? err.message : String(err)];
  } finally {
    db.close();
  }
}
