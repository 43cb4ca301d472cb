/**
 * Runs the digest tree store contract (test/contract/digest-tree-store.contract.ts) against the
 * MongoDB adapter when `MONGODB_URL` names a server. Each test gets its own database, dropped in
 * its cleanup; `reopen` connects another client to it. Without `MONGODB_URL` the suite is reported
 * as skipped, loudly: the adapter has then not been run at all.
 */
import { MongoDigestTreeStore } from '@app/stores/mongodb';
import { describeDigestTreeStoreContract } from './digest-tree-store.contract';
import { mongoUrlOrSkip, perTestDatabase } from '../support/mongo-suite';

const url = mongoUrlOrSkip('Digest tree store contract: MongoDigestTreeStore', 'MongoDB digest tree store contract suite');

if (url)
  describeDigestTreeStoreContract(
    'MongoDigestTreeStore',
    perTestDatabase(url, 'dtc', async (readModel) => {
      const store = new MongoDigestTreeStore(readModel.database);
      await store.ensureIndexes();
      return store;
    }),
  );
