export { csvRecord, csvText, escapeCell, unescapeCell, type CsvValue } from './csv-cells';
export { columnKeys, headerKey, matchHeaders } from './csv-headers';
export { UploadFileRefused, type FileRefusalReason } from './csv-refusal';
export {
  fileTooLarge,
  parseUploadCsv,
  templateCsv,
  writeUploadCsv,
  type UploadCsvOptions,
  type UploadRecord,
  type UploadTable,
  type WriteCsvOptions,
} from './upload-csv';
