/** An upload's commands: ids, digests and `now` (ISO 8601 UTC) arrive inside them. */
import type { RowError, RowMessage, RowTarget, UploadKind } from './upload.events';

/** A file accepted as a whole and stored outside the log: its size and SHA-256 (lower-case hex, of the bytes as sent). */
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

/** `messages_sha256`: of the messages' JSON array in row order, stored outside the log; null when none. */
export interface RecordUploadCheck {
  type: 'RecordUploadCheck';
  upload_id: string;
  rows: number[];
  errors: RowError[];
  messages_sha256: string | null;
  now: string;
}

/** The trainee each row writes to: a new id, or the trainee recommended; `submitted_by`: the person submitting (their `sub`), if one. */
export interface SubmitUpload {
  type: 'SubmitUpload';
  upload_id: string;
  targets: RowTarget[];
  submitted_by?: string | null;
  now: string;
}

export type RowOutcomeInput = { row: number; trainee_id: string } | { row: number; errors: RowMessage[] };

/** A batch, in the order written. */
export interface RecordRowOutcomes {
  type: 'RecordRowOutcomes';
  upload_id: string;
  outcomes: RowOutcomeInput[];
  now: string;
}

export interface CancelUpload {
  type: 'CancelUpload';
  upload_id: string;
  now: string;
}

/** Due after `UPLOAD_RETENTION_DAYS`, or at once for an `erased_trainee` the upload holds a row of (while submitting: as it ends). */
export interface PurgeUpload {
  type: 'PurgeUpload';
  upload_id: string;
  now: string;
  erased_trainee?: string;
}

export type UploadCommand = ReceiveUpload | RecordUploadCheck | SubmitUpload | RecordRowOutcomes | CancelUpload | PurgeUpload;
