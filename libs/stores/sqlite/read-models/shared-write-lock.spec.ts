import Database from 'better-sqlite3';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Worker } from 'node:worker_threads';
import { SharedWriteLock, writeAsSoonAsFree } from './shared-write-lock';

/** A thread that holds the write lock of `file` for `ms`, then commits a row `held`. */
function holdLock(file: string, ms: number): { taken: Promise<void>; done: Promise<void> } {
  const worker = new Worker(
    `const { parentPort, workerData } = require('node:worker_threads');
     const Database = require('better-sqlite3');
     const db = new Database(workerData.file);
     db.exec('BEGIN IMMEDIATE');
     parentPort.postMessage('taken');
     Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, workerData.ms);
     db.prepare("INSERT INTO t (v) VALUES ('held')").run();
     db.exec('COMMIT');
     db.close();`,
    { eval: true, workerData: { file, ms } },
  );
  const taken = new Promise<void>((resolve) => worker.once('message', () => resolve()));
  const done = new Promise<void>((resolve, reject) => {
    worker.once('error', reject);
    worker.once('exit', () => resolve());
  });
  return { taken, done };
}

describe('writeAsSoonAsFree (docs/DESIGN.md "Projection versions and blue/green rebuilds")', () => {
  let dir: string;
  let file: string;
  let db: Database.Database;
  const values = () => db.prepare('SELECT v FROM t ORDER BY rowid').pluck().all();

  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'write-lock-'));
    file = path.join(dir, 'rm.sqlite');
    db = new Database(file, { timeout: 5000 });
    db.pragma('journal_mode = WAL');
    db.exec('CREATE TABLE t (v TEXT NOT NULL)');
  });

  afterEach(() => {
    db.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('commits what the write did and answers its result', () => {
    const result = writeAsSoonAsFree(db, () => db.prepare("INSERT INTO t (v) VALUES ('a')").run().changes);
    expect(result).toBe(1);
    expect(values()).toEqual(['a']);
    expect(db.inTransaction).toBe(false);
  });

  it('rolls back and throws what the write threw', () => {
    expect(() =>
      writeAsSoonAsFree(db, () => {
        db.prepare("INSERT INTO t (v) VALUES ('lost')").run();
        throw new Error('refused');
      }),
    ).toThrow('refused');
    expect(values()).toEqual([]);
    expect(db.inTransaction).toBe(false);
  });

  it('inside a transaction of the same connection, writes as a savepoint of it', () => {
    db.transaction(() => {
      db.prepare("INSERT INTO t (v) VALUES ('outer')").run();
      writeAsSoonAsFree(db, () => db.prepare("INSERT INTO t (v) VALUES ('inner')").run());
      expect(() =>
        writeAsSoonAsFree(db, () => {
          db.prepare("INSERT INTO t (v) VALUES ('undone')").run();
          throw new Error('refused');
        }),
      ).toThrow('refused');
    }).immediate();
    expect(values()).toEqual(['outer', 'inner']);
  });

  it('waits while another connection holds the write lock, then writes after it', async () => {
    const other = holdLock(file, 150);
    await other.taken;
    writeAsSoonAsFree(db, () => db.prepare("INSERT INTO t (v) VALUES ('after')").run());
    await other.done;
    expect(values()).toEqual(['held', 'after']);
  });

  it('throws SQLITE_BUSY when the lock stays taken past its timeout, and keeps the busy timeout', async () => {
    const other = holdLock(file, 300);
    await other.taken;
    expect(() => writeAsSoonAsFree(db, () => db.prepare("INSERT INTO t (v) VALUES ('late')").run(), 20)).toThrow(
      expect.objectContaining({ code: 'SQLITE_BUSY' }),
    );
    expect(db.pragma('busy_timeout', { simple: true })).toBe(5000);
    await other.done;
    expect(values()).toEqual(['held']);
  });
});

describe('SharedWriteLock (docs/DESIGN.md "Projection versions and blue/green rebuilds")', () => {
  let dir: string;
  let file: string;

  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'shared-lock-'));
    file = path.join(dir, 'rm.sqlite');
  });

  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('says after each transaction whether another connection committed since it last looked (live writes going on)', async () => {
    const db = new Database(file);
    db.pragma('journal_mode = WAL');
    db.exec('CREATE TABLE t (v TEXT NOT NULL)');
    const live = new Database(file);
    const lock = new SharedWriteLock(db);
    const insert = (v: string) => () => void db.prepare('INSERT INTO t (v) VALUES (?)').run(v);
    await lock.run(1, insert('alone'));
    expect(lock.contended).toBe(false);
    live.prepare("INSERT INTO t (v) VALUES ('live')").run();
    await lock.run(1, insert('beside a live write'));
    expect(lock.contended).toBe(true);
    await lock.run(1, insert('alone again'));
    expect(lock.contended).toBe(false);
    expect(db.prepare('SELECT v FROM t ORDER BY rowid').pluck().all()).toEqual(['alone', 'live', 'beside a live write', 'alone again']);
    live.close();
    db.close();
  });

  it('sizes its transactions for TRANSACTION_MS beside live writes, and for its quiet length while none commit', async () => {
    const db = new Database(file);
    db.pragma('journal_mode = WAL');
    db.exec('CREATE TABLE t (v TEXT NOT NULL)');
    const insert = () => void db.prepare("INSERT INTO t (v) VALUES ('x')").run();
    const quiet = new SharedWriteLock(db, 64, 100);
    const plain = new SharedWriteLock(db);
    for (const lock of [quiet, plain]) {
      expect(lock.size()).toBe(64);
      await lock.run(1, insert);
    }
    // One pace each: the size is its quiet or busy length over the same ms per unit.
    quiet.contended = true;
    const busy = quiet.size();
    quiet.contended = false;
    expect(quiet.size()).toBeGreaterThanOrEqual(6 * busy);
    plain.contended = true;
    const plainBusy = plain.size();
    plain.contended = false;
    expect(plain.size()).toBe(plainBusy);
    db.close();
  });
});
