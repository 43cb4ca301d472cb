/**
 * The commands of an upload. Ids, digests and the time arrive inside the command: the decider
 * holds no random source and no clock. `now` is an ISO 8601 instant, UTC.
 */
import type { RowError, RowMessage, RowTarget, UploadKind } from './upload.events';

/**
 * Receive a file the CSV layer accepted as a whole, which the caller has stored outside the log:
 * its size and SHA-256 digest (64 lower-case hex digits, of the bytes as sent).
 */
export interface ReceiveUpload {
  type: 'ReceiveUpload';
  upload_id: string;
  ukprn: string;
  kind: UploadKind;
  api_version: string;
  file_name: string | null;
  byte_count: number;
  sha256: string;
  now: string;
}

/**
 * Record what the row checks found: the trainee rows' numbers and every message about them, which
 * the caller has stored outside the log as their JSON array in row order, of digest
 * `messages_sha256` (null when there is no message).
 */
export interface RecordUploadCheck {
  type: 'RecordUploadCheck';
  upload_id: string;
  rows: number[];
  errors: RowError[];
  messages_sha256: string | null;
  now: string;
}

/** Submit a validated upload: the trainee each row writes to (a new id, or the trainee recommended). */
export interface SubmitUpload {
  type: 'SubmitUpload';
  upload_id: string;
  targets: RowTarget[];
  now: string;
}

/** What writing one row did: appended to its trainee, or refused with messages. */
export type RowOutcomeInput = { row: number; trainee_id: string } | { row: number; errors: RowMessage[] };

/** Record the outcomes of submitted rows (a batch, in the order written). */
export interface RecordRowOutcomes {
  type: 'RecordRowOutcomes';
  upload_id: string;
  outcomes: RowOutcomeInput[];
  now: string;
}

/** Cancel an upload before it is submitted. */
export interface CancelUpload {
  type: 'CancelUpload';
  upload_id: string;
  now: string;
}

/**
 * Destroy the upload's data key once it is due (upload.limits.ts, `UPLOAD_RETENTION_DAYS`), or at
 * once when `erased_trainee` names an erased trainee the upload holds a row of (a row of its file
 * the caller took to be the trainee's, or a row that wrote to it): while the upload is being
 * submitted, as soon as the submit ends.
 */
export interface PurgeUpload {
  type: 'PurgeUpload';
  upload_id: string;
  now: string;
  erased_trainee?: string;
}

export type UploadCommand = ReceiveUpload | RecordUploadCheck | SubmitUpload | RecordRowOutcomes | CancelUpload | PurgeUpload;
