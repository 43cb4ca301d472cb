/**
 * Values a spreadsheet changes as it opens a CSV file: a code of digits loses its leading zeros (`01` → `1`, `0124` → `124`), a
 * date is written back `dd/mm/yyyy`. An upload refuses such a code where the create checks would read it silently (a degree grade
 * as none, an institution as "Other UK institution"), naming the code it probably was.
 */
import type { ApiVersion } from '@app/trainees/record';
import type { RowMessage } from '@app/uploads/decider';
import { columnFacts, type ColumnCode } from './column-facts';

/** The code of `codes` that `value` (digits) is with its leading zeros dropped, or undefined. */
export function codeWithoutZeros(value: string, codes: readonly ColumnCode[]): ColumnCode | undefined {
  if (!/^[1-9]\d*$/.test(value)) return undefined;
  if (codes.some((c) => c.code === value)) return undefined;
  return codes.find(
    (c) => c.code.length > value.length && /^0+$/.test(c.code.slice(0, c.code.length - value.length)) && c.code.endsWith(value),
  );
}

/** `dd/mm/yyyy` (or `d/m/yyyy`, with `-` or `.`) as a real date `YYYY-MM-DD`, or undefined. */
export function dayFirstDate(value: string): string | undefined {
  const m = /^(\d{1,2})[/.-](\d{1,2})[/.-](\d{4})$/.exec(value.trim());
  if (!m) return undefined;
  const [day, month, year] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  if (date.getUTCFullYear() !== year || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) return undefined;
  return `${m[3]}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}

/**
 * A message for each cell of `values` whose code the create checks do not refuse but which is a code with its leading zeros
 * dropped; `about`: `leading_zeros_dropped`, the value, its list and the code it probably was.
 */
export function codesWithoutZeros(values: Readonly<Record<string, string>>, version: ApiVersion): RowMessage[] {
  return columnFacts(version).flatMap((facts) => {
    const value = values[facts.column] ?? '';
    if (facts.list === null || facts.codeChecked || value === '') return [];
    const code = codeWithoutZeros(value, facts.codes);
    if (!code) return [];
    const message = `${facts.column} has invalid reference data value of '${value}': a spreadsheet may have dropped the leading zeros of '${code.code}'`;
    return [
      { column: facts.column, message, about: { kind: 'leading_zeros_dropped', value, params: { list: facts.list, code: code.code } } },
    ];
  });
}
