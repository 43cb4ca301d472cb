/**
 * What the API answers about uploads: one upload (its status, counts, errors and, once submitted,
 * each row's outcome), a page of the provider's uploads, and the file with its errors as CSV.
 */
import type { Readable } from 'node:stream';
import { uploadCsvStream } from '@app/uploads/csv';
import { outcomesOf, UploadNotFound, type RowError, type RowMessage, type UploadKind, type UploadState } from '@app/uploads/decider';
import type { Caller } from '@app/trainees/write';
import { providerUploads } from './upload-list';
import { personMessage } from './row-words';
import { ownUpload } from './upload-operations';
import { readUploadTable, uploadVersion } from './upload-rows';
import { readUpload, readUploadFile, readUploadMessages } from './upload-stream';
import type { UploadPorts } from './upload.ports';

/** An upload as answered: times ISO 8601 UTC; `rows` each submitted row's outcome (empty before submit). */
export interface UploadAnswer {
  upload_id: string;
  status: string;
  api_version: string;
  row_count: number;
  error_count: number;
  errors: { row: number; column: string | null; message: string }[];
  rows: ({ row: number; trainee_id: string } | { row: number; errors: { column: string | null; message: string }[] })[];
  received_at: string;
  checked_at: string | null;
  submitted_at: string | null;
  ended_at: string | null;
}

/** The answer of an upload's state (one that exists) with its check's messages (`readUploadMessages`). */
export function uploadAnswer(state: UploadState, errors: readonly RowError[]): UploadAnswer {
  return {
    upload_id: state.upload_id!,
    status: state.status!,
    api_version: state.api_version!,
    row_count: state.rows.length,
    error_count: state.error_count,
    errors: errors.map(({ row, column, message }) => ({ row, column, message })),
    rows: outcomesOf(state),
    received_at: state.received_at!,
    checked_at: state.checked_at,
    submitted_at: state.submitted_at,
    ended_at: state.ended_at,
  };
}

/** The answer of the upload `uploadId` in `state`, its messages read from the upload store when it has any. */
export async function answerOf(ports: UploadPorts, uploadId: string, state: UploadState): Promise<UploadAnswer> {
  return uploadAnswer(state, state.error_count > 0 ? await readUploadMessages(ports, uploadId, state) : []);
}

/** The caller's upload as answered. Errors: `UploadNotFound`. */
export async function getUpload(ports: UploadPorts, caller: Caller, uploadId: string, kind: UploadKind): Promise<UploadAnswer> {
  return answerOf(ports, uploadId, await ownUpload(ports, caller, uploadId, kind));
}

/**
 * The caller's upload as answered, and its check's messages as kept, each with what it is about (the uploads page words them for a
 * person). Errors: `UploadNotFound`.
 */
export async function getUploadWithProblems(
  ports: UploadPorts,
  caller: Caller,
  uploadId: string,
  kind: UploadKind,
): Promise<{ upload: UploadAnswer; errors: RowError[] }> {
  const state = await ownUpload(ports, caller, uploadId, kind);
  const errors = state.error_count > 0 ? await readUploadMessages(ports, uploadId, state) : [];
  return { upload: uploadAnswer(state, errors), errors };
}

/**
 * A page of the caller's uploads of `kind`, newest first (`page` from 1), and how many there are:
 * from the provider's list (upload-list.ts), reading the states of the page's uploads only (and,
 * once each, of entries of an older log whose kind the list does not say). No file is read.
 */
export async function listUploads(
  ports: UploadPorts,
  caller: Caller,
  kind: UploadKind,
  page: number,
  perPage: number,
): Promise<{ items: UploadAnswer[]; totalCount: number }> {
  const matching: string[] = [];
  for (const entry of [...(await providerUploads(ports, caller.ukprn))].reverse()) {
    if (entry.delisted) continue;
    if (entry.kind === null) {
      const { state } = await readUpload(ports, entry.upload_id);
      if (!state.exists) continue;
      // Learnt once: an entry's kind never changes, and a purged upload stays purged.
      entry.kind = state.kind;
      entry.delisted = state.purged;
      if (state.purged) continue;
    }
    if (entry.kind === kind) matching.push(entry.upload_id);
  }
  const items: UploadAnswer[] = [];
  for (const id of matching.slice((page - 1) * perPage, page * perPage)) {
    const { state } = await readUpload(ports, id);
    if (state.exists && !state.purged) items.push(await answerOf(ports, id, state));
  }
  return { items, totalCount: matching.length };
}

/**
 * The caller's uploaded file as CSV with an `errors` column added (each row's messages, one a
 * line, each after its column's name; `words` `person`: each in a person's words, row-words.ts),
 * formula-looking cells escaped, as a stream of chunks (`uploadCsvStream`); uploading it again
 * reads the same rows (the `errors` column is ignored). Errors: `UploadNotFound`, before anything
 * is streamed.
 */
export async function uploadErrorsCsv(
  ports: UploadPorts,
  caller: Caller,
  uploadId: string,
  kind: UploadKind,
  words: 'api' | 'person' = 'api',
): Promise<Readable> {
  const state = await ownUpload(ports, caller, uploadId, kind);
  const file = await readUploadFile(ports, uploadId, state);
  if (file === null) throw new UploadNotFound();
  const version = uploadVersion(state.api_version);
  const table = await readUploadTable(kind, file, version);
  const errors = new Map<number, string[]>();
  const note = (row: number, e: RowMessage) => {
    const line = words === 'person' ? personMessage(e, version, kind) : e.column === null ? e.message : `${e.column}: ${e.message}`;
    errors.set(row, [...(errors.get(row) ?? []), line]);
  };
  for (const e of await readUploadMessages(ports, uploadId, state)) note(e.row, e);
  for (const o of outcomesOf(state)) if ('errors' in o) for (const e of o.errors) note(o.row, e);
  return uploadCsvStream(table, { errors });
}
