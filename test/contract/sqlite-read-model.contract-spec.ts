/**
 * Runs the shared read-model contract (test/contract/read-model.contract.ts) against the SQLite
 * adapter, the reference behaviour, on a fresh temporary data directory per test (DESIGN.md
 * "Read models").
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { SqliteReadModel } from '@app/read-model';
import { describeReadModelContract } from './read-model.contract';

describeReadModelContract('SqliteReadModel', async () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'read-model-contract-'));
  const readModel = SqliteReadModel.open(dataDir);
  return {
    readModel,
    cleanup: async () => {
      readModel.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
});
