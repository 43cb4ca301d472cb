/**
 * Runs the idempotency store contract (test/contract/idempotency-store.contract.ts) against the
 * SQLite adapter on a fresh temporary data directory per test; `reopen` opens another connection
 * on the same file (as another process would). The read models' own tables are there too, and a
 * rebuild of them never touches the keys.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { SqliteIdempotencyStore, SqliteReadModel } from '@app/stores/sqlite';
import { describeIdempotencyStoreContract } from './idempotency-store.contract';

describeIdempotencyStoreContract('SqliteIdempotencyStore', async () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'idempotency-contract-'));
  const readModel = SqliteReadModel.open(dataDir);
  const opened = [SqliteIdempotencyStore.open(dataDir)];
  return {
    store: opened[0],
    reopen: async () => {
      const another = SqliteIdempotencyStore.open(dataDir);
      opened.push(another);
      return another;
    },
    cleanup: async () => {
      for (const s of opened) s.close();
      readModel.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
});
