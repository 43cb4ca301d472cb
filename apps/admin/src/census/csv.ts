/**
 * A minimal CSV writer (RFC 4180): the project has a CSV parser (`csv-parse`) but no writer, and the
 * census report needs only records of plain values. `csv-stringify` (the same project's writer,
 * `stringify(rows, { header: true, columns })` or its stream form) would replace these few lines
 * without changing the output: both quote exactly the fields that hold a quote, a comma or a line
 * break, doubling the quotes.
 */

/** A value of one field: null and undefined are written as an empty field. */
export type CsvValue = string | number | boolean | null | undefined;

const NEEDS_QUOTES = /[",\r\n]/;

/** One field: as is, or between double quotes (doubled inside) when it holds a quote, a comma, CR or LF. */
export function csvField(value: CsvValue): string {
  if (value === null || value === undefined) return '';
  const text = String(value);
  return NEEDS_QUOTES.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** One record: the fields joined by commas, ended by CRLF (RFC 4180 §2). */
export function csvRecord(values: readonly CsvValue[]): string {
  return `${values.map(csvField).join(',')}\r\n`;
}
