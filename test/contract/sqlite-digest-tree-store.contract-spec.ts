/**
 * Runs the digest tree store contract (test/contract/digest-tree-store.contract.ts) against the
 * SQLite adapter on a fresh temporary data directory per test; `reopen` opens another connection
 * on the same file (as another process would).
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { SqliteDigestTreeStore } from '@app/stores/sqlite';
import { describeDigestTreeStoreContract } from './digest-tree-store.contract';

describeDigestTreeStoreContract('SqliteDigestTreeStore', async () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'digest-tree-contract-'));
  const opened = [SqliteDigestTreeStore.open(dataDir)];
  return {
    store: opened[0],
    reopen: async () => {
      const another = SqliteDigestTreeStore.open(dataDir);
      opened.push(another);
      return another;
    },
    cleanup: async () => {
      for (const s of opened) await s.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
});
