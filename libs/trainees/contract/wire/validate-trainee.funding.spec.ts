import { createBody } from '../testing/bodies';
import { detailsOf, errorsOf, POSTGRAD, s1 } from '../testing/trainee-create';
import { BOTH, payload } from '../testing/trainee-payload';

/**
 * The funding, initiative and fund-code rules of a trainee create body, as the wire checks and the
 * decider's record rules answer them together.
 */

describe('funding, initiative and fund-code rules (docs/reference/API-FACTS.md §8)', () => {
  it.each(BOTH)('%s: fund_code 7 needs a funded route in the cycle and a known age range', (version) => {
    expect(errorsOf(version, { fund_code: '7' })).toEqual([]);
    expect(errorsOf(version, { fund_code: '7', itt_start_date: '2027-08-01' })).toEqual(['fund_code is not valid for this trainee']);
    expect(errorsOf(version, { fund_code: '7', training_route: '14' })).toEqual(['fund_code is not valid for this trainee']);
    expect(errorsOf(version, { fund_code: '7', course_age_range: undefined })).toEqual([
      "course_age_range can't be blank",
      'fund_code is not valid for this trainee',
    ]);
  });

  it.each(BOTH)('%s: a funding method needs fund_code 7', (version) => {
    expect(errorsOf(version, { funding_method: '4' })).toEqual([
      `funding_method 'scholarship' is not allowed when fund_code is '2' and ${s1(version)} is 'biology'`,
    ]);
  });

  it('the fund-code exception: physics in 2025 (both) and 2026 (v2026.1 only)', () => {
    const physics2026 = { ...POSTGRAD('12'), course_subject_1: '100425', funding_method: '7' };
    expect(errorsOf('v2026.1', physics2026)).toEqual([]);
    expect(errorsOf('v2025.0', physics2026)).toEqual([
      "funding_method 'bursary' is not allowed when fund_code is '2' and course_subject_one is 'physics'",
    ]);
    const physics2025 = { ...physics2026, itt_start_date: '2025-09-01' };
    expect(errorsOf('v2025.0', physics2025)).toEqual([]);
    expect(errorsOf('v2026.1', physics2025)).toEqual([]);
  });

  it.each(BOTH)('%s: the funding method must exist for cycle, route and subject', (version) => {
    expect(errorsOf(version, { fund_code: '7', funding_method: 'E' })).toEqual([
      `funding_method 'grant' is not allowed when training_route is 'provider_led_undergrad' and ${s1(version)} is 'biology' in academic cycle '2026 to 2027'`,
    ]);
    expect(errorsOf(version, { fund_code: '7', funding_method: '7', course_subject_1: '100403' })).toEqual([]);
  });

  it('funding_method C means the veterans bursary initiative (output null)', () => {
    const d = detailsOf('v2026.1', { fund_code: '7', funding_method: 'C', course_subject_1: '100403', training_initiative: '026' });
    expect(d.training_initiative).toBeNull();
    expect(d.funding_method).toBe('C');
  });

  it.each(BOTH)('%s: the training initiative must be available in the cycle', (version) => {
    expect(errorsOf(version, { training_initiative: '009' })).toEqual([
      "training_initiative 'maths_physics_chairs_programme_researchers_in_schools' is not available in academic cycle '2026 to 2027'",
    ]);
    expect(detailsOf(version, { training_initiative: '026' }).training_initiative).toBe('026');
    expect(errorsOf(version, { training_initiative: '026', itt_start_date: '2027-08-01' })).toEqual([]);
  });

  it('checks additional_training_initiative availability in v2026.1 only', () => {
    expect(errorsOf('v2026.1', { additional_training_initiative: '036' })).toEqual([
      "additional_training_initiative 'international_relocation_payment' is not available in academic cycle '2026 to 2027'",
    ]);
    expect(errorsOf('v2025.0', { additional_training_initiative: '036' })).toEqual([]);
  });

  it('uses today + 1 month when no start date parses', () => {
    const result = createBody(payload('v2026.1', { itt_start_date: 'x', training_initiative: '009' }), {
      version: 'v2026.1',
      today: '2026-07-15',
    });
    expect(result).toEqual({
      ok: false,
      errors: [
        'itt_start_date is invalid',
        "training_initiative 'maths_physics_chairs_programme_researchers_in_schools' is not available in academic cycle '2026 to 2027'",
      ],
      problems: expect.any(Array),
    });
  });
});
