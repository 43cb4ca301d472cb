/**
 * What the API answers about uploads: one upload (its status, counts, errors and, once submitted,
 * each row's outcome), a page of the provider's uploads, and the file with its errors as CSV.
 */
import { writeUploadCsv } from '@app/uploads/csv';
import { outcomesOf, type UploadKind, type UploadState } from '@app/uploads/decider';
import type { Caller } from '@app/trainees/write';
import { listedUploads } from './upload-list';
import { ownUpload } from './upload-operations';
import { readUploadFile, uploadVersion } from './upload-rows';
import { readUpload, readUploadWithFile } from './upload-stream';
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

/** The answer of an upload's state (one that exists). */
export function uploadAnswer(state: UploadState): UploadAnswer {
  return {
    upload_id: state.upload_id!,
    status: state.status!,
    api_version: state.api_version!,
    row_count: state.rows.length,
    error_count: state.errors.length,
    errors: state.errors.map((e) => ({ ...e })),
    rows: outcomesOf(state),
    received_at: state.received_at!,
    checked_at: state.checked_at,
    submitted_at: state.submitted_at,
    ended_at: state.ended_at,
  };
}

/** The caller's upload as answered. Errors: `UploadNotFound`. */
export async function getUpload(ports: UploadPorts, caller: Caller, uploadId: string, kind: UploadKind): Promise<UploadAnswer> {
  return uploadAnswer(await ownUpload(ports, caller, uploadId, kind));
}

/** A page of the caller's uploads of `kind`, newest first (`page` from 1), and how many there are. */
export async function listUploads(
  ports: UploadPorts,
  caller: Caller,
  kind: UploadKind,
  page: number,
  perPage: number,
): Promise<{ items: UploadAnswer[]; totalCount: number }> {
  const states: UploadState[] = [];
  for (const id of await listedUploads(ports, caller.ukprn)) {
    const { state } = await readUpload(ports, id);
    if (state.exists && !state.purged && state.kind === kind) states.push(state);
  }
  return { items: states.slice((page - 1) * perPage, page * perPage).map(uploadAnswer), totalCount: states.length };
}

/**
 * The caller's uploaded file as CSV with an `errors` column added (each row's messages, one a
 * line, each after its column's name), formula-looking cells escaped; uploading it again reads the
 * same rows (the `errors` column is ignored). Errors: `UploadNotFound`.
 */
export async function uploadErrorsCsv(ports: UploadPorts, caller: Caller, uploadId: string, kind: UploadKind): Promise<string> {
  await ownUpload(ports, caller, uploadId, kind);
  const { state, file } = await readUploadWithFile(ports, uploadId);
  if (file === null) throw new Error('an upload not purged without its file');
  const table = readUploadFile(kind, new TextEncoder().encode(file), uploadVersion(state.api_version));
  const errors = new Map<number, string[]>();
  const note = (row: number, column: string | null, message: string) =>
    errors.set(row, [...(errors.get(row) ?? []), column === null ? message : `${column}: ${message}`]);
  for (const e of state.errors) note(e.row, e.column, e.message);
  for (const o of outcomesOf(state)) if ('errors' in o) for (const e of o.errors) note(o.row, e.column, e.message);
  return writeUploadCsv(table, { errors });
}
