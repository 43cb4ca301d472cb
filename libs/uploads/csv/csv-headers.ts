/**
 * Matching a file's header row to the template's columns: a header matches a column when both are
 * the same once lower-cased and stripped of spaces, hyphens and underscores, so `First Names`,
 * `first-names` and `first_names` are one column. The column list is the caller's (the template of
 * an API version, from the record tables).
 */
import { listed, UploadFileRefused } from './csv-refusal';

/** The key a header is matched by: lower case, without whitespace, hyphens or underscores. */
export function headerKey(header: string): string {
  return header.toLowerCase().replace(/[\s\-_]+/g, '');
}

/**
 * The columns' keys, checked once: throws (a programming error, not the provider's) when two
 * columns share a key or a column has none.
 */
export function columnKeys(columns: readonly string[]): Map<string, string> {
  const keys = new Map<string, string>();
  for (const column of columns) {
    const key = headerKey(column);
    if (key === '' || keys.has(key)) throw new Error(`Column ${column} cannot be told apart from ${keys.get(key) ?? 'nothing'}`);
    keys.set(key, column);
  }
  return keys;
}

/**
 * The column each header of the file stands for, in the file's order; null for a header of
 * `ignored` (the `errors` column of a file downloaded with its errors). Throws
 * {@link UploadFileRefused}: a blank header (`blank_header`), two headers for one column
 * (`duplicate_headers`), headers the template has not (`unknown_headers`, named as written), columns
 * of the template the file lacks (`missing_headers`, named as in the template).
 */
export function matchHeaders(headers: readonly string[], columns: readonly string[], ignored: readonly string[]): (string | null)[] {
  const keys = columnKeys(columns);
  const ignoredKeys = new Set(ignored.map(headerKey));
  const blank = headers.findIndex((h) => headerKey(h) === '');
  if (blank >= 0) {
    throw new UploadFileRefused('blank_header', `Column ${blank + 1} of the selected file has no header`, [], 1);
  }
  const seen = new Map<string, string>();
  const duplicates: string[] = [];
  const unknown: string[] = [];
  const matched = headers.map((header) => {
    const key = headerKey(header);
    if (ignoredKeys.has(key)) return null;
    if (seen.has(key)) duplicates.push(header);
    seen.set(key, header);
    const column = keys.get(key);
    if (column === undefined) unknown.push(header);
    return column ?? null;
  });
  if (duplicates.length > 0) {
    throw new UploadFileRefused(
      'duplicate_headers',
      `The selected file has these columns more than once: ${listed(duplicates)}`,
      duplicates,
      1,
    );
  }
  if (unknown.length > 0) {
    throw new UploadFileRefused(
      'unknown_headers',
      `The selected file has columns that are not in the template: ${listed(unknown)}`,
      unknown,
      1,
    );
  }
  const missing = columns.filter((c) => !seen.has(headerKey(c)));
  if (missing.length > 0) {
    throw new UploadFileRefused(
      'missing_headers',
      `The selected file is missing these columns of the template: ${listed(missing)}`,
      missing,
      1,
    );
  }
  return matched;
}
