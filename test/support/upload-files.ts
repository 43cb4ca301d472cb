import { addTraineeColumns, templateRowOf } from '@app/uploads/write';
import { csvRecord } from '@app/uploads/csv';
import { uniqueTrainee, type Version } from './trainee-input';

/** A CSV file with the template's header row of `version` and one record per row (missing cells blank; unknown keys dropped). */
export function csvFile(version: Version, rows: readonly Record<string, string>[], columns = addTraineeColumns(version)): string {
  return [csvRecord(columns), ...rows.map((r) => csvRecord(columns.map((c) => r[c] ?? '')))].join('');
}

/** `n` rows of distinct new trainees of `version` (the reference's example with a unique person each; no trn). */
export function traineeRows(version: Version, n: number): Record<string, string>[] {
  return Array.from({ length: n }, () => {
    const { data } = uniqueTrainee(version);
    delete data.trn;
    delete data.diversity_disclosure;
    return templateRowOf(data);
  });
}
