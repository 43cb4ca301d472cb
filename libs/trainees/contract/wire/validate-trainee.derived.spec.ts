import { createBody } from '../testing/bodies';
import { detailsOf, errorsOf, POSTGRAD } from '../testing/trainee-create';
import { BOTH, payload, TODAY } from '../testing/trainee-payload';

/**
 * The values a trainee create derives or maps: disclosures, ethnicity, nationality, course level,
 * training partner and employing school (docs/reference/API-FACTS.md §6.6–§6.8, §13.4).
 */

describe('disabilities and diversity (docs/reference/API-FACTS.md §6.6, §6.7)', () => {
  it.each(BOTH)('%s: the same code twice', (version) => {
    expect(errorsOf(version, { disability1: '58', disability2: '58' })).toEqual(['disabilities contain duplicate values']);
  });

  it.each([
    [{}, 'disability_not_provided', 'diversity_not_disclosed'],
    [{ disability1: '98' }, 'disability_not_provided', 'diversity_not_disclosed'],
    [{ disability1: '98', disability2: '99' }, 'disability_not_provided', 'diversity_not_disclosed'],
    [{ disability1: '95' }, 'no_disability', 'diversity_disclosed'],
    [{ disability1: '58' }, 'disabled', 'diversity_disclosed'],
    [{ disability1: '95', disability2: '58' }, 'disabled', 'diversity_disclosed'],
    [{ disability1: 'X1' }, 'disability_not_provided', 'diversity_not_disclosed'],
    [{ disability10: '58' }, 'disability_not_provided', 'diversity_not_disclosed'],
    [{ ethnicity: '142' }, 'disability_not_provided', 'diversity_disclosed'],
    [{ ethnicity: '998' }, 'disability_not_provided', 'diversity_not_disclosed'],
  ])('%j → %s, %s', (over, disability, diversity) => {
    const d = detailsOf('v2026.1', over);
    expect(d.disability_disclosure).toBe(disability);
    expect(d.diversity_disclosure).toBe(diversity);
  });

  it.each([
    [{}, '997', 'Not provided', 'not_provided_ethnic_group'],
    [{ ethnicity: null }, '997', 'Not provided', 'not_provided_ethnic_group'],
    [{ ethnicity: '999' }, '997', 'Not provided', 'not_provided_ethnic_group'],
    [{ ethnicity: '142' }, '142', 'Black Caribbean and White', 'mixed_ethnic_group'],
    [{ ethnicity: '180' }, '180', 'Arab', 'other_ethnic_group'],
  ])('ethnicity %j → %s / %s / %s', (over, code, background, group) => {
    expect(detailsOf('v2025.0', over)).toMatchObject({ ethnicity: code, ethnic_background: background, ethnic_group: group });
  });

  it('ignores ethnic_group, ethnic_background and diversity_disclosure sent by the client', () => {
    const d = detailsOf('v2026.1', {
      ethnic_group: 'white_ethnic_group',
      ethnic_background: 'Irish',
      diversity_disclosure: 'diversity_disclosed',
    });
    expect(d).toMatchObject({
      ethnic_group: 'not_provided_ethnic_group',
      ethnic_background: 'Not provided',
      diversity_disclosure: 'diversity_not_disclosed',
    });
  });
});

describe('other derived values (docs/reference/API-FACTS.md §6.7, §13.4)', () => {
  it('nationality is returned as its output code (British territories → GB)', () => {
    expect(detailsOf('v2026.1', { nationality: 'JE' }).nationality).toBe('GB');
    expect(detailsOf('v2026.1', { nationality: 'FR' }).nationality).toBe('FR');
    expect(detailsOf('v2026.1').nationality).toBeNull();
  });

  it('derives course_level and course_qualification from the route', () => {
    expect(detailsOf('v2026.1')).toMatchObject({ course_level: 'undergrad', course_qualification: 'QTS' });
    expect(detailsOf('v2026.1', POSTGRAD('12'))).toMatchObject({ course_level: 'postgrad', course_qualification: 'QTS' });
    expect(detailsOf('v2026.1', { training_route: '14' }).course_level).toBe('undergrad');
    expect(detailsOf('v2026.1', { training_route: '09' }).course_level).toBe('undergrad');
  });

  it('squishes names, email and statsagency_id after validation', () => {
    const d = detailsOf('v2026.1', {
      first_names: '  Ada   Mary ',
      middle_names: ' B  C ',
      last_name: 'Love  lace ',
      statsagency_id: '12345 7890123',
    });
    expect(d).toMatchObject({ first_names: 'Ada Mary', middle_names: 'B C', last_name: 'Love lace', statsagency_id: '12345 7890123' });
    expect(detailsOf('v2026.1', { middle_names: '  ' }).middle_names).toBeNull();
  });

  it('stores output codes and null defaults', () => {
    expect(detailsOf('v2025.0')).toMatchObject({
      fund_code: '2',
      funding_method: '6',
      training_initiative: null,
      additional_training_initiative: null,
      course_title: null,
      additional_ethnic_background: null,
      employing_school_urn: null,
      training_partner_urn: null,
      training_partner_ukprn: null,
      study_mode: '01',
      course_year: 2026,
      itt_aim: '201',
      itt_qualification_aim: null,
    });
  });
});

describe('training partner and employing school: stored as sent, no register to check them against (docs/reference/API-FACTS.md §6.8)', () => {
  it('v2025.0 reads lead_partner_*; the URN wins over the UKPRN', () => {
    expect(detailsOf('v2025.0', { lead_partner_urn: ' 459283 ', lead_partner_ukprn: '65782432' })).toMatchObject({
      training_partner_urn: '459283',
      training_partner_ukprn: null,
    });
    expect(detailsOf('v2025.0', { lead_partner_ukprn: '65782432' })).toMatchObject({
      training_partner_urn: null,
      training_partner_ukprn: '65782432',
    });
    const withV2026Name = { ...payload('v2025.0'), training_partner_urn: '459283' };
    const result = createBody(withV2026Name, { version: 'v2025.0', today: TODAY });
    expect(result.ok && result.value.details.training_partner_urn).toBeNull();
  });

  it('v2026.1 reads training_partner_* and ignores lead_partner_*', () => {
    expect(detailsOf('v2026.1', { training_partner_urn: 660776 }).training_partner_urn).toBe('660776');
    expect(detailsOf('v2026.1', { lead_partner_urn: '459283' }).training_partner_urn).toBeNull();
  });

  it.each(['900000', '900010', '900020', '900030', '', null])('not-applicable value %p is stored null', (value) => {
    expect(detailsOf('v2026.1', { employing_school_urn: value, training_partner_urn: value })).toMatchObject({
      employing_school_urn: null,
      training_partner_urn: null,
    });
  });

  it('a wrong type is a message', () => {
    expect(errorsOf('v2026.1', { employing_school_urn: { urn: 1 }, training_partner_urn: [1] })).toEqual([
      'employing_school_urn is invalid',
      'training_partner_urn is invalid',
    ]);
  });
});
