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
