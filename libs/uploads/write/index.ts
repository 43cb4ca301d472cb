export { personMessage } from './row-words';
export { ALREADY_REGISTERED, DUPLICATE_ROW, isAlreadyRegistered, uploadVersion } from './upload-rows';
export { uploadRowPeople, type RowPerson } from './upload-people';
export { codeWithoutZeros, dayFirstDate } from './spreadsheet-values';
export {
  columnCodes,
  columnFacts,
  columnFactsOf,
  exampleRow,
  itemFacts,
  recommendColumnFacts,
  uploadColumnFactsOf,
  type ColumnCode,
  type ColumnFacts,
} from './column-facts';
export { addTraineeColumns, createBodyOf, columnOfMessage, ROW_DISABILITIES, ROW_PLACEMENTS, templateRowOf } from './trainee-columns';
export {
  answerOf,
  getUpload,
  getUploadWithProblems,
  listUploads,
  uploadAnswer,
  uploadErrorsCsv,
  type UploadAnswer,
} from './upload-answers';
export { FILE_PART, messagesPart, type UploadFiles } from './upload-files.port';
export {
  UPLOAD_LEDGER_MARK_STREAM,
  UPLOAD_LEDGER_STREAM,
  UPLOAD_LIST_STREAM_PREFIX,
  UploadLedger,
  UploadLists,
  unsettledUploads,
} from './upload-list';
export { RECOMMEND_COLUMNS, RECOMMEND_DATE_COLUMN, recommendTemplateCsv } from './recommend-rows';
export { cancelUpload, ownUpload, receiveUpload, runUploadWork, submitUpload } from './upload-operations';
export { PENDING_RETRY_AFTER_SECONDS, UploadQuotaExceeded, type UploadQuota } from './upload-quotas';
export { UploadStates } from './upload-states';
export { readUpload, readUploadFile, UploadPartUnreadable, uploadKeyId } from './upload-stream';
export { UploadWorker, type UploadWorkFailed } from './upload-worker';
export { UPLOAD_PORTS, type UploadKeys, type UploadPorts, type UploadQuotas, type UploadStreamPorts } from './upload.ports';
export { UPLOAD_SCHEMAS } from './upload-schemas';
export { purgeDueUploads, purgeUploadsOfErased, type ErasedPerson, type ErasedPersonUploads } from './upload-purge';
export { UploadRowMarks } from './upload-row-marks';
