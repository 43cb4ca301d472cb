/**
 * An admin command that meets a busy SQLite store (docs/operations.md "The admin CLI"): it waits for
 * the lock and goes on once it is free; past `ADMIN_BUSY_WAIT_MS` it exits 1 with one sentence naming
 * the store and what to do, never a stack trace. The lock is another connection's write transaction
 * on `keys.sqlite`, which `trainee erase` writes when it destroys the trainee's data key.
 */
import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runAdmin } from '../support/admin-cli';
import { RunningApi } from '../support/api-harness';
import { uniqueTrainee } from '../support/trainee-input';

describe('an admin command beside a busy store', () => {
  let dataDir: string;
  const trainees: string[] = [];

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'admin-busy-'));
    const api = await RunningApi.start({ dataDir });
    try {
      const token = await api.providerToken('10000170');
      for (let i = 0; i < 2; i++) {
        const created = await api.request('POST', '/api/v2026.1/trainees', token, uniqueTrainee('v2026.1'));
        expect(created.status).toBe(201);
        trainees.push((created.body as { data: { trainee_id: string } }).data.trainee_id);
      }
    } finally {
      await api.close();
    }
  });
  afterAll(() => {
    for (const dir of [dataDir, `${dataDir}-backups`]) rmSync(dir, { recursive: true, force: true });
  });

  /** A connection holding the write lock of `keys.sqlite` (`BEGIN IMMEDIATE`) until `release`. */
  function holdKeys(): { release(): void } {
    const db = new Database(join(dataDir, 'keys.sqlite'));
    db.exec('BEGIN IMMEDIATE');
    return {
      release() {
        if (db.inTransaction) db.exec('ROLLBACK');
        db.close();
      },
    };
  }

  it('waits for a lock let go within its wait, and then does its work', async () => {
    const lock = holdKeys();
    const timer = setTimeout(() => lock.release(), 1_000);
    try {
      const run = await runAdmin(['trainee', 'erase', trainees[0], '--reason', 'Erasure request T-1'], dataDir, {
        ADMIN_BUSY_WAIT_MS: '20000',
        BACKUP_DIR: `${dataDir}-backups`,
      });
      expect({ code: run.code, stderr: run.stderr }).toEqual({ code: 0, stderr: '' });
      expect(run.stdout).toMatch(new RegExp(`^Erased trainee ${trainees[0]}: its data key is destroyed`));
    } finally {
      clearTimeout(timer);
      lock.release();
    }
  });

  it('exits 1 past its wait, with one sentence naming the store and what to do, and no stack trace', async () => {
    const lock = holdKeys();
    try {
      const run = await runAdmin(['trainee', 'erase', trainees[1], '--reason', 'Erasure request T-2'], dataDir, {
        ADMIN_BUSY_WAIT_MS: '1500',
        BACKUP_DIR: `${dataDir}-backups`,
      });
      expect(run.code).toBe(1);
      expect(run.stderr).toBe(
        `Error: ${join(dataDir, 'keys.sqlite')} stayed busy for 1.5 s (another process held its lock: an admin command such as ` +
          'keys rotate or backup create, a projection rebuild, or a stuck process); run the command again once that process has finished.\n',
      );
    } finally {
      lock.release();
    }
    // Run again once the store is free, the erasure finishes.
    const again = await runAdmin(['trainee', 'erase', trainees[1], '--reason', 'Erasure request T-2'], dataDir);
    expect(again.code).toBe(0);
    expect(again.stdout).toMatch(new RegExp(`trainee ${trainees[1]}: its data key is destroyed`));
  });
});
