/** Deciding an upload's commands, and what a resumed process still has to do; it sees row numbers, trainee ids and messages only. */
import type {
  CancelUpload,
  PurgeUpload,
  ReceiveUpload,
  RecordRowOutcomes,
  RecordUploadCheck,
  SubmitUpload,
  UploadCommand,
} from './upload.commands';
import { UploadCommandInvalid, UploadConflict, UploadNotFound, UploadNotSubmittable } from './upload.errors';
import { UPLOAD_KINDS, type RowTarget, type UploadEvent } from './upload.events';
import { UPLOAD_BYTES_MAX, UPLOAD_RETENTION_DAYS, UPLOAD_ROWS_MAX } from './upload.limits';
import type { UploadState } from './upload.state';

const DAY_MS = 86_400_000;
const SHA256 = /^[0-9a-f]{64}$/;
/** The header is row 1. */
const FIRST_ROW = 2;

function receive(command: ReceiveUpload, state: UploadState): UploadEvent[] {
  if (state.exists) throw new UploadCommandInvalid(`Upload ${command.upload_id} already exists`);
  if (!UPLOAD_KINDS.includes(command.kind)) throw new UploadCommandInvalid(`Unknown upload kind ${command.kind}`);
  if (!Number.isInteger(command.byte_count) || command.byte_count < 1 || command.byte_count > UPLOAD_BYTES_MAX) {
    throw new UploadCommandInvalid(`An upload holds 1 to ${UPLOAD_BYTES_MAX} bytes, not ${command.byte_count}`);
  }
  if (!SHA256.test(command.sha256)) throw new UploadCommandInvalid('The file has no SHA-256 digest');
  const { upload_id, ukprn, kind, api_version, file_name, byte_count, sha256 } = command;
  return [{ type: 'UploadReceived', data: { upload_id, ukprn, kind, api_version, file_name, byte_count, sha256, at: command.now } }];
}

/** 1 to UPLOAD_ROWS_MAX, ascending, from row 2. */
function checkedRows(rows: readonly number[]): void {
  if (rows.length < 1 || rows.length > UPLOAD_ROWS_MAX) {
    throw new UploadCommandInvalid(`A check reports 1 to ${UPLOAD_ROWS_MAX} rows, not ${rows.length}`);
  }
  rows.forEach((row, i) => {
    if (!Number.isInteger(row) || row < FIRST_ROW || (i > 0 && row <= rows[i - 1])) {
      throw new UploadCommandInvalid(`Row numbers must be integers from ${FIRST_ROW}, ascending; got ${row}`);
    }
  });
}

function recordCheck(command: RecordUploadCheck, state: UploadState): UploadEvent[] {
  // After a cancel, or run again on resume: nothing.
  if (state.status !== 'pending') return [];
  checkedRows(command.rows);
  const known = new Set(command.rows);
  command.errors.forEach((e, i) => {
    if (!known.has(e.row)) throw new UploadCommandInvalid(`An error names row ${e.row}, which is not a trainee row`);
    if (e.message.trim() === '') throw new UploadCommandInvalid(`An error of row ${e.row} has no message`);
    if (i > 0 && e.row < command.errors[i - 1].row) throw new UploadCommandInvalid('The errors are not in row order');
  });
  const { upload_id, messages_sha256 } = command;
  if (command.errors.length > 0 !== (messages_sha256 !== null && SHA256.test(messages_sha256))) {
    throw new UploadCommandInvalid('Messages are kept, with their SHA-256 digest, when there are any, and only then');
  }
  const error_count = command.errors.length;
  return [{ type: 'UploadChecked', data: { upload_id, rows: [...command.rows], error_count, messages_sha256, at: command.now } }];
}

/** One per checked row, in row order, each its own trainee. */
function submittedTargets(targets: readonly RowTarget[], rows: readonly number[]): RowTarget[] {
  const byRow = new Map(targets.map((t) => [t.row, t.trainee_id]));
  const ids = new Set(targets.map((t) => t.trainee_id));
  if (targets.length !== rows.length || byRow.size !== rows.length || !rows.every((r) => byRow.has(r))) {
    throw new UploadCommandInvalid(`A submit names each of the ${rows.length} checked rows once`);
  }
  if (ids.size !== targets.length || ids.has('')) throw new UploadCommandInvalid('Each row writes to a trainee of its own');
  return rows.map((row) => ({ row, trainee_id: byRow.get(row)! }));
}

function submit(command: SubmitUpload, state: UploadState): UploadEvent[] {
  switch (state.status) {
    case 'pending':
      throw new UploadNotSubmittable('not_checked');
    case 'failed':
      throw new UploadNotSubmittable('has_errors', state.error_count);
    case 'in_progress':
    case 'succeeded':
      throw new UploadConflict('submitted');
    case 'cancelled':
      throw new UploadConflict('cancelled');
  }
  const rows = submittedTargets(command.targets, state.rows);
  const by = command.submitted_by ? { submitted_by: command.submitted_by } : {};
  return [{ type: 'UploadSubmitted', data: { upload_id: command.upload_id, rows, ...by, at: command.now } }];
}

function recordOutcomes(command: RecordRowOutcomes, state: UploadState): UploadEvent[] {
  if (state.status !== 'in_progress' && state.status !== 'succeeded') {
    throw new UploadCommandInvalid('Row outcomes are recorded for a submitted upload only');
  }
  const targets = new Map(state.submission.map((t) => [t.row, t.trainee_id]));
  const seen = new Set<number>();
  const events: UploadEvent[] = [];
  const { upload_id, now: at } = command;
  for (const outcome of command.outcomes) {
    if (!targets.has(outcome.row)) throw new UploadCommandInvalid(`Row ${outcome.row} was not submitted`);
    if (seen.has(outcome.row)) throw new UploadCommandInvalid(`Row ${outcome.row} has two outcomes`);
    seen.add(outcome.row);
    // A row written before a stop and recorded again on resume keeps its first outcome.
    if (state.outcomes[outcome.row]) continue;
    if ('trainee_id' in outcome) {
      if (outcome.trainee_id !== targets.get(outcome.row)) {
        throw new UploadCommandInvalid(`Row ${outcome.row} writes to trainee ${targets.get(outcome.row)}, not ${outcome.trainee_id}`);
      }
      events.push({ type: 'UploadRowAppended', data: { upload_id, row: outcome.row, trainee_id: outcome.trainee_id, at } });
    } else {
      if (outcome.errors.length === 0) throw new UploadCommandInvalid(`Row ${outcome.row} failed without a message`);
      events.push({ type: 'UploadRowFailed', data: { upload_id, row: outcome.row, errors: [...outcome.errors], at } });
    }
  }
  return [...events, ...completion(state, events, upload_id, at)];
}

/** `UploadCompleted` when `events` settle the last rows, then `UploadPurged` when an erasure asked for it meanwhile. */
function completion(state: UploadState, events: readonly UploadEvent[], upload_id: string, at: string): UploadEvent[] {
  if (events.length === 0 || state.status !== 'in_progress') return [];
  const before = Object.values(state.outcomes);
  const outcomes = before.length + events.length;
  if (outcomes < state.submission.length) return [];
  const failed_count = before.filter((o) => 'errors' in o).length + events.filter((e) => e.type === 'UploadRowFailed').length;
  const completed: UploadEvent = {
    type: 'UploadCompleted',
    data: { upload_id, appended_count: outcomes - failed_count, failed_count, at },
  };
  return state.purge_requested ? [completed, { type: 'UploadPurged', data: { upload_id, at } }] : [completed];
}

function cancel(command: CancelUpload, state: UploadState): UploadEvent[] {
  if (state.status === 'cancelled') throw new UploadConflict('cancelled');
  if (state.status === 'in_progress' || state.status === 'succeeded') throw new UploadConflict('submitted');
  return [{ type: 'UploadCancelled', data: { upload_id: command.upload_id, at: command.now } }];
}

function purge(command: PurgeUpload, state: UploadState): UploadEvent[] {
  const { upload_id, now: at } = command;
  const due = uploadPurgeDueAt(state);
  if (command.erased_trainee !== undefined) {
    // Its rows need the file to be written: the submit's end purges it (`completion`).
    if (due === null) return state.purge_requested ? [] : [{ type: 'UploadPurgeRequested', data: { upload_id, at } }];
  } else if (due === null) {
    throw new UploadCommandInvalid('An upload being submitted is not purged');
  } else if (Date.parse(at) < Date.parse(due)) {
    throw new UploadCommandInvalid(`The upload is due for purging at ${due}, not before`);
  }
  return [{ type: 'UploadPurged', data: { upload_id, at } }];
}

/**
 * The events a command makes. {@link UploadCommandInvalid} for malformed input (a size outside 1 B to `UPLOAD_BYTES_MAX`, a bad digest,
 * rows not ascending from 2, messages naming other rows, targets not one per checked row, a purge not yet due);
 * {@link UploadNotSubmittable} (422) to submit an unchecked or failed check; {@link UploadConflict} (409) to submit or cancel after a
 * submit or cancel; {@link UploadNotFound} for an unknown upload, or a purged one but to purge. A check after a cancel, outcomes recorded
 * before and a second purge give nothing; a purge while submitting gives `UploadPurgeRequested` once.
 */
export function decideUpload(command: UploadCommand, state: UploadState): UploadEvent[] {
  if (command.type === 'ReceiveUpload') return receive(command, state);
  if (!state.exists) throw new UploadNotFound();
  if (state.purged) {
    if (command.type === 'PurgeUpload') return [];
    throw new UploadNotFound();
  }
  switch (command.type) {
    case 'RecordUploadCheck':
      return recordCheck(command, state);
    case 'SubmitUpload':
      return submit(command, state);
    case 'RecordRowOutcomes':
      return recordOutcomes(command, state);
    case 'CancelUpload':
      return cancel(command, state);
    case 'PurgeUpload':
      return purge(command, state);
  }
}

/** `UPLOAD_RETENTION_DAYS` after its last event (ISO UTC); null while submitting, or unknown. */
export function uploadPurgeDueAt(state: UploadState): string | null {
  if (!state.exists || state.status === 'in_progress' || state.last_event_at === null) return null;
  return new Date(Date.parse(state.last_event_at) + UPLOAD_RETENTION_DAYS * DAY_MS).toISOString();
}

export function uploadWork(state: UploadState): 'check' | 'append' | null {
  if (!state.exists || state.purged) return null;
  if (state.status === 'pending') return 'check';
  return state.status === 'in_progress' ? 'append' : null;
}

/** In row order, each with its trainee. */
export function rowsToAppend(state: UploadState): RowTarget[] {
  return state.submission.filter((t) => !state.outcomes[t.row]);
}
