/**
 * Runs the data key store contract (test/contract/data-key-store.contract.ts) against the MongoDB
 * adapter when `MONGODB_URL` names a server. Each test gets its own database, dropped in its
 * cleanup; `reopen` connects another client to it (as another replica would). Without
 * `MONGODB_URL` the suite is reported as skipped, loudly: the adapter has then not been run at all.
 */
import { randomBytes } from 'node:crypto';
import { MongoClient } from 'mongodb';
import { MongoReadModel } from '@app/stores/mongodb';
import { describeDataKeyStoreContract } from './data-key-store.contract';
import { mongoUrlOrSkip } from '../support/mongo-suite';

const url = mongoUrlOrSkip('Data key store contract: MongoDataKeyStore', 'MongoDB data key store contract suite');

if (url) {
  /** Unique per run (database names are limited to 63 bytes). */
  const runId = `dkc_${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`;
  let tests = 0;

  describeDataKeyStoreContract('MongoDataKeyStore', async () => {
    const dbName = `${runId}_${++tests}`;
    const readModel = await MongoReadModel.connect(url, { dbName });
    const opened = [readModel];
    return {
      store: readModel.dataKeyStore(),
      reopen: async () => {
        const another = await MongoReadModel.connect(url, { dbName });
        opened.push(another);
        return another.dataKeyStore();
      },
      cleanup: async () => {
        for (const rm of opened) await rm.close();
        const admin = new MongoClient(url);
        try {
          await admin.db(dbName).dropDatabase();
        } finally {
          await admin.close();
        }
      },
    };
  });
}
