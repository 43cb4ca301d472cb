import { addTraineeColumns } from '@app/uploads/write';
import { csvRecord } from '@app/uploads/csv';
import { uniqueTrainee, type Version } from './trainee-input';

/** One template row (values by column) of a create body's `data`: the reverse of the file's flattening. */
export function rowOfBody(data: Record<string, unknown>): Record<string, string> {
  const row: Record<string, string> = {};
  for (const [key, value] of Object.entries(data)) {
    if (key === 'placements_attributes') {
      (value as { urn: string }[]).forEach((p, i) => (row[`placement_${i + 1}_urn`] = p.urn));
    } else if (key === 'degrees_attributes') {
      for (const [field, v] of Object.entries((value as Record<string, unknown>[])[0])) row[`degree_${field}`] = String(v);
    } else if (value !== null && value !== undefined) {
      row[key] = String(value);
    }
  }
  return row;
}

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
    return rowOfBody(data);
  });
}
