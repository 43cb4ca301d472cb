/**
 * Runs the idempotency store contract (test/contract/idempotency-store.contract.ts) against the
 * MongoDB adapter when `MONGODB_URL` names a server. Each test gets its own database, dropped in
 * its cleanup; `reopen` connects another client to it (as another API replica would). Without
 * `MONGODB_URL` the suite is reported as skipped, loudly: the adapter has then not been run at all.
 */
import { describeIdempotencyStoreContract } from './idempotency-store.contract';
import { mongoUrlOrSkip, perTestDatabase } from '../support/mongo-suite';

const url = mongoUrlOrSkip('Idempotency store contract: MongoIdempotencyStore', 'MongoDB idempotency store contract suite');

if (url)
  describeIdempotencyStoreContract(
    'MongoIdempotencyStore',
    perTestDatabase(url, 'idc', (readModel) => readModel.idempotencyStore()),
  );
