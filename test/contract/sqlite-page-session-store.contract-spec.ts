/**
 * Runs the page session store contract (test/contract/page-session-store.contract.ts) against the SQLite adapter on a fresh temporary
 * data directory per test; `reopen` opens another connection on the same file, as another API process would.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { SqlitePageSessionStore } from '@app/stores/sqlite';
import { describePageSessionStoreContract } from './page-session-store.contract';

describePageSessionStoreContract('SqlitePageSessionStore', async () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'page-sessions-contract-'));
  const opened = [SqlitePageSessionStore.open(dataDir)];
  return {
    store: opened[0],
    reopen: async () => {
      const another = SqlitePageSessionStore.open(dataDir);
      opened.push(another);
      return another;
    },
    cleanup: async () => {
      for (const s of opened) s.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
});
