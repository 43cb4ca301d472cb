/**
 * What of the MongoDB adapter can be checked without a MongoDB server: connection string
 * validation, failing (not hanging) when no server answers, and the stores' collection names.
 * The adapter's behaviour is covered by the read-model contract
 * (test/contract/mongodb-read-model.contract-spec.ts), which runs only when MONGODB_URL names a
 * server.
 */
import { MONGO_COLLECTIONS, MongoReadModel, mongoStoreCollections } from './mongo-read-model';

describe('MongoReadModel.connect without a server', () => {
  it.each(['', 'localhost:27017', 'http://localhost:27017/db', 'postgres://user:secret@localhost/db', 'mongodb:/localhost'])(
    'rejects %j with an error naming the accepted schemes',
    async (url) => {
      await expect(MongoReadModel.connect(url)).rejects.toThrow(/mongodb:\/\/ or mongodb\+srv:\/\//);
    },
  );

  it('does not echo a password of a rejected connection string', async () => {
    const error = await MongoReadModel.connect('postgres://user:secret@localhost/db').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message).not.toContain('secret');
    expect((error as Error).message).toContain('user:***@');
  });

  it('rejects, rather than hangs, when no server answers at a valid mongodb:// URL', async () => {
    await expect(
      MongoReadModel.connect('mongodb://127.0.0.1:1/contract?serverSelectionTimeoutMS=300&connectTimeoutMS=300'),
    ).rejects.toThrow();
  });
});

describe('MongoReadModel store naming (docs/DESIGN.md "Read models")', () => {
  it("names a store's collections after the projection and the store, as the SQLite tables", () => {
    expect(mongoStoreCollections('trainees', 'v1')).toEqual(['trainees_v1', 'trainee_changes_v1']);
    expect(mongoStoreCollections('providers', 'v2_g3')).toEqual(['providers_v2_g3', 'tokens_v2_g3']);
    expect(MONGO_COLLECTIONS).toEqual({ checkpoints: 'projection_checkpoints', registry: 'projection_registry' });
  });
});
