/** A provider's upload operations and the background's, each a command on the upload's stream; another provider's: `UploadNotFound`. */
import { KeyedLock } from '@app/event-sourcing';
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
import { forgetAndSettle } from './upload-purge';
import { checkRecommendRows, recommendTargets, writeRecommendRow } from './recommend-rows';
import { BackgroundPace, type WorkPace } from './background-pace';
import { checkUploadQuotas } from './upload-quotas';
import { checkTraineeRows, readUploadTable, uploadVersion, writeTraineeRow } from './upload-rows';
import { readUpload, readUploadFile, runUploadCommand, storeUploadFile, storeUploadMessages } from './upload-stream';
import type { UploadPorts } from './upload.ports';

/** One receipt per provider at a time in this process: its quotas are checked against those before. */
const receipts = new KeyedLock();

const OUTCOMES_PER_BATCH = 25;

/**
 * The provider and API version; no token or request. Writing the rows (`append`), also the person who submitted the upload, so the
 * trainees' events record who caused them as a person's own write does.
 */
function uploadCaller(state: UploadState, work: 'check' | 'append'): Caller {
  const userId = work === 'append' ? state.submitted_by : null;
  return { ukprn: state.ukprn!, tokenId: null, apiVersion: state.api_version!, requestId: null, ...(userId ? { userId } : {}) };
}

/** `UploadNotFound` unless it is `caller`'s. */
export async function ownUpload(ports: UploadPorts, caller: Caller, uploadId: string, kind: UploadKind): Promise<UploadState> {
  const { state } = await readUpload(ports, uploadId);
  if (!state.exists || state.purged || state.ukprn !== caller.ukprn || state.kind !== kind) throw new UploadNotFound();
  return state;
}

/**
 * Refuses a file as a whole (`UploadFileRefused`) or past the quotas (`UploadQuotaExceeded`); else lists it, stores it sealed and
 * appends `UploadReceived` with its digest. The state, `pending`: the check is the background's.
 */
export async function receiveUpload(
  ports: UploadPorts,
  caller: Caller,
  kind: UploadKind,
  body: Uint8Array,
  fileName: string | null,
): Promise<UploadState> {
  // Read here only to refuse a bad file at once; the check reads it again.
  await readUploadTable(kind, body, uploadVersion(caller.apiVersion));
  return receipts.run(caller.ukprn, async () => {
    await checkUploadQuotas(ports, caller.ukprn, body.byteLength, ports.trainees.clock());
    const uploadId = ports.newUploadId();
    const now = ports.trainees.clock().toISOString();
    const ctx = writeContext(caller, now);
    await listUpload(ports, caller.ukprn, uploadId, { kind, byteCount: body.byteLength }, ctx);
    // Stored before the event that names it: an upload in the log always has its file.
    const sha256 = await storeUploadFile(ports, uploadId, body);
    const { ukprn, apiVersion: api_version } = caller;
    const byte_count = body.byteLength;
    const command = {
      type: 'ReceiveUpload',
      upload_id: uploadId,
      ukprn,
      kind,
      api_version,
      file_name: fileName,
      byte_count,
      sha256,
      now,
    } as const;
    return runUploadCommand(ports, uploadId, ctx, () => command, true);
  });
}

/** Null once purged. */
async function uploadTable(ports: UploadPorts, uploadId: string, state: UploadState) {
  const file = await readUploadFile(ports, uploadId, state);
  return file === null ? null : readUploadTable(state.kind!, file, uploadVersion(state.api_version));
}

/** A new id per row for new trainees; the named trainee for a recommendation row. */
async function submitTargets(ports: UploadPorts, uploadId: string, state: UploadState): Promise<RowTarget[]> {
  if (state.kind === 'recommend_for_award') {
    const table = await uploadTable(ports, uploadId, state);
    if (table === null) throw new UploadNotFound();
    return recommendTargets(ports, table, state.rows);
  }
  const targets: RowTarget[] = [];
  for (const row of state.rows) targets.push({ row, trainee_id: await ports.trainees.newTraineeId() });
  return targets;
}

/**
 * Fixes each row's trainee, so a resumed process writes each once, and appends `UploadSubmitted` naming the person who submits (the
 * caller's `userId`), whose rows' writes then carry it; the state, `in_progress`. Throws
 * `UploadNotFound`, `UploadNotSubmittable` (422), `UploadConflict` (409).
 */
export async function submitUpload(ports: UploadPorts, caller: Caller, uploadId: string, kind: UploadKind): Promise<UploadState> {
  const state = await ownUpload(ports, caller, uploadId, kind);
  // Targets only for a submit the decider will take; otherwise it refuses with the reason.
  const targets = state.status === 'validated' ? await submitTargets(ports, uploadId, state) : [];
  const now = ports.trainees.clock().toISOString();
  const submitted_by = caller.userId ?? null;
  return runUploadCommand(ports, uploadId, writeContext(caller, now), () => ({
    type: 'SubmitUpload',
    upload_id: uploadId,
    targets,
    submitted_by,
    now,
  }));
}

/** Before it is submitted. Throws `UploadNotFound`, `UploadConflict` (409). */
export async function cancelUpload(ports: UploadPorts, caller: Caller, uploadId: string, kind: UploadKind): Promise<UploadState> {
  await ownUpload(ports, caller, uploadId, kind);
  const now = ports.trainees.clock().toISOString();
  return runUploadCommand(ports, uploadId, writeContext(caller, now), () => ({ type: 'CancelUpload', upload_id: uploadId, now }));
}

/**
 * Checks a pending file's rows, or writes a submitted file's rows, `pace` between rows. Safe to rerun after a stop at any point. An
 * upload purged meanwhile (an erasure) ends the work without error, any part stored after the purge deleted too; a submit whose purge
 * was requested purges the upload as it ends.
 */
export async function runUploadWork(ports: UploadPorts, uploadId: string, pace: WorkPace = new BackgroundPace()): Promise<void> {
  try {
    await workLeft(ports, uploadId, pace);
  } catch (error) {
    if (!(await readUpload(ports, uploadId)).state.purged) throw error;
    await ports.files.delete(uploadId);
  }
}

async function workLeft(ports: UploadPorts, uploadId: string, pace: WorkPace): Promise<void> {
  const { state } = await readUpload(ports, uploadId);
  const work = uploadWork(state);
  if (work === null) return;
  const table = await uploadTable(ports, uploadId, state);
  if (table === null) return;
  const caller = uploadCaller(state, work);
  const version = uploadVersion(state.api_version);
  const adding = state.kind === 'add_trainees';
  if (work === 'check') {
    const { rows, errors } = adding
      ? await checkTraineeRows(ports, caller, table, pace)
      : await checkRecommendRows(ports, caller, version, table, pace);
    errors.sort((a, b) => a.row - b.row);
    const messages_sha256 = await storeUploadMessages(ports, uploadId, errors);
    const now = ports.trainees.clock().toISOString();
    const command = { type: 'RecordUploadCheck', upload_id: uploadId, rows, errors, messages_sha256, now } as const;
    await runUploadCommand(ports, uploadId, writeContext(caller, now), () => command);
    return;
  }
  let batch: RowOutcomeInput[] = [];
  const record = async () => {
    const outcomes = batch;
    batch = [];
    const now = ports.trainees.clock().toISOString();
    const after = await runUploadCommand(ports, uploadId, writeContext(caller, now), () => ({
      type: 'RecordRowOutcomes',
      upload_id: uploadId,
      outcomes,
      now,
    }));
    if (after.purged) await forgetAndSettle(ports, uploadId, after.ukprn, after.api_version, new Date(now));
  };
  for (const target of rowsToAppend(state)) {
    batch.push(
      adding ? await writeTraineeRow(ports, caller, table, target) : await writeRecommendRow(ports, caller, version, table, target),
    );
    if (batch.length >= OUTCOMES_PER_BATCH) await record();
    await pace.next();
  }
  if (batch.length > 0) await record();
}
