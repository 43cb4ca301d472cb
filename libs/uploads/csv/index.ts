export { csvRecord, csvText, escapeCell, unescapeCell, type CsvValue } from './csv-cells';
export { columnKeys, headerKey, matchHeaders } from './csv-headers';
export { UploadFileRefused, type FileRefusalReason } from './csv-refusal';
export {
  fileTooLarge,
  templateCsv,
  uploadCsvStream,
  writeUploadCsv,
  type UploadRecord,
  type UploadTable,
  type WriteCsvOptions,
} from './upload-csv';
export { PARSE_CHUNK_BYTES, parseUploadCsv, type UploadCsvOptions } from './upload-csv-read';
