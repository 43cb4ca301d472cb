import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runAdmin } from './admin-cli';

/**
 * The MongoDB database of the production stack e2e (test/e2e/production-stack.e2e-spec.ts), the same every run: its data keys open
 * the trainees earlier runs left in the EventStoreDB log, which each run's projector projects again from the start.
 */
export const STACK_DATABASE = 'production_stack_e2e';

/**
 * The e2e's service key, the same every run, for the same reason. It seals test data only (the trainees of
 * test/support/trainee-input.ts), on servers of the tester's own: a key kept in the repository protects nothing, and is not meant to.
 */
const STACK_KEY = 'dHJhaW5lZS1yZWNvcmRzIHByb2R1Y3Rpb24gZTJlIGs=';

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
 * {@link STACK_DATABASE} at `mongodbUrl`'s servers, the key {@link STACK_KEY} written to `dir`/data-key (0600). A run with a database
 * or key of its own could not open the trainees earlier runs left in the log, and its projector would get no further than the first
 * (`DataKeyMissing`).
 */
export function stackDeployment(eventStoreUrl: string, mongodbUrl: string, dir: string): StackDeployment {
  const keyFile = join(dir, 'data-key');
  writeFileSync(keyFile, `${STACK_KEY}\n`, { mode: 0o600 });
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
