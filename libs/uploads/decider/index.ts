export type {
  CancelUpload,
  PurgeUpload,
  ReceiveUpload,
  RecordRowOutcomes,
  RecordUploadCheck,
  RowOutcomeInput,
  SubmitUpload,
  UploadCommand,
} from './upload.commands';
export { decideUpload, rowsToAppend, uploadPurgeDueAt, uploadWork } from './upload.decide';
export {
  UploadCommandInvalid,
  UploadConflict,
  UploadNotFound,
  UploadNotSubmittable,
  type NotSubmittableReason,
  type UploadConflictReason,
} from './upload.errors';
export {
  UPLOAD_EVENT_SCHEMA_VERSIONS,
  UPLOAD_KINDS,
  UPLOAD_STREAM_PREFIX,
  decodeUploadEvent,
  isUploadEventType,
  uploadStreamId,
  type RowError,
  type RowMessage,
  type RowProblem,
  type RowTarget,
  type UploadEvent,
  type UploadEventType,
  type UploadKind,
} from './upload.events';
export {
  UPLOAD_BYTES_MAX,
  UPLOAD_DAILY_BYTES_DEFAULT,
  UPLOAD_PENDING_MAX_DEFAULT,
  UPLOAD_RECORDS_MAX,
  UPLOAD_RETENTION_DAYS,
  UPLOAD_ROWS_MAX,
} from './upload.limits';
export {
  UPLOAD_STATUSES,
  evolveUpload,
  initialUploadState,
  outcomesOf,
  type RowOutcome,
  type UploadState,
  type UploadStatus,
} from './upload.state';
