import { addTraineeColumns, templateRowOf } from '@app/uploads/write';
import { csvRecord } from '@app/uploads/csv';
import { uniqueTrainee, type Version } from './trainee-input';

/** A CSV file with the template's header row of `version` and one record per row (missing cells blank; unknown keys dropped). */
export function csvFile(version: Version, rows: readonly Record<string, string>[], columns = addTraineeColumns(version)): string {
  return [csvRecord(columns), ...rows.map((r) => csvRecord(columns.map((c) => r[c] ?? '')))].join('');
}

let rowCount = 0;

/**
 * `n` rows of distinct new trainees of `version` (the reference's example with a unique person each;
 * no trn, no previous last name), each with identifiers of its own: an erasure takes rows sharing one
 * for the same person's (docs/DESIGN.md "Personal data").
 */
export function traineeRows(version: Version, n: number): Record<string, string>[] {
  return Array.from({ length: n }, () => {
    rowCount += 1;
    const { data } = uniqueTrainee(version, {
      provider_trainee_id: `row/${rowCount}`,
      statsagency_id: String(rowCount).padStart(13, '0'),
      application_id: 1_000_000 + rowCount,
    });
    delete data.trn;
    delete data.diversity_disclosure;
    delete data.previous_last_name;
    return templateRowOf(data);
  });
}

/**
 * `row` as a spreadsheet program saves it after opening the CSV file with its default settings (Excel, UK locale, cells formatted
 * "General"): a date `YYYY-MM-DD` retyped as `DD/MM/YYYY`, a number's leading zeros dropped, `true`/`false` in capitals.
 */
export function spreadsheetRoundTrip(row: Readonly<Record<string, string>>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(row).map(([column, value]) => {
      const date = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
      if (date) return [column, `${date[3]}/${date[2]}/${date[1]}`];
      if (/^0+\d+$/.test(value)) return [column, String(Number(value))];
      if (value === 'true' || value === 'false') return [column, value.toUpperCase()];
      return [column, value];
    }),
  );
}
