import fc from 'fast-check';
import type { TraineeDetails, ApiVersion } from '@app/trainees/record';
import type { ValidationResult } from '@app/trainees/decider';
import { payload } from '../testing/trainee-payload';
import { createBody, degreeBody, degreeUpdateBody, placementBody, placementUpdateBody, updateBody } from '../testing/bodies';

/**
 * Property: the validators never throw, whatever JSON they get, and always answer either ok or a
 * non-empty list of strings (docs/DESIGN.md property 7: bad input never yields a 5xx).
 */

const TRAINEE_KEYS = [
  'first_names',
  'middle_names',
  'last_name',
  'previous_last_name',
  'date_of_birth',
  'email',
  'sex',
  'nationality',
  'training_route',
  'itt_start_date',
  'itt_end_date',
  'trainee_start_date',
  'course_subject_one',
  'course_subject_two',
  'course_subject_three',
  'course_subject_1',
  'course_subject_2',
  'course_subject_3',
  'course_age_range',
  'study_mode',
  'ethnicity',
  'disability1',
  'disability2',
  'disability10',
  'training_initiative',
  'additional_training_initiative',
  'itt_aim',
  'itt_qualification_aim',
  'course_year',
  'fund_code',
  'funding_method',
  'ni_number',
  'pg_apprenticeship_start_date',
  'statsagency_id',
  'provider_trainee_id',
  'application_id',
  'employing_school_urn',
  'lead_partner_urn',
  'lead_partner_ukprn',
  'training_partner_urn',
  'training_partner_ukprn',
  'iqts_country',
  'placements_attributes',
  'degrees_attributes',
  'ethnic_group',
  'trn',
  'constructor',
  'toString',
  'hasOwnProperty',
];
const DEGREE_KEYS = ['uk_degree', 'non_uk_degree', 'subject', 'institution', 'grade', 'graduation_year', 'country', 'other_grade'];
const PLACEMENT_KEYS = ['urn', 'name', 'postcode'];

/** Plausible values mixed with arbitrary JSON, so that deep branches are reached as well. */
const plausible = fc.oneof(
  fc.constantFrom(
    '10',
    '11',
    '12',
    '15',
    '18',
    '02',
    '100346',
    '100511',
    '100510',
    '13915',
    '13920',
    '13918',
    '201',
    '202',
    '001',
    '2',
    '7',
    '4',
    '6',
    'C',
    'E',
    '009',
    '026',
    '142',
    '997',
    'GB',
    'JE',
    'FR',
    'XF',
    'QQ',
    '58',
    '95',
    '900020',
    '123456',
    '083',
    '0116',
    '0133',
    '09',
    '02',
    '100425',
    'GU1 1AA',
  ),
  fc.constantFrom(
    '1990-01-01',
    '2026-09-01',
    '2029-07-31',
    '2021-09-01',
    '2027-08-01',
    '2003-06-01',
    '2003',
    '1990-W18-2',
    '2023-02-30',
    '',
  ),
  fc.constantFrom('Ada', 'ada@example.com', '1234567890123', 'x'.repeat(61), null, true, 0, -1, 2026, 1.5, 1e21),
);
const anyValue = fc.oneof(
  { weight: 3, arbitrary: plausible },
  { weight: 2, arbitrary: fc.jsonValue() },
  { weight: 1, arbitrary: fc.anything() },
);

function objectWith(keys: string[], nested: Record<string, fc.Arbitrary<unknown>> = {}): fc.Arbitrary<Record<string, unknown>> {
  const model: Record<string, fc.Arbitrary<unknown>> = {};
  for (const key of keys) model[key] = Object.prototype.hasOwnProperty.call(nested, key) ? nested[key] : anyValue;
  return fc.record(model, { requiredKeys: [] });
}

const degreeLike = fc.oneof(objectWith(DEGREE_KEYS), fc.jsonValue());
const placementLike = fc.oneof(objectWith(PLACEMENT_KEYS), fc.jsonValue());
const traineeInput = fc.oneof(
  {
    weight: 4,
    arbitrary: objectWith(TRAINEE_KEYS, {
      degrees_attributes: fc.array(degreeLike, { maxLength: 3 }),
      placements_attributes: fc.array(placementLike, { maxLength: 3 }),
    }),
  },
  { weight: 1, arbitrary: fc.anything() },
);
const version = fc.constantFrom<ApiVersion>('v2025.0', 'v2026.1');
const today = fc.constantFrom('2026-11-22', '2025-01-01', '2030-07-31');

function wellFormed(result: ValidationResult<unknown>): boolean {
  if (result.ok) return true;
  return Array.isArray(result.errors) && result.errors.length > 0 && result.errors.every((m) => typeof m === 'string' && m.length > 0);
}

const STORED: TraineeDetails = (() => {
  const r = createBody(payload('v2026.1', { disability1: '58' }), { version: 'v2026.1', today: '2026-11-22' });
  if (!r.ok) throw new Error(r.errors.join('; '));
  return r.value.details;
})();

const RUNS = { numRuns: 300 };

describe('validators never throw (property)', () => {
  it('createBody', () => {
    fc.assert(
      fc.property(traineeInput, version, today, (input, v, t) =>
        wellFormed(createBody(input as Record<string, unknown>, { version: v, today: t })),
      ),
      RUNS,
    );
  });

  it('reads a __proto__ key as plain data', () => {
    const input = JSON.parse('{"__proto__": {"first_names": "Ada"}, "constructor": "x", "sex": "10"}') as Record<string, unknown>;
    for (const v of ['v2025.0', 'v2026.1'] as ApiVersion[]) {
      const r = createBody(input, { version: v, today: '2026-11-22' });
      expect(r.ok).toBe(false);
      expect(r.ok ? [] : r.errors).toContain("first_names can't be blank");
      expect(wellFormed(updateBody(input, STORED, { version: v, today: '2026-11-22' }))).toBe(true);
    }
  });

  it('updateBody', () => {
    fc.assert(
      fc.property(traineeInput, version, today, fc.boolean(), (input, v, t, hasDegrees) =>
        wellFormed(updateBody(input as Record<string, unknown>, STORED, { version: v, today: t }, { hasDegrees })),
      ),
      RUNS,
    );
  });

  it('degreeBody and degreeUpdateBody', () => {
    const stored = degreeBody(
      { grade: '02', subject: '100425', institution: '0116', uk_degree: '083', graduation_year: '2003' },
      { version: 'v2026.1', today: '2026-11-22' },
    );
    if (!stored.ok) throw new Error('fixture');
    fc.assert(
      fc.property(
        degreeLike,
        version,
        today,
        (input, v, t) =>
          wellFormed(degreeBody(input, { version: v, today: t })) &&
          wellFormed(degreeUpdateBody(input, stored.value, { version: v, today: t })),
      ),
      RUNS,
    );
  });

  it('placementBody and placementUpdateBody', () => {
    const stored = { urn: '123456', name: 'Oak', postcode: null, address: null, school_id: null };
    fc.assert(
      fc.property(placementLike, version, fc.boolean(), (input, v, nested) => {
        const ctx = { version: v, today: '2026-11-22' };
        return wellFormed(placementBody(input, ctx, { nested })) && wellFormed(placementUpdateBody(input, stored, ctx));
      }),
      RUNS,
    );
  });

  it('a valid payload with a few fields changed either validates with complete details or explains why', () => {
    const base = payload('v2026.1');
    let valid = 0;
    fc.assert(
      fc.property(fc.dictionary(fc.constantFrom(...TRAINEE_KEYS), anyValue, { maxKeys: 3 }), (overlay) => {
        const r = createBody({ ...base, ...overlay }, { version: 'v2026.1', today: '2026-11-22' });
        if (!wellFormed(r)) return false;
        if (!r.ok) return true;
        valid++;
        const d = r.value.details;
        return (
          typeof d.first_names === 'string' &&
          d.first_names.length > 0 &&
          /^\d{4}-\d{2}-\d{2}$/.test(d.trainee_start_date ?? '') &&
          typeof d.itt_aim === 'string' &&
          ['primary', 'secondary', 'early_years'].includes(d.course_education_phase)
        );
      }),
      RUNS,
    );
    expect(valid).toBeGreaterThan(0);
  });
});
