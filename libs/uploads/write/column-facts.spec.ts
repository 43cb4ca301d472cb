import { contractFor } from '@app/trainees/contract';
import { validateNewTrainee } from '@app/trainees/decider';
import { columnFacts, columnFactsOf, exampleRow, itemFacts, recommendColumnFacts, uploadColumnFactsOf } from './column-facts';
import { RECOMMEND_COLUMNS } from './recommend-rows';
import { addTraineeColumns, createBodyOf } from './trainee-columns';

const VERSIONS = ['v2025.0', 'v2026.1'] as const;

describe('columnFacts', () => {
  it.each(VERSIONS)('%s: every template column, in order, with a label, required or not, and a format', (version) => {
    const facts = columnFacts(version);
    expect(facts.map((f) => f.column)).toEqual(addTraineeColumns(version));
    for (const f of facts) {
      expect([f.column, f.label !== '' && f.label !== f.column, f.needed !== '', f.format !== '']).toEqual([f.column, true, true, true]);
      expect(f.format).not.toMatch(/JSON|string|integer/);
      if (f.list) expect([f.column, f.codes.length > 0, f.codes.every((c) => c.meaning !== '')]).toEqual([f.column, true, true]);
    }
  });

  it('gives the codes and meanings of every coded column, degree types and disabilities among them', () => {
    expect(columnFactsOf('v2026.1', 'degree_uk_degree')?.codes).toContainEqual({ code: '083', meaning: expect.stringMatching(/\w/) });
    expect(columnFactsOf('v2026.1', 'disability9')).toMatchObject({ label: 'Disability 9', needed: 'Optional', list: 'disability' });
    expect(columnFactsOf('v2026.1', 'disability9')?.codes).toContainEqual({ code: '58', meaning: expect.stringMatching(/\w/) });
    expect(columnFactsOf('v2026.1', 'sex')?.codes).toEqual([
      { code: '10', meaning: 'Female' },
      { code: '11', meaning: 'Male' },
      { code: '12', meaning: 'Other' },
      { code: '96', meaning: 'Information refused' },
      { code: '99', meaning: 'Not available' },
    ]);
    expect(columnFactsOf('v2026.1', 'degree_institution')).toMatchObject({ list: 'degree_institution', format: 'A code from the list' });
    expect(columnFactsOf('v2026.1', 'date_of_birth')).toMatchObject({
      label: 'Date of birth',
      needed: 'Required',
      format: 'A date in the format YYYY-MM-DD',
      example: '1998-04-27',
    });
    expect(columnFactsOf('v2026.1', 'placement_2_urn')).toMatchObject({ label: 'Placement 2 school URN', example: null });
  });

  it.each(VERSIONS)('%s: the example row passes the create checks today', (version) => {
    const contract = contractFor(version);
    const data = contract.requests.traineeCreate(createBodyOf(exampleRow(version)));
    if (data.kind !== 'data') throw new Error('the example row holds no data');
    const today = new Date().toISOString().slice(0, 10);
    const result = validateNewTrainee(data.fields, data.problems, { rules: contract.rules, today });
    expect(result.ok ? [] : result.errors).toEqual([]);
  });

  it('gives the fields of a placement and of a degree, by their names in the version, with their labels and code lists', () => {
    expect(itemFacts('placements', 'v2026.1').map((f) => [f.column, f.label, f.kind])).toEqual([
      ['urn', 'Placement school URN', 'urn'],
      ['name', 'Placement school name', 'text'],
      ['postcode', 'Placement school postcode', 'postcode'],
    ]);
    const degrees = itemFacts('degrees', 'v2026.1');
    expect(degrees.map((f) => f.field)).toEqual(
      columnFacts('v2026.1')
        .filter((f) => f.column.startsWith('degree_'))
        .map((f) => f.field),
    );
    expect(degrees.find((f) => f.field === 'grade')).toMatchObject({ column: 'grade', label: 'Degree grade', list: 'degree_grade' });
  });
});

describe('recommendColumnFacts', () => {
  it.each(VERSIONS)('%s: every recommendations column, in template order, with a label, required or not, and a format', (version) => {
    const facts = recommendColumnFacts(version);
    expect(facts.map((f) => f.column)).toEqual(RECOMMEND_COLUMNS);
    for (const f of facts) expect([f.column, f.label !== f.column, f.needed !== '', f.format !== '']).toEqual([f.column, true, true, true]);
    expect(uploadColumnFactsOf('recommend_for_award', version, 'qts_standards_met_date')).toMatchObject({
      label: 'Date QTS or EYTS standards met',
      sample: '2026-06-30',
    });
    expect(uploadColumnFactsOf('recommend_for_award', version, 'sex')).toBeUndefined();
    expect(uploadColumnFactsOf('add_trainees', version, 'trainee_id')).toBeUndefined();
  });
});
