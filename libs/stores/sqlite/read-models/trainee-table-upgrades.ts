import type { Database } from '@app/sqlite';

/** What a trainee store gains beside its rows, also in a store written before each existed. */

/** The list's unfiltered total per provider and cycle, kept by triggers in each row's transaction; an older store is counted once here. */
export function keepTraineeCounts(db: Database.Database, table: string, counts: string): void {
  const t = table;
  const c = counts;
  const add = (ukprn: string, cycle: string, n: number) =>
    `INSERT INTO ${c} (ukprn, start_cycle, n) VALUES (${ukprn}, ${cycle}, ${n}) ON CONFLICT (ukprn, start_cycle) DO UPDATE SET n = n + ${n};`;
  db.transaction(() => {
    const missing = !db.prepare(`SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?`).get(c);
    db.exec(`
      CREATE TABLE IF NOT EXISTS ${c} (
        ukprn TEXT NOT NULL, start_cycle INTEGER NOT NULL, n INTEGER NOT NULL, PRIMARY KEY (ukprn, start_cycle)) WITHOUT ROWID;
      CREATE TRIGGER IF NOT EXISTS ${t}_counted AFTER INSERT ON ${t} BEGIN ${add('new.ukprn', 'new.start_cycle', 1)} END;
      CREATE TRIGGER IF NOT EXISTS ${t}_recounted AFTER UPDATE OF ukprn, start_cycle ON ${t}
        WHEN old.ukprn IS NOT new.ukprn OR old.start_cycle IS NOT new.start_cycle
        BEGIN ${add('old.ukprn', 'old.start_cycle', -1)} ${add('new.ukprn', 'new.start_cycle', 1)} END;
      CREATE TRIGGER IF NOT EXISTS ${t}_uncounted AFTER DELETE ON ${t} BEGIN ${add('old.ukprn', 'old.start_cycle', -1)} END;`);
    if (missing)
      db.exec(`INSERT INTO ${c} (ukprn, start_cycle, n) SELECT ukprn, start_cycle, COUNT(*) FROM ${t} GROUP BY ukprn, start_cycle`);
  }).immediate();
}

/** The hash of the event at the row's revision: an older store gains it empty, and rows learn it as their trainees change. */
export function addHeadHashColumn(db: Database.Database, table: string): void {
  if ((db.pragma(`table_info(${table})`) as { name: string }[]).some((c) => c.name === 'head_hash')) return;
  db.exec(`ALTER TABLE ${table} ADD COLUMN head_hash TEXT`);
}

/**
 * The stored answers' table `table` (docs/DESIGN.md "Answers stored as bytes"): one row per trainee and version, keyed by the trainee
 * row's seq, the item's bytes leading the answer; `body` a patch over version `base`'s answer when `base` is set. A rowid table (WITHOUT
 * ROWID filled more slowly with rows this large: 3.1 s against 2.3 s for 20k trainees).
 */
export function createAnswersTable(db: Database.Database, table: string): void {
  db.exec(`
    CREATE TABLE IF NOT EXISTS ${table} (
      seq INTEGER NOT NULL,
      version TEXT NOT NULL,
      item_end INTEGER NOT NULL,
      body BLOB NOT NULL,
      base TEXT,
      PRIMARY KEY (seq, version)
    );
  `);
  addAnswerBaseColumn(db, table);
}

/** The answers' `base`: null in an older store's rows, each then a whole answer. */
function addAnswerBaseColumn(db: Database.Database, table: string): void {
  if ((db.pragma(`table_info(${table})`) as { name: string }[]).some((c) => c.name === 'base')) return;
  db.exec(`ALTER TABLE ${table} ADD COLUMN base TEXT`);
}
