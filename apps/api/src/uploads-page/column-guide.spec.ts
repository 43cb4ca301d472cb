import { parse } from 'csv-parse/sync';
import { addTraineeColumns, columnFacts } from '@app/uploads/write';
import { columnGuideCsv, exampleCsv } from './column-guide';

const VERSIONS = ['v2025.0', 'v2026.1'] as const;

describe('columnGuideCsv', () => {
  it.each(VERSIONS)('%s: every template column once, in order, with its label, required or not, format, example and codes', (version) => {
    const [header, ...rows] = parse(columnGuideCsv(version)) as string[][];
    expect(header).toEqual(['column', 'label', 'required', 'format', 'example', 'codes']);
    expect(rows.map((r) => r[0])).toEqual(addTraineeColumns(version));
    const facts = columnFacts(version);
    rows.forEach((r, i) => {
      const f = facts[i];
      expect(r).toEqual([f.column, f.label, f.needed, f.format, f.example ?? '', f.codes.map((c) => `${c.code}: ${c.meaning}`).join('\n')]);
    });
  });
});

describe('exampleCsv', () => {
  it.each(VERSIONS)('%s: the template header and one row of the example trainee', (version) => {
    const [header, row, ...rest] = parse(exampleCsv(version)) as string[][];
    expect([header, rest]).toEqual([addTraineeColumns(version), []]);
    expect(row[header.indexOf('date_of_birth')]).toBe('1998-04-27');
    expect(row[header.indexOf('degree_grade')]).toBe('02');
  });
});
