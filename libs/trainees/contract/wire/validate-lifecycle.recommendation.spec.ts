import { MISSING_DATA_MESSAGE } from '@app/trainees/decider';
import { type TraineeStatus } from '@app/trainees/record';
import { recommendationBody } from '../testing/bodies';
import { ctx25, ctx26, ctxOf, makeTrainee, ODD_VALUES, VERSIONS } from '../testing/lifecycle-fixtures';

/** The messages of docs/reference/API-FACTS.md §12.5, byte for byte. */
const RECOMMENDATION_MESSAGES = {
  dateBlank: "qts_standards_met_date can't be blank. Enter a date the trainee met the QTS or EYTS requirements.",
  dateInvalid: 'qts_standards_met_date is invalid',
  dateInFuture: 'qts_standards_met_date must not be in the future',
  dateBeforeIttStart: 'qts_standards_met_date must be after itt_start_date',
  degreeMissing: 'degree_id must be completed before qts_standards_met_date',
  tooFewPlacements: (n: number, routeValue: string): string => `placements must be at least ${n} for the ${routeValue} training route`,
};

/**
 * The recommend-for-QTS body, through the checks the API runs.
 */

describe('recommendationBody (docs/spec/trainee-records-api.md "POST /trainees/{trainee_id}/recommend-for-qts"; docs/reference/API-FACTS.md §12.5; docs/DESIGN.md ruling 8)', () => {
  const trainee = makeTrainee(); // route 12: a degree and 2 placements needed; has 1 and 2
  const R = RECOMMENDATION_MESSAGES;

  it.each(VERSIONS)('%s: accepts a valid date and returns it as outcome_date', (version) => {
    expect(recommendationBody({ qts_standards_met_date: '2026-06-01' }, trainee, ctxOf(version))).toEqual({
      ok: true,
      value: { outcome_date: '2026-06-01' },
    });
  });

  it.each([
    ['2026-06-01', '2026-06-01'],
    ['20260601', '2026-06-01'],
    [' 2026-06-01 ', '2026-06-01'],
    ['2026-152', '2026-06-01'],
  ])('reads the ISO 8601 date %j as %s', (raw, stored) => {
    expect(recommendationBody({ qts_standards_met_date: raw }, trainee, ctx25)).toEqual({ ok: true, value: { outcome_date: stored } });
  });

  it("uses that section's exact messages", () => {
    expect(R.dateBlank).toBe("qts_standards_met_date can't be blank. Enter a date the trainee met the QTS or EYTS requirements.");
    expect(R.dateInvalid).toBe('qts_standards_met_date is invalid');
    expect(R.dateInFuture).toBe('qts_standards_met_date must not be in the future');
    expect(R.dateBeforeIttStart).toBe('qts_standards_met_date must be after itt_start_date');
    expect(R.degreeMissing).toBe('degree_id must be completed before qts_standards_met_date');
    expect(R.tooFewPlacements(2, 'provider_led_postgrad')).toBe(
      'placements must be at least 2 for the provider_led_postgrad training route',
    );
  });

  it.each([
    [{ note: 'no recommendation field' }],
    [{ qts_standards_met_date: '' }],
    [{ qts_standards_met_date: '  ' }],
    [{ qts_standards_met_date: null }],
    [{ outcome_date: '2026-06-01' }],
  ])('%j → blank message', (input) => {
    expect(recommendationBody(input, trainee, ctx26)).toEqual({ ok: false, errors: [R.dateBlank] });
  });

  it.each([['2026-02-30'], ['2026-06-01T10:00:00Z'], ['01/06/2026'], ['soon'], [20260601], [true], [['2026-06-01']], [{ d: 1 }]])(
    '%j → "is invalid" (and no date comparison)',
    (raw) => {
      expect(recommendationBody({ qts_standards_met_date: raw }, trainee, ctx26)).toEqual({ ok: false, errors: [R.dateInvalid] });
    },
  );

  it('allows today and refuses tomorrow', () => {
    expect(recommendationBody({ qts_standards_met_date: '2026-06-30' }, trainee, ctx25)).toMatchObject({ ok: true });
    expect(recommendationBody({ qts_standards_met_date: '2026-07-01' }, trainee, ctx25)).toEqual({
      ok: false,
      errors: [R.dateInFuture],
    });
    const newYearsEve = { ...ctx26, today: '2026-12-31' };
    expect(recommendationBody({ qts_standards_met_date: '2026-12-31' }, trainee, newYearsEve)).toMatchObject({ ok: true });
    expect(recommendationBody({ qts_standards_met_date: '20270101' }, trainee, newYearsEve)).toEqual({
      ok: false,
      errors: [R.dateInFuture],
    });
  });

  it('allows the same day as itt_start_date and refuses the day before', () => {
    expect(recommendationBody({ qts_standards_met_date: '2025-09-01' }, trainee, ctx25)).toMatchObject({ ok: true });
    expect(recommendationBody({ qts_standards_met_date: '2025-08-31' }, trainee, ctx25)).toEqual({
      ok: false,
      errors: [R.dateBeforeIttStart],
    });
  });

  it('reports "future" and "before itt_start_date" together when both hold', () => {
    const late = makeTrainee({ itt_start_date: '2027-01-01' });
    expect(recommendationBody({ qts_standards_met_date: '2026-12-01' }, late, ctx26)).toEqual({
      ok: false,
      errors: [R.dateInFuture, R.dateBeforeIttStart],
    });
  });

  describe('degree', () => {
    it.each([['02'], ['03'], ['10'], ['12'], ['15'], ['16'], ['17'], ['19'], ['20'], ['21']])('route %s requires a degree', (route) => {
      const t = makeTrainee({ training_route: route, degrees: 0, placements: 2 });
      expect(recommendationBody({ qts_standards_met_date: '2026-06-01' }, t, ctx26)).toEqual({ ok: false, errors: [R.degreeMissing] });
      expect(
        recommendationBody({ qts_standards_met_date: '2026-06-01' }, makeTrainee({ training_route: route, degrees: 1 }), ctx26),
      ).toMatchObject({
        ok: true,
      });
    });

    it.each([['09'], ['11'], ['14'], ['18']])('undergraduate route %s needs no degree', (route) => {
      const t = makeTrainee({ training_route: route, degrees: 0, placements: 2 });
      expect(recommendationBody({ qts_standards_met_date: '2026-06-01' }, t, ctx26)).toMatchObject({ ok: true });
    });
  });

  describe('placements (training_route.json minimum_placements_for_award)', () => {
    it.each([
      ['02', 2, 'school_direct_tuition_fee'],
      ['03', 2, 'school_direct_salaried'],
      ['09', 2, 'opt_in_undergrad'],
      ['10', 2, 'pg_teaching_apprenticeship'],
      ['11', 2, 'provider_led_undergrad'],
      ['12', 2, 'provider_led_postgrad'],
      ['14', 2, 'teacher_degree_apprenticeship'],
      ['15', 1, 'iqts'],
      ['21', 2, 'hpitt_postgrad'],
    ])('route %s needs %i placements ("%s")', (route, n, value) => {
      const message = `placements must be at least ${n} for the ${value} training route`;
      for (const count of [0, n - 1]) {
        const t = makeTrainee({ training_route: route, placements: count });
        expect(recommendationBody({ qts_standards_met_date: '2026-06-01' }, t, ctx26)).toEqual({ ok: false, errors: [message] });
      }
      for (const count of [n, n + 1]) {
        expect(
          recommendationBody({ qts_standards_met_date: '2026-06-01' }, makeTrainee({ training_route: route, placements: count }), ctx26),
        ).toMatchObject({
          ok: true,
        });
      }
    });

    it.each([
      ['16', 'assessment only'],
      ['17', 'early-years assessment only'],
      ['18', 'early years undergrad'],
      ['19', 'early years postgrad'],
      ['20', 'early years salaried'],
    ])('route %s (%s) is exempt: no placement needed', (route) => {
      const t = makeTrainee({ training_route: route, placements: 0 });
      expect(recommendationBody({ qts_standards_met_date: '2026-06-01' }, t, ctx25)).toEqual({
        ok: true,
        value: { outcome_date: '2026-06-01' },
      });
    });

    it('an unknown route skips the degree and placement rules', () => {
      const t = makeTrainee({ training_route: '99', degrees: 0, placements: 0 });
      expect(recommendationBody({ qts_standards_met_date: '2026-06-01' }, t, ctx26)).toMatchObject({ ok: true });
    });
  });

  it('lists every failed rule together, in a stable order', () => {
    const bare = makeTrainee({ training_route: '03', degrees: 0, placements: 1 });
    expect(recommendationBody({ qts_standards_met_date: '' }, bare, ctx26)).toEqual({
      ok: false,
      errors: [R.dateBlank, R.degreeMissing, 'placements must be at least 2 for the school_direct_salaried training route'],
    });
    expect(recommendationBody({ qts_standards_met_date: '2030-01-01' }, bare, ctx25)).toEqual({
      ok: false,
      errors: [R.dateInFuture, R.degreeMissing, 'placements must be at least 2 for the school_direct_salaried training route'],
    });
    expect(recommendationBody({ qts_standards_met_date: 'x' }, bare, ctx25)).toEqual({
      ok: false,
      errors: [R.dateInvalid, R.degreeMissing, 'placements must be at least 2 for the school_direct_salaried training route'],
    });
  });

  it.each<TraineeStatus>(['draft', 'submitted_for_trn', 'trn_received', 'deferred', 'withdrawn', 'recommended_for_award', 'awarded'])(
    'does not check the state (%s): the state machine does (docs/DESIGN.md ruling 8)',
    (state) => {
      const result = recommendationBody({ qts_standards_met_date: '2026-06-01' }, makeTrainee({ state }), ctx26);
      expect(result).toEqual({ ok: true, value: { outcome_date: '2026-06-01' } });
    },
  );

  it('an empty or non-object body is missing data (docs/reference/API-FACTS.md §5.1), and nothing throws, whatever the value types', () => {
    for (const input of [{}, null, undefined, 'x', 0, [], [{ qts_standards_met_date: '2026-06-01' }], true]) {
      expect(recommendationBody(input, trainee, ctx25)).toEqual({ ok: false, errors: [MISSING_DATA_MESSAGE] });
    }
    for (const value of ODD_VALUES) {
      const result = recommendationBody({ qts_standards_met_date: value }, trainee, ctx26);
      expect(result.ok).toBe(false);
    }
  });
});
