import type { Database } from '@app/sqlite';

/**
 * What a trainee projection store (`TraineeTables`) gains beside its rows, also in a store written
 * before each existed: the kept list counts and the `head_hash` column.
 */

/**
 * The list's unfiltered total_count per provider and start cycle (`counts`, the table
 * `trainee_counts_<store>`), kept by triggers on the rows of `table` (so every write path keeps
 * it, in the row's transaction); a store written before it existed gets it counted once, here.
 */
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

/**
 * The `head_hash` column of `table` (the hash of the event at the row's revision, docs/DESIGN.md
 * "Verifiable history"): a store written before the hash chain gains it empty, and its rows learn
 * their hash as their trainees change.
 */
export function addHeadHashColumn(db: Database.Database, table: string): void {
  if ((db.pragma(`table_info(${table})`) as { name: string }[]).some((c) => c.name === 'head_hash')) return;
  db.exec(`ALTER TABLE ${table} ADD COLUMN head_hash TEXT`);
}
