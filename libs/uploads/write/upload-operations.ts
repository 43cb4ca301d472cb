/**
 * What a provider does with an upload (receive, submit, cancel) and what the service then does in
 * the background (check the rows, write the submitted rows), each a command on the upload's stream
 * (upload-stream.ts). Every operation on an upload answers `UploadNotFound` (404) for another
 * provider's (docs/DESIGN.md property 6). Times are the ports' clock, UTC.
 */
import { writeContext, type Caller } from '@app/trainees/write';
import {
  rowsToAppend,
  uploadWork,
  UploadNotFound,
  type RowOutcomeInput,
  type RowTarget,
  type UploadKind,
  type UploadState,
} from '@app/uploads/decider';
import { listUpload } from './upload-list';
import { checkRecommendRows, recommendTargets, writeRecommendRow } from './recommend-rows';
import { BackgroundPace } from './background-pace';
import { checkTraineeRows, readUploadFile, uploadVersion, writeTraineeRow } from './upload-rows';
import { readUpload, readUploadWithFile, runUploadCommand } from './upload-stream';
import type { UploadPorts } from './upload.ports';

/** Row outcomes recorded in one event batch while writing a submitted file. */
const OUTCOMES_PER_BATCH = 25;

/** The background caller of an upload's work: its provider and API version, no token or request. */
function uploadCaller(state: UploadState): Caller {
  return { ukprn: state.ukprn!, tokenId: null, apiVersion: state.api_version!, requestId: null };
}

/** The upload's state when it is `caller`'s; `UploadNotFound` otherwise. */
export async function ownUpload(ports: UploadPorts, caller: Caller, uploadId: string, kind: UploadKind): Promise<UploadState> {
  const { state } = await readUpload(ports, uploadId);
  if (!state.exists || state.purged || state.ukprn !== caller.ukprn || state.kind !== kind) throw new UploadNotFound();
  return state;
}

/**
 * Receives a file of `kind` (`body`: the bytes as sent) for `caller`'s provider in the caller's API
 * version: refuses it as a whole (`UploadFileRefused`: size, encoding, CSV, headers, rows), else
 * lists it for the provider and appends `UploadReceived` with the file sealed. Returns the upload's
 * state (status `pending`: its check is the background's, {@link runUploadWork}).
 */
export async function receiveUpload(
  ports: UploadPorts,
  caller: Caller,
  kind: UploadKind,
  body: Uint8Array,
  fileName: string | null,
): Promise<UploadState> {
  // Read once here only to refuse a bad file at once; the check reads it again in the background.
  readUploadFile(kind, body, uploadVersion(caller.apiVersion));
  const uploadId = ports.newUploadId();
  const now = ports.trainees.clock().toISOString();
  const ctx = writeContext(caller, now);
  await listUpload(ports, caller.ukprn, uploadId, ctx);
  const file = new TextDecoder('utf-8').decode(body);
  const { ukprn, apiVersion: api_version } = caller;
  return runUploadCommand(
    ports,
    uploadId,
    ctx,
    () => ({
      type: 'ReceiveUpload',
      upload_id: uploadId,
      ukprn,
      kind,
      api_version,
      file_name: fileName,
      byte_count: body.byteLength,
      file,
      now,
    }),
    true,
  );
}

/** The trainee each checked row writes to: a new id per row for new trainees, the trainee a recommendation row names. */
async function submitTargets(ports: UploadPorts, uploadId: string, state: UploadState): Promise<RowTarget[]> {
  if (state.kind === 'recommend_for_award') {
    const { file } = await readUploadWithFile(ports, uploadId);
    return recommendTargets(
      ports,
      readUploadFile(state.kind, new TextEncoder().encode(file ?? ''), uploadVersion(state.api_version)),
      state.rows,
    );
  }
  // Each new id holds a data key stored beforehand (`newTraineeId`).
  const targets: RowTarget[] = [];
  for (const row of state.rows) targets.push({ row, trainee_id: await ports.trainees.newTraineeId() });
  return targets;
}

/**
 * Submits the caller's validated upload: fixes the trainee each row writes to (so a resumed process
 * writes each row to the same trainee, once) and appends `UploadSubmitted`. Returns the state
 * (status `in_progress`: the rows are the background's, {@link runUploadWork}). Errors:
 * `UploadNotFound`, `UploadNotSubmittable` (422), `UploadConflict` (409).
 */
export async function submitUpload(ports: UploadPorts, caller: Caller, uploadId: string, kind: UploadKind): Promise<UploadState> {
  const state = await ownUpload(ports, caller, uploadId, kind);
  // Targets only for a submit the decider will take; otherwise it refuses with the reason.
  const targets = state.status === 'validated' ? await submitTargets(ports, uploadId, state) : [];
  const now = ports.trainees.clock().toISOString();
  return runUploadCommand(ports, uploadId, writeContext(caller, now), () => ({ type: 'SubmitUpload', upload_id: uploadId, targets, now }));
}

/** Cancels the caller's upload before it is submitted. Errors: `UploadNotFound`, `UploadConflict` (409). */
export async function cancelUpload(ports: UploadPorts, caller: Caller, uploadId: string, kind: UploadKind): Promise<UploadState> {
  await ownUpload(ports, caller, uploadId, kind);
  const now = ports.trainees.clock().toISOString();
  return runUploadCommand(ports, uploadId, writeContext(caller, now), () => ({ type: 'CancelUpload', upload_id: uploadId, now }));
}

/**
 * Does what is left of an upload (`uploadWork`): checks a pending file's rows and records the
 * check, or writes a submitted file's rows without an outcome, recording their outcomes in batches.
 * Safe to run again at any point after a stop: a check recorded is not recorded twice, and a row
 * already written is recorded as written (`writeTraineeRow`, `writeRecommendRow`).
 */
export async function runUploadWork(ports: UploadPorts, uploadId: string): Promise<void> {
  const { state, file } = await readUploadWithFile(ports, uploadId);
  const work = uploadWork(state);
  if (work === null || file === null) return;
  const caller = uploadCaller(state);
  const version = uploadVersion(state.api_version);
  const adding = state.kind === 'add_trainees';
  const table = readUploadFile(state.kind!, new TextEncoder().encode(file), version);
  if (work === 'check') {
    const { rows, errors } = adding
      ? await checkTraineeRows(ports, caller, table)
      : await checkRecommendRows(ports, caller, version, table);
    const now = ports.trainees.clock().toISOString();
    await runUploadCommand(ports, uploadId, writeContext(caller, now), () => ({
      type: 'RecordUploadCheck',
      upload_id: uploadId,
      rows,
      errors,
      now,
    }));
    return;
  }
  let batch: RowOutcomeInput[] = [];
  const record = async () => {
    const outcomes = batch;
    batch = [];
    const now = ports.trainees.clock().toISOString();
    await runUploadCommand(ports, uploadId, writeContext(caller, now), () => ({
      type: 'RecordRowOutcomes',
      upload_id: uploadId,
      outcomes,
      now,
    }));
  };
  const pace = new BackgroundPace();
  for (const target of rowsToAppend(state)) {
    batch.push(
      adding ? await writeTraineeRow(ports, caller, table, target) : await writeRecommendRow(ports, caller, version, table, target),
    );
    if (batch.length >= OUTCOMES_PER_BATCH) await record();
    await pace.next();
  }
  if (batch.length > 0) await record();
}
