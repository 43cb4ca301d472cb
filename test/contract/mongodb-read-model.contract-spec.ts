/**
 * Runs the shared read-model contract (test/contract/read-model.contract.ts) against the MongoDB
 * adapter when `MONGODB_URL` names a server (docs/operations.md "Configuration"). Each test gets its own
 * database, named after this run and dropped in the test's cleanup; `reopen` connects another
 * client to it (as another process would) and `storeExists` lists its collections. Without
 * `MONGODB_URL` the suite is reported as skipped, loudly: the adapter has then not been run at all.
 */
import { randomBytes } from 'node:crypto';
import { MongoClient } from 'mongodb';
import type { ProjectionName } from '@app/runtime/projector';
import { MongoReadModel, mongoStoreCollections } from '@app/stores/mongodb';
import { describeChangeFeedContract } from './change-feed.contract';
import { describeReadModelContract, type ReadModelContractContext } from './read-model.contract';
import { mongoUrlOrSkip } from '../support/mongo-suite';

const url = mongoUrlOrSkip('Read-model contract: MongoReadModel', 'MongoDB read-model contract suite');

if (url) {
  /** A live batch's write window: short, so that a swap drops its old store 350 ms after its lock, not 35 s. */
  const LIVE_WRITE_WINDOW_MS = 300;
  /** Unique per run (database names are limited to 63 bytes). */
  const runId = `rmc_${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`;
  let tests = 0;

  const factory = async (): Promise<ReadModelContractContext> => {
    const dbName = `${runId}_${++tests}`;
    const readModel = await MongoReadModel.connect(url, { dbName, liveWriteWindowMs: LIVE_WRITE_WINDOW_MS });
    const opened: MongoReadModel[] = [readModel];
    const admin = new MongoClient(url);
    return {
      readModel,
      reopen: async (options = {}) => {
        const another = await MongoReadModel.connect(url, {
          dbName,
          codeVersions: options.codeVersions,
          liveWriteWindowMs: LIVE_WRITE_WINDOW_MS,
        });
        opened.push(another);
        return another;
      },
      storeExists: async (name: ProjectionName, store: string) => {
        const names = mongoStoreCollections(name, store);
        const found = await admin
          .db(dbName)
          .listCollections({ name: { $in: names } }, { nameOnly: true })
          .toArray();
        return found.length > 0;
      },
      cleanup: async () => {
        try {
          for (const rm of opened) await rm.close();
          await admin.db(dbName).dropDatabase();
        } finally {
          await admin.close();
        }
      },
    };
  };

  describeReadModelContract('MongoReadModel', factory);
  describeChangeFeedContract('MongoReadModel', factory);
}
