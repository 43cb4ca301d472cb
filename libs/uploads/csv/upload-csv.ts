/**
 * An uploaded file's rows (read by upload-csv-read.ts) and rows written back as CSV: the template,
 * and the file with its errors, written a record at a time so that a download streams.
 */
import { Readable } from 'node:stream';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { csvRecord } from './csv-cells';
import { UploadFileRefused } from './csv-refusal';

/** One record after the header. */
export interface UploadRecord {
  /** The spreadsheet row number: 2 for the first record after the header. */
  row: number;
  /** Every cell empty: not a trainee row. */
  blank: boolean;
  /** The values in the order of the table's `headers`, trimmed, formula escapes taken off. */
  cells: string[];
  /** The same values by template column. */
  values: Record<string, string>;
}

/** A file read: its headers as written (ignored columns left out), the column of each, its records. */
export interface UploadTable {
  headers: string[];
  columns: string[];
  records: UploadRecord[];
  /** The records that are trainee rows (not blank). */
  rowCount: number;
}

/** "1MB" for whole mebibytes, else bytes: the bound as the refusal names it. */
function sizeText(bytes: number): string {
  return bytes % 1_048_576 === 0 ? `${bytes / 1_048_576}MB` : `${bytes.toLocaleString('en-GB')} bytes`;
}

/** The refusal of a file larger than `maxBytes` bytes ("The selected file must be smaller than 1MB"). */
export function fileTooLarge(maxBytes: number): UploadFileRefused {
  return new UploadFileRefused('too_large', `The selected file must be smaller than ${sizeText(maxBytes)}`);
}

/** What to write: a UTF-8 BOM first (for spreadsheets that need one to read UTF-8), an errors column. */
export interface WriteCsvOptions {
  bom?: boolean;
  /** The messages of each row by spreadsheet row number; given, an errors column is added last. */
  errors?: ReadonlyMap<number, readonly string[]>;
  /** The errors column's header: `errors` unless given. */
  errorsHeader?: string;
}

/**
 * The records of a table as CSV (CRLF line ends, formula-looking cells escaped: csv-cells.ts), one
 * string a record: the header row (after a BOM when asked), then each record's cells; with
 * `errors`, a last column holding each row's messages, one a line.
 */
function* csvLines(table: Pick<UploadTable, 'headers' | 'records'>, options: WriteCsvOptions): Generator<string> {
  const { errors } = options;
  const header = errors ? [...table.headers, options.errorsHeader ?? 'errors'] : table.headers;
  yield `${options.bom ? '\uFEFF' : ''}${csvRecord(header)}`;
  for (const record of table.records) {
    yield csvRecord(errors ? [...record.cells, (errors.get(record.row) ?? []).join('\n')] : record.cells);
  }
}

/**
 * A table as CSV text (see {@link csvLines}). Reading the text back (with the errors column
 * ignored) gives the same headers and records.
 */
export function writeUploadCsv(table: Pick<UploadTable, 'headers' | 'records'>, options: WriteCsvOptions = {}): string {
  return [...csvLines(table, options)].join('');
}

/** Records written into one chunk of {@link uploadCsvStream}. */
const RECORDS_PER_CHUNK = 64;

/**
 * The same text as {@link writeUploadCsv}, as a stream of chunks of {@link RECORDS_PER_CHUNK}
 * records, each written in a turn of the event loop of its own when the reader asks for it: a
 * download is never built whole in memory, and never holds the loop for the whole file.
 */
export function uploadCsvStream(table: Pick<UploadTable, 'headers' | 'records'>, options: WriteCsvOptions = {}): Readable {
  async function* chunks(): AsyncGenerator<string> {
    let chunk = '';
    let count = 0;
    for (const line of csvLines(table, options)) {
      chunk += line;
      if (++count % RECORDS_PER_CHUNK !== 0) continue;
      yield chunk;
      chunk = '';
      await nextTurn();
    }
    if (chunk !== '') yield chunk;
  }
  return Readable.from(chunks(), { objectMode: false });
}

/** The empty template: the header row of `columns`, in their order. */
export function templateCsv(columns: readonly string[], options: Pick<WriteCsvOptions, 'bom'> = {}): string {
  return writeUploadCsv({ headers: [...columns], records: [] }, options);
}
