/**
 * The audit and the sealing of personal data on the EventStoreDB adapter (docs/DESIGN.md "Verifiable
 * history", "Signed digests", "Personal data"): `audit verify`'s check of the chains (`verifyLog`),
 * a signed digest (`signAndRecord`) and the log held to it, and the trainees' personal values sealed
 * by the codec with the data keys kept in the MongoDB key store.
 *
 * Runs on the adapter over the client stand-in always (libs/stores/eventstoredb/testing/
 * client-stand-in.ts: a stand-in, not the server; docs/DESIGN.md "Testing the EventStoreDB adapter
 * without a server"), and on the server named by `EVENTSTORE_URL` when it is set. The data keys are
 * kept in the MongoDB key store when `MONGODB_URL` is also set (its own database, dropped after),
 * otherwise in the SQLite key store, and the MongoDB run is reported as skipped, with why.
 */
import { generateKeyPairSync, randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { newEventId, toEventData, type EventData, type EventStore, type ChainFault } from '@app/event-sourcing';
import { digestSignatureHolds, signAndRecord, verifyLog, type VerifyLogOptions } from '@app/audit';
import { DataKeys, PersonalData, withPersonalData, type DataKeyStore } from '@app/personal-data';
import { EventStoreDbEventStore, openEventStoreDb } from '@app/stores/eventstoredb';
import { EventStoreDbClientStandIn } from '@app/stores/eventstoredb/testing/client-stand-in';
import { SqliteDataKeyStore, SqliteDigestTreeStore } from '@app/stores/sqlite';
import { TRAINEE_PERSONAL_DATA } from '@app/trainees/decider';
import { exampleRegistration } from '@app/trainees/decider/testing/trainee-events';
import { perTestDatabase } from '../support/mongo-suite';

const serverUrl = process.env.EVENTSTORE_URL?.trim();
const mongoUrl = process.env.MONGODB_URL?.trim();

const targets: [string, () => EventStoreDbEventStore][] = [
  ['the client stand-in', () => new EventStoreDbEventStore(new EventStoreDbClientStandIn().asClient())],
];
if (serverUrl) targets.push(['the server at EVENTSTORE_URL', () => openEventStoreDb(serverUrl)]);
else {
  const reason = 'EventStoreDB audit and sealing suite on a server SKIPPED: EVENTSTORE_URL is not set (no server on this machine)';
  describe('Audit and sealing on EventStoreDB: the server', () => {
    console.warn(reason);
    it.skip(reason, () => undefined);
  });
}

/** A key store for one test and its cleanup: MongoDB's where `MONGODB_URL` is set, else SQLite's. */
async function openKeyStore(): Promise<{ keyStore: DataKeyStore; cleanup: () => Promise<void> }> {
  if (mongoUrl) {
    const fixture = await perTestDatabase(mongoUrl, 'esk', (readModel) => readModel.dataKeyStore())();
    return { keyStore: fixture.store, cleanup: fixture.cleanup };
  }
  const dir = mkdtempSync(join(tmpdir(), 'esdb-audit-keys-'));
  const keyStore = SqliteDataKeyStore.open(dir);
  return {
    keyStore,
    cleanup: async () => {
      await keyStore.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

if (!mongoUrl) {
  const reason =
    'Sealing on EventStoreDB with the MongoDB key store SKIPPED: MONGODB_URL is not set (the SQLite key store is used instead)';
  describe('Audit and sealing on EventStoreDB: the MongoDB key store', () => {
    console.warn(reason);
    it.skip(reason, () => undefined);
  });
}

const counted = (n: number): EventData => ({
  id: newEventId(),
  type: 'Counted',
  data: { n },
  metadata: { schemaVersion: 1, occurredAt: '2026-11-26T10:00:00.000Z' },
});

describe.each(targets)('Audit and sealing on the EventStoreDB adapter over %s', (_, open) => {
  let store: EventStoreDbEventStore;
  let dir: string;
  /** Unique per test: the streams it writes (a server is shared). */
  let run: string;

  beforeEach(() => {
    store = open();
    dir = mkdtempSync(join(tmpdir(), 'esdb-audit-'));
    run = `ea${randomUUID().replace(/-/g, '').slice(0, 12)}`;
  });
  afterEach(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** verifyLog of this test's streams only (a server holds others). */
  const verifyOwn = async (digest?: VerifyLogOptions['digest']) => {
    const faults: ChainFault[] = [];
    const heads: { streamId: string; revision: number; hash: string }[] = [];
    const totals = await verifyLog(store, {
      range: { after: run, before: `${run}~` },
      digest,
      onFault: (f) => faults.push(f),
      onStream: (h) => heads.push(h),
    });
    return { totals, faults, heads };
  };

  it('audit verify: checks each stream’s chain whole, through the port’s reads, and finds no fault', async () => {
    for (let i = 0; i < 3; i++) for (const s of ['b', 'a']) await store.appendToStream(`${run}-${s}`, [counted(i), counted(i + 10)]);
    const { totals, faults, heads } = await verifyOwn();
    expect(faults).toEqual([]);
    expect(totals).toEqual({ events: 12, streams: 2, faults: 0 });
    expect(heads.map((h) => [h.streamId, h.revision])).toEqual([
      [`${run}-a`, 5],
      [`${run}-b`, 5],
    ]);
  });

  it('signs and records a digest of the log, and holds the log to it', async () => {
    for (const s of ['x', 'y']) await store.appendToStream(`${run}-${s}`, [counted(1), counted(2)]);
    const { privateKey } = generateKeyPairSync('ed25519');
    const trees = SqliteDigestTreeStore.open(dir);
    try {
      const { digest, heads, recordedAt } = await signAndRecord(store, store, trees, privateKey, 'contract');
      expect(digestSignatureHolds(digest)).toBe(true);
      expect(recordedAt).toBeGreaterThan(digest.position);
      expect((await store.readAll({ fromPosition: digest.position, maxCount: 10_000 })).map((e) => e.position)).toContain(recordedAt);
      const own = heads.filter((h) => h.streamId.startsWith(run));
      expect(own.map((h) => [h.streamId, h.revision])).toEqual([
        [`${run}-x`, 1],
        [`${run}-y`, 1],
      ]);
      await store.appendToStream(`${run}-x`, [counted(3)]);
      const signed = new Map(own.map((h) => [h.streamId, { revision: h.revision, hash: h.hash }]));
      expect((await verifyOwn({ position: digest.position, heads: signed })).faults).toEqual([]);
    } finally {
      trees.close();
    }
  });

  it(`seals personal values with the ${mongoUrl ? 'MongoDB' : 'SQLite'} key store: stored sealed, read as appended, chains verify`, async () => {
    const { keyStore, cleanup } = await openKeyStore();
    try {
      const prefix = `${run}trainee-`;
      const sealing: EventStore = withPersonalData(
        store,
        new PersonalData(new DataKeys(keyStore, randomBytes(32)), { streamPrefix: prefix, pathsOf: TRAINEE_PERSONAL_DATA.pathsOf }),
      );
      const id = randomUUID();
      const events = exampleRegistration({ trainee_id: id, details: { first_names: 'Seraphina', email: `${id}@example.org` } });
      const appended = toEventData(events, { occurredAt: '2026-01-01T00:00:00.000Z' }, newEventId);
      await sealing.appendToStream(`${prefix}${id}`, appended);
      expect((await sealing.readStream(`${prefix}${id}`)).map((e) => e.data)).toEqual(appended.map((e) => e.data));
      expect(JSON.stringify(await store.readStream(`${prefix}${id}`))).not.toContain('Seraphina');
      const { faults, totals } = await verifyOwn();
      expect(faults).toEqual([]);
      expect(totals.streams).toBe(1);
    } finally {
      await cleanup();
    }
  });
});
