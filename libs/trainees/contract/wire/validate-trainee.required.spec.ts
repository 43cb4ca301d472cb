import type { ApiVersion } from '@app/trainees/record';
import { createBody } from '../testing/bodies';
import { detailsOf, errorsOf, POSTGRAD, s1 } from '../testing/trainee-create';
import { BOTH, TODAY } from '../testing/trainee-payload';

/**
 * The base payload of a trainee create body and its required fields (docs/reference/API-FACTS.md
 * §6.3), through the checks the API runs.
 */

describe('createBody: the base payload', () => {
  it.each(BOTH)('is valid in %s', (version) => {
    expect(errorsOf(version)).toEqual([]);
  });

  it('rejects a missing, empty or non-object data', () => {
    const message = ['Param is missing or the value is empty or invalid: data'];
    expect(createBody({}, { version: 'v2026.1', today: TODAY })).toEqual({ ok: false, errors: message });
    expect(createBody(null, { version: 'v2026.1', today: TODAY })).toEqual({
      ok: false,
      errors: message,
    });
    expect(createBody([], { version: 'v2026.1', today: TODAY })).toEqual({
      ok: false,
      errors: message,
    });
  });
});

describe('required fields (docs/reference/API-FACTS.md §6.3)', () => {
  const cases: [string, (v: ApiVersion) => string[]][] = [
    ['first_names', () => ["first_names can't be blank"]],
    ['last_name', () => ["last_name can't be blank"]],
    ['date_of_birth', () => ["date_of_birth can't be blank"]],
    ['sex', () => ["sex can't be blank"]],
    ['training_route', () => ["training_route can't be blank"]],
    ['itt_start_date', () => ["itt_start_date can't be blank"]],
    ['itt_end_date', () => ["itt_end_date can't be blank"]],
    ['statsagency_id', () => ["statsagency_id can't be blank"]],
    ['email', () => ["email can't be blank"]],
    ['course_subject_1', (v) => [`${s1(v)} can't be blank`]],
    ['study_mode', () => ["study_mode can't be blank"]],
    ['itt_aim', () => ["itt_aim can't be blank", 'itt_qualification_aim must be entered if 202 selected for itt_aim']],
    ['course_year', () => ["course_year can't be blank"]],
    ['course_age_range', () => ["course_age_range can't be blank"]],
    ['fund_code', () => ["fund_code can't be blank"]],
    ['funding_method', () => ["funding_method can't be blank"]],
  ];
  describe.each(BOTH)('%s', (version) => {
    it.each(cases)('%s missing, null, "" or blank', (field, expected) => {
      for (const blank of [undefined, null, '', '   ']) {
        expect(errorsOf(version, { [field]: blank })).toEqual(expected(version));
      }
    });

    it('itt_qualification_aim is required when itt_aim is 202', () => {
      expect(errorsOf(version, { itt_aim: '202' })).toEqual(['itt_qualification_aim must be entered if 202 selected for itt_aim']);
      expect(detailsOf(version, { itt_aim: '202', itt_qualification_aim: '001' }).itt_qualification_aim).toBe('001');
    });

    it('degrees_attributes is required for a route that needs a degree', () => {
      expect(errorsOf(version, { training_route: '12' })).toEqual([
        'degrees_attributes must be entered if specifying a postgraduate training_route',
      ]);
      expect(errorsOf(version, { training_route: '12', degrees_attributes: [] })).toEqual([
        'degrees_attributes must be entered if specifying a postgraduate training_route',
      ]);
      expect(errorsOf(version, POSTGRAD('12'))).toEqual([]);
      expect(errorsOf(version, { training_route: '09' })).toEqual([]);
    });
  });

  it('study_mode is optional for routes 16 and 17 in v2026.1 only', () => {
    expect(errorsOf('v2026.1', { ...POSTGRAD('16'), study_mode: undefined })).toEqual([]);
    expect(detailsOf('v2026.1', { ...POSTGRAD('16'), study_mode: undefined }).study_mode).toBeNull();
    expect(
      errorsOf('v2026.1', { ...POSTGRAD('17'), study_mode: undefined, course_subject_1: '100510', course_age_range: '13920' }),
    ).toEqual([]);
    expect(errorsOf('v2026.1', { ...POSTGRAD('12'), study_mode: undefined })).toEqual(["study_mode can't be blank"]);
  });

  it('iqts_country is required for route 15 in v2026.1 and checked against the country codes', () => {
    expect(errorsOf('v2026.1', POSTGRAD('15'))).toEqual(["iqts_country can't be blank"]);
    expect(errorsOf('v2026.1', { ...POSTGRAD('15'), iqts_country: 'QQ' })).toEqual([
      "iqts_country has invalid reference data value of 'QQ'. Example values include 'AD', 'AE', 'AF', 'AG', 'AI', 'AL', 'AM', 'AO', 'AR', 'AS'...",
    ]);
    expect(detailsOf('v2026.1', { ...POSTGRAD('15'), iqts_country: 'LS' }).iqts_country).toBe('LS');
    expect(errorsOf('v2026.1', { training_route: '15' })).toEqual([
      'degrees_attributes must be entered if specifying a postgraduate training_route',
      "iqts_country can't be blank",
    ]);
  });

  it('iqts_country is refused for other routes in v2026.1 (docs/reference/API-FACTS.md §6.3) and ignored in v2025.0', () => {
    expect(errorsOf('v2026.1', { iqts_country: 'LS' })).toEqual(['iqts_country must be blank']);
    expect(errorsOf('v2026.1', { iqts_country: 'nonsense' })).toEqual([
      "iqts_country has invalid reference data value of 'nonsense'. Example values include 'AD', 'AE', 'AF', 'AG', 'AI', 'AL', 'AM', 'AO', 'AR', 'AS'...",
    ]);
    expect(detailsOf('v2026.1', { iqts_country: '' }).iqts_country).toBeNull();
    expect(detailsOf('v2026.1', { iqts_country: null }).iqts_country).toBeNull();
    expect(detailsOf('v2025.0', { iqts_country: 'LS' }).iqts_country).toBeNull();
  });
});
