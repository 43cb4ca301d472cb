/**
 * Runs the shared read-model contract (test/contract/read-model.contract.ts) against the SQLite
 * adapter, the reference behaviour, on a fresh temporary data directory per test (docs/DESIGN.md
 * "Read models"). `reopen` opens another connection on the same file (as another process would);
 * `storeExists` looks for the store's tables in `sqlite_master`.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import Database from 'better-sqlite3';
import { SqliteReadModel } from '@app/stores/sqlite';
import type { ProjectionName } from '@app/runtime/projector';
import { describeChangeFeedContract } from './change-feed.contract';
import { describeReadModelContract, type ReadModelContractContext } from './read-model.contract';

async function factory(): Promise<ReadModelContractContext> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'read-model-contract-'));
  const readModel = SqliteReadModel.open(dataDir);
  const file = path.join(dataDir, 'read-models.sqlite');
  const opened: SqliteReadModel[] = [readModel];
  return {
    readModel,
    reopen: async (options = {}) => {
      const another = new SqliteReadModel(file, options);
      opened.push(another);
      return another;
    },
    storeExists: async (name: ProjectionName, store: string) => {
      const tables = name === 'trainees' ? [`trainees_${store}`] : [`providers_${store}`, `tokens_${store}`];
      const db = new Database(file, { readonly: true });
      try {
        const found = db
          .prepare(`SELECT name FROM sqlite_master WHERE type = 'table' AND name IN (${tables.map(() => '?').join(', ')})`)
          .all(...tables);
        return found.length > 0;
      } finally {
        db.close();
      }
    },
    cleanup: async () => {
      for (const rm of opened) rm.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

describeReadModelContract('SqliteReadModel', factory);
describeChangeFeedContract('SqliteReadModel', factory);
