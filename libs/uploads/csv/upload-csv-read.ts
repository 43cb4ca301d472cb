/**
 * An uploaded CSV file read into rows, bounded before the work is spent. A file is at most
 * `maxBytes` (1 MiB for an upload), its records (blank ones included) at most `maxRecords` and its
 * trainee rows at most `maxRows`: reading stops at the first record past either bound and refuses
 * the file, so a file of a million blank lines costs what its first few thousand do. The parse runs
 * in chunks of {@link PARSE_CHUNK_BYTES}, each in a turn of the event loop of its own, so requests
 * waiting beside it are served between chunks (docs/DESIGN.md "Uploads").
 *
 * Reading refuses the file as a whole ({@link UploadFileRefused}) when it is over `maxBytes`, not
 * UTF-8 text (a BOM is allowed), empty, not RFC 4180 CSV, when its header row does not match the
 * template's columns (csv-headers.ts), when it has no trainee row, more than `maxRows` or more
 * records than `maxRecords`. Line ends may be CRLF or LF; quoted cells may hold commas, quotes and
 * line breaks. Row numbers are the spreadsheet's: the header is row 1, and every record after it
 * counts, blank ones included.
 */
import { setImmediate as nextTurn } from 'node:timers/promises';
import { CsvError, parse, type Parser } from 'csv-parse';
import { unescapeCell } from './csv-cells';
import { matchHeaders } from './csv-headers';
import { UploadFileRefused } from './csv-refusal';
import { fileTooLarge, type UploadRecord, type UploadTable } from './upload-csv';

/** Bytes of the file handed to the parser in one turn of the event loop: 16 KiB, well under a millisecond of work. */
export const PARSE_CHUNK_BYTES = 16_384;

/** How to read an upload: the template's columns, the bounds, and the columns to ignore. */
export interface UploadCsvOptions {
  /** The template's column names, in the template's order. */
  columns: readonly string[];
  maxBytes: number;
  /** Most trainee rows (blank rows not counted). */
  maxRows: number;
  /** Most records after the header, blank ones included; twice `maxRows` unless given. */
  maxRecords?: number;
  /** Headers dropped on reading (matched as the columns are); `errors` unless given. */
  ignoredColumns?: readonly string[];
}

/** The text of a UTF-8 body (BOM kept); refuses a body that is not UTF-8 text. */
function checkedText(body: Uint8Array): string {
  let text: string | null;
  try {
    text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(body);
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

/** The refusal of a file `csv-parse` could not read (`error`), naming the fault and its line; other errors as they are. */
function malformed(error: unknown): unknown {
  if (!(error instanceof CsvError)) return error;
  const where = typeof error.lines === 'number' ? ` near line ${error.lines}` : '';
  const what = QUOTING_FAULTS[error.code] ?? 'it cannot be read as CSV';
  return new UploadFileRefused('malformed', `The selected file must be a CSV file: ${what}${where}`);
}

/** One record read: the kept cells in header order, trimmed and unescaped; refuses cells past the header's. */
function readRecord(record: readonly string[], row: number, keep: readonly number[], headerCount: number): string[] {
  if (record.length > headerCount && record.slice(headerCount).some((cell) => cell.trim() !== '')) {
    throw new UploadFileRefused(
      'too_many_cells',
      `Row ${row} of the selected file has more cells than the header row has columns`,
      [],
      row,
    );
  }
  return keep.map((i) => unescapeCell((record[i] ?? '').trim()));
}

/** A table being read: the header's columns once read, then each record as it comes, bounded. */
class TableReader {
  private header: { written: string[]; keep: number[]; columns: string[] } | null = null;
  readonly records: UploadRecord[] = [];
  rowCount = 0;

  constructor(
    private readonly options: UploadCsvOptions,
    private readonly maxRecords: number,
  ) {}

  /** Takes the next record of the file (the header first); throws the refusal a bound or a cell calls for. */
  take(record: string[]): void {
    if (this.header === null) {
      const written = record.map((h) => h.trim());
      const matched = matchHeaders(written, this.options.columns, this.options.ignoredColumns ?? ['errors']);
      const keep = matched.flatMap((column, i) => (column === null ? [] : [i]));
      this.header = { written, keep, columns: keep.map((i) => matched[i]!) };
      return;
    }
    const row = this.records.length + 2;
    if (this.records.length >= this.maxRecords) throw tooManyRecords(this.maxRecords);
    const cells = readRecord(record, row, this.header.keep, this.header.written.length);
    const values = Object.fromEntries(this.header.columns.map((c, j) => [c, cells[j]]));
    const blank = cells.every((c) => c === '');
    this.records.push({ row, blank, cells, values });
    if (!blank && ++this.rowCount > this.options.maxRows) throw tooManyRows(this.options.maxRows);
  }

  /** The table read, once the file has ended; refuses a file without a trainee row. */
  table(): UploadTable {
    if (this.header === null) throw new UploadFileRefused('empty', 'The selected file is empty');
    if (this.rowCount === 0) throw new UploadFileRefused('no_rows', 'The selected file must contain at least one trainee');
    const { written, keep, columns } = this.header;
    return { headers: keep.map((i) => written[i]), columns, records: this.records, rowCount: this.rowCount };
  }
}

function tooManyRows(maxRows: number): UploadFileRefused {
  return new UploadFileRefused('too_many_rows', `The selected file must contain at most ${maxRows.toLocaleString('en-GB')} trainees`);
}

function tooManyRecords(maxRecords: number): UploadFileRefused {
  return new UploadFileRefused(
    'too_many_records',
    `The selected file must have at most ${maxRecords.toLocaleString('en-GB')} rows after the header, blank rows included`,
  );
}

/**
 * Feeds `body` to `parser` a chunk per turn, handing each record to `reader` as it comes; stops at
 * the first refusal (a bound passed, a row too wide, broken quoting) and throws it.
 */
async function feed(parser: Parser, body: Uint8Array, reader: TableReader): Promise<void> {
  const records: string[][] = [];
  let failure: unknown = null;
  let ended = false;
  parser.on('data', (record: string[]) => records.push(record));
  parser.on('error', (error: unknown) => (failure ??= malformed(error)));
  parser.on('end', () => (ended = true));
  parser.on('close', () => (ended = true));
  const drain = (): void => {
    if (failure !== null) throw failure;
    for (const record of records.splice(0)) reader.take(record);
  };
  for (let at = 0; at < body.byteLength && !parser.writableEnded; at += PARSE_CHUNK_BYTES) {
    parser.write(body.subarray(at, at + PARSE_CHUNK_BYTES));
    await nextTurn();
    drain();
  }
  if (!parser.writableEnded) parser.end();
  while (!ended && failure === null) await nextTurn();
  drain();
}

/**
 * Reads an uploaded body (bytes as received) into its records, in chunks across turns of the event
 * loop, refusing the file as a whole with {@link UploadFileRefused} (reasons in csv-refusal.ts) as
 * described at the top of this file.
 */
export async function parseUploadCsv(body: Uint8Array, options: UploadCsvOptions): Promise<UploadTable> {
  if (body.byteLength > options.maxBytes) throw fileTooLarge(options.maxBytes);
  if (
    checkedText(body)
      .replace(/^\uFEFF/, '')
      .trim() === ''
  )
    throw new UploadFileRefused('empty', 'The selected file is empty');
  const maxRecords = options.maxRecords ?? 2 * options.maxRows;
  const reader = new TableReader(options, maxRecords);
  // The header, the records allowed and one more: the parser stops there, and that one is refused.
  const parser = parse({ relax_column_count: true, bom: true, to: maxRecords + 2 });
  try {
    await feed(parser, body, reader);
  } finally {
    parser.destroy();
  }
  return reader.table();
}
