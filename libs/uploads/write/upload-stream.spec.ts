import type { EventStore, ReadStreamOptions } from '@app/event-sourcing';
import { SqliteEventStore } from '@app/stores/sqlite';
import { writeContext } from '@app/trainees/write';
import { readUpload, runUploadCommand, UPLOAD_STATES_KEPT, UploadStates } from './upload-stream';
import type { UploadStreamPorts } from './upload.ports';

const ID = 'u0000000001';
const at = (s: number) => new Date(Date.UTC(2026, 10, 1, 9, 0, s)).toISOString();
const ctx = (s: number) => writeContext({ ukprn: '10000001', tokenId: null, apiVersion: 'v2026.1', requestId: null }, at(s));

describe('an upload read from the state kept of it', () => {
  let store: SqliteEventStore;
  let reads: (ReadStreamOptions | undefined)[];
  let counted: EventStore;

  beforeEach(() => {
    store = new SqliteEventStore({ filename: ':memory:' });
    reads = [];
    counted = Object.create(store, {
      readStream: { value: (id: string, options?: ReadStreamOptions) => (reads.push(options), store.readStream(id, options)) },
    }) as EventStore;
  });
  afterEach(() => store.close());

  const receive = (ports: UploadStreamPorts) =>
    runUploadCommand(
      ports,
      ID,
      ctx(0),
      () => ({
        type: 'ReceiveUpload',
        upload_id: ID,
        ukprn: '10000001',
        kind: 'add_trainees',
        api_version: 'v2026.1',
        file_name: 'a.csv',
        byte_count: 3,
        file: 'a,b',
        now: at(0),
      }),
      true,
    );

  it('folds only the events after the head it kept, and reads what another process appended as a fresh read does', async () => {
    const kept: UploadStreamPorts = { trainees: { eventStore: counted }, keys: null, states: new UploadStates() };
    const other: UploadStreamPorts = { trainees: { eventStore: store }, keys: null };
    await receive(other);
    expect((await readUpload(kept, ID)).state.status).toBe('pending');
    expect(reads.at(-1)).toBeUndefined();

    await runUploadCommand(other, ID, ctx(1), () => ({ type: 'RecordUploadCheck', upload_id: ID, rows: [2], errors: [], now: at(1) }));
    const after = await readUpload(kept, ID);
    expect(reads.at(-1)).toEqual({ fromRevision: 1 });
    expect(after.state).toEqual((await readUpload(other, ID)).state);
    expect(after.state.status).toBe('validated');

    // A command decided from the kept state appends after the other process's event, not over it.
    await runUploadCommand(kept, ID, ctx(2), () => ({ type: 'CancelUpload', upload_id: ID, now: at(2) }));
    expect(reads.at(-1)).toEqual({ fromRevision: 2 });
    expect((await readUpload(other, ID)).state.status).toBe('cancelled');
  });

  it(`keeps the ${UPLOAD_STATES_KEPT} uploads read most recently`, () => {
    const states = new UploadStates();
    const snapshot = { state: {} as never, head: { revision: 0, link: null } };
    for (let i = 0; i <= UPLOAD_STATES_KEPT; i++) states.set(`u${i}`, snapshot);
    expect(states.get('u0')).toBeNull();
    expect(states.get('u1')).toBe(snapshot);
    states.set('u-new', snapshot);
    expect(states.get('u1')).toBe(snapshot);
    expect(states.get('u2')).toBeNull();
  });
});
