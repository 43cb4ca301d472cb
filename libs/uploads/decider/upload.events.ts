/**
 * The events of an upload: a CSV file of trainee rows that a provider sends, that the service checks
 * row by row, and that, once submitted, turns each row into a write on a trainee (a new trainee, or
 * a recommendation for award). Each upload lives in its own stream, `upload-<upload_id>`, so a
 * process stopped at any point resumes from the stream: the rows still to check or to append are
 * what its events leave (upload.decide.ts, `uploadWork`, `rowsToAppend`).
 *
 * The file and the messages about its rows hold personal data: the caller seals them with the
 * upload's own data key before appending (docs/DESIGN.md "Personal data"); this part never reads
 * them. Times are ISO 8601 instants, UTC, supplied by the caller: the decider holds no clock.
 */
import { registerEventSchemas } from '@app/event-sourcing';

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
 * at least one row): whose it is, what it does, the API version whose columns it uses, and the file
 * itself as the caller stores it (sealed). `file_name`: as the browser sent it (null through the API).
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
    file: string;
    at: string;
  };
}

/**
 * The rows checked: `rows` are the spreadsheet row numbers of the trainee rows (ascending; wholly
 * blank rows are not trainee rows), `errors` every message about them, in row order. Nothing was
 * written to any trainee.
 */
export interface UploadChecked {
  type: 'UploadChecked';
  data: { upload_id: string; rows: number[]; errors: RowError[]; at: string };
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

/** The upload's data key destroyed: its file and messages can no longer be read. */
export interface UploadPurged {
  type: 'UploadPurged';
  data: { upload_id: string; at: string };
}

export type UploadEvent =
  UploadReceived | UploadChecked | UploadSubmitted | UploadRowAppended | UploadRowFailed | UploadCompleted | UploadCancelled | UploadPurged;
export type UploadEventType = UploadEvent['type'];

/** Current schema version of each upload event's `data`. */
export const UPLOAD_EVENT_SCHEMA_VERSIONS: Record<UploadEventType, number> = {
  UploadReceived: 1,
  UploadChecked: 1,
  UploadSubmitted: 1,
  UploadRowAppended: 1,
  UploadRowFailed: 1,
  UploadCompleted: 1,
  UploadCancelled: 1,
  UploadPurged: 1,
};
registerEventSchemas(UPLOAD_EVENT_SCHEMA_VERSIONS);

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

/** The upload event a stored event holds (a known type with object data), else null. */
export function decodeUploadEvent(stored: { type: string; data: unknown }): UploadEvent | null {
  if (!isUploadEventType(stored.type) || typeof stored.data !== 'object' || stored.data === null) return null;
  return { type: stored.type, data: stored.data } as UploadEvent;
}
