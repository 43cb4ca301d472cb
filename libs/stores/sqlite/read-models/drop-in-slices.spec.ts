import Database from 'better-sqlite3';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { dropInSlices, releaseFreePages } from './drop-in-slices';
import { openReadStoreFile } from './read-store-file';
import { lockWait, setLockWait } from '@app/sqlite';

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

describe('releaseFreePages', () => {
  let dir: string;

  beforeEach(() => (dir = fs.mkdtempSync(path.join(os.tmpdir(), 'release-free-pages-'))));
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  /** A file with 4,000 rows of 3,000 bytes in `gone` and one row in `kept`, by `open`. */
  function filled(open: (file: string) => Database.Database): Database.Database {
    const db = open(path.join(dir, 'rm.sqlite'));
    db.exec(`CREATE TABLE gone (body BLOB NOT NULL); CREATE TABLE kept (x INTEGER)`);
    const insert = db.prepare(`INSERT INTO gone (body) VALUES (randomblob(3000))`);
    db.transaction(() => {
      for (let i = 0; i < 4000; i++) insert.run();
    })();
    return db;
  }
  const pages = (db: Database.Database) => db.pragma('page_count', { simple: true }) as number;
  const free = (db: Database.Database) => db.pragma('freelist_count', { simple: true }) as number;

  it('gives a read store file the pages of a dropped table back, in transactions with the lock free between them', async () => {
    const db = filled((file) => openReadStoreFile(file, {}));
    const other = new Database(path.join(dir, 'rm.sqlite'), { timeout: 0 });
    try {
      const before = pages(db);
      await dropInSlices(db, ['gone'], { pauseMs: 0 });
      expect(free(db)).toBeGreaterThan(3000);
      const slices: number[] = [];
      await releaseFreePages(db, {
        onSlice: (_what, n) => {
          slices.push(n);
          other.prepare(`INSERT INTO kept (x) VALUES (?)`).run(n);
        },
      });
      expect(free(db)).toBe(0);
      expect(pages(db)).toBeLessThan(before / 10);
      expect(slices.length).toBeGreaterThan(1);
      db.pragma('wal_checkpoint(TRUNCATE)');
      expect(fs.statSync(path.join(dir, 'rm.sqlite')).size).toBe(pages(db) * (db.pragma('page_size', { simple: true }) as number));
      expect(db.prepare('SELECT COUNT(*) FROM kept').pluck().get()).toBe(slices.length);
    } finally {
      other.close();
      db.close();
    }
  });

  it('opens a read store file another connection is writing without a write of its own (the mode is set on an empty file only)', () => {
    const first = openReadStoreFile(path.join(dir, 'rm.sqlite'), {});
    first.exec('CREATE TABLE t (x)');
    first.close();
    const writer = new Database(path.join(dir, 'rm.sqlite'));
    const wait = lockWait();
    writer.exec('BEGIN IMMEDIATE');
    setLockWait(0);
    try {
      const db = openReadStoreFile(path.join(dir, 'rm.sqlite'), {});
      expect(db.pragma('auto_vacuum', { simple: true })).toBe(2);
      db.close();
    } finally {
      setLockWait(wait);
      writer.exec('ROLLBACK');
      writer.close();
    }
  });

  it('leaves a file made before incremental vacuum as it is: its free pages stay for later writes', async () => {
    const db = filled((file) => new Database(file));
    try {
      await dropInSlices(db, ['gone'], { pauseMs: 0 });
      const freeBefore = free(db);
      await releaseFreePages(db, { pauseMs: 0 });
      expect(free(db)).toBe(freeBefore);
      expect(freeBefore).toBeGreaterThan(3000);
    } finally {
      db.close();
    }
  });
});
