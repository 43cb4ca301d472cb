import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { MongoClient } from 'mongodb';
import { join } from 'node:path';
import { runAdmin } from './admin-cli';

/**
 * The MongoDB database of the production stack e2e (test/e2e/production-stack.e2e-spec.ts), the same every run: its data keys open
 * the trainees earlier runs left in the EventStoreDB log, which each run's projector projects again from the start.
 */
export const STACK_DATABASE = 'production_stack_e2e';

/** Where the e2e's service key is kept: the collection of its database beside the read models and data keys it opens. */
export const STACK_KEY_COLLECTION = 'e2e_service_key';

/**
 * Keeps the e2e's service key with its deployment, so every run seals and opens with the same one: `keep(database, fresh)` answers
 * the key kept for `database`, keeping `fresh` (base64, 32 bytes) when none is. The key seals test data only.
 */
export interface StackKeyKeeper {
  keep(database: string, fresh: string): Promise<string>;
}

/** The keeper on MongoDB at `mongodbUrl`: one document in {@link STACK_KEY_COLLECTION}, inserted once (an upsert, so two runs agree). */
export function mongoStackKeyKeeper(mongodbUrl: string): StackKeyKeeper {
  return {
    async keep(database, fresh) {
      const client = new MongoClient(mongodbUrl);
      try {
        const keys = client.db(database).collection<{ _id: string; key: string }>(STACK_KEY_COLLECTION);
        const kept = await keys.findOneAndUpdate(
          { _id: 'service-key' },
          { $setOnInsert: { key: fresh } },
          { upsert: true, returnDocument: 'after' },
        );
        return kept!.key;
      } finally {
        await client.close();
      }
    },
  };
}

/** The demo provider the sandbox API registers in a log with no provider (apps/api/src/sandbox.ts). */
export const DEMO_UKPRN = '10000001';

/** What the e2e's processes are given: the read models' URL, the key file, and the two together as the environment. */
export interface StackDeployment {
  database: string;
  readModelUrl: string;
  keyFile: string;
  env: { EVENTSTORE_URL: string; MONGODB_URL: string; DATA_KEY_FILE: string };
}

/**
 * The one deployment every run of the e2e continues (docs/operations.md "Its tests"): the log at `eventStoreUrl`, the database
 * {@link STACK_DATABASE} at `mongodbUrl`'s servers, and the key `keeper` keeps with it, written to `dir`/data-key (0600). A run with a
 * database or key of its own could not open the trainees earlier runs left in the log, and its projector would get no further than
 * the first (`DataKeyMissing`).
 */
export async function stackDeployment(
  eventStoreUrl: string,
  mongodbUrl: string,
  dir: string,
  keeper: StackKeyKeeper,
): Promise<StackDeployment> {
  const keyFile = join(dir, 'data-key');
  const key = await keeper.keep(STACK_DATABASE, randomBytes(32).toString('base64'));
  writeFileSync(keyFile, `${key}\n`, { mode: 0o600 });
  const readModelUrl = withDatabase(mongodbUrl, STACK_DATABASE);
  return {
    database: STACK_DATABASE,
    readModelUrl,
    keyFile,
    env: { EVENTSTORE_URL: eventStoreUrl, MONGODB_URL: readModelUrl, DATA_KEY_FILE: keyFile },
  };
}

/**
 * A new token of the demo provider, issued by the admin CLI on the deployment: the sandbox prints one only into a log without a
 * provider, the first run's. Throws with the CLI's output when it refuses (no demo provider yet: start the API first).
 */
export async function demoToken(dir: string, env: Record<string, string>): Promise<string> {
  const issued = await runAdmin(['token', 'issue', '--ukprn', DEMO_UKPRN], dir, env);
  const token = /^(sandbox_[0-9a-f]{64})$/m.exec(issued.stdout)?.[1];
  if (issued.code !== 0 || token === undefined) throw new Error(`token issue answered ${issued.code}: ${issued.stdout}${issued.stderr}`);
  return token;
}

/** `url` with its database set to `dbName` (hosts, credentials and options kept; several hosts allowed). */
export function withDatabase(url: string, dbName: string): string {
  return url.replace(/^(mongodb(?:\+srv)?:\/\/[^/?]*)(\/[^?]*)?/, `$1/${dbName}`);
}
