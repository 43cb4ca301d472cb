import { parse } from 'csv-parse';
import type { Readable } from 'node:stream';
import type { School } from '@app/trainees/record';
import type { SchoolDirectory } from './school-directory.port';

/** The columns read from the register's CSV export; others are ignored. */
export const SCHOOL_CSV_COLUMNS = { urn: 'URN', name: 'EstablishmentName', town: 'Town', postcode: 'Postcode' } as const;

export interface SchoolImportResult {
  imported: number;
  /** Rows without a six-digit URN or a name. */
  skipped: number;
}

/**
 * Streams a register CSV into the directory `batchSize` rows at a time; `onProgress` gets the rows read after each batch. Throws when
 * a column of {@link SCHOOL_CSV_COLUMNS} is missing.
 */
export async function importSchoolsCsv(
  input: Readable,
  directory: SchoolDirectory,
  options: { batchSize?: number; onProgress?: (rowsRead: number) => void } = {},
): Promise<SchoolImportResult> {
  const batchSize = options.batchSize ?? 2000;
  const parser = input.pipe(parse({ columns: true, bom: true, skip_empty_lines: true, relax_column_count: true, trim: true }));
  let batch: School[] = [];
  let imported = 0;
  let skipped = 0;
  let rows = 0;
  let checkedHeader = false;
  for await (const record of parser as AsyncIterable<Record<string, string>>) {
    if (!checkedHeader) {
      const missing = Object.values(SCHOOL_CSV_COLUMNS).filter((c) => !(c in record));
      if (missing.length > 0)
        throw new Error(`The CSV has no column ${missing.join(', ')} (expected ${Object.values(SCHOOL_CSV_COLUMNS).join(', ')})`);
      checkedHeader = true;
    }
    rows++;
    const urn = record[SCHOOL_CSV_COLUMNS.urn];
    const name = record[SCHOOL_CSV_COLUMNS.name];
    if (!/^\d{6}$/.test(urn ?? '') || !name) {
      skipped++;
      continue;
    }
    batch.push({ urn, name, town: record[SCHOOL_CSV_COLUMNS.town] || null, postcode: record[SCHOOL_CSV_COLUMNS.postcode] || null });
    if (batch.length >= batchSize) {
      await directory.upsertMany(batch);
      imported += batch.length;
      batch = [];
      options.onProgress?.(rows);
    }
  }
  if (batch.length > 0) {
    await directory.upsertMany(batch);
    imported += batch.length;
  }
  options.onProgress?.(rows);
  return { imported, skipped };
}
