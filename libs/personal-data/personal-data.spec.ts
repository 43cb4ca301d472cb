import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { logPosition, type EventData, type RecordedEvent } from '@app/event-sourcing';
import { SqliteDataKeyStore } from '@app/stores/sqlite';
import { DataKeys } from './data-keys';
import { SealedValuesNotOpened } from './sealed-fields';
import { DataKeyMissing, PersonalData, type SealingPlan } from './personal-data';

const PLAN: SealingPlan = {
  streamPrefix: 'trainee-',
  pathsOf: (type) => (type === 'Registered' ? ['details.last_name', 'email'] : []),
};
const STREAM = 'trainee-T1';
const KEK = Buffer.alloc(32, 9);

function registered(id: string, lastName: string): EventData {
  return {
    id,
    type: 'Registered',
    data: { trainee_id: 'T1', details: { last_name: lastName, route: '11' }, email: `${lastName}@example.com` },
    metadata: { schemaVersion: 1, occurredAt: '2026-01-01T00:00:00.000Z' },
  };
}

function recorded(e: EventData, position: number): RecordedEvent {
  return { ...e, streamId: STREAM, streamRevision: position - 1, position: logPosition(position) };
}

describe('PersonalData: the values of the events this process sealed, told to the thread that projects them (docs/DESIGN.md "Personal data")', () => {
  let dirs: string[];
  let stores: SqliteDataKeyStore[];
  /** A PersonalData on a key store of its own: it never holds the key the other sealed with. */
  const withOwnKeys = (options?: ConstructorParameters<typeof PersonalData>[3]): PersonalData => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'personal-data-'));
    const store = SqliteDataKeyStore.open(dir);
    dirs.push(dir);
    stores.push(store);
    return new PersonalData(new DataKeys(store, KEK), PLAN, true, options);
  };

  beforeEach(() => {
    dirs = [];
    stores = [];
  });
  afterEach(async () => {
    for (const store of stores) await store.close();
    for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('tells onSealed of each sealed event: its id and the JSON of the values its box holds', async () => {
    const told: [string, string][] = [];
    const sealer = withOwnKeys({ onSealed: (id, values) => told.push([id, values]) });
    const sealed = await sealer.seal(STREAM, [registered('E1', 'Quill'), { ...registered('E2', 'x'), type: 'Other' }]);
    expect(JSON.stringify(sealed)).not.toContain('Quill');
    expect(told).toEqual([['E1', JSON.stringify(['Quill@example.com', 'Quill'])]]);
    expect((await sealer.open([recorded(sealed[0], 1)]))[0].data).toEqual(registered('E1', 'Quill').data);
  });

  it('reads or makes no key for an event that holds no personal value, and stores it as it is', async () => {
    const sealer = withOwnKeys();
    const event = { ...registered('E1', 'x'), data: { trainee_id: 'T1', details: { last_name: null, route: '11' } } };
    expect(await sealer.seal(STREAM, [event])).toEqual([event]);
    expect(await stores[0].get('T1')).toBeNull();
    await sealer.seal(STREAM, [registered('E2', 'Quill')]);
    expect(await stores[0].get('T1')).toBeInstanceOf(Buffer);
  });

  it("reads a batch's keys together: erasures elsewhere asked once, each trainee's key once", async () => {
    const sealer = withOwnKeys();
    const other = 'trainee-T2';
    const t1 = await sealer.seal(STREAM, [registered('E1', 'Ash'), registered('E2', 'Birch')]);
    const t2 = await sealer.seal(other, [registered('E3', 'Cedar'), registered('E4', 'Damson')]);
    const events = [...t1.map((e, i) => recorded(e, i + 1)), ...t2.map((e, i) => ({ ...recorded(e, i + 3), streamId: other }))];
    // Another process's PersonalData on the same key store: none of the keys in memory.
    const reader = new PersonalData(new DataKeys(stores[0], KEK), PLAN, true);
    const erasedSince = jest.spyOn(stores[0], 'erasedSince');
    const get = jest.spyOn(stores[0], 'get');
    const opened = await reader.open(events);
    expect(opened.map((e) => (e.data as { email: string }).email)).toEqual(
      ['Ash', 'Birch', 'Cedar', 'Damson'].map((name) => `${name}@example.com`),
    );
    expect(erasedSince).toHaveBeenCalledTimes(1);
    expect(get.mock.calls).toEqual([['T1'], ['T2']]);
  });

  it('opens a live event with the values it was told, without its key, once', async () => {
    const projector = withOwnKeys();
    const sealer = withOwnKeys({ onSealed: (id, values) => projector.knowValues(id, values) });
    const event = recorded((await sealer.seal(STREAM, [registered('E1', 'Quill')]))[0], 1);
    const [opened] = await projector.open([event], true);
    expect(opened.data).toEqual(registered('E1', 'Quill').data);
    expect(Object.keys(opened.data as object)).toEqual(Object.keys(registered('E1', 'Quill').data as object));
    // Taken once: read again, the event needs its key, which this key store never held.
    await expect(projector.open([event], true)).rejects.toBeInstanceOf(DataKeyMissing);
  });

  it('never takes told values outside the live subscription: any other read opens with the key as it is then', async () => {
    const projector = withOwnKeys();
    const sealer = withOwnKeys({ onSealed: (id, values) => projector.knowValues(id, values) });
    const event = recorded((await sealer.seal(STREAM, [registered('E1', 'Quill')]))[0], 1);
    await expect(projector.open([event])).rejects.toBeInstanceOf(DataKeyMissing);
    expect((await projector.open([event], true))[0].data).toEqual(registered('E1', 'Quill').data);
  });

  it('keeps at most knownMax told values, forgetting the oldest first', async () => {
    const projector = withOwnKeys({ knownMax: 2 });
    const sealer = withOwnKeys({ onSealed: (id, values) => projector.knowValues(id, values) });
    const events = (await sealer.seal(STREAM, [registered('E1', 'Ash'), registered('E2', 'Birch'), registered('E3', 'Cedar')])).map(
      (e, i) => recorded(e, i + 1),
    );
    await expect(projector.open([events[0]], true)).rejects.toBeInstanceOf(DataKeyMissing);
    const opened = await projector.open(events.slice(1), true);
    expect(opened.map((e) => (e.data as { email: string }).email)).toEqual(['Birch@example.com', 'Cedar@example.com']);
  });

  it('binds each box to its event: a box moved to another event of the same trainee does not open, as an altered one does not', async () => {
    const sealer = withOwnKeys();
    const [first, second] = await sealer.seal(STREAM, [registered('E1', 'Quill'), registered('E2', 'Ash')]);
    expect((await sealer.open([recorded(second, 2)]))[0].data).toEqual(registered('E2', 'Ash').data);
    const moved = recorded({ ...second, data: first.data }, 2);
    await expect(sealer.open([moved])).rejects.toBeInstanceOf(SealedValuesNotOpened);
  });
});
