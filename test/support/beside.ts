/**
 * What the tests of processes beside each other on one data directory look at (docs/operations.md
 * "Commands beside the running service"): the POSIX locks a process holds on its SQLite files, a
 * reader on another SQLite version beside it, and what the key store holds of a trainee.
 */
import Database from 'better-sqlite3';
import { spawn, spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, readlinkSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** The SQLite database files (`*.sqlite`, not their WAL or shared memory) the process `pid` has open, from `/proc/<pid>/fd`. */
export function openDatabasesOf(pid: number): string[] {
  const files = new Set<string>();
  for (const fd of readdirSync(`/proc/${pid}/fd`)) {
    try {
      const target = readlinkSync(`/proc/${pid}/fd/${fd}`);
      if (target.endsWith('.sqlite')) files.add(target);
    } catch {
      // closed between the listing and the read
    }
  }
  return [...files].sort();
}

/** How many POSIX locks the process `pid` holds on `file`, from `/proc/locks` (Linux; one line per held range). */
export function locksHeldBy(pid: number, file: string): number {
  const inode = statSync(file).ino;
  return readFileSync('/proc/locks', 'utf8')
    .split('\n')
    .map((line) => line.trim().split(/\s+/))
    .filter((f) => f[1] === 'POSIX' && Number(f[4]) === pid && Number(f[5]?.split(':')[2]) === inode).length;
}

/**
 * Runs Debian's `sqlite3` shell on `file` every 200 ms, each run reading one row and exiting, as an
 * operator looking at a store does; until the returned function is called. That shell's SQLite
 * (older than the service's) checkpoints and deletes the WAL when it closes unless another process
 * holds a lock on the database file. Throws when the shell is not installed, saying how to get it.
 */
export function sqliteShellReading(file: string): () => Promise<void> {
  if (spawnSync('sqlite3', ['-version']).status !== 0) {
    throw new Error('the sqlite3 shell is needed for this test: install the Debian package sqlite3 (.ci/run does)');
  }
  const loop = spawn('sh', ['-c', `while :; do sqlite3 '${file}' 'SELECT count(*) FROM sqlite_master' >/dev/null 2>&1; sleep 0.2; done`], {
    stdio: 'ignore',
  });
  return () =>
    new Promise((resolve) => {
      loop.on('close', () => resolve());
      loop.kill('SIGKILL');
    });
}

/** A trainee's row of `<dataDir>/keys.sqlite`: whether its wrapped key is there and when it was erased (null: not erased). */
export function dataKeyRow(dataDir: string, traineeId: string): { wrapped: boolean; erasedAt: string | null } | null {
  const db = new Database(join(dataDir, 'keys.sqlite'), { readonly: true });
  try {
    const row = db.prepare('SELECT wrapped, erased_at FROM data_keys WHERE trainee_id = ?').get(traineeId) as
      { wrapped: Buffer | null; erased_at: string | null } | undefined;
    return row ? { wrapped: row.wrapped !== null, erasedAt: row.erased_at } : null;
  } finally {
    db.close();
  }
}
