/**
 * The event store contract's suite of sealed personal data (test/contract/event-store.contract.ts;
 * docs/DESIGN.md "Personal data"): the codec (`withPersonalData`) over the adapter under test, so
 * EventStoreDB gets it as SQLite does. The store holds the sealed form only; every read of the
 * port gives the events back as appended, and `[erased]` once the key is destroyed.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes, randomUUID } from 'node:crypto';
import { newEventId, toEventData, type EventStore, type RecordedEvent } from '@app/event-sourcing';
import { DataKeys, ERASED, PersonalData, withPersonalData } from '@app/personal-data';
import { SqliteDataKeyStore } from '@app/stores/sqlite';
import { TRAINEE_PERSONAL_DATA } from '@app/trainees/decider';
import { exampleRegistration } from '@app/trainees/decider/testing/trainee-events';
import type { EventStoreContractContext } from './event-store.contract';

/** Registers the personal data suite for adapter `name`; `factory` is called before each test and its `cleanup` after it. */
export function describeEventStorePersonalDataContract(name: string, factory: () => Promise<EventStoreContractContext>): void {
  describe(`EventStore contract: ${name}, personal data sealed by the codec`, () => {
    let ctx: EventStoreContractContext;
    let keysDir: string;
    let keyStore: SqliteDataKeyStore;
    let keys: DataKeys;
    let sealing: EventStore;
    /** Unique per test: the stream prefix of the trainees the test writes. */
    let prefix: string;

    beforeEach(async () => {
      ctx = await factory();
      keysDir = mkdtempSync(join(tmpdir(), 'contract-keys-'));
      keyStore = SqliteDataKeyStore.open(keysDir);
      keys = new DataKeys(keyStore, randomBytes(32));
      prefix = `ct${randomUUID().replace(/-/g, '').slice(0, 12)}trainee-`;
      sealing = withPersonalData(ctx.store, new PersonalData(keys, { streamPrefix: prefix, pathsOf: TRAINEE_PERSONAL_DATA.pathsOf }));
    });

    afterEach(async () => {
      await keyStore.close();
      rmSync(keysDir, { recursive: true, force: true });
      await ctx.cleanup();
    });

    async function register(id: string): Promise<RecordedEvent[]> {
      const events = exampleRegistration({ trainee_id: id, details: { first_names: `Seraphina${id}`, email: `${id}@example.org` } });
      await sealing.appendToStream(`${prefix}${id}`, toEventData(events, { occurredAt: '2026-01-01T00:00:00.000Z' }, newEventId));
      return sealing.readStream(`${prefix}${id}`);
    }

    it('stores only the sealed form, and gives every read the events as appended', async () => {
      const from = await ctx.store.headPosition();
      const stream = await register('T1');
      expect(stream[0].data).toMatchObject({ details: { first_names: 'SeraphinaT1', email: 'T1@example.org' } });
      const raw = await ctx.store.readStream(`${prefix}T1`);
      expect(JSON.stringify(raw)).not.toMatch(/SeraphinaT1|T1@example.org/);
      expect(raw[0].data).toMatchObject({ sealed: { fields: expect.arrayContaining(['details.first_names', 'details.email']) } });
      const all = await sealing.readAll({ fromPosition: from, filter: { streamPrefixes: [prefix] } });
      expect(all).toEqual(stream);
      const sub = sealing.subscribeToAll({ fromPosition: from, filter: { streamPrefixes: [prefix] } });
      const live: RecordedEvent[] = [];
      for await (const e of sub) if (live.push(e) === stream.length) break;
      await sub.unsubscribe();
      expect(live).toEqual(stream);
    });

    it('reads [erased] for each personal value of a trainee whose key is destroyed, and the others as they were', async () => {
      await register('T1');
      await register('T2');
      await keys.destroy('T1', new Date());
      const erased = await sealing.readStream(`${prefix}T1`);
      expect(erased[0].data).toMatchObject({ details: { first_names: ERASED, email: ERASED, training_route: '11' } });
      expect((await sealing.readStream(`${prefix}T2`))[0].data).toMatchObject({ details: { first_names: 'SeraphinaT2' } });
    });
  });
}
