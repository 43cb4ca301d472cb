/**
 * An upload's events, in its own stream `upload-<upload_id>`, so a stopped process resumes from what they leave (docs/DESIGN.md
 * "Uploads"). The file and the check's messages live outside the log, named by SHA-256; older logs hold them in the events (schema
 * version 1, sealed), read by the upcasters below. Times are ISO 8601 UTC, from the caller.
 */
import { registerEventSchemas, registerUpcaster, upcast } from '@app/event-sourcing';

export const UPLOAD_KINDS = ['add_trainees', 'recommend_for_award'] as const;
export type UploadKind = (typeof UPLOAD_KINDS)[number];

/**
 * What a row's message is about, where the check said (a trainee create's problem detail, or a value a spreadsheet mangled): kept with
 * the check's messages so the uploads page can word it for a person; never answered by the API.
 */
export interface RowProblem {
  kind: string;
  value?: string;
  params?: Readonly<Record<string, string>>;
}

/**
 * `row`: the spreadsheet's (header 1); `column`: null for the whole row (a duplicate); `message` worded as the API's 422s; `about`:
 * what it is about, where known.
 */
export interface RowError {
  row: number;
  column: string | null;
  message: string;
  about?: RowProblem;
}

/** The event names the row. */
export type RowMessage = Omit<RowError, 'row'>;

/** The new trainee's id, or the trainee recommended. */
export interface RowTarget {
  row: number;
  trainee_id: string;
}

/**
 * A file accepted or refused as a whole by the CSV layer; `sha256` of the bytes as sent (null in an older log's event, which holds the
 * sealed `file`). `file_name` as the browser sent it (null through the API), sealed by the caller.
 */
export interface UploadReceived {
  type: 'UploadReceived';
  data: {
    upload_id: string;
    ukprn: string;
    kind: UploadKind;
    api_version: string;
    file_name: string | null;
    byte_count: number;
    sha256: string | null;
    file?: string;
    at: string;
  };
}

/**
 * `rows`: the trainee rows' spreadsheet numbers, ascending; `messages_sha256`: of the messages' JSON array kept outside the log (null for
 * none). Nothing is written to any trainee. An older log's event holds the sealed `errors` instead.
 */
export interface UploadChecked {
  type: 'UploadChecked';
  data: { upload_id: string; rows: number[]; error_count: number; messages_sha256: string | null; errors?: RowError[]; at: string };
}

/**
 * Each row's trainee, fixed once, so a resumed process writes each row to the same trainee and never twice. `submitted_by`: the
 * person who submitted it (their opaque `sub`, as the events' `userId`), absent for a submit with a token; the rows' writes carry it.
 */
export interface UploadSubmitted {
  type: 'UploadSubmitted';
  data: { upload_id: string; rows: RowTarget[]; submitted_by?: string; at: string };
}

export interface UploadRowAppended {
  type: 'UploadRowAppended';
  data: { upload_id: string; row: number; trainee_id: string; at: string };
}

/** A duplicate since the check, or a trainee changed since: the rest go on. */
export interface UploadRowFailed {
  type: 'UploadRowFailed';
  data: { upload_id: string; row: number; errors: RowMessage[]; at: string };
}

export interface UploadCompleted {
  type: 'UploadCompleted';
  data: { upload_id: string; appended_count: number; failed_count: number; at: string };
}

/** Before submitting. */
export interface UploadCancelled {
  type: 'UploadCancelled';
  data: { upload_id: string; at: string };
}

/** An erased trainee has a row in an upload being submitted: the submit goes on (writing needs the file), and its end purges the upload. */
export interface UploadPurgeRequested {
  type: 'UploadPurgeRequested';
  data: { upload_id: string; at: string };
}

/** Its data key destroyed: file and messages can no longer be read. */
export interface UploadPurged {
  type: 'UploadPurged';
  data: { upload_id: string; at: string };
}

export type UploadEvent =
  | UploadReceived
  | UploadChecked
  | UploadSubmitted
  | UploadRowAppended
  | UploadRowFailed
  | UploadCompleted
  | UploadCancelled
  | UploadPurgeRequested
  | UploadPurged;
export type UploadEventType = UploadEvent['type'];

export const UPLOAD_EVENT_SCHEMA_VERSIONS: Record<UploadEventType, number> = {
  UploadReceived: 2,
  UploadChecked: 2,
  UploadSubmitted: 1,
  UploadRowAppended: 1,
  UploadRowFailed: 1,
  UploadCompleted: 1,
  UploadCancelled: 1,
  UploadPurgeRequested: 1,
  UploadPurged: 1,
};
registerEventSchemas(UPLOAD_EVENT_SCHEMA_VERSIONS);

// Version 1 held the file in the event: no digest.
registerUpcaster('UploadReceived', 1, (data) => ({ ...(data as object), sha256: null }));
// Version 1 held the messages in the event (an array once opened; sealed or erased otherwise).
registerUpcaster('UploadChecked', 1, (data) => {
  const errors = (data as { errors?: unknown }).errors;
  return { ...(data as object), error_count: Array.isArray(errors) ? errors.length : 0, messages_sha256: null };
});

export const UPLOAD_STREAM_PREFIX = 'upload-';

export function uploadStreamId(uploadId: string): string {
  return `${UPLOAD_STREAM_PREFIX}${uploadId}`;
}

export function isUploadEventType(type: string): type is UploadEventType {
  return Object.prototype.hasOwnProperty.call(UPLOAD_EVENT_SCHEMA_VERSIONS, type);
}

/** Read as the current schema version (`metadata.schemaVersion`, 1 when absent); null for an unknown type or non-object data. */
export function decodeUploadEvent(stored: {
  type: string;
  data: unknown;
  metadata?: { schemaVersion?: number } | null;
}): UploadEvent | null {
  if (!isUploadEventType(stored.type) || typeof stored.data !== 'object' || stored.data === null) return null;
  const data = upcast(stored.type, stored.metadata?.schemaVersion ?? 1, UPLOAD_EVENT_SCHEMA_VERSIONS[stored.type], stored.data);
  return { type: stored.type, data } as UploadEvent;
}
