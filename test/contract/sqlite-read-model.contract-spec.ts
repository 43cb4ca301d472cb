/**
 * Runs the shared read-model contract (test/contract/read-model.contract.ts) against the SQLite
 * adapter, the reference behaviour, on a fresh temporary data directory per test (docs/DESIGN.md
 * "Read models"). `reopen` opens another connection on the same file (as another process would);
 * `storeExists` looks for the store's tables in `sqlite_master`. Then what only SQLite promises: an
 * erasure that a reader holding the WAL keeps from truncating it says so.
 */
import { allFilesText } from '../support/data-dir-files';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import Database from 'better-sqlite3';
import { SqliteReadModel } from '@app/stores/sqlite';
import type { ProjectionName } from '@app/runtime/projector';
import { describeChangeFeedContract } from './change-feed.contract';
import { describeReadModelContract, type ReadModelContractContext } from './read-model.contract';
import { ERASED, ReadStoreNotForgotten } from '@app/personal-data';
import { decidedHistory, EventLog } from './read-model-fixtures';
import { traineeRegistered } from '@app/trainees/decider/testing/trainee-events';

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

describe('SqliteReadModel: an erasure while a reader holds the WAL (docs/DESIGN.md "Personal data")', () => {
  it('says so past the limit, with the rows deleted, and the erasure run again truncates the WAL', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'read-model-erasure-'));
    const rm = SqliteReadModel.open(dir);
    try {
      const log = new EventLog(await rm.checkpoint());
      const [gone, ukprn, lastName] = ['Ct-gone', '10000999', `Quillfeather${Date.now()}`];
      const [, ...rest] = decidedHistory(gone, ukprn, 1).events;
      const registered = traineeRegistered({ trainee_id: gone, ukprn, at: '2026-01-01T00:00:00.000Z', details: { last_name: lastName } });
      const history = log.trainee([registered, ...rest]);
      const [erasure] = log.trainee([
        { type: 'TraineeErased', data: { trainee_id: gone, reason: 'Request DPO-1', erased_by: 'dpo', at: '2026-03-01T00:00:00.000Z' } },
      ]);
      await rm.applyBatch(history);
      const erased = [...history, erasure].map((e) => {
        const data = { ...(e.data as Record<string, unknown>) };
        if (data.details) data.details = { ...(data.details as object), first_names: ERASED, last_name: ERASED };
        return { ...e, data };
      });
      const reader = new Database(path.join(dir, 'read-models.sqlite'));
      reader.exec('BEGIN');
      reader.prepare('SELECT count(*) FROM sqlite_master').get();
      const refused = rm.eraseTrainee(gone, ukprn, erased);
      await expect(refused).rejects.toThrow(ReadStoreNotForgotten);
      await expect(refused).rejects.toThrow(/run the erasure again/);
      expect(await rm.getTrainee(gone)).toBeNull();
      reader.exec('COMMIT');
      reader.close();
      await rm.eraseTrainee(gone, ukprn, erased);
      expect(fs.statSync(path.join(dir, 'read-models.sqlite-wal')).size).toBe(0);
      expect(allFilesText(dir)).not.toContain(lastName);
    } finally {
      rm.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }, 30_000);
});
