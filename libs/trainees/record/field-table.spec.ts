import { DEGREE_RECORD } from './degree.record';
import { inputKindOf, inputRow } from './field-table';
import { VERSION_FIELD_NAMES } from './field-names';
import { PLACEMENT_RECORD } from './placement.record';
import { TRAINEE_RECORD } from './trainee.record';

describe('the record tables (docs/DESIGN.md "The record tables")', () => {
  it('give a field its kind in each version where the versions differ', () => {
    const courseYear = inputRow(TRAINEE_RECORD, 'course_year').input;
    expect(inputKindOf(courseYear, 'v2025.0')).toEqual({ kind: 'course_year', integer: false });
    expect(inputKindOf(courseYear, 'v2026.1')).toEqual({ kind: 'course_year', integer: true });
    const additional = inputRow(TRAINEE_RECORD, 'additional_training_initiative').input;
    expect(inputKindOf(additional, 'v2025.0').kind).toBe('text');
    expect(inputKindOf(additional, 'v2026.1')).toEqual({ kind: 'code', list: 'training_initiative' });
    expect(inputKindOf(inputRow(TRAINEE_RECORD, 'first_names').input, 'v2025.0')).toEqual({ kind: 'text', max: 60 });
  });

  it('refuse to find an input the table has not', () => {
    expect(() => inputRow(TRAINEE_RECORD, 'trainee_id')).toThrow('no input field trainee_id');
    expect(() => inputRow(TRAINEE_RECORD, 'no_such_field')).toThrow('no input field no_such_field');
  });

  it('name each field once per table (a name twice only where one row is answered in one version alone)', () => {
    for (const table of [TRAINEE_RECORD, PLACEMENT_RECORD, DEGREE_RECORD]) {
      const names = table.map((row) => row.name);
      const twice = names.filter((name, i) => names.indexOf(name) !== i);
      expect(twice).toEqual(table === TRAINEE_RECORD ? ['withdrawal_reasons'] : []);
    }
  });

  it('are where the per-version names come from', () => {
    expect(VERSION_FIELD_NAMES.course_subject_1).toEqual({ 'v2025.0': 'course_subject_one', 'v2026.1': 'course_subject_1' });
    expect(VERSION_FIELD_NAMES.iqts_country).toEqual({ 'v2025.0': null, 'v2026.1': 'iqts_country' });
    const renamed = TRAINEE_RECORD.filter((row) => 'names' in row).map((row) => row.name);
    expect(Object.keys(VERSION_FIELD_NAMES).sort()).toEqual([...new Set(renamed)].sort());
  });
});
