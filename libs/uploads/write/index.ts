export { addTraineeColumns, createBodyOf, columnOfMessage, ROW_DISABILITIES, ROW_PLACEMENTS } from './trainee-columns';
export { getUpload, listUploads, uploadAnswer, uploadErrorsCsv, type UploadAnswer } from './upload-answers';
export { UPLOAD_LIST_STREAM_PREFIX } from './upload-list';
export { RECOMMEND_COLUMNS, RECOMMEND_DATE_COLUMN, recommendTemplateCsv } from './recommend-rows';
export { cancelUpload, ownUpload, receiveUpload, runUploadWork, submitUpload } from './upload-operations';
export { readUpload, uploadKeyId } from './upload-stream';
export { UploadWorker, type UploadWorkFailed } from './upload-worker';
export { UPLOAD_PORTS, type UploadKeys, type UploadPorts } from './upload.ports';
export { UPLOAD_SCHEMAS } from './upload-schemas';
