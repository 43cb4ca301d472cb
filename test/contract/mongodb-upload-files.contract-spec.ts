/**
 * Runs the upload store contract (test/contract/upload-files.contract.ts) against the MongoDB
 * adapter when `MONGODB_URL` names a server. Each test gets its own database, dropped in its
 * cleanup; the store is opened on the read store's database as the service opens it
 * (`openUploadFiles`), and `reopen` connects another client to it. Without `MONGODB_URL` the suite
 * is reported as skipped, loudly: the adapter has then not been run against a server
 * (libs/stores/mongodb/mongo-upload-files.spec.ts drives it over a driver double).
 */
import { MongoUploadFiles } from '@app/stores/mongodb';
import { describeUploadFilesContract } from './upload-files.contract';
import { mongoUrlOrSkip, perTestDatabase } from '../support/mongo-suite';

const url = mongoUrlOrSkip('Upload store contract: MongoUploadFiles', 'MongoDB upload store contract suite');

if (url) {
  const fixture = perTestDatabase(url, 'upf', (readModel) => new MongoUploadFiles(readModel.database));
  describeUploadFilesContract('MongoUploadFiles', fixture);
}
