/**
 * The events of an upload: a CSV file of trainee rows that a provider sends, that the service checks
 * row by row, and that, once submitted, turns each row into a write on a trainee (a new trainee, or
 * a recommendation for award). Each upload lives in its own stream, `upload-<upload_id>`, so a
 * process stopped at any point resumes from the stream: the rows still to check or to append are
 * what its events leave (upload.decide.ts, `uploadWork`, `rowsToAppend`).
 *
 * The file and the messages about its rows hold personal data, and are kept outside the log, sealed
 * with the upload's own data key: the events name them by their SHA-256 digests only (docs/DESIGN.md
 * "Uploads"). Older logs hold them in the events themselves (schema version 1), sealed; the
 * upcasters below read those as the current version with the values still in place. Times are ISO
 * 8601 instants, UTC, supplied by the caller: the decider holds no clock.
 */
import { registerEventSchemas, registerUpcaster, upcast } from '@app/event-sourcing';

/** What an upload does to each row once submitted: register a new trainee, or recommend one for award. */
export const UPLOAD_KINDS = ['add_trainees', 'recommend_for_award'] as const;
export type UploadKind = (typeof UPLOAD_KINDS)[number];

/**
 * One message about one row of the file: `row` is the spreadsheet's row number (the header is row
 * 1, the first trainee row 2), `column` the header of the column it concerns (null: the row as a
 * whole, such as a duplicate), `message` worded as the API's 422 messages.
 */
export interface RowError {
  row: number;
  column: string | null;
  message: string;
}

/** A message about one row, without its row number (the event names the row). */
export type RowMessage = Omit<RowError, 'row'>;

/** A row to append and the trainee it writes to: the new trainee's id, or the trainee recommended. */
export interface RowTarget {
  row: number;
  trainee_id: string;
}

/**
 * A file received, already refused or accepted as a whole by the CSV layer (UTF-8, size, headers,
 * at least one row): whose it is, what it does, the API version whose columns it uses, and the
 * file's size and SHA-256 digest (hex, of the bytes as sent); the file itself is kept outside the
 * log. `file_name`: as the browser sent it (null through the API), sealed by the caller. An event of
 * an older log holds the file itself (`file`, sealed) and no digest (`sha256` null).
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
 * The rows checked: `rows` are the spreadsheet row numbers of the trainee rows (ascending; wholly
 * blank rows are not trainee rows), `error_count` how many messages there are about them, and
 * `messages_sha256` the SHA-256 (hex) of the messages as kept outside the log (their JSON array, in
 * row order; null when there are none). Nothing was written to any trainee. An event of an older log
 * holds the messages themselves (`errors`, sealed).
 */
export interface UploadChecked {
  type: 'UploadChecked';
  data: { upload_id: string; rows: number[]; error_count: number; messages_sha256: string | null; errors?: RowError[]; at: string };
}

/**
 * The provider asked for the rows to be written: each row and the trainee it writes to, fixed here
 * once, so a resumed process writes each row to the same trainee and never twice.
 */
export interface UploadSubmitted {
  type: 'UploadSubmitted';
  data: { upload_id: string; rows: RowTarget[]; at: string };
}

/** One row written to its trainee. */
export interface UploadRowAppended {
  type: 'UploadRowAppended';
  data: { upload_id: string; row: number; trainee_id: string; at: string };
}

/** One row refused when written (a duplicate since the check, a trainee changed since): the rest go on. */
export interface UploadRowFailed {
  type: 'UploadRowFailed';
  data: { upload_id: string; row: number; errors: RowMessage[]; at: string };
}

/** Every submitted row has its outcome. */
export interface UploadCompleted {
  type: 'UploadCompleted';
  data: { upload_id: string; appended_count: number; failed_count: number; at: string };
}

/** The provider cancelled the upload before submitting it. */
export interface UploadCancelled {
  type: 'UploadCancelled';
  data: { upload_id: string; at: string };
}

/**
 * An erased trainee has a row in the upload while it is being submitted: the submit goes on (its
 * rows were accepted, and writing them needs the file), and its end purges the upload at once.
 */
export interface UploadPurgeRequested {
  type: 'UploadPurgeRequested';
  data: { upload_id: string; at: string };
}

/** The upload's data key destroyed: its file and messages can no longer be read. */
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

/** Current schema version of each upload event's `data`. */
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
// Version 1 held the messages in the event (an array once opened; sealed, or erased, otherwise).
registerUpcaster('UploadChecked', 1, (data) => {
  const errors = (data as { errors?: unknown }).errors;
  return { ...(data as object), error_count: Array.isArray(errors) ? errors.length : 0, messages_sha256: null };
});

/** Stream category of uploads: an upload lives in `upload-<upload_id>`. */
export const UPLOAD_STREAM_PREFIX = 'upload-';

/** The stream id of an upload. */
export function uploadStreamId(uploadId: string): string {
  return `${UPLOAD_STREAM_PREFIX}${uploadId}`;
}

/** True when `type` names an upload event this code knows. */
export function isUploadEventType(type: string): type is UploadEventType {
  return Object.prototype.hasOwnProperty.call(UPLOAD_EVENT_SCHEMA_VERSIONS, type);
}

/**
 * The upload event a stored event holds (a known type with object data), read as the current
 * schema version (`metadata.schemaVersion`, 1 when absent), else null.
 */
export function decodeUploadEvent(stored: {
  type: string;
  data: unknown;
  metadata?: { schemaVersion?: number } | null;
}): UploadEvent | null {
  if (!isUploadEventType(stored.type) || typeof stored.data !== 'object' || stored.data === null) return null;
  const data = upcast(stored.type, stored.metadata?.schemaVersion ?? 1, UPLOAD_EVENT_SCHEMA_VERSIONS[stored.type], stored.data);
  return { type: stored.type, data } as UploadEvent;
}
