/**
 * Runs the data key store contract (test/contract/data-key-store.contract.ts), and the registration
 * reservations' (registration-reservations.contract.ts), against the MongoDB
 * adapter when `MONGODB_URL` names a server. Each test gets its own database, dropped in its
 * cleanup; `reopen` connects another client to it (as another replica would). Without
 * `MONGODB_URL` the suite is reported as skipped, loudly: the adapter has then not been run at all.
 */
import { describeDataKeyStoreContract } from './data-key-store.contract';
import { describeRegistrationReservationsContract } from './registration-reservations.contract';
import { mongoUrlOrSkip, perTestDatabase } from '../support/mongo-suite';

const url = mongoUrlOrSkip('Data key store contract: MongoDataKeyStore', 'MongoDB data key store contract suite');

if (url) {
  describeDataKeyStoreContract(
    'MongoDataKeyStore',
    perTestDatabase(url, 'dkc', (readModel) => readModel.dataKeyStore()),
  );
  describeRegistrationReservationsContract(
    'MongoDataKeyStore',
    perTestDatabase(url, 'rrc', (readModel) => readModel.dataKeyStore()),
  );
}
