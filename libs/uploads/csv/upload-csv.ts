/** Rows written back as CSV, a record at a time so a download streams: the template, and the file with its errors. */
import { Readable } from 'node:stream';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { csvRecord } from './csv-cells';
import { UploadFileRefused } from './csv-refusal';

export interface UploadRecord {
  /** The spreadsheet's: 2 for the first record after the header. */
  row: number;
  /** Every cell empty: not a trainee row. */
  blank: boolean;
  /** In `headers` order, trimmed, formula escapes taken off. */
  cells: string[];
  values: Record<string, string>;
}

/** `headers` as written, ignored columns left out. */
export interface UploadTable {
  headers: string[];
  columns: string[];
  records: UploadRecord[];
  /** Not blank. */
  rowCount: number;
}

function sizeText(bytes: number): string {
  return bytes % 1_048_576 === 0 ? `${bytes / 1_048_576}MB` : `${bytes.toLocaleString('en-GB')} bytes`;
}

/** "The selected file must be smaller than 1MB". */
export function fileTooLarge(maxBytes: number): UploadFileRefused {
  return new UploadFileRefused('too_large', `The selected file must be smaller than ${sizeText(maxBytes)}`);
}

/** `bom` for spreadsheets that need one to read UTF-8. */
export interface WriteCsvOptions {
  bom?: boolean;
  /** By spreadsheet row; given, an errors column is added last. */
  errors?: ReadonlyMap<number, readonly string[]>;
  /** `errors` unless given. */
  errorsHeader?: string;
}

/** One string a record, CRLF ends, formula-looking cells escaped (csv-cells.ts); with `errors`, each row's messages one a line. */
function* csvLines(table: Pick<UploadTable, 'headers' | 'records'>, options: WriteCsvOptions): Generator<string> {
  const { errors } = options;
  const header = errors ? [...table.headers, options.errorsHeader ?? 'errors'] : table.headers;
  yield `${options.bom ? '\uFEFF' : ''}${csvRecord(header)}`;
  for (const record of table.records) {
    yield csvRecord(errors ? [...record.cells, (errors.get(record.row) ?? []).join('\n')] : record.cells);
  }
}

/** Read back with the errors column ignored, it gives the same headers and records. */
export function writeUploadCsv(table: Pick<UploadTable, 'headers' | 'records'>, options: WriteCsvOptions = {}): string {
  return [...csvLines(table, options)].join('');
}

const RECORDS_PER_CHUNK = 64;

/** {@link writeUploadCsv}'s text as a stream, a chunk a turn of the event loop on demand: never built whole, never holding the loop. */
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

/** The header row of `columns`. */
export function templateCsv(columns: readonly string[], options: Pick<WriteCsvOptions, 'bom'> = {}): string {
  return writeUploadCsv({ headers: [...columns], records: [] }, options);
}
