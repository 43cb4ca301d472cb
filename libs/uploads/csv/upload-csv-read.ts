/**
 * An uploaded CSV file read into rows, bounded before the work is spent and parsed in short turns of the event loop (docs/DESIGN.md
 * "Uploads"). Refused as a whole ({@link UploadFileRefused}, reasons in csv-refusal.ts) for a bound passed, text not
 * UTF-8, no RFC 4180 CSV, wrong headers or no trainee row. Row numbers are the spreadsheet's: the header is row 1, blank rows count.
 */
import { performance } from 'node:perf_hooks';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { CsvError, parse, type Parser } from 'csv-parse';
import { unescapeCell } from './csv-cells';
import { matchHeaders } from './csv-headers';
import { UploadFileRefused } from './csv-refusal';
import { fileTooLarge, type UploadRecord, type UploadTable } from './upload-csv';

/** Per turn of the event loop at most. */
export const PARSE_CHUNK_BYTES = 16_384;

/** Per turn, roughly: past it the turn ends after the piece in hand. */
export const PARSE_TURN_MS = 3;

/**
 * Pieces sized to parse in about 1 ms (at most twice the last): a record shorter than the header costs csv-parse about 15 µs even
 * without a stack trace, so 2 KiB of them costs at most about 10 ms.
 */
const PIECE = { minBytes: 64, firstBytes: 256, maxBytes: 2048, targetMs: 1 };

/**
 * Without the stack traces csv-parse builds and throws away for each short record (45 µs each with one, 15 µs without); the setting is
 * put back before anything else runs, as the write parses synchronously. Resolves once the piece is parsed.
 */
function parseSilently(parser: Parser, piece: Uint8Array): Promise<void> {
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 0;
  try {
    return new Promise<void>((resolve) => parser.write(piece, () => resolve()));
  } finally {
    Error.stackTraceLimit = limit;
  }
}

export interface UploadCsvOptions {
  /** In the template's order. */
  columns: readonly string[];
  maxBytes: number;
  /** Blank rows not counted. */
  maxRows: number;
  /** After the header, blank ones included; twice `maxRows` unless given. */
  maxRecords?: number;
  /** Dropped on reading, matched as the columns are; `errors` unless given. */
  ignoredColumns?: readonly string[];
}

/** BOM kept; refuses a body that is not UTF-8 text. */
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

/** By `csv-parse` error code. */
const QUOTING_FAULTS: Partial<Record<string, string>> = {
  CSV_QUOTE_NOT_CLOSED: 'a quoted cell is not closed',
  CSV_INVALID_CLOSING_QUOTE: 'a closing quote is followed by other characters',
  INVALID_OPENING_QUOTE: 'a cell that is not between quotes holds a quote',
};

/** Names the fault and its line; other errors as they are. */
function malformed(error: unknown): unknown {
  if (!(error instanceof CsvError)) return error;
  const where = typeof error.lines === 'number' ? ` near line ${error.lines}` : '';
  const what = QUOTING_FAULTS[error.code] ?? 'it cannot be read as CSV';
  return new UploadFileRefused('malformed', `The selected file must be a CSV file: ${what}${where}`);
}

/** Trimmed and unescaped; refuses cells past the header's. */
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

class TableReader {
  private header: { row: number; written: string[]; keep: number[]; columns: string[] } | null = null;
  readonly records: UploadRecord[] = [];
  rowCount = 0;

  constructor(
    private readonly options: UploadCsvOptions,
    private readonly maxRecords: number,
  ) {}

  /** The header first; blank lines the parser skipped before it are kept as blank records. Throws a bound's or a cell's refusal. */
  take(record: string[], row: number): void {
    if (this.header === null) {
      const written = record.map((h) => h.trim());
      const matched = matchHeaders(written, this.options.columns, this.options.ignoredColumns ?? ['errors']);
      const keep = matched.flatMap((column, i) => (column === null ? [] : [i]));
      this.header = { row, written, keep, columns: keep.map((i) => matched[i]!) };
      return;
    }
    this.bound(row - this.header.row);
    for (let skipped = this.header.row + this.records.length + 1; skipped < row; skipped++) this.push(skipped, []);
    this.push(row, record);
  }

  /** Blank rows count. */
  bound(rowsAfterHeader: number): void {
    if (rowsAfterHeader > this.maxRecords) throw tooManyRecords(this.maxRecords);
  }

  private push(row: number, record: readonly string[]): void {
    const { keep, columns, written } = this.header!;
    const cells = readRecord(record, row, keep, written.length);
    const values = Object.fromEntries(columns.map((c, j) => [c, cells[j]]));
    const blank = cells.every((c) => c === '');
    this.records.push({ row, blank, cells, values });
    if (!blank && ++this.rowCount > this.options.maxRows) throw tooManyRows(this.options.maxRows);
  }

  /** Refuses a file without a trainee row. */
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

/** csv-parse's `info: true`. */
interface ParsedRecord {
  record: string[];
  info: { records: number; empty_lines: number };
}

/** Hands each record to `reader` with its spreadsheet row, yielding per {@link PARSE_CHUNK_BYTES} or {@link PARSE_TURN_MS}. */
async function feed(parser: Parser, body: Uint8Array, reader: TableReader): Promise<void> {
  const parsed: ParsedRecord[] = [];
  let failure: unknown = null;
  let ended = false;
  parser.on('data', (r: ParsedRecord) => parsed.push(r));
  parser.on('error', (error: unknown) => (failure ??= malformed(error)));
  parser.on('end', () => (ended = true));
  parser.on('close', () => (ended = true));
  const drain = (): void => {
    if (failure !== null) throw failure;
    for (const { record, info } of parsed.splice(0)) reader.take(record, info.records + info.empty_lines);
    // Skipped blank lines count toward the bound as they come (less the header and the empty line after a file's last line end).
    reader.bound(parser.info.records + parser.info.empty_lines - 2);
  };
  const open = () => !parser.writableEnded && !parser.destroyed;
  let at = 0;
  let piece = PIECE.firstBytes;
  while (at < body.byteLength && open()) {
    const turnStart = performance.now();
    const turnEnd = Math.min(at + PARSE_CHUNK_BYTES, body.byteLength);
    while (at < turnEnd && open() && performance.now() - turnStart < PARSE_TURN_MS) {
      const size = Math.min(piece, turnEnd - at);
      const start = performance.now();
      await parseSilently(parser, body.subarray(at, at + size));
      const tookMs = performance.now() - start;
      at += size;
      const fits = (size * PIECE.targetMs) / Math.max(tookMs, 0.01);
      piece = Math.round(Math.min(PIECE.maxBytes, 2 * size, Math.max(PIECE.minBytes, fits)));
      drain();
    }
    await nextTurn();
    drain();
  }
  if (open()) parser.end();
  while (!ended && failure === null) await nextTurn();
  drain();
}

/** Reads an uploaded body into its records across turns of the event loop; refuses with {@link UploadFileRefused}. */
export async function parseUploadCsv(body: Uint8Array, options: UploadCsvOptions): Promise<UploadTable> {
  if (body.byteLength > options.maxBytes) throw fileTooLarge(options.maxBytes);
  if (!/\S/.test(checkedText(body))) throw new UploadFileRefused('empty', 'The selected file is empty');
  const maxRecords = options.maxRecords ?? 2 * options.maxRows;
  const reader = new TableReader(options, maxRecords);
  // Blank lines are skipped by the parser (a record each would cost dearly) and counted in its `info`. Line ends named, CRLF or
  // LF (a file may mix them): discovering them costs csv-parse a buffer per byte read.
  const parser = parse({
    relax_column_count: true,
    bom: true,
    record_delimiter: ['\r\n', '\n'],
    skip_empty_lines: true,
    info: true,
    to: maxRecords + 2,
  });
  try {
    await feed(parser, body, reader);
  } finally {
    parser.destroy();
  }
  return reader.table();
}
