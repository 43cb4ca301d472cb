/**
 * An uploaded CSV file read into rows, and rows written back as CSV (the template, the file with its
 * errors). A file is read whole, in memory: it is at most `maxBytes` (1 MiB for an upload).
 *
 * Reading refuses the file as a whole ({@link UploadFileRefused}) when it is over `maxBytes`, not
 * UTF-8 text (a BOM is allowed), empty, not RFC 4180 CSV, when its header row does not match the
 * template's columns (csv-headers.ts), when it has no trainee row or more than `maxRows`. Line ends
 * may be CRLF or LF; quoted cells may hold commas, quotes and line breaks. Row numbers are the
 * spreadsheet's: the header is row 1, and every record after it counts, blank ones included.
 */
import { CsvError, parse } from 'csv-parse/sync';
import { csvText, unescapeCell } from './csv-cells';
import { matchHeaders } from './csv-headers';
import { UploadFileRefused } from './csv-refusal';

/** How to read an upload: the template's columns, the bounds, and the columns to ignore. */
export interface UploadCsvOptions {
  /** The template's column names, in the template's order. */
  columns: readonly string[];
  maxBytes: number;
  /** Most trainee rows (blank rows not counted). */
  maxRows: number;
  /** Headers dropped on reading (matched as the columns are); `errors` unless given. */
  ignoredColumns?: readonly string[];
}

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

/** The text of a UTF-8 body (BOM dropped); refuses a body that is not UTF-8 text. */
function decoded(body: Uint8Array): string {
  let text: string | null;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(body);
  } catch {
    text = null;
  }
  // UTF-16 without a BOM decodes as UTF-8 full of NULs: no CSV text holds one.
  if (text === null || text.includes('\u0000'))
    throw new UploadFileRefused('not_utf8', 'The selected file must be a CSV file saved as UTF-8');
  return text;
}

/** What the quoting faults of RFC 4180 CSV are called in a refusal, by `csv-parse` error code. */
const QUOTING_FAULTS: Partial<Record<string, string>> = {
  CSV_QUOTE_NOT_CLOSED: 'a quoted cell is not closed',
  CSV_INVALID_CLOSING_QUOTE: 'a closing quote is followed by other characters',
  INVALID_OPENING_QUOTE: 'a cell that is not between quotes holds a quote',
};

/** The records of a CSV text, as strings; refuses text that is not RFC 4180 CSV. */
function csvRecords(text: string): string[][] {
  try {
    return parse(text, { relax_column_count: true, bom: true }) as string[][];
  } catch (error) {
    if (!(error instanceof CsvError)) throw error;
    const where = typeof error.lines === 'number' ? ` near line ${error.lines}` : '';
    const what = QUOTING_FAULTS[error.code] ?? 'it cannot be read as CSV';
    throw new UploadFileRefused('malformed', `The selected file must be a CSV file: ${what}${where}`);
  }
}

/** One record read: the kept cells in header order, trimmed and unescaped; refuses cells past the header's. */
function readRecord(record: readonly string[], row: number, keep: readonly number[], headerCount: number): string[] {
  if (record.slice(headerCount).some((cell) => cell.trim() !== '')) {
    throw new UploadFileRefused(
      'too_many_cells',
      `Row ${row} of the selected file has more cells than the header row has columns`,
      [],
      row,
    );
  }
  return keep.map((i) => unescapeCell((record[i] ?? '').trim()));
}

/**
 * Reads an uploaded body (bytes as received) into its records, refusing the file as a whole with
 * {@link UploadFileRefused} (reasons in csv-refusal.ts) as described at the top of this file.
 */
export function parseUploadCsv(body: Uint8Array, options: UploadCsvOptions): UploadTable {
  if (body.byteLength > options.maxBytes) {
    throw fileTooLarge(options.maxBytes);
  }
  const text = decoded(body);
  if (text.trim() === '') throw new UploadFileRefused('empty', 'The selected file is empty');
  const [header, ...rest] = csvRecords(text);
  const written = header.map((h) => h.trim());
  const matched = matchHeaders(written, options.columns, options.ignoredColumns ?? ['errors']);
  const keep = matched.flatMap((column, i) => (column === null ? [] : [i]));
  const columns = keep.map((i) => matched[i]!);
  const records = rest.map((record, i): UploadRecord => {
    const row = i + 2;
    const cells = readRecord(record, row, keep, header.length);
    const values = Object.fromEntries(columns.map((c, j) => [c, cells[j]]));
    return { row, blank: cells.every((c) => c === ''), cells, values };
  });
  const rowCount = records.filter((r) => !r.blank).length;
  if (rowCount === 0) throw new UploadFileRefused('no_rows', 'The selected file must contain at least one trainee');
  if (rowCount > options.maxRows) {
    throw new UploadFileRefused(
      'too_many_rows',
      `The selected file must contain at most ${options.maxRows.toLocaleString('en-GB')} trainees`,
    );
  }
  return { headers: keep.map((i) => written[i]), columns, records, rowCount };
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
 * A table as CSV text (the service's one writer, csv-cells.ts: CRLF line ends, formula-looking
 * cells escaped): the header row, then each record's cells; with `errors`, a last column holding
 * each row's messages, one a line. Reading the text back (with the errors column ignored) gives
 * the same headers and records.
 */
export function writeUploadCsv(table: Pick<UploadTable, 'headers' | 'records'>, options: WriteCsvOptions = {}): string {
  const { errors } = options;
  const header = errors ? [...table.headers, options.errorsHeader ?? 'errors'] : table.headers;
  const rows = table.records.map((record) => (errors ? [...record.cells, (errors.get(record.row) ?? []).join('\n')] : record.cells));
  return csvText([header, ...rows], { bom: options.bom });
}

/** The empty template: the header row of `columns`, in their order. */
export function templateCsv(columns: readonly string[], options: Pick<WriteCsvOptions, 'bom'> = {}): string {
  return writeUploadCsv({ headers: [...columns], records: [] }, options);
}
