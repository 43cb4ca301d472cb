import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { newEventId, toEventData, type EventStore } from '@app/event-sourcing';
import { fixedKeySource, readKeyring, versionedKeys } from '@app/keys';
import { withPersonalData } from '@app/personal-data';
import { EventStoreDbEventStore } from '@app/stores/eventstoredb';
import { EventStoreDbClientStandIn } from '@app/stores/eventstoredb/testing/client-stand-in';
import { sqlitePersonalData } from '@app/stores/sqlite';
import { traineeStreamId } from '@app/trainees/decider';
import { exampleRegistration } from '@app/trainees/decider/testing/trainee-events';
import { runAdmin } from './admin-cli';
import { DEMO_UKPRN, demoToken, STACK_KEY_COLLECTION, stackDeployment, type StackKeyKeeper } from './production-stack';

const MONGODB_URL = 'mongodb://localhost:27017/?directConnection=true';
const EVENTSTORE_URL = 'esdb://localhost:2113?tls=false';

/**
 * The production stack e2e run twice against the same servers (test/e2e/production-stack.e2e-spec.ts, docs/operations.md "Its
 * tests"), without them: EventStoreDB is the client stand-in (libs/stores/eventstoredb/testing/client-stand-in.ts), a second run a
 * second client of its server; each MongoDB database is a directory of SQLite data keys, named by the database the run is given.
 */
describe('the production stack e2e against servers an earlier run wrote to', () => {
  let root: string;
  const closing: (() => Promise<void>)[] = [];

  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'production-stack-runs-'));
  });
  afterEach(async () => {
    for (const close of closing.splice(0)) await close();
    rmSync(root, { recursive: true, force: true });
  });

  /** The keeper of a MongoDB database here: a file in its directory, written once. */
  const keeper: StackKeyKeeper = {
    async keep(database, fresh) {
      const file = join(root, 'mongodb', database, STACK_KEY_COLLECTION);
      mkdirSync(dirname(file), { recursive: true });
      if (!existsSync(file)) writeFileSync(file, fresh);
      return readFileSync(file, 'utf8');
    },
  };

  /** One run's event store as its processes see it: its deployment's database's data keys and key, over `client`'s log. */
  async function runOn(client: EventStoreDbClientStandIn, run: string): Promise<EventStore> {
    const dir = join(root, run);
    mkdirSync(dir);
    const deployment = await stackDeployment(EVENTSTORE_URL, MONGODB_URL, dir, keeper);
    const database = join(root, 'mongodb', deployment.database);
    mkdirSync(database, { recursive: true });
    const kek = versionedKeys(readKeyring(deployment.keyFile, 'the e2e key'), 'key-encryption');
    const { personal, keyStore } = sqlitePersonalData(database, fixedKeySource(kek));
    const log = new EventStoreDbEventStore(client.asClient());
    closing.push(async () => {
      await log.close();
      await keyStore.close();
    });
    return withPersonalData(log, personal);
  }

  it("opens the trainees the first run left in the log: every run is given one database and one key, its key file the owner's alone", async () => {
    const server = new EventStoreDbClientStandIn();
    const first = await runOn(server, 'first');
    const events = exampleRegistration({ trainee_id: 'T1', details: { first_names: 'Firstrun' } });
    await first.appendToStream(traineeStreamId('T1'), toEventData(events, { occurredAt: '2026-01-01T00:00:00.000Z' }, newEventId));

    const second = await runOn(server.anotherClient(), 'second');
    const read = await second.readAll({ maxCount: 100 });
    const stream = read.filter((e) => e.streamId === traineeStreamId('T1'));
    expect(stream.map((e) => e.type)).toEqual(events.map((e) => e.type));
    expect(stream[0].data).toMatchObject({ details: { first_names: 'Firstrun' } });
    expect(statSync(join(root, 'second', 'data-key')).mode & 0o777).toBe(0o600);
    expect((await stackDeployment(EVENTSTORE_URL, MONGODB_URL, join(root, 'second'), keeper)).readModelUrl).toBe(
      'mongodb://localhost:27017/production_stack_e2e?directConnection=true',
    );
  });

  it('gets a token of the demo provider on a log whose API printed none: one per run, each new', async () => {
    const dir = join(root, 'data');
    mkdirSync(dir);
    // The first run's API registered the demo provider; a later run's prints no token (apps/api/src/sandbox.ts).
    const env = { DATA_KEY_FILE: (await stackDeployment(EVENTSTORE_URL, MONGODB_URL, root, keeper)).keyFile };
    expect((await runAdmin(['provider', 'add', '--ukprn', DEMO_UKPRN, '--name', 'Demo'], dir, env)).code).toBe(0);
    const tokens = [await demoToken(dir, env), await demoToken(dir, env)];
    expect(tokens).toEqual([expect.stringMatching(/^sandbox_[0-9a-f]{64}$/), expect.stringMatching(/^sandbox_[0-9a-f]{64}$/)]);
    expect(tokens[0]).not.toBe(tokens[1]);
  }, 60_000);
});
