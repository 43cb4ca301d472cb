/** SQLite files readable by the service's user only (docs/operations.md "File permissions"). */
import { chmodSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { lockWait, setLockWait } from './lock-wait';
import { makePrivateDirectory, openPrivateDatabase } from './private-files';

const modeOf = (file: string): string => (statSync(file).mode & 0o777).toString(8);

describe('private SQLite files', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'private-files-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('creates a database with its WAL and shared memory 0600', () => {
    const file = join(dir, 'a.sqlite');
    const db = openPrivateDatabase(file);
    db.pragma('journal_mode = WAL');
    db.exec('CREATE TABLE t (x); INSERT INTO t VALUES (1)');
    expect([file, `${file}-wal`, `${file}-shm`].map(modeOf)).toEqual(['600', '600', '600']);
    db.close();
  });

  it('narrows a database and companions an older version made 0644 at their next open', () => {
    const file = join(dir, 'old.sqlite');
    openPrivateDatabase(file).close();
    writeFileSync(`${file}-wal`, '');
    chmodSync(file, 0o644);
    chmodSync(`${file}-wal`, 0o644);
    const db = openPrivateDatabase(file);
    expect([file, `${file}-wal`].map(modeOf)).toEqual(['600', '600']);
    db.close();
  });

  it('keeps the locks of the connections already open when it opens the same file again', () => {
    const file = join(dir, 'shared.sqlite');
    const first = openPrivateDatabase(file);
    first.pragma('journal_mode = WAL');
    first.exec('CREATE TABLE t (x); INSERT INTO t VALUES (1)');
    // A connection in WAL mode holds a shared lock on the database file from its first read on.
    expect(first.prepare('SELECT x FROM t').get()).toEqual({ x: 1 });
    expect(locksHeldOn(file)).toBeGreaterThan(0);
    const second = openPrivateDatabase(file);
    expect(locksHeldOn(file)).toBeGreaterThan(0);
    second.close();
    first.close();
  });

  it('creates a missing data directory 0700 and leaves an existing one as its operator set it', () => {
    makePrivateDirectory(join(dir, 'new', 'data'));
    expect(modeOf(join(dir, 'new', 'data'))).toBe('700');
    chmodSync(dir, 0o750);
    makePrivateDirectory(dir);
    expect(modeOf(dir)).toBe('750');
  });

  it("waits for another connection's lock as long as the process's lock wait says when it opened", () => {
    const before = lockWait();
    try {
      const waits = [5000, 1234, 0].map((ms) => {
        setLockWait(ms);
        const db = openPrivateDatabase(join(dir, 'w.sqlite'));
        const wait = db.pragma('busy_timeout', { simple: true });
        db.close();
        return wait;
      });
      expect(waits).toEqual([5000, 1234, 0]);
      expect(() => setLockWait(-1)).toThrow(RangeError);
    } finally {
      setLockWait(before);
    }
  });
});

/** The POSIX locks this process holds on `file`, from `/proc/locks` (Linux). */
function locksHeldOn(file: string): number {
  const inode = statSync(file).ino;
  return readFileSync('/proc/locks', 'utf8')
    .split('\n')
    .filter((line) => {
      const f = line.trim().split(/\s+/);
      return f[1] === 'POSIX' && Number(f[4]) === process.pid && Number(f[5]?.split(':')[2]) === inode;
    }).length;
}
