/**
 * An uploaded CSV file read into rows, bounded before the work is spent. A file is at most
 * `maxBytes` (1 MiB for an upload), its records (blank ones included) at most `maxRecords` and its
 * trainee rows at most `maxRows`: reading stops at the first record past either bound and refuses
 * the file, so a file of a million blank lines costs what its first few thousand do. The parse runs
 * in turns of the event loop of at most {@link PARSE_CHUNK_BYTES} or about {@link PARSE_TURN_MS},
 * so requests waiting beside it are served between them (docs/DESIGN.md "Uploads").
 *
 * Reading refuses the file as a whole ({@link UploadFileRefused}) when it is over `maxBytes`, not
 * UTF-8 text (a BOM is allowed), empty, not RFC 4180 CSV, when its header row does not match the
 * template's columns (csv-headers.ts), when it has no trainee row, more than `maxRows` or more
 * records than `maxRecords`. Line ends may be CRLF or LF; quoted cells may hold commas, quotes and
 * line breaks. Row numbers are the spreadsheet's: the header is row 1, and every record after it
 * counts, blank ones included.
 */
import { performance } from 'node:perf_hooks';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { CsvError, parse, type Parser } from 'csv-parse';
import { unescapeCell } from './csv-cells';
import { matchHeaders } from './csv-headers';
import { UploadFileRefused } from './csv-refusal';
import { fileTooLarge, type UploadRecord, type UploadTable } from './upload-csv';

/** Bytes of the file parsed in one turn of the event loop at most: 16 KiB. */
export const PARSE_CHUNK_BYTES = 16_384;

/** Milliseconds of parsing in one turn of the event loop, roughly: past it the turn ends after the piece in hand. */
export const PARSE_TURN_MS = 3;

/**
 * The bytes handed to the parser at once, from 64 B to 2 KiB, sized as the pieces before were
 * parsed to take about 1 ms each (at most twice the last piece). A record the parser finds shorter
 * than the header costs it about 15 µs even without a stack trace (`parseSilently`), so a piece of
 * 2 KiB of such records costs it about 10 ms at most; a file of them is parsed in pieces of tens of
 * bytes, another in pieces of kilobytes.
 */
const PIECE = { minBytes: 64, firstBytes: 256, maxBytes: 2048, targetMs: 1 };

/**
 * Hands `piece` to `parser` without the stack traces of the errors csv-parse builds, and throws
 * away, for each record shorter than the header even when told to accept them (about 45 µs each
 * with a trace, 15 µs without); resolves once the parser has parsed it (until then it holds the
 * pieces written after it). The setting is put back before anything else runs: the write parses
 * synchronously.
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
  private header: { row: number; written: string[]; keep: number[]; columns: string[] } | null = null;
  readonly records: UploadRecord[] = [];
  rowCount = 0;

  constructor(
    private readonly options: UploadCsvOptions,
    private readonly maxRecords: number,
  ) {}

  /**
   * Takes the next record of the file (the header first) and its spreadsheet row number (blank lines
   * before it skipped by the parser: they are kept here as blank records); throws the refusal a bound
   * or a cell calls for.
   */
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

  /** Refuses a file whose rows after the header (blank ones included) are more than the bound. */
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

/** A record as the parser hands it with its `info` (csv-parse's `info: true`). */
interface ParsedRecord {
  record: string[];
  info: { records: number; empty_lines: number };
}

/**
 * Feeds `body` to `parser` in pieces (`PIECE`), handing each record to `reader` as it comes with its
 * spreadsheet row (the records and the blank lines before it), and yields a turn of the event loop
 * after {@link PARSE_CHUNK_BYTES} or {@link PARSE_TURN_MS}, whichever comes first; stops at the
 * first refusal (a bound passed, a row too wide, broken quoting) and throws it.
 */
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
    // Blank lines the parser skipped count toward the bound as they come, a trailing run of them too
    // (less the header, and the empty line the parser counts after a file's last line end).
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

/**
 * Reads an uploaded body (bytes as received) into its records, in chunks across turns of the event
 * loop, refusing the file as a whole with {@link UploadFileRefused} (reasons in csv-refusal.ts) as
 * described at the top of this file.
 */
export async function parseUploadCsv(body: Uint8Array, options: UploadCsvOptions): Promise<UploadTable> {
  if (body.byteLength > options.maxBytes) throw fileTooLarge(options.maxBytes);
  // Whitespace only (a BOM is whitespace too): no copy of the text made to find out.
  if (!/\S/.test(checkedText(body))) throw new UploadFileRefused('empty', 'The selected file is empty');
  const maxRecords = options.maxRecords ?? 2 * options.maxRows;
  const reader = new TableReader(options, maxRecords);
  // Blank lines are skipped by the parser (a record each would cost it dearly), counted in its
  // `info`; past the header, the records allowed and one more, it stops, and that one is refused.
  // Line ends named, CRLF or LF (a file may mix them): discovering them costs csv-parse a buffer per byte read.
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
