/**
 * Runs the page session store contract (test/contract/page-session-store.contract.ts) against the MongoDB adapter when `MONGODB_URL`
 * names a server. Each test gets its own database, dropped in its cleanup; `reopen` connects another client to it (another API
 * replica). Without `MONGODB_URL` the suite is reported as skipped, loudly: the adapter has then not been run on a server at all
 * (libs/stores/mongodb/mongo-page-session-store.spec.ts runs it over a driver double).
 */
import { MongoPageSessionStore } from '@app/stores/mongodb';
import { describePageSessionStoreContract } from './page-session-store.contract';
import { mongoUrlOrSkip, perTestDatabase } from '../support/mongo-suite';

const url = mongoUrlOrSkip('Page session store contract: MongoPageSessionStore', 'MongoDB page session store contract suite');

if (url)
  describePageSessionStoreContract(
    'MongoPageSessionStore',
    perTestDatabase(url, 'psc', (readModel) => new MongoPageSessionStore(readModel.database)),
  );
