/**
 * GroupCommit (docs/DESIGN.md "Group commit"): units submitted in one turn of the event loop
 * share one transaction; a unit that throws rolls back alone; promises settle after the commit.
 */
import Database from 'better-sqlite3';
import { GroupCommit } from './group-commit';

function table(): Database.Database {
  const db = new Database(':memory:');
  db.exec('CREATE TABLE t (k TEXT PRIMARY KEY)');
  return db;
}

describe('GroupCommit', () => {
  it('commits the units of one turn together, once, and each resolves with its own result', async () => {
    const db = table();
    const commits: string[][] = [];
    const insert = db.prepare('INSERT INTO t (k) VALUES (?)');
    const group = new GroupCommit(
      db,
      (k: string) => (insert.run(k), k.toUpperCase()),
      (results) => commits.push(results),
    );
    const results = await Promise.all(['a', 'b', 'c'].map((k) => group.submit(k)));
    expect(results).toEqual(['A', 'B', 'C']);
    expect(commits).toEqual([['A', 'B', 'C']]);
    await group.submit('d');
    expect(commits).toEqual([['A', 'B', 'C'], ['D']]);
    expect(db.prepare('SELECT k FROM t ORDER BY k').pluck().all()).toEqual(['a', 'b', 'c', 'd']);
  });

  it('rolls back a unit that throws (all of its writes) and commits the others', async () => {
    const db = table();
    const insert = db.prepare('INSERT INTO t (k) VALUES (?)');
    const group = new GroupCommit(
      db,
      (keys: string[]) => keys.map((k) => insert.run(k).changes),
      () => undefined,
    );
    const outcomes = await Promise.allSettled([group.submit(['a']), group.submit(['b', 'a']), group.submit(['c'])]);
    expect(outcomes.map((o) => o.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(String((outcomes[1] as PromiseRejectedResult).reason)).toMatch(/UNIQUE/);
    expect(db.prepare('SELECT k FROM t ORDER BY k').pluck().all()).toEqual(['a', 'c']);
  });

  it('settles nothing before the commit: a unit sees no promise resolved while its turn is open', async () => {
    const db = table();
    const insert = db.prepare('INSERT INTO t (k) VALUES (?)');
    const group = new GroupCommit(
      db,
      (k: string) => insert.run(k),
      () => undefined,
    );
    let settled = false;
    const pending = group.submit('a').then(() => (settled = true));
    await Promise.resolve();
    expect(settled).toBe(false);
    expect(db.prepare('SELECT COUNT(*) FROM t').pluck().get()).toBe(0);
    group.flush();
    await pending;
    expect(settled).toBe(true);
  });
});
