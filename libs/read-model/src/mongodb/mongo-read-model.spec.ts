/**
 * What of the MongoDB adapter can be checked without a MongoDB server: connection string
 * validation and failing (not hanging) when no server answers. The adapter's behaviour is
 * covered by the read-model contract (test/contract/mongodb-read-model.contract-spec.ts), which
 * runs only when MONGODB_URL names a server.
 */
import { MongoReadModel } from './mongo-read-model';

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
