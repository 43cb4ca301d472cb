import { DeciderSpecification } from '@app/event-sourcing/testing/decider-specification';
import fc from 'fast-check';
import type { RowOutcomeInput, UploadCommand } from './upload.commands';
import { decideUpload, rowsToAppend, uploadPurgeDueAt, uploadWork } from './upload.decide';
import { UploadCommandInvalid, UploadConflict, UploadNotFound, UploadNotSubmittable } from './upload.errors';
import { decodeUploadEvent, type RowError, type UploadEvent } from './upload.events';
import { UPLOAD_BYTES_MAX, UPLOAD_ROWS_MAX } from './upload.limits';
import { evolveUpload, initialUploadState, outcomesOf, type UploadState } from './upload.state';

const spec = DeciderSpecification.for({ decide: decideUpload, evolve: evolveUpload, initialState: () => initialUploadState });
const ID = 'upl_1';
const T0 = '2026-11-24T10:00:00.000Z';
const T1 = '2026-11-24T10:01:00.000Z';
const T2 = '2026-11-24T10:02:00.000Z';
const T3 = '2026-11-24T10:03:00.000Z';
const FILE_SHA = 'a'.repeat(64);
const MESSAGES_SHA = 'b'.repeat(64);

// ---- literal events -------------------------------------------------------------------------
const received: UploadEvent = {
  type: 'UploadReceived',
  data: {
    upload_id: ID,
    ukprn: '10000001',
    kind: 'add_trainees',
    api_version: 'v2026.1',
    file_name: null,
    byte_count: 420,
    sha256: FILE_SHA,
    at: T0,
  },
};
const checkedClean: UploadEvent = {
  type: 'UploadChecked',
  data: { upload_id: ID, rows: [2, 3, 5], error_count: 0, messages_sha256: null, at: T1 },
};
const MISSING: RowError = { row: 3, column: 'first_names', message: 'first_names is required' };
const BAD_CODE: RowError = { row: 2, column: 'sex', message: 'sex has invalid reference data value of 9' };
const checkedWithErrors: UploadEvent = {
  type: 'UploadChecked',
  data: { upload_id: ID, rows: [2, 3, 5], error_count: 2, messages_sha256: MESSAGES_SHA, at: T1 },
};
const submitted: UploadEvent = {
  type: 'UploadSubmitted',
  data: {
    upload_id: ID,
    rows: [
      { row: 2, trainee_id: 'tr_a' },
      { row: 3, trainee_id: 'tr_b' },
      { row: 5, trainee_id: 'tr_c' },
    ],
    at: T2,
  },
};
const appended = (row: number, trainee_id: string, at = T3): UploadEvent => ({
  type: 'UploadRowAppended',
  data: { upload_id: ID, row, trainee_id, at },
});
const DUPLICATE = { column: null, message: 'This trainee is already in Register' };
const rowFailed = (row: number, at = T3): UploadEvent => ({
  type: 'UploadRowFailed',
  data: { upload_id: ID, row, errors: [DUPLICATE], at },
});
const completed = (appended_count: number, failed_count: number): UploadEvent => ({
  type: 'UploadCompleted',
  data: { upload_id: ID, appended_count, failed_count, at: T3 },
});
const cancelled = (at = T2): UploadEvent => ({ type: 'UploadCancelled', data: { upload_id: ID, at } });

// ---- commands -------------------------------------------------------------------------------
const receive = (over: Partial<Extract<UploadCommand, { type: 'ReceiveUpload' }>> = {}): UploadCommand => ({
  type: 'ReceiveUpload',
  upload_id: ID,
  ukprn: '10000001',
  kind: 'add_trainees',
  api_version: 'v2026.1',
  file_name: null,
  byte_count: 420,
  sha256: FILE_SHA,
  now: T0,
  ...over,
});
const check = (rows: number[], errors: RowError[] = [], messages_sha256 = errors.length > 0 ? MESSAGES_SHA : null): UploadCommand => ({
  type: 'RecordUploadCheck',
  upload_id: ID,
  rows,
  errors,
  messages_sha256,
  now: T1,
});
const TARGETS = [
  { row: 5, trainee_id: 'tr_c' },
  { row: 2, trainee_id: 'tr_a' },
  { row: 3, trainee_id: 'tr_b' },
];
const submit = (targets = TARGETS): UploadCommand => ({ type: 'SubmitUpload', upload_id: ID, targets, now: T2 });
const outcomes = (...list: RowOutcomeInput[]): UploadCommand => ({ type: 'RecordRowOutcomes', upload_id: ID, outcomes: list, now: T3 });
const cancel = (): UploadCommand => ({ type: 'CancelUpload', upload_id: ID, now: T2 });
const purge = (now: string): UploadCommand => ({ type: 'PurgeUpload', upload_id: ID, now });
const saying = (pattern: RegExp) => (e: Error) => expect(e.message).toMatch(pattern);
const fold = (events: UploadEvent[]): UploadState => events.reduce(evolveUpload, initialUploadState);

describe('receiving a file', () => {
  it('records the upload as pending its check', () => {
    spec.given([]).when(receive()).then([received]);
    expect(fold([received])).toMatchObject({ exists: true, status: 'pending', ukprn: '10000001', kind: 'add_trainees', received_at: T0 });
  });

  it('refuses an upload id twice, an unknown kind, an empty or oversized file', () => {
    spec
      .given([received])
      .when(receive())
      .thenThrows(UploadCommandInvalid, saying(/already exists/));
    spec
      .given([])
      .when(receive({ kind: 'rename' as never }))
      .thenThrows(UploadCommandInvalid, saying(/kind/));
    spec
      .given([])
      .when(receive({ byte_count: 0 }))
      .thenThrows(UploadCommandInvalid);
    spec
      .given([])
      .when(receive({ byte_count: UPLOAD_BYTES_MAX + 1 }))
      .thenThrows(UploadCommandInvalid, saying(/1048576 bytes/));
    spec
      .given([])
      .when(receive({ byte_count: UPLOAD_BYTES_MAX }))
      .thenMatch((events) => expect(events).toHaveLength(1));
    spec
      .given([])
      .when(receive({ sha256: 'not a digest' }))
      .thenThrows(UploadCommandInvalid, saying(/SHA-256/));
  });
});

describe('recording the check', () => {
  it('records the rows and how many errors, kept apart under their digest; no error: validated, errors: failed', () => {
    spec
      .given([received])
      .when(check([2, 3, 5]))
      .then([checkedClean]);
    spec
      .given([received])
      .when(check([2, 3, 5], [BAD_CODE, MISSING]))
      .then([checkedWithErrors]);
    expect(fold([received, checkedClean])).toMatchObject({ status: 'validated', error_count: 0, errors: [] });
    expect(fold([received, checkedWithErrors])).toMatchObject({
      status: 'failed',
      error_count: 2,
      errors: null,
      messages_sha256: MESSAGES_SHA,
      rows: [2, 3, 5],
    });
    expect(fold([received])).toMatchObject({ byte_count: 420, file_sha256: FILE_SHA });
  });

  it('refuses errors out of row order, and a digest missing beside errors or given without them', () => {
    spec
      .given([received])
      .when(check([2, 3, 5], [MISSING, BAD_CODE]))
      .thenThrows(UploadCommandInvalid, saying(/row order/));
    spec
      .given([received])
      .when(check([2, 3, 5], [BAD_CODE], null))
      .thenThrows(UploadCommandInvalid, saying(/digest/));
    spec
      .given([received])
      .when(check([2, 3, 5], [], MESSAGES_SHA))
      .thenThrows(UploadCommandInvalid, saying(/digest/));
  });

  it('reads the events of an older log, which held the file and the messages themselves', () => {
    const v1 = { schemaVersion: 1 };
    const oldReceived = decodeUploadEvent({
      type: 'UploadReceived',
      data: { ...received.data, sha256: undefined, file: 'x' },
      metadata: v1,
    });
    expect(oldReceived?.data).toMatchObject({ sha256: null, file: 'x' });
    const oldChecked = decodeUploadEvent({
      type: 'UploadChecked',
      data: { upload_id: ID, rows: [2, 3, 5], errors: [BAD_CODE, MISSING], at: T1 },
      metadata: v1,
    });
    const state = fold([oldReceived!, oldChecked!]);
    expect(state).toMatchObject({
      status: 'failed',
      error_count: 2,
      errors: [BAD_CODE, MISSING],
      messages_sha256: null,
      file_sha256: null,
    });
    spec
      .given([oldReceived!, oldChecked!])
      .when(submit())
      .thenThrows(UploadNotSubmittable, saying(/2 errors/));
    // Erased with its key (the list sealed and never opened): no messages, nothing to submit.
    const erased = decodeUploadEvent({
      type: 'UploadChecked',
      data: { upload_id: ID, rows: [2], errors: '[erased]', at: T1 },
      metadata: v1,
    });
    expect(fold([oldReceived!, erased!])).toMatchObject({ status: 'validated', errors: [] });
  });

  it('changes nothing once checked, or after a cancel (a check run again on resume, or outrun)', () => {
    spec
      .given([received, checkedClean])
      .when(check([2]))
      .thenNothingHappened();
    spec
      .given([received, cancelled(T1)])
      .when(check([2, 3, 5]))
      .thenNothingHappened();
  });

  it('refuses rows that are not 1 to 1,000 ascending spreadsheet rows from 2, and errors on other rows', () => {
    spec
      .given([received])
      .when(check([]))
      .thenThrows(UploadCommandInvalid, saying(/1 to 1000 rows/));
    const tooMany = Array.from({ length: UPLOAD_ROWS_MAX + 1 }, (_, i) => i + 2);
    spec
      .given([received])
      .when(check(tooMany))
      .thenThrows(UploadCommandInvalid, saying(/not 1001/));
    spec
      .given([received])
      .when(check(tooMany.slice(0, UPLOAD_ROWS_MAX)))
      .thenMatch((events) => expect(events).toHaveLength(1));
    spec
      .given([received])
      .when(check([1, 2]))
      .thenThrows(UploadCommandInvalid, saying(/got 1/));
    spec
      .given([received])
      .when(check([3, 2]))
      .thenThrows(UploadCommandInvalid, saying(/ascending/));
    spec
      .given([received])
      .when(check([2, 2]))
      .thenThrows(UploadCommandInvalid);
    spec
      .given([received])
      .when(check([2, 3], [{ row: 4, column: null, message: 'x' }]))
      .thenThrows(UploadCommandInvalid, saying(/row 4/));
    spec
      .given([received])
      .when(check([2], [{ row: 2, column: 'sex', message: ' ' }]))
      .thenThrows(UploadCommandInvalid, saying(/no message/));
  });

  it('answers an unknown upload as not found', () => {
    spec
      .given([])
      .when(check([2]))
      .thenThrows(UploadNotFound);
  });
});

describe('submitting', () => {
  it('fixes each checked row’s trainee, in row order, when validated with no errors', () => {
    spec.given([received, checkedClean]).when(submit()).then([submitted]);
    expect(fold([received, checkedClean, submitted])).toMatchObject({ status: 'in_progress', submitted_at: T2 });
  });

  it('records the person who submitted it, when a person did, for the rows’ writes', () => {
    const byPerson = { ...submitted, data: { ...submitted.data, submitted_by: 'sub-1' } } as UploadEvent;
    spec
      .given([received, checkedClean])
      .when({ ...submit(), submitted_by: 'sub-1' } as UploadCommand)
      .then([byPerson]);
    expect(fold([received, checkedClean, byPerson]).submitted_by).toBe('sub-1');
    spec
      .given([received, checkedClean])
      .when({ ...submit(), submitted_by: null } as UploadCommand)
      .then([submitted]);
    expect(fold([received, checkedClean, submitted]).submitted_by).toBeNull();
  });

  it('refuses a file not checked yet, or checked with errors (422)', () => {
    spec
      .given([received])
      .when(submit())
      .thenThrows(UploadNotSubmittable, (e) => e.reason === 'not_checked');
    spec
      .given([received, checkedWithErrors])
      .when(submit())
      .thenThrows(UploadNotSubmittable, (e) => {
        expect(e.reason).toBe('has_errors');
        expect(e.message).toBe('The file has 2 errors: fix them and upload the file again');
      });
  });

  it('refuses an upload already submitted, completed or cancelled (409)', () => {
    spec
      .given([received, checkedClean, submitted])
      .when(submit())
      .thenThrows(UploadConflict, (e) => e.reason === 'submitted');
    const done = [received, checkedClean, submitted, appended(2, 'tr_a'), appended(3, 'tr_b'), appended(5, 'tr_c'), completed(3, 0)];
    spec
      .given(done)
      .when(submit())
      .thenThrows(UploadConflict, (e) => e.reason === 'submitted');
    spec
      .given([received, checkedClean, cancelled()])
      .when(submit())
      .thenThrows(UploadConflict, (e) => e.reason === 'cancelled');
  });

  it('refuses targets that miss a row, add one, or share a trainee', () => {
    const given = spec.given([received, checkedClean]);
    given.when(submit(TARGETS.slice(1))).thenThrows(UploadCommandInvalid, saying(/each of the 3 checked rows/));
    given.when(submit([...TARGETS, { row: 9, trainee_id: 'tr_d' }])).thenThrows(UploadCommandInvalid);
    given.when(submit([...TARGETS.slice(1), { row: 3, trainee_id: 'tr_x' }])).thenThrows(UploadCommandInvalid);
    given.when(submit([...TARGETS.slice(1), { row: 5, trainee_id: 'tr_a' }])).thenThrows(UploadCommandInvalid, saying(/its own/));
  });
});

describe('writing the rows', () => {
  const inProgress = [received, checkedClean, submitted];

  it('records each row’s outcome, and completes with the last one', () => {
    spec
      .given(inProgress)
      .when(outcomes({ row: 2, trainee_id: 'tr_a' }))
      .then([appended(2, 'tr_a')]);
    spec
      .given([...inProgress, appended(2, 'tr_a')])
      .when(outcomes({ row: 5, trainee_id: 'tr_c' }, { row: 3, errors: [DUPLICATE] }))
      .then([appended(5, 'tr_c'), rowFailed(3), completed(2, 1)]);
  });

  it('keeps the first outcome of a row recorded again on resume; completes once', () => {
    spec
      .given([...inProgress, appended(2, 'tr_a')])
      .when(outcomes({ row: 2, trainee_id: 'tr_a' }, { row: 3, trainee_id: 'tr_b' }))
      .then([appended(3, 'tr_b')]);
    const done = [...inProgress, appended(2, 'tr_a'), appended(3, 'tr_b'), appended(5, 'tr_c'), completed(3, 0)];
    spec
      .given(done)
      .when(outcomes({ row: 5, trainee_id: 'tr_c' }))
      .thenNothingHappened();
    expect(fold(done)).toMatchObject({ status: 'succeeded', ended_at: T3 });
  });

  it('refuses another trainee than the one fixed, a row not submitted, a row twice, a failure without message', () => {
    const given = spec.given(inProgress);
    given.when(outcomes({ row: 2, trainee_id: 'tr_b' })).thenThrows(UploadCommandInvalid, saying(/trainee tr_a, not tr_b/));
    given.when(outcomes({ row: 4, trainee_id: 'tr_a' })).thenThrows(UploadCommandInvalid, saying(/Row 4 was not submitted/));
    given.when(outcomes({ row: 2, trainee_id: 'tr_a' }, { row: 2, errors: [DUPLICATE] })).thenThrows(UploadCommandInvalid, saying(/two/));
    given.when(outcomes({ row: 2, errors: [] })).thenThrows(UploadCommandInvalid, saying(/without a message/));
    spec
      .given([received, checkedClean])
      .when(outcomes({ row: 2, trainee_id: 'tr_a' }))
      .thenThrows(UploadCommandInvalid, saying(/submitted upload only/));
  });
});

describe('resuming after a stop', () => {
  it('names the work left: check a pending upload, write a submitted one, nothing otherwise', () => {
    expect(uploadWork(fold([]))).toBeNull();
    expect(uploadWork(fold([received]))).toBe('check');
    expect(uploadWork(fold([received, checkedClean]))).toBeNull();
    expect(uploadWork(fold([received, checkedClean, submitted]))).toBe('append');
    expect(uploadWork(fold([received, checkedClean, cancelled()]))).toBeNull();
  });

  it('lists the submitted rows without an outcome, with their trainees', () => {
    const state = fold([received, checkedClean, submitted, rowFailed(3)]);
    expect(rowsToAppend(state)).toEqual([
      { row: 2, trainee_id: 'tr_a' },
      { row: 5, trainee_id: 'tr_c' },
    ]);
    expect(outcomesOf(state)).toEqual([{ row: 3, errors: [DUPLICATE] }]);
  });

  it('whatever the batches, order and replays of the outcomes: each row once, one completion with its counts', () => {
    const rows = Array.from({ length: 12 }, (_, i) => i + 2);
    const targets = rows.map((row) => ({ row, trainee_id: `tr_${row}` }));
    const start: UploadEvent[] = [
      received,
      { type: 'UploadChecked', data: { upload_id: ID, rows, error_count: 0, messages_sha256: null, at: T1 } },
      { type: 'UploadSubmitted', data: { upload_id: ID, rows: targets, at: T2 } },
    ];
    const outcomeOf = (row: number, fails: boolean): RowOutcomeInput =>
      fails ? { row, errors: [DUPLICATE] } : { row, trainee_id: `tr_${row}` };
    const attempts = fc.array(fc.array(fc.record({ row: fc.constantFrom(...rows), fails: fc.boolean() }), { maxLength: 6 }), {
      maxLength: 30,
    });
    fc.assert(
      fc.property(attempts, fc.shuffledSubarray(rows, { minLength: rows.length }), (batches, finalOrder) => {
        let state = fold(start);
        const all: UploadEvent[] = [];
        const record = (list: { row: number; fails: boolean }[]) => {
          const unique = [...new Map(list.map((o) => [o.row, o])).values()];
          const events = decideUpload(outcomes(...unique.map((o) => outcomeOf(o.row, o.fails))), state);
          all.push(...events);
          state = events.reduce(evolveUpload, state);
        };
        batches.forEach(record);
        record(finalOrder.map((row) => ({ row, fails: false })));
        const rowEvents = all.filter((e) => e.type === 'UploadRowAppended' || e.type === 'UploadRowFailed');
        expect(rowEvents.map((e) => (e.data as { row: number }).row).sort((a, b) => a - b)).toEqual(rows);
        const completions = all.filter((e) => e.type === 'UploadCompleted');
        expect(completions).toHaveLength(1);
        expect(all[all.length - 1]).toBe(completions[0]);
        const failed = rowEvents.filter((e) => e.type === 'UploadRowFailed').length;
        expect(completions[0].data).toMatchObject({ appended_count: rows.length - failed, failed_count: failed });
        expect(rowsToAppend(state)).toEqual([]);
        expect(uploadWork(state)).toBeNull();
      }),
    );
  });
});

describe('cancelling', () => {
  it('cancels before submit, whether pending, validated or with errors', () => {
    spec.given([received]).when(cancel()).then([cancelled()]);
    spec.given([received, checkedClean]).when(cancel()).then([cancelled()]);
    spec.given([received, checkedWithErrors]).when(cancel()).then([cancelled()]);
    expect(fold([received, cancelled()])).toMatchObject({ status: 'cancelled', ended_at: T2 });
  });

  it('refuses once cancelled or submitted (409)', () => {
    spec
      .given([received, cancelled()])
      .when(cancel())
      .thenThrows(UploadConflict, (e) => e.reason === 'cancelled');
    spec
      .given([received, checkedClean, submitted])
      .when(cancel())
      .thenThrows(UploadConflict, (e) => e.reason === 'submitted');
  });
});

describe('purging', () => {
  const DUE = '2026-12-24T10:02:00.000Z';
  const ended = [received, checkedWithErrors, cancelled()];

  it('is due 30 days after the last event, never while submitting', () => {
    expect(uploadPurgeDueAt(fold(ended))).toBe(DUE);
    expect(uploadPurgeDueAt(fold([received, checkedClean, submitted]))).toBeNull();
    expect(uploadPurgeDueAt(fold([]))).toBeNull();
  });

  it('purges when due, drops the messages, and answers as unknown after', () => {
    const purged: UploadEvent = { type: 'UploadPurged', data: { upload_id: ID, at: DUE } };
    spec.given(ended).when(purge(DUE)).then([purged]);
    spec
      .given([...ended, purged])
      .when(purge(DUE))
      .thenNothingHappened();
    spec
      .given([...ended, purged])
      .when(submit())
      .thenThrows(UploadNotFound);
    const state = fold([
      received,
      checkedClean,
      submitted,
      rowFailed(2),
      appended(3, 'tr_b'),
      appended(5, 'tr_c'),
      completed(2, 1),
      purged,
    ]);
    expect(state).toMatchObject({ purged: true, errors: [] });
    expect(outcomesOf(state)).toEqual([
      { row: 2, errors: [] },
      { row: 3, trainee_id: 'tr_b' },
      { row: 5, trainee_id: 'tr_c' },
    ]);
    expect(uploadWork(state)).toBeNull();
  });

  it('purges at once, before it is due, whatever its state, when it holds a row of an erased trainee', () => {
    const early: UploadCommand = { type: 'PurgeUpload', upload_id: ID, now: T3, erased_trainee: 'tr_b' };
    const purgedNow: UploadEvent[] = [{ type: 'UploadPurged', data: { upload_id: ID, at: T3 } }];
    const done = [received, checkedClean, submitted, appended(2, 'tr_a'), appended(3, 'tr_b'), appended(5, 'tr_c'), completed(3, 0)];
    for (const given of [[received], [received, checkedClean], [received, checkedWithErrors], [received, cancelled()], done]) {
      spec.given(given).when(early).then(purgedNow);
    }
    // The trainee a row is taken for is the caller's finding (the file's rows): not the submission's only.
    spec
      .given(done)
      .when({ ...early, erased_trainee: 'tr_z' })
      .then(purgedNow);
  });

  it('while submitting, asks once for the purge, which the submit’s end then makes', () => {
    const early: UploadCommand = { type: 'PurgeUpload', upload_id: ID, now: T3, erased_trainee: 'tr_a' };
    const requested: UploadEvent = { type: 'UploadPurgeRequested', data: { upload_id: ID, at: T3 } };
    const submitting = [received, checkedClean, submitted, appended(2, 'tr_a')];
    spec.given(submitting).when(early).then([requested]);
    spec
      .given([...submitting, requested])
      .when(early)
      .thenNothingHappened();
    expect(fold([...submitting, requested])).toMatchObject({ status: 'in_progress', purge_requested: true, purged: false });
    expect(uploadWork(fold([...submitting, requested]))).toBe('append');
    spec
      .given([...submitting, requested])
      .when(outcomes({ row: 3, trainee_id: 'tr_b' }))
      .then([appended(3, 'tr_b')]);
    spec
      .given([...submitting, requested, appended(3, 'tr_b')])
      .when(outcomes({ row: 5, errors: [DUPLICATE] }))
      .then([rowFailed(5), completed(2, 1), { type: 'UploadPurged', data: { upload_id: ID, at: T3 } }]);
    // Without the request, the end is only the end.
    spec
      .given([...submitting, appended(3, 'tr_b')])
      .when(outcomes({ row: 5, errors: [DUPLICATE] }))
      .then([rowFailed(5), completed(2, 1)]);
  });

  it('refuses before it is due, and while submitting', () => {
    spec
      .given(ended)
      .when(purge('2026-12-24T10:01:59.999Z'))
      .thenThrows(UploadCommandInvalid, saying(/due for purging at 2026-12-24T10:02/));
    spec
      .given([received, checkedClean, submitted])
      .when(purge(DUE))
      .thenThrows(UploadCommandInvalid, saying(/being submitted/));
  });
});

describe('decodeUploadEvent', () => {
  it('decodes known types with object data only', () => {
    expect(decodeUploadEvent({ type: 'UploadCancelled', data: { upload_id: ID, at: T2 } })).toEqual(cancelled());
    expect(decodeUploadEvent({ type: 'TraineeRegistered', data: {} })).toBeNull();
    expect(decodeUploadEvent({ type: 'UploadCancelled', data: null })).toBeNull();
  });
});
