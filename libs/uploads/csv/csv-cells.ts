/**
 * Cells as written to and read from a CSV file a spreadsheet may open. A cell a spreadsheet would
 * take for a formula (OWASP "CSV Injection": one starting with `=`, `+`, `-`, `@`, a tab or a
 * carriage return) is written with a single quote before it, so the spreadsheet shows it as text;
 * reading takes that quote off again. A cell that already starts with quotes before such a
 * character gets one more, so writing then reading gives back every value as it was.
 */

/** A value a spreadsheet would run as a formula, after any single quotes already in front of it. */
const FORMULA_LIKE = /^'*[=+\-@\t\r]/;
/** A cell written by {@link escapeCell}: one single quote more than the value had. */
const ESCAPED = /^''*[=+\-@\t\r]/;
/** A field that must be quoted (RFC 4180 §2.6): a quote, a comma, CR or LF. */
const NEEDS_QUOTES = /[",\r\n]/;

/** The cell for `value`: a single quote in front when it looks like a formula. */
export function escapeCell(value: string): string {
  return FORMULA_LIKE.test(value) ? `'${value}` : value;
}

/** The value a cell written by {@link escapeCell} holds (any other cell as it is). */
export function unescapeCell(cell: string): string {
  return ESCAPED.test(cell) ? cell.slice(1) : cell;
}

/** One field of a record: the escaped cell, between double quotes (doubled inside) when RFC 4180 needs them. */
export function csvField(value: string): string {
  const cell = escapeCell(value);
  return NEEDS_QUOTES.test(cell) ? `"${cell.replaceAll('"', '""')}"` : cell;
}

/** One record: its fields joined by commas, ended by CRLF (RFC 4180 §2.1). */
export function csvRecord(values: readonly string[]): string {
  return `${values.map(csvField).join(',')}\r\n`;
}
