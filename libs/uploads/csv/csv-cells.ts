/**
 * Every CSV the service writes, by `csv-stringify` (RFC 4180, CRLF), with formula-looking text cells escaped by a leading `'`
 * (docs/DESIGN.md "The uploads page": OWASP "CSV Injection"); reading takes it off, so writing then reading gives every value back.
 * A number written as a number is no formula and stays as is.
 */
import { stringify, type Options } from 'csv-stringify/sync';

/** Text escaped when formula-like; null or undefined as an empty field. */
export type CsvValue = string | number | boolean | null | undefined;

/** After compatibility folding (`＝` is `=`). */
const FORMULA_START = /^[=+\-@]/;
/** A spreadsheet may skip them, or run them into a formula. */
const CONTROL_START = /^[\t\r\n\0]/;

/** Looking past any quotes already in front. */
function formulaLike(value: string): boolean {
  const afterQuotes = value.replace(/^'+/, '');
  if (CONTROL_START.test(afterQuotes)) return true;
  const first = afterQuotes.replace(/^\s+/, '').slice(0, 1);
  return FORMULA_START.test(first.normalize('NFKC'));
}

export function escapeCell(value: string): string {
  return formulaLike(value) ? `'${value}` : value;
}

/** Any other cell as it is. */
export function unescapeCell(cell: string): string {
  return cell.startsWith("'") && formulaLike(cell.slice(1)) ? cell.slice(1) : cell;
}

const OPTIONS: Options = {
  record_delimiter: '\r\n',
  // A field holding a lone CR or LF is quoted too (the library quotes only CRLF once told the delimiter).
  quote_record_delimiter: true,
  cast: {
    string: escapeCell,
    number: (value: number) => String(value),
    bigint: (value: bigint) => String(value),
    boolean: (value: boolean) => String(value),
  },
};

/** A UTF-8 BOM first with `bom`. */
export function csvText(records: readonly (readonly CsvValue[])[], options: { bom?: boolean } = {}): string {
  const text = stringify(records as CsvValue[][], OPTIONS);
  return options.bom ? `\uFEFF${text}` : text;
}

export function csvRecord(values: readonly CsvValue[]): string {
  return csvText([values]);
}
