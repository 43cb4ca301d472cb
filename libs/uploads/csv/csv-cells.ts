/**
 * Every CSV file the service writes (the upload template, a file with its errors, an upload's
 * trainee ids, the column guide, the recommendations template, the census report) is written here,
 * by `csv-stringify`: RFC 4180, fields holding a quote, a comma, CR or LF between double quotes
 * (doubled inside), records ended by CRLF.
 *
 * One rule for cells a spreadsheet would take for a formula (OWASP "CSV Injection", ASVS 5.0
 * 1.2.10): a text cell whose first character is `=`, `+`, `-` or `@`, or a form of one that
 * Unicode compatibility folds to it (the full-width `＝`, `＋`, `－`, `＠`, the small forms, the
 * super- and subscript `⁼`, `⁺`), or a tab, CR, LF or NUL, or which starts with spaces before one
 * of these, is written with a single quote before it, so a spreadsheet shows it as text. Reading
 * (`unescapeCell`) takes that quote off again. A cell that already starts with quotes before such a
 * character gets one more, so writing then reading gives back every value as it was. A number the
 * service writes as a number (`-5` in a numeric column) is written as is: it is no formula; the
 * same text (`'-5'` as a string, such as a cell of an uploaded file) is escaped.
 */
import { stringify, type Options } from 'csv-stringify/sync';

/** A value of one field: text (escaped when formula-like), a number or boolean as its text, null or undefined as an empty field. */
export type CsvValue = string | number | boolean | null | undefined;

/** Characters that start a formula, after compatibility folding (`＝` is `=`). */
const FORMULA_START = /^[=+\-@]/;
/** Control characters a spreadsheet may skip, or run into a formula, at a cell's start. */
const CONTROL_START = /^[\t\r\n\0]/;

/** Whether a spreadsheet could take `value` for a formula, looking past any quotes already in front. */
function formulaLike(value: string): boolean {
  const afterQuotes = value.replace(/^'+/, '');
  if (CONTROL_START.test(afterQuotes)) return true;
  const first = afterQuotes.replace(/^\s+/, '').slice(0, 1);
  return FORMULA_START.test(first.normalize('NFKC'));
}

/** The cell for `value`: a single quote in front when it looks like a formula. */
export function escapeCell(value: string): string {
  return formulaLike(value) ? `'${value}` : value;
}

/** The value a cell written by {@link escapeCell} holds (any other cell as it is). */
export function unescapeCell(cell: string): string {
  return cell.startsWith("'") && formulaLike(cell.slice(1)) ? cell.slice(1) : cell;
}

/** The writer's options: RFC 4180 with CRLF, text escaped, numbers and booleans as JavaScript writes them. */
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

/** Records as CSV text, each ended by CRLF; a UTF-8 BOM first with `bom` (for spreadsheets that need one). */
export function csvText(records: readonly (readonly CsvValue[])[], options: { bom?: boolean } = {}): string {
  const text = stringify(records as CsvValue[][], OPTIONS);
  return options.bom ? `\uFEFF${text}` : text;
}

/** One record as CSV text, ended by CRLF. */
export function csvRecord(values: readonly CsvValue[]): string {
  return csvText([values]);
}
