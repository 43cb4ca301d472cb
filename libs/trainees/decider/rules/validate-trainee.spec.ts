import { TRAINEE_DETAILS_NAMES, TRAINEE_RECORD } from '@app/trainees/record';
import { TRAINEE_FIELDS, testRules } from '../testing/trainee-fixtures';
import { validateNewTrainee, validateTraineeUpdate } from './validate-trainee';

const CTX = { rules: testRules(), today: '2026-11-22' };

describe('the stored record a create or update makes (docs/DESIGN.md "The record tables")', () => {
  it('holds every member the trainee table names, keyed in its order', () => {
    const created = validateNewTrainee(TRAINEE_FIELDS, [], CTX);
    if (!created.ok) throw new Error(created.errors.join('; '));
    expect(Object.keys(created.value.details)).toEqual(TRAINEE_DETAILS_NAMES);
  });

  it('starts an update from the stored record: an empty update changes nothing, one field changes only that field', () => {
    const created = validateNewTrainee(TRAINEE_FIELDS, [], CTX);
    if (!created.ok) throw new Error(created.errors.join('; '));
    const stored = created.value.details;
    const same = validateTraineeUpdate({}, [], stored, CTX);
    expect(same).toEqual({ ok: true, value: { details: stored, changes: {} } });
    const changed = validateTraineeUpdate({ ni_number: 'QQ123456C' }, [], stored, CTX);
    expect(changed.ok && changed.value.changes).toEqual({ ni_number: 'QQ123456C' });
    expect(changed.ok && Object.keys(changed.value.details)).toEqual(TRAINEE_DETAILS_NAMES);
  });

  it("answers every stored member from the stored record (no row reads one it lacks), a lifecycle action's field apart", () => {
    const answered = TRAINEE_RECORD.filter((row) => 'answer' in row && !('value' in row.answer) && !('lifecycle' in row)).map(
      (row) => row.name,
    );
    expect(TRAINEE_DETAILS_NAMES.filter((name) => name !== 'disabilities')).toEqual([...new Set(answered)]);
  });
});
