/**
 * Deciding an upload's commands (pure: no I/O, no clock, no random source), and what a process
 * resumed after a stop still has to do for it. How rows are checked and written is the caller's:
 * this decider sees row numbers, trainee ids and messages only.
 */
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
/** A SHA-256 digest as the events hold it: 64 lower-case hex digits. */
const SHA256 = /^[0-9a-f]{64}$/;
/** The first trainee row of a spreadsheet: the header is row 1. */
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

/** The rows reported by a check: 1 to UPLOAD_ROWS_MAX spreadsheet rows, ascending, from row 2. */
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
  // A check that ends after a cancel, or that a resumed process ran again, changes nothing.
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

/** The targets, one per checked row and in row order, each with its own trainee. */
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
  return [{ type: 'UploadSubmitted', data: { upload_id: command.upload_id, rows, at: command.now } }];
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

/**
 * `UploadCompleted` when `events` give the last submitted rows their outcomes, followed by
 * `UploadPurged` when an erasure asked for the upload meanwhile; else nothing.
 */
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
    // Its rows were accepted and need the file to be written: the submit's end purges it (`completion`).
    if (due === null) return state.purge_requested ? [] : [{ type: 'UploadPurgeRequested', data: { upload_id, at } }];
  } else if (due === null) {
    throw new UploadCommandInvalid('An upload being submitted is not purged');
  } else if (Date.parse(at) < Date.parse(due)) {
    throw new UploadCommandInvalid(`The upload is due for purging at ${due}, not before`);
  }
  return [{ type: 'UploadPurged', data: { upload_id, at } }];
}

/**
 * Decides an upload command: the events it makes, or a domain error.
 *
 * - `ReceiveUpload` → `UploadReceived`; {@link UploadCommandInvalid} for an upload that exists, an
 *   unknown kind, a size outside 1 byte to `UPLOAD_BYTES_MAX`, a digest that is not a SHA-256.
 * - `RecordUploadCheck` → `UploadChecked` (the count of errors and their digest) while pending, else
 *   nothing (a check after a cancel, or run again on resume); invalid when the rows are not 1 to
 *   `UPLOAD_ROWS_MAX` ascending row numbers from 2, or an error names another row, has no message
 *   or is out of row order, or the digest is missing beside errors (or given without them).
 * - `SubmitUpload` → `UploadSubmitted` when validated with no errors; {@link UploadNotSubmittable}
 *   (422) when not checked yet or checked with errors; {@link UploadConflict} (409) when already
 *   submitted or cancelled; invalid unless the targets name each checked row once, each its own trainee.
 * - `RecordRowOutcomes` → one `UploadRowAppended` or `UploadRowFailed` per row without an outcome
 *   yet, then `UploadCompleted` when no submitted row is left (and `UploadPurged` after it when a
 *   purge was requested); rows recorded before are skipped.
 * - `CancelUpload` → `UploadCancelled` before submit; {@link UploadConflict} (409) after.
 * - `PurgeUpload` → `UploadPurged` from `UPLOAD_RETENTION_DAYS` after the last event (invalid
 *   before then, and while submitting), or at once for an erased trainee the upload holds a row of,
 *   in any state; while submitting, `UploadPurgeRequested` instead (once), so that the submit's
 *   end purges it. Nothing when already purged.
 *
 * Every command but `ReceiveUpload` answers {@link UploadNotFound} for an unknown upload, and every
 * command but `PurgeUpload` for a purged one.
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

/**
 * When the upload becomes due for purging (ISO instant, UTC): `UPLOAD_RETENTION_DAYS` after its
 * last event; null while it is being submitted, or unknown.
 */
export function uploadPurgeDueAt(state: UploadState): string | null {
  if (!state.exists || state.status === 'in_progress' || state.last_event_at === null) return null;
  return new Date(Date.parse(state.last_event_at) + UPLOAD_RETENTION_DAYS * DAY_MS).toISOString();
}

/** What a process must still do for an upload: check its rows, write its submitted rows, or nothing. */
export function uploadWork(state: UploadState): 'check' | 'append' | null {
  if (!state.exists || state.purged) return null;
  if (state.status === 'pending') return 'check';
  return state.status === 'in_progress' ? 'append' : null;
}

/** The submitted rows without an outcome yet, in row order, each with the trainee it writes to. */
export function rowsToAppend(state: UploadState): RowTarget[] {
  return state.submission.filter((t) => !state.outcomes[t.row]);
}
