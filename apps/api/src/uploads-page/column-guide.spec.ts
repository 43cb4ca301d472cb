import { parseUploadCsv } from '@app/uploads/csv';
import { addTraineeColumns } from '@app/uploads/write';
import { columnGuideCsv } from './column-guide';

/** The guide read back as records by column. */
async function guide(version: 'v2025.0' | 'v2026.1'): Promise<Map<string, Record<string, string>>> {
  const text = columnGuideCsv(version);
  const columns = ['column', 'meaning', 'format', 'codes'];
  const table = await parseUploadCsv(new TextEncoder().encode(text), { maxBytes: 10_000_000, maxRows: 1_000, columns });
  expect(table.headers).toEqual(columns);
  return new Map(table.records.map((r) => [r.cells[0], Object.fromEntries(columns.map((c, i) => [c, r.cells[i]]))]));
}

describe('columnGuideCsv', () => {
  it.each(['v2025.0', 'v2026.1'] as const)(
    'names every template column of %s once, in order, with a meaning and a format',
    async (version) => {
      const rows = await guide(version);
      expect([...rows.keys()]).toEqual(addTraineeColumns(version));
      for (const row of rows.values()) {
        expect([row.column, row.format]).toEqual([row.column, expect.any(String)]);
        expect(row.format).not.toBe('');
      }
    },
  );

  it('gives the codes of coded columns from the reference data, and the format of dates and text', async () => {
    const rows = await guide('v2026.1');
    expect(rows.get('sex')).toMatchObject({ format: 'A code from the list', codes: expect.stringMatching(/^10: /m) });
    expect(rows.get('disability3')?.codes).toBe(rows.get('disability1')?.codes);
    expect(rows.get('disability1')?.codes).not.toBe('');
    expect(rows.get('course_subject_2')?.codes).toBe(rows.get('course_subject_1')?.codes);
    expect(rows.get('degree_grade')?.codes).not.toBe('');
    expect(rows.get('date_of_birth')).toMatchObject({ format: 'A date, YYYY-MM-DD', meaning: expect.stringMatching(/Date of birth/) });
    expect(rows.get('first_names')).toMatchObject({ format: 'Text, at most 60 characters', codes: '' });
  });
});
