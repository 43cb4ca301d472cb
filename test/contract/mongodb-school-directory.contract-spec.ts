/**
 * Runs the schools directory contract (test/contract/school-directory.contract.ts) against the
 * MongoDB adapter when `MONGODB_URL` names a server. Each test gets its own database, dropped in
 * its cleanup; `reopen` connects another client to it. Without `MONGODB_URL` the suite is reported
 * as skipped, loudly: the adapter has then not been run at all.
 */
import { describeSchoolDirectoryContract } from './school-directory.contract';
import { mongoUrlOrSkip, perTestDatabase } from '../support/mongo-suite';

const url = mongoUrlOrSkip('Schools directory contract: MongoSchoolDirectory', 'MongoDB schools directory contract suite');

if (url) {
  const open = perTestDatabase(url, 'sdc', (readModel) => readModel.schoolDirectory());
  describeSchoolDirectoryContract('MongoSchoolDirectory', async () => {
    const { store, reopen, cleanup } = await open();
    return { directory: store, reopen, cleanup };
  });
}
