import {
  NOT_APPLICABLE_URNS,
  OTHER_UK_INSTITUTION_UUID,
  UK_COUNTRY_CODES,
  allocationSubjectsOf,
  catalogueEntry,
  fundingMethodExists,
  initiativesAvailableIn,
  isNotApplicableUrn,
  notApplicableUrnLabel,
  routesWithFunding,
  withdrawalReasonsFor,
} from './catalogue';

describe('the catalogue (docs/reference/reference-data/README.md)', () => {
  it('finds entries by code, as strings only, whatever version accepts them', () => {
    expect(catalogueEntry('training_route', '02')?.value).toBe('school_direct_tuition_fee');
    expect(catalogueEntry('course_age_range', '13920')?.course_education_phase).toBe('early_years');
    expect(catalogueEntry('sex', 10)).toBeUndefined();
    expect(catalogueEntry('sex', '__proto__')).toBeUndefined();
  });
});

describe('funding data (docs/reference/API-FACTS.md §8)', () => {
  it('maps course subjects to allocation subjects', () => {
    expect([...allocationSubjectsOf('French language')].sort()).toEqual(['French language', 'Modern languages']);
    expect(allocationSubjectsOf('no such subject')).toEqual([]);
  });

  it('knows which routes have funding in a cycle', () => {
    expect(routesWithFunding(2026).has('provider_led_undergrad')).toBe(true);
    expect(routesWithFunding(2026).has('teacher_degree_apprenticeship')).toBe(false);
    expect(routesWithFunding(2027).size).toBe(0);
  });

  it('finds a funding method by cycle, type, route and subject', () => {
    expect(fundingMethodExists(2025, 'bursary', 'provider_led_postgrad', 'physics')).toBe(true);
    expect(fundingMethodExists(2025, 'scholarship', 'provider_led_postgrad', 'biology')).toBe(false);
    expect(fundingMethodExists(2026, 'bursary', 'provider_led_undergrad', 'mathematics')).toBe(true);
    expect(fundingMethodExists(2027, 'bursary', 'provider_led_undergrad', 'mathematics')).toBe(false);
  });

  it('lists the initiatives available per cycle', () => {
    expect(initiativesAvailableIn(2026).has('now_teach')).toBe(true);
    expect(initiativesAvailableIn(2026).has('international_relocation_payment')).toBe(false);
    expect(initiativesAvailableIn(2028).size).toBe(0);
  });
});

describe('places, degrees and withdrawals', () => {
  it('knows the four not-applicable URNs and their labels', () => {
    expect(NOT_APPLICABLE_URNS).toEqual(['900000', '900010', '900020', '900030']);
    expect(isNotApplicableUrn('900020')).toBe(true);
    expect(isNotApplicableUrn(900020)).toBe(false);
    expect(notApplicableUrnLabel('900020')).toBe('Establishment does not have a URN');
  });

  it('knows the UK country codes and the Other UK institution uuid', () => {
    expect([...UK_COUNTRY_CODES].sort()).toEqual(['XF', 'XG', 'XH', 'XI', 'XK']);
    expect(OTHER_UK_INSTITUTION_UUID).toBe('02132969-f5bc-47ca-be9c-b6f6d5b05e1b');
  });

  it('lists withdrawal reasons per trigger', () => {
    const trainee = withdrawalReasonsFor('trainee').map((r) => r.code);
    expect(trainee).toContain('trainee_chose_to_withdraw_another_reason');
    expect(trainee).not.toContain('record_added_in_error');
    expect(withdrawalReasonsFor('provider').map((r) => r.code)).toContain('record_added_in_error');
  });
});
