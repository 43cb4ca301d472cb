import { SqliteEventStore, SqliteUploadFiles } from '@app/stores/sqlite';
import { identityMarks } from '@app/trainees/decider';
import { writeContext } from '@app/trainees/write';
import { csvRecord } from '@app/uploads/csv';
import type { UploadCommand, UploadKind } from '@app/uploads/decider';
import { RECOMMEND_COLUMNS } from './recommend-rows';
import { addTraineeColumns } from './trainee-columns';
import { listUpload, providerUploads, UploadLists } from './upload-list';
import { purgeUploadsOfErased, type ErasedPerson } from './upload-purge';
import { UploadRowMarks } from './upload-row-marks';
import { readUpload, runUploadCommand, storeUploadFile } from './upload-stream';
import type { UploadStreamPorts } from './upload.ports';

const UKPRN = '10000001';
const V = 'v2026.1';
const at = (s: number) => new Date(Date.UTC(2026, 10, 1, 9, 0, s)).toISOString();
const ctx = (s: number) => writeContext({ ukprn: UKPRN, tokenId: null, apiVersion: V, requestId: null }, at(s));

/** A file of `columns` with a row per entry of `rows` (cells by column, the others blank). */
const fileOf = (columns: readonly string[], rows: Record<string, string>[]): Buffer =>
  Buffer.from([csvRecord(columns), ...rows.map((r) => csvRecord(columns.map((c) => r[c] ?? '')))].join(''));
const addFile = (...rows: Record<string, string>[]) => fileOf(addTraineeColumns(V), rows);

/** The erased person: Hepzibah Quarrington, born 1988-02-29, trainee TQ1. */
const person: ErasedPerson = {
  traineeId: 'TQ1',
  marks: identityMarks({
    trainee_id: ['TQ1'],
    first_names: ['Hepzibah'],
    last_name: ['Quarrington'],
    date_of_birth: ['1988-02-29'],
    email: ['hq@example.org'],
    provider_trainee_id: ['PT-9'],
  }),
};
const other = { first_names: 'Ambrose', last_name: 'Fellowes', date_of_birth: '1991-07-01', email: 'af@example.org' };

describe('purging the uploads that hold a row of an erased trainee, whatever their state', () => {
  let store: SqliteEventStore;
  let files: SqliteUploadFiles;
  let ports: UploadStreamPorts;
  let fileReads: number;

  beforeEach(() => {
    store = new SqliteEventStore({ filename: ':memory:' });
    files = new SqliteUploadFiles(':memory:');
    fileReads = 0;
    const counted = Object.create(files, {
      get: { value: (id: string, part: string) => (fileReads++, files.get(id, part)) },
    }) as SqliteUploadFiles;
    ports = { trainees: { eventStore: store }, keys: null, files: counted, lists: new UploadLists() };
  });
  afterEach(async () => {
    store.close();
    await files.close();
  });

  /** An upload of `file` received, then taken through `then` (commands after its receipt). */
  async function upload(id: string, file: Buffer, then: ((id: string) => UploadCommand)[] = [], kind: UploadKind = 'add_trainees') {
    await listUpload(ports, UKPRN, id, { kind, byteCount: file.byteLength }, ctx(0));
    const sha256 = await storeUploadFile(ports, id, file);
    const receive = { type: 'ReceiveUpload', upload_id: id, ukprn: UKPRN, kind, api_version: V, file_name: null } as const;
    await runUploadCommand(ports, id, ctx(0), () => ({ ...receive, byte_count: file.byteLength, sha256, now: at(0) }), true);
    for (const [i, command] of then.entries()) await runUploadCommand(ports, id, ctx(i + 1), () => command(id));
  }
  const checked =
    (rows: number[]) =>
    (id: string): UploadCommand => ({ type: 'RecordUploadCheck', upload_id: id, rows, errors: [], messages_sha256: null, now: at(1) });
  const cancelled = (id: string): UploadCommand => ({ type: 'CancelUpload', upload_id: id, now: at(2) });
  const targets = (ids: string[]) => ids.map((trainee_id, i) => ({ row: i + 2, trainee_id }));
  const submitted =
    (ids: string[]) =>
    (id: string): UploadCommand => ({ type: 'SubmitUpload', upload_id: id, targets: targets(ids), now: at(3) });
  const completed =
    (ids: string[]) =>
    (id: string): UploadCommand => ({ type: 'RecordRowOutcomes', upload_id: id, outcomes: targets(ids), now: at(4) });

  it('purges each one holding the person’s row, marks one being submitted, and leaves the others as they were', async () => {
    await upload('pending-by-name', addFile(other, { last_name: 'QUARRINGTON', date_of_birth: '1988-02-29' }));
    await upload('cancelled-by-email', addFile({ ...other, email: 'HQ@example.org' }), [checked([2]), cancelled]);
    await upload('checked-other', addFile(other), [checked([2])]);
    await upload(
      'recommend-by-id',
      fileOf(RECOMMEND_COLUMNS, [{ trainee_id: 'TQ1', qts_standards_met_date: '2026-07-01' }]),
      [],
      'recommend_for_award',
    );
    const submitting = [checked([2, 3]), submitted(['n1', 'n2'])];
    await upload('submitting-by-names', addFile(other, { first_names: 'hepzibah', last_name: 'Quarrington' }), submitting);
    await upload('lost-file', addFile(other));
    await files.delete('lost-file');
    await upload('wrote-to-it', addFile(other), [checked([2]), submitted(['TQ1']), completed(['TQ1'])]);
    const untouched = (await readUpload(ports, 'checked-other')).state;

    const rows = new UploadRowMarks();
    const done = await purgeUploadsOfErased(ports, UKPRN, person, new Date(at(9)), rows);
    expect(done).toEqual({ purged: 5, purgedWhenSubmitted: 1 });
    const purged = ['pending-by-name', 'cancelled-by-email', 'recommend-by-id', 'lost-file', 'wrote-to-it'];
    for (const id of purged) {
      expect((await readUpload(ports, id)).state.purged).toBe(true);
      expect(await files.parts(id)).toEqual([]);
    }
    expect((await readUpload(ports, 'submitting-by-names')).state).toMatchObject({ purged: false, purge_requested: true });
    expect(await files.parts('submitting-by-names')).toEqual(['file']);
    expect((await readUpload(ports, 'checked-other')).state).toEqual(untouched);
    expect(await files.parts('checked-other')).toEqual(['file']);
    const listed = (await providerUploads(ports, UKPRN)).filter((e) => !e.delisted).map((e) => e.upload_id);
    expect(listed).toEqual(['checked-other', 'submitting-by-names']);

    // Run again (an erasure interrupted and run again): nothing more purged, the one submitting still told.
    const readsBefore = fileReads;
    expect(await purgeUploadsOfErased(ports, UKPRN, person, new Date(at(10)), rows)).toEqual({ purged: 0, purgedWhenSubmitted: 1 });
    // Another erasure of the same run reads no file again.
    const stranger: ErasedPerson = { traineeId: 'TZ9', marks: identityMarks({ trainee_id: ['TZ9'], email: ['z@example.org'] }) };
    expect(await purgeUploadsOfErased(ports, UKPRN, stranger, new Date(at(11)), rows)).toEqual({ purged: 0, purgedWhenSubmitted: 0 });
    expect(fileReads).toBe(readsBefore);
    // A new run reads each file still kept once.
    await purgeUploadsOfErased(ports, UKPRN, stranger, new Date(at(12)), new UploadRowMarks());
    expect(fileReads).toBe(readsBefore + 2);
  });
});
