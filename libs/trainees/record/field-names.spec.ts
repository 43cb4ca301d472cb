import { canonicalFieldName, fieldLabel, toCanonicalInput, toVersionOutput, versionFieldName } from './field-names';

describe('per-version field names (docs/spec/trainee-records-api.md "Trainee object", version-dependent fields)', () => {
  it.each([
    ['course_subject_1', 'course_subject_one', 'course_subject_1'],
    ['course_subject_2', 'course_subject_two', 'course_subject_2'],
    ['course_subject_3', 'course_subject_three', 'course_subject_3'],
    ['training_partner_urn', 'lead_partner_urn', 'training_partner_urn'],
    ['training_partner_ukprn', 'lead_partner_ukprn', 'training_partner_ukprn'],
    ['withdrawal_date', 'withdraw_date', 'withdrawal_date'],
    ['withdrawal_reasons', 'withdraw_reasons', 'withdrawal_reasons'],
    ['first_names', 'first_names', 'first_names'],
  ])('fieldLabel(%s) is %s in v2025.0 and %s in v2026.1', (canonical, v2025, v2026) => {
    expect(fieldLabel(canonical, 'v2025.0')).toBe(v2025);
    expect(fieldLabel(canonical, 'v2026.1')).toBe(v2026);
  });

  it('has no iqts_country in v2025.0', () => {
    expect(versionFieldName('iqts_country', 'v2025.0')).toBeNull();
    expect(versionFieldName('iqts_country', 'v2026.1')).toBe('iqts_country');
  });

  it('maps input keys to canonical names, refusing the other version’s names', () => {
    expect(canonicalFieldName('course_subject_one', 'v2025.0')).toBe('course_subject_1');
    expect(canonicalFieldName('course_subject_1', 'v2025.0')).toBeNull();
    expect(canonicalFieldName('course_subject_one', 'v2026.1')).toBeNull();
    expect(canonicalFieldName('lead_partner_urn', 'v2026.1')).toBeNull();
    expect(canonicalFieldName('iqts_country', 'v2025.0')).toBeNull();
    expect(canonicalFieldName('anything_else', 'v2025.0')).toBe('anything_else');
  });

  it('renames a v2025.0 payload and drops the keys it does not accept', () => {
    const out = toCanonicalInput(
      { course_subject_one: 'a', course_subject_1: 'b', lead_partner_urn: 'u', iqts_country: 'FR', first_names: 'X', extra: 1 },
      'v2025.0',
    );
    expect({ ...out }).toEqual({ course_subject_1: 'a', training_partner_urn: 'u', first_names: 'X', extra: 1 });
  });

  it('keeps v2026.1 names and drops v2025.0 ones', () => {
    const out = toCanonicalInput(
      { course_subject_1: 'b', course_subject_two: 'c', lead_partner_ukprn: 'k', iqts_country: 'FR' },
      'v2026.1',
    );
    expect({ ...out }).toEqual({ course_subject_1: 'b', iqts_country: 'FR' });
  });

  it('treats __proto__ and constructor keys as plain data', () => {
    const input = JSON.parse('{"__proto__": {"polluted": true}, "constructor": 1}') as Record<string, unknown>;
    const out = toCanonicalInput(input, 'v2026.1');
    expect(Object.keys(out).sort()).toEqual(['__proto__', 'constructor']);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('renames canonical output to a version’s names', () => {
    expect(toVersionOutput({ course_subject_1: 'a', iqts_country: 'FR', withdrawal_date: 'd' }, 'v2025.0')).toEqual({
      course_subject_one: 'a',
      withdraw_date: 'd',
    });
  });
});
