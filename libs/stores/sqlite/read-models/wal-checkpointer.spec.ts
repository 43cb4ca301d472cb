import Database from 'better-sqlite3';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { CHECKPOINT_DELAY_MS, WalCheckpointer } from './wal-checkpointer';

/** Resolves once `check()` is true, polling every 20 ms; rejects after `ms`. */
async function eventually(check: () => boolean, ms: number): Promise<void> {
  const until = Date.now() + ms;
  while (!check()) {
    if (Date.now() > until) throw new Error(`not within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('WalCheckpointer (docs/DESIGN.md "The projection thread")', () => {
  let dir: string;
  let file: string;
  let writer: Database.Database;
  let checkpointer: WalCheckpointer | null = null;
  const errors: string[] = [];
  /** The database file's size: a checkpoint copies the WAL's pages into it. */
  const fileSize = () => fs.statSync(file).size;
  /** Commits 1 MiB of new pages to the WAL (the writer never checkpoints itself). */
  const commitPages = () => writer.prepare('INSERT INTO t (b) VALUES (?)').run(Buffer.alloc(1024 * 1024, 7));

  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wal-checkpointer-'));
    file = path.join(dir, 'read-models.sqlite');
    writer = new Database(file);
    writer.pragma('journal_mode = WAL');
    writer.pragma('wal_autocheckpoint = 0');
    writer.exec('CREATE TABLE t (b BLOB)');
    writer.pragma('wal_checkpoint(TRUNCATE)');
    errors.length = 0;
  });

  afterEach(async () => {
    await checkpointer?.stop();
    checkpointer = null;
    writer.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('checkpoints the WAL into the file after a commit it is told of, and not before', async () => {
    checkpointer = new WalCheckpointer(file, (message) => errors.push(message));
    const before = fileSize();
    commitPages();
    await new Promise((r) => setTimeout(r, 3 * CHECKPOINT_DELAY_MS + 500));
    expect(fileSize()).toBe(before);

    checkpointer.committed();
    await eventually(() => fileSize() >= before + 1024 * 1024, 10_000);
    const walFrames = writer.pragma('wal_checkpoint(PASSIVE)') as { log: number; checkpointed: number }[];
    expect(walFrames[0].checkpointed).toBe(walFrames[0].log);
    expect(errors).toEqual([]);
  });

  it('checkpoints again after later commits: one wake-up per commit is never lost', async () => {
    checkpointer = new WalCheckpointer(file, (message) => errors.push(message));
    for (let round = 1; round <= 3; round++) {
      const before = fileSize();
      commitPages();
      checkpointer.committed();
      await eventually(() => fileSize() >= before + 1024 * 1024, 10_000);
    }
    expect(fileSize()).toBeGreaterThanOrEqual(3 * 1024 * 1024);
  });

  it('stops while waiting for a commit, and while waiting out the delay after one', async () => {
    checkpointer = new WalCheckpointer(file, (message) => errors.push(message));
    await new Promise((r) => setTimeout(r, 200));
    await expect(checkpointer.stop()).resolves.toBeUndefined();

    checkpointer = new WalCheckpointer(file, (message) => errors.push(message));
    const before = fileSize();
    commitPages();
    checkpointer.committed();
    await checkpointer.stop();
    checkpointer = null;
    // Stopped before its delay ran out: the commit's pages were not checkpointed.
    expect(fileSize()).toBe(before);
  });
});
