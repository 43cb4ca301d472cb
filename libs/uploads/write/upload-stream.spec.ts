import { randomBytes } from 'node:crypto';
import { newEventId, toEventData, type EventStore, type ReadStreamOptions } from '@app/event-sourcing';
import { sealFields, SealedValuesNotOpened } from '@app/personal-data';
import { SqliteEventStore, SqliteUploadFiles } from '@app/stores/sqlite';
import { writeContext } from '@app/trainees/write';
import { FILE_PART, messagesPart, type UploadFiles } from './upload-files.port';
import { sha256Hex } from './upload-parts';
import {
  readUpload,
  readUploadFile,
  readUploadMessages,
  runUploadCommand,
  storeUploadFile,
  storeUploadMessages,
  UploadPartUnreadable,
} from './upload-stream';
import { UPLOAD_STATES_KEPT, UploadStates } from './upload-states';
import type { UploadKeys, UploadStreamPorts } from './upload.ports';

const ID = 'u0000000001';
const at = (s: number) => new Date(Date.UTC(2026, 10, 1, 9, 0, s)).toISOString();
const ctx = (s: number) => writeContext({ ukprn: '10000001', tokenId: null, apiVersion: 'v2026.1', requestId: null }, at(s));

describe('an upload read from the state kept of it', () => {
  let store: SqliteEventStore;
  let files: UploadFiles;
  let reads: (ReadStreamOptions | undefined)[];
  let counted: EventStore;

  beforeEach(() => {
    store = new SqliteEventStore({ filename: ':memory:' });
    files = new SqliteUploadFiles(':memory:');
    reads = [];
    counted = Object.create(store, {
      readStream: { value: (id: string, options?: ReadStreamOptions) => (reads.push(options), store.readStream(id, options)) },
    }) as EventStore;
  });
  afterEach(async () => {
    store.close();
    await files.close();
  });

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
        sha256: sha256Hex(Buffer.from('a,b')),
        now: at(0),
      }),
      true,
    );

  it('folds only the events after the head it kept, and reads what another process appended as a fresh read does', async () => {
    const kept: UploadStreamPorts = { trainees: { eventStore: counted }, keys: null, files, states: new UploadStates() };
    const other: UploadStreamPorts = { trainees: { eventStore: store }, keys: null, files };
    await receive(other);
    expect((await readUpload(kept, ID)).state.status).toBe('pending');
    expect(reads.at(-1)).toBeUndefined();

    await runUploadCommand(other, ID, ctx(1), () => ({
      type: 'RecordUploadCheck',
      upload_id: ID,
      rows: [2],
      errors: [],
      messages_sha256: null,
      now: at(1),
    }));
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

/** The uploads' data keys in memory: one random key per id, destroyed on demand. */
function memoryKeys(): UploadKeys {
  const keys = new Map<string, Buffer | 'erased'>();
  return {
    keyFor: async (id) => {
      const key = keys.get(id);
      if (key === 'erased') throw new Error('erased');
      if (key) return key;
      const made = randomBytes(32);
      keys.set(id, made);
      return made;
    },
    existingKey: async (id) => keys.get(id) ?? null,
    destroy: async (id) => keys.set(id, 'erased') !== undefined,
  };
}

describe("an upload's file and messages, kept outside its stream", () => {
  const FILE = Buffer.from('provider_trainee_id,first_names\r\nP1,Zoë\r\n');
  const ERRORS = [
    { row: 2, column: 'first_names', message: 'first_names is too long' },
    { row: 2, column: null, message: 'This trainee is already in Register' },
  ];
  let store: SqliteEventStore;
  let files: SqliteUploadFiles;
  let ports: UploadStreamPorts;

  beforeEach(() => {
    store = new SqliteEventStore({ filename: ':memory:' });
    files = new SqliteUploadFiles(':memory:');
    ports = { trainees: { eventStore: store }, keys: memoryKeys(), files };
  });
  afterEach(async () => {
    store.close();
    await files.close();
  });

  /** Receives FILE and records a check with ERRORS, as the operations do: each part stored before the event that names it. */
  async function receivedAndChecked(): Promise<void> {
    const sha256 = await storeUploadFile(ports, ID, FILE);
    const base = { upload_id: ID, ukprn: '10000001', kind: 'add_trainees', api_version: 'v2026.1', file_name: 'a.csv' } as const;
    await runUploadCommand(
      ports,
      ID,
      ctx(0),
      () => ({ type: 'ReceiveUpload', ...base, byte_count: FILE.length, sha256, now: at(0) }),
      true,
    );
    const messages_sha256 = await storeUploadMessages(ports, ID, ERRORS);
    await runUploadCommand(ports, ID, ctx(1), () => ({
      type: 'RecordUploadCheck',
      upload_id: ID,
      rows: [2],
      errors: ERRORS,
      messages_sha256,
      now: at(1),
    }));
  }

  it('keeps in the log only their digests and sizes, and reads them back sealed from the store', async () => {
    await receivedAndChecked();
    const logged = JSON.stringify(await store.readStream(`upload-${ID}`));
    expect(logged).not.toContain('Zoë');
    expect(logged).not.toContain('too long');
    expect(logged).toContain(sha256Hex(FILE));
    const { state } = await readUpload(ports, ID);
    expect(state).toMatchObject({ status: 'failed', error_count: 2, errors: null, byte_count: FILE.length });
    expect(Buffer.from((await readUploadFile(ports, ID, state))!)).toEqual(FILE);
    expect(await readUploadMessages(ports, ID, state)).toEqual(ERRORS);
    const sealed = Buffer.from((await files.get(ID, FILE_PART))!);
    expect(sealed.includes(Buffer.from('Zoë'))).toBe(false);
    expect(await files.parts(ID)).toEqual([FILE_PART, messagesPart(state.messages_sha256!)].sort());
  });

  it('folds the state without reading a part; refuses a part altered, moved to another upload, or lost', async () => {
    await receivedAndChecked();
    const gets: string[] = [];
    const watched: UploadFiles = Object.create(files, {
      get: { value: (id: string, part: string) => (gets.push(part), files.get(id, part)) },
    });
    const { state } = await readUpload({ ...ports, files: watched }, ID);
    expect(gets).toEqual([]);
    const sealed = Buffer.from((await files.get(ID, FILE_PART))!);
    sealed[20] ^= 1;
    await files.put(ID, FILE_PART, sealed);
    await expect(readUploadFile(ports, ID, state)).rejects.toThrow(SealedValuesNotOpened);
    await files.put(ID, FILE_PART, (await files.get(ID, messagesPart(state.messages_sha256!)))!);
    await expect(readUploadFile(ports, ID, state)).rejects.toThrow(SealedValuesNotOpened);
    await files.delete(ID);
    await expect(readUploadFile(ports, ID, state)).rejects.toThrow(UploadPartUnreadable);
  });

  it('reads an upload of an older log, whose events held the file and the messages, sealed', async () => {
    const key = await ports.keys!.keyFor(`upload-${ID}`);
    const streamId = `upload-${ID}`;
    const v1 = [
      {
        type: 'UploadReceived',
        data: {
          upload_id: ID,
          ukprn: '10000001',
          kind: 'add_trainees',
          api_version: 'v2026.1',
          file_name: null,
          byte_count: 3,
          file: 'a,b',
          at: at(0),
        },
      },
      { type: 'UploadChecked', data: { upload_id: ID, rows: [2], errors: ERRORS, at: at(1) } },
    ];
    const envelopes = v1.map((e) => {
      const [envelope] = toEventData([{ type: 'UploadCancelled', data: {} }], ctx(0), newEventId);
      const places = e.type === 'UploadReceived' ? ['file', 'file_name'] : ['errors'];
      const data = sealFields(e.data as Record<string, unknown>, places, key, { streamId, eventId: envelope.id, type: e.type });
      return { ...envelope, type: e.type, data, metadata: { ...envelope.metadata, schemaVersion: 1 } };
    });
    await store.appendToStream(streamId, envelopes);
    const { state } = await readUpload(ports, ID);
    expect(state).toMatchObject({ status: 'failed', error_count: 2, file_sha256: null });
    expect(Buffer.from((await readUploadFile(ports, ID, state))!).toString()).toBe('a,b');
    expect(await readUploadMessages(ports, ID, state)).toEqual(ERRORS);
  });
});
