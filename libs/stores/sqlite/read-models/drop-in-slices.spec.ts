import Database from 'better-sqlite3';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { dropInSlices } from './drop-in-slices';

describe('dropInSlices (docs/DESIGN.md "Projection versions and blue/green rebuilds")', () => {
  let dir: string;
  let db: Database.Database;
  let other: Database.Database;

  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'drop-in-slices-'));
    db = new Database(path.join(dir, 'rm.sqlite'));
    db.pragma('journal_mode = WAL');
    other = new Database(path.join(dir, 'rm.sqlite'), { timeout: 0 });
    db.exec(`
      CREATE TABLE rows_a (id INTEGER PRIMARY KEY, k TEXT NOT NULL UNIQUE, body BLOB NOT NULL);
      CREATE INDEX rows_a_body ON rows_a (body);
      CREATE TABLE counts_a (k TEXT PRIMARY KEY, n INTEGER NOT NULL) WITHOUT ROWID;
      CREATE TRIGGER rows_a_counted AFTER INSERT ON rows_a BEGIN
        INSERT INTO counts_a (k, n) VALUES ('all', 1) ON CONFLICT (k) DO UPDATE SET n = n + 1; END;
      CREATE TABLE kept (x INTEGER);
    `);
    const insert = db.prepare(`INSERT INTO rows_a (k, body) VALUES (?, randomblob(200))`);
    db.transaction(() => {
      for (let i = 0; i < 5000; i++) insert.run(`k${i}`);
    })();
  });

  afterEach(() => {
    other.close();
    db.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const names = () => db.prepare<[], string>(`SELECT name FROM sqlite_master ORDER BY name`).pluck().all();

  it('drops the tables, their indexes and triggers, deleting the rows in several transactions with the lock free between them', async () => {
    const slices: number[] = [];
    let writesBetween = 0;
    await dropInSlices(db, ['rows_a', 'counts_a', 'missing'], {
      onSlice: (table, rows) => {
        if (table !== 'rows_a') return;
        slices.push(rows);
        // The slice has committed: another connection that will not wait takes the write lock at once.
        other.prepare(`INSERT INTO kept (x) VALUES (?)`).run(rows);
        writesBetween++;
      },
    });
    expect(names()).toEqual(['kept']);
    expect(slices.length).toBeGreaterThan(1);
    expect(slices.reduce((a, b) => a + b, 0)).toBe(5000);
    expect(Math.max(...slices)).toBeLessThan(5000);
    expect(writesBetween).toBe(slices.length);
  });

  it('goes on where an earlier call stopped: a table left partly emptied is emptied and dropped', async () => {
    db.exec(`DROP INDEX rows_a_body; DELETE FROM rows_a WHERE id <= 1000`);
    await dropInSlices(db, ['rows_a', 'counts_a'], { pauseMs: 0 });
    expect(names()).toEqual(['kept']);
  });
});
