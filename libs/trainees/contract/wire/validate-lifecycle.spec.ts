import {
  DEFERRAL_MESSAGES,
  RECOMMENDATION_MESSAGES,
  WITHDRAWAL_MESSAGES,
  parseIsoDateOrDateTime,
  type Trainee,
  type TraineeStatus,
} from '@app/trainees/decider';
import type { Degree, Placement, TraineeDetails } from '@app/trainees/record';
import type { ApiVersion } from '@app/trainees/record';
import {
  allowedWithdrawalReasons,
  validateDeferral,
  validateRecommendation,
  validateWithdrawal,
  withdrawalDateLabel,
  type ValidationContext,
} from './validate';
import { REASON_TEXT_MAX_CHARS, WITHDRAWAL_REASONS_MAX_ITEMS } from '@app/trainees/record';

// ---------------------------------------------------------------------------------------------
// Fixtures
// ---------------------------------------------------------------------------------------------

const NOW = '2026-01-01T00:00:00.000Z';

function placement(i: number): Placement {
  return {
    placement_id: `p${i}`,
    urn: null,
    name: `School ${i}`,
    postcode: null,
    address: null,
    school_id: null,
    created_at: NOW,
    updated_at: NOW,
  };
}

function degree(i: number): Degree {
  return {
    degree_id: `d${i}`,
    uk_degree: '083',
    non_uk_degree: null,
    subject: '100425',
    institution: '0117',
    grade: '02',
    country: null,
    graduation_year: 2020,
    other_grade: null,
    institution_uuid: null,
    uk_degree_uuid: null,
    subject_uuid: null,
    grade_uuid: null,
    created_at: NOW,
    updated_at: NOW,
  };
}

interface TraineeOptions {
  training_route?: string;
  itt_start_date?: string;
  degrees?: number;
  placements?: number;
  state?: TraineeStatus;
}

/** A trainee with only what these validators read: route 12 (degree, 2 placements) by default. */
function makeTrainee(o: TraineeOptions = {}): Trainee {
  const details = {
    training_route: o.training_route ?? '12',
    itt_start_date: o.itt_start_date ?? '2025-09-01',
  } as Partial<TraineeDetails> as TraineeDetails;
  return {
    trainee_id: 't1',
    ukprn: '10000001',
    record_source: 'api',
    details,
    state: o.state ?? 'trn_received',
    trn: null,
    submitted_for_trn_at: NOW,
    outcome_date: null,
    recommended_for_award_at: null,
    awarded_at: null,
    defer_date: null,
    defer_reason: null,
    reinstate_date: null,
    withdrawal: null,
    placements: Array.from({ length: o.placements ?? 2 }, (_, i) => placement(i)),
    degrees: Array.from({ length: o.degrees ?? 1 }, (_, i) => degree(i)),
    created_at: NOW,
    updated_at: NOW,
  };
}

const ctx25: ValidationContext = { version: 'v2025.0', today: '2026-06-30' };
const ctx26: ValidationContext = { version: 'v2026.1', today: '2026-06-30' };
const ctxOf = (version: ApiVersion): ValidationContext => (version === 'v2025.0' ? ctx25 : ctx26);
const VERSIONS: ApiVersion[] = ['v2025.0', 'v2026.1'];

/** A selection of JSON values of every type, for "never throws" checks. */
const ODD_VALUES: unknown[] = [
  undefined,
  null,
  true,
  false,
  0,
  -1,
  1.5,
  20250901,
  '',
  '   ',
  'x',
  [],
  [null],
  [1],
  ['x'],
  {},
  { a: 1 },
  [[]],
  [{}],
];

// ---------------------------------------------------------------------------------------------
// Defer
// ---------------------------------------------------------------------------------------------

describe('validateDeferral (docs/spec/trainee-records-api.md "POST …/defer", "Limits"; docs/reference/API-FACTS.md §12.3)', () => {
  const trainee = makeTrainee();

  it('accepts a date and a reason and stores them', () => {
    expect(validateDeferral({ defer_date: '2026-02-01', defer_reason: 'Illness' }, trainee, ctx25)).toEqual({
      ok: true,
      value: { defer_date: '2026-02-01', defer_reason: 'Illness' },
    });
  });

  it.each([
    ['2026-02-01', '2026-02-01'],
    ['20260201', '2026-02-01'],
    [' 2026-02-01 ', '2026-02-01'],
    ['2026-032', '2026-02-01'], // ordinal
    ['2024-02-29', '2024-02-29'],
  ])('reads the ISO 8601 date %j as %s', (raw, stored) => {
    expect(validateDeferral({ defer_date: raw }, trainee, ctx26)).toEqual({ ok: true, value: { defer_date: stored, defer_reason: null } });
  });

  it('has no range check: far past, far future and before itt_start_date are all accepted', () => {
    for (const d of ['1950-01-01', '2099-12-31', '2025-08-31']) {
      expect(validateDeferral({ defer_date: d }, trainee, ctx25)).toMatchObject({ ok: true, value: { defer_date: d } });
    }
  });

  it.each([
    [{}, [DEFERRAL_MESSAGES.deferDateBlank]],
    [{ defer_date: '' }, [DEFERRAL_MESSAGES.deferDateBlank]],
    [{ defer_date: '   ' }, [DEFERRAL_MESSAGES.deferDateBlank]],
    [{ defer_date: null }, [DEFERRAL_MESSAGES.deferDateBlank]],
    [{ defer_date: [] }, [DEFERRAL_MESSAGES.deferDateBlank]],
    [{ defer_reason: 'x' }, [DEFERRAL_MESSAGES.deferDateBlank]],
    [{ defer_date: '2023-02-29' }, [DEFERRAL_MESSAGES.deferDateInvalid]],
    [{ defer_date: '2026-13-01' }, [DEFERRAL_MESSAGES.deferDateInvalid]],
    [{ defer_date: '01/02/2026' }, [DEFERRAL_MESSAGES.deferDateInvalid]],
    [{ defer_date: 'tomorrow' }, [DEFERRAL_MESSAGES.deferDateInvalid]],
    [{ defer_date: '2026-02-01T10:00:00Z' }, [DEFERRAL_MESSAGES.deferDateInvalid]],
    [{ defer_date: 20260201 }, [DEFERRAL_MESSAGES.deferDateInvalid]],
    [{ defer_date: true }, [DEFERRAL_MESSAGES.deferDateInvalid]],
    [{ defer_date: ['2026-02-01'] }, [DEFERRAL_MESSAGES.deferDateInvalid]],
    [{ defer_date: { y: 2026 } }, [DEFERRAL_MESSAGES.deferDateInvalid]],
  ])('%j → %j', (input, errors) => {
    expect(validateDeferral(input, trainee, ctx25)).toEqual({ ok: false, errors });
  });

  it('uses the exact messages of docs/reference/API-FACTS.md §12.3', () => {
    expect(DEFERRAL_MESSAGES.deferDateBlank).toBe("defer_date can't be blank");
    expect(DEFERRAL_MESSAGES.deferDateInvalid).toBe('defer_date is invalid');
    expect(DEFERRAL_MESSAGES.deferReasonTooLong).toBe('defer_reason is too long (maximum is 500 characters)');
  });

  describe('defer_reason', () => {
    it.each([[undefined], [null], [''], ['   '], [false]])('blank %j is stored as null', (reason) => {
      expect(validateDeferral({ defer_date: '2026-02-01', defer_reason: reason }, trainee, ctx25)).toEqual({
        ok: true,
        value: { defer_date: '2026-02-01', defer_reason: null },
      });
    });

    it('accepts exactly 500 characters and refuses 501', () => {
      expect(validateDeferral({ defer_date: '2026-02-01', defer_reason: 'a'.repeat(500) }, trainee, ctx25)).toMatchObject({ ok: true });
      expect(validateDeferral({ defer_date: '2026-02-01', defer_reason: 'a'.repeat(501) }, trainee, ctx25)).toEqual({
        ok: false,
        errors: [DEFERRAL_MESSAGES.deferReasonTooLong],
      });
    });

    it('counts characters (code points), not UTF-16 units', () => {
      const emoji = '😀'.repeat(500); // 1000 UTF-16 units
      expect(validateDeferral({ defer_date: '2026-02-01', defer_reason: emoji }, trainee, ctx25)).toMatchObject({
        ok: true,
        value: { defer_reason: emoji },
      });
      expect(validateDeferral({ defer_date: '2026-02-01', defer_reason: `${emoji}😀` }, trainee, ctx25)).toMatchObject({ ok: false });
    });

    it('reads a JSON number as its text and refuses other non-strings', () => {
      expect(validateDeferral({ defer_date: '2026-02-01', defer_reason: 42 }, trainee, ctx25)).toMatchObject({
        value: { defer_reason: '42' },
      });
      for (const bad of [true, ['x'], { a: 1 }]) {
        expect(validateDeferral({ defer_date: '2026-02-01', defer_reason: bad }, trainee, ctx25)).toEqual({
          ok: false,
          errors: [DEFERRAL_MESSAGES.deferReasonInvalid],
        });
      }
    });

    it('lists every failed rule: blank date and too long reason', () => {
      expect(validateDeferral({ defer_reason: 'a'.repeat(501) }, trainee, ctx26)).toEqual({
        ok: false,
        errors: [DEFERRAL_MESSAGES.deferDateBlank, DEFERRAL_MESSAGES.deferReasonTooLong],
      });
    });
  });

  it.each([[null], ['2026-02-01'], [42], [[{ defer_date: '2026-02-01' }]], [true], [undefined]])(
    'a non-object body %j counts as {} and does not throw',
    (input) => {
      expect(validateDeferral(input, trainee, ctx25)).toEqual({ ok: false, errors: [DEFERRAL_MESSAGES.deferDateBlank] });
    },
  );

  it('behaves the same in both versions', () => {
    for (const input of [{ defer_date: '20260201', defer_reason: ' x ' }, { defer_date: 'x' }, {}]) {
      expect(validateDeferral(input, trainee, ctx25)).toEqual(validateDeferral(input, trainee, ctx26));
    }
  });
});

// ---------------------------------------------------------------------------------------------
// Withdraw
// ---------------------------------------------------------------------------------------------

/** The spec's reason lists ("POST …/withdraw"), written out independently of the data file. */
const SPEC_TRAINEE_REASONS = [
  'unacceptable_behaviour',
  'did_not_make_progress',
  'lack_of_progress_during_placements',
  'trainee_workload_issues',
  'not_meeting_qts_standards',
  'change_in_personal_or_health_circumstances',
  'does_not_want_to_become_a_teacher',
  'never_intended_to_obtain_qts',
  'moved_to_different_itt_course',
  'trainee_chose_to_withdraw_another_reason',
];
const SPEC_PROVIDER_REASONS = [
  'record_added_in_error',
  'mandatory_reasons',
  'stopped_responding_to_messages',
  'unacceptable_behaviour',
  'lack_of_progress_during_placements',
  'did_not_make_progress',
  'not_meeting_qts_standards',
  'had_to_withdraw_trainee_another_reason',
];
const ALL_REASONS = [...new Set([...SPEC_TRAINEE_REASONS, ...SPEC_PROVIDER_REASONS, 'safeguarding_concerns'])];

function specAllows(version: ApiVersion, trigger: 'provider' | 'trainee', reason: string): boolean {
  if (reason === 'safeguarding_concerns') return version === 'v2026.1';
  return (trigger === 'provider' ? SPEC_PROVIDER_REASONS : SPEC_TRAINEE_REASONS).includes(reason);
}

/** The date key of a version, written out (not computed) so that the test checks the naming. */
const DATE_KEY: Record<ApiVersion, string> = { 'v2025.0': 'withdraw_date', 'v2026.1': 'withdrawal_date' };

function body(version: ApiVersion, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    [DATE_KEY[version]]: '2026-01-15',
    trigger: 'trainee',
    future_interest: 'no',
    reasons: ['does_not_want_to_become_a_teacher'],
    ...extra,
  };
}

describe('validateWithdrawal (docs/spec/trainee-records-api.md "POST …/withdraw"; docs/reference/API-FACTS.md §12.4; ruling 7)', () => {
  const trainee = makeTrainee({ itt_start_date: '2025-09-01' });
  const M = WITHDRAWAL_MESSAGES;

  describe.each(VERSIONS)('%s', (version) => {
    const ctx = ctxOf(version);
    const label = DATE_KEY[version];

    it('accepts a valid body and returns the withdrawal to store', () => {
      expect(validateWithdrawal(body(version), trainee, ctx)).toEqual({
        ok: true,
        value: {
          date: '2026-01-15',
          trigger: 'trainee',
          future_interest: 'no',
          reasons: ['does_not_want_to_become_a_teacher'],
          another_reason: null,
          safeguarding_concern_reasons: null,
        },
      });
    });

    it(`names the date field ${label} in its messages`, () => {
      expect(withdrawalDateLabel(version)).toBe(label);
      expect(M.dateBlank(label)).toBe(`${label} Choose a withdrawal date`);
      expect(M.dateInvalid(label)).toBe(`${label} Choose a valid withdrawal date`);
      expect(M.dateBeforeIttStart(label)).toBe(`${label} must be after itt_start_date`);
    });

    it("ignores the other version's date key, so sending it counts as missing", () => {
      const other = version === 'v2025.0' ? 'withdrawal_date' : 'withdraw_date';
      const input = body(version);
      delete input[label];
      input[other] = '2026-01-15';
      expect(validateWithdrawal(input, trainee, ctx)).toEqual({ ok: false, errors: [`${label} Choose a withdrawal date`] });
    });

    it.each([[undefined], [null], [''], ['   '], [[]], [{}]])('a blank date %j → "Choose a withdrawal date"', (date) => {
      expect(validateWithdrawal(body(version, { [label]: date }), trainee, ctx)).toEqual({
        ok: false,
        errors: [`${label} Choose a withdrawal date`],
      });
    });

    it.each([
      ['2026-01-15', '2026-01-15'],
      ['20260115', '2026-01-15'],
      [' 2026-01-15 ', '2026-01-15'],
      ['2026-015', '2026-01-15'],
      ['2026-W03-4', '2026-01-15'],
      ['2026-01-15T10:20:30Z', '2026-01-15'],
      ['2026-01-15T10:20:30.123Z', '2026-01-15'],
      ['2026-01-15T10:20:30', '2026-01-15'],
      ['2026-01-15T10:20', '2026-01-15'],
      ['20260115T102030Z', '2026-01-15'],
      ['2026-01-15T10:20:30+01:00', '2026-01-15'],
      ['2026-01-15T00:30:00+01:00', '2026-01-14'],
      ['2026-01-15T23:30:00-01:00', '2026-01-16'],
      ['2026-01-15T23:30:00-0130', '2026-01-16'],
      ['2026-01-15T01:00:00+02', '2026-01-14'],
      ['2025-12-31T23:00:00-02:00', '2026-01-01'],
      ['2026-03-01T00:00:00+00:01', '2026-02-28'],
      ['2028-03-01T00:00:00+00:01', '2028-02-29'],
    ])('reads %j as %s (date or date-time; UTC date with an offset)', (raw, stored) => {
      expect(validateWithdrawal(body(version, { [label]: raw }), trainee, ctx)).toMatchObject({ ok: true, value: { date: stored } });
    });

    it.each([
      ['2025-02-29'],
      ['2026-13-01'],
      ['15/01/2026'],
      ['yesterday'],
      ['2026-01-15T'],
      ['2026-01-15T24:00:00Z'],
      ['2026-01-15T10:60:00Z'],
      ['2026-01-15T10:20:30+25:00'],
      ['2026-01-15T10:20:30 Z'],
      ['2026-02-30T10:00:00Z'],
      [20260115],
      [true],
      [['2026-01-15']],
    ])('refuses %j with "Choose a valid withdrawal date"', (raw) => {
      expect(validateWithdrawal(body(version, { [label]: raw }), trainee, ctx)).toEqual({
        ok: false,
        errors: [`${label} Choose a valid withdrawal date`],
      });
    });

    it('allows the same day as itt_start_date and refuses the day before', () => {
      expect(validateWithdrawal(body(version, { [label]: '2025-09-01' }), trainee, ctx)).toMatchObject({
        ok: true,
        value: { date: '2025-09-01' },
      });
      expect(validateWithdrawal(body(version, { [label]: '2025-08-31' }), trainee, ctx)).toEqual({
        ok: false,
        errors: [`${label} must be after itt_start_date`],
      });
      // A date-time whose UTC date is the day before.
      expect(validateWithdrawal(body(version, { [label]: '2025-09-01T00:30:00+01:00' }), trainee, ctx)).toEqual({
        ok: false,
        errors: [`${label} must be after itt_start_date`],
      });
    });

    it('has no future check', () => {
      expect(validateWithdrawal(body(version, { [label]: '2099-12-31' }), trainee, ctx)).toMatchObject({
        ok: true,
        value: { date: '2099-12-31' },
      });
    });

    it.each([[undefined], [null], [[]], ['does_not_want_to_become_a_teacher'], [42], [{ 0: 'unacceptable_behaviour' }], [true]])(
      'reasons %j (absent, empty or not an array) → "Choose one or more reasons"',
      (reasons) => {
        expect(validateWithdrawal(body(version, { reasons }), trainee, ctx)).toEqual({ ok: false, errors: [M.reasonsBlank] });
      },
    );

    it.each([[[42]], [[null]], [['']], [['unknown_reason']], [['UNACCEPTABLE_BEHAVIOUR']], [[['unacceptable_behaviour']]]])(
      'reasons %j hold something that is not an allowed code → "not valid for selected trigger"',
      (reasons) => {
        expect(validateWithdrawal(body(version, { reasons }), trainee, ctx)).toEqual({ ok: false, errors: [M.reasonsNotValidForTrigger] });
      },
    );

    it('reports one "not valid" message for several bad reasons, also beside good ones', () => {
      expect(
        validateWithdrawal(body(version, { reasons: ['unacceptable_behaviour', 'x', 'record_added_in_error'] }), trainee, ctx),
      ).toEqual({
        ok: false,
        errors: [M.reasonsNotValidForTrigger],
      });
    });

    it('keeps the reasons in the order sent, without repeats', () => {
      const reasons = ['unacceptable_behaviour', 'did_not_make_progress', 'unacceptable_behaviour'];
      expect(validateWithdrawal(body(version, { reasons }), trainee, ctx)).toMatchObject({
        value: { reasons: ['unacceptable_behaviour', 'did_not_make_progress'] },
      });
    });

    describe('trigger', () => {
      it.each([[undefined], [null], [''], ['Provider'], ['student'], [1], [['trainee']]])('%j → "not included in the list"', (trigger) => {
        expect(validateWithdrawal(body(version, { trigger }), trainee, ctx)).toEqual({ ok: false, errors: [M.triggerNotInList] });
      });

      it('an unknown or absent trigger checks the reasons against the trainee list', () => {
        for (const trigger of [undefined, 'x', 7]) {
          expect(validateWithdrawal(body(version, { trigger, reasons: ['trainee_workload_issues'] }), trainee, ctx)).toEqual({
            ok: false,
            errors: [M.triggerNotInList],
          });
          expect(validateWithdrawal(body(version, { trigger, reasons: ['record_added_in_error'] }), trainee, ctx)).toEqual({
            ok: false,
            errors: [M.reasonsNotValidForTrigger, M.triggerNotInList],
          });
        }
      });
    });

    describe('future_interest', () => {
      it.each([['yes'], ['no'], ['unknown']])('%s is accepted and stored', (fi) => {
        expect(validateWithdrawal(body(version, { future_interest: fi }), trainee, ctx)).toMatchObject({
          ok: true,
          value: { future_interest: fi },
        });
      });

      it.each([[undefined], [null], [''], ['maybe'], ['Yes'], [true], [0], [['yes']]])('%j → "not included in the list"', (fi) => {
        expect(validateWithdrawal(body(version, { future_interest: fi }), trainee, ctx)).toEqual({
          ok: false,
          errors: [M.futureInterestNotInList],
        });
      });
    });

    describe('another_reason', () => {
      it.each([
        ['trainee', 'trainee_chose_to_withdraw_another_reason'],
        ['provider', 'had_to_withdraw_trainee_another_reason'],
      ])('is required with trigger %s and reason %s, and stored trimmed', (trigger, reason) => {
        for (const missing of [undefined, null, '', '  ', [], {}, ['text'], true]) {
          expect(validateWithdrawal(body(version, { trigger, reasons: [reason], another_reason: missing }), trainee, ctx)).toEqual({
            ok: false,
            errors: [M.anotherReasonBlank],
          });
        }
        expect(
          validateWithdrawal(body(version, { trigger, reasons: [reason], another_reason: '  Moved abroad  ' }), trainee, ctx),
        ).toMatchObject({
          ok: true,
          value: { reasons: [reason], another_reason: 'Moved abroad' },
        });
        expect(validateWithdrawal(body(version, { trigger, reasons: [reason], another_reason: 12 }), trainee, ctx)).toMatchObject({
          value: { another_reason: '12' },
        });
      });

      it(`is at most ${REASON_TEXT_MAX_CHARS} characters, as is v2026.1's safeguarding_concern_reasons (docs/DESIGN.md ruling 14)`, () => {
        const reasons = ['trainee_chose_to_withdraw_another_reason'];
        const at = (n: number, key = 'another_reason') =>
          validateWithdrawal(body(version, { reasons, another_reason: 'x', [key]: 'y'.repeat(n) }), trainee, ctx);
        expect(at(REASON_TEXT_MAX_CHARS)).toMatchObject({ ok: true });
        expect(at(REASON_TEXT_MAX_CHARS + 1)).toEqual({
          ok: false,
          errors: [`another_reason is too long (maximum is ${REASON_TEXT_MAX_CHARS} characters)`],
        });
        if (version === 'v2026.1')
          expect(at(1024 * 1024, 'safeguarding_concern_reasons')).toEqual({
            ok: false,
            errors: [`safeguarding_concern_reasons is too long (maximum is ${REASON_TEXT_MAX_CHARS} characters)`],
          });
      });

      it('is required for any reason containing another_reason, even one not valid for the trigger', () => {
        expect(
          validateWithdrawal(body(version, { trigger: 'provider', reasons: ['trainee_chose_to_withdraw_another_reason'] }), trainee, ctx),
        ).toEqual({
          ok: false,
          errors: [M.reasonsNotValidForTrigger, M.anotherReasonBlank],
        });
        expect(validateWithdrawal(body(version, { reasons: ['my_another_reason_code'] }), trainee, ctx)).toEqual({
          ok: false,
          errors: [M.reasonsNotValidForTrigger, M.anotherReasonBlank],
        });
      });

      it('is stored as null when not required, even when sent', () => {
        expect(validateWithdrawal(body(version, { another_reason: 'Ignored' }), trainee, ctx)).toMatchObject({
          ok: true,
          value: { another_reason: null },
        });
      });
    });
  });

  describe('reason × trigger × version (spec lists; safeguarding_concerns in v2026.1 only)', () => {
    const cases = VERSIONS.flatMap((version) =>
      (['provider', 'trainee'] as const).flatMap((trigger) =>
        ALL_REASONS.map((reason) => [version, trigger, reason, specAllows(version, trigger, reason)] as const),
      ),
    );

    it.each(cases)('%s, trigger %s, reason %s → allowed: %s', (version, trigger, reason, allowed) => {
      const input = body(version, { trigger, reasons: [reason], another_reason: 'Other', safeguarding_concern_reasons: 'Concerns' });
      const result = validateWithdrawal(input, trainee, ctxOf(version));
      if (allowed) expect(result).toMatchObject({ ok: true, value: { trigger, reasons: [reason] } });
      else expect(result).toEqual({ ok: false, errors: [M.reasonsNotValidForTrigger] });
    });

    it.each(VERSIONS)('allowedWithdrawalReasons in %s are exactly the spec lists', (version) => {
      const plus = version === 'v2026.1' ? ['safeguarding_concerns'] : [];
      expect([...allowedWithdrawalReasons('trainee', version)].sort()).toEqual([...SPEC_TRAINEE_REASONS, ...plus].sort());
      expect([...allowedWithdrawalReasons('provider', version)].sort()).toEqual([...SPEC_PROVIDER_REASONS, ...plus].sort());
      expect(allowedWithdrawalReasons('nonsense', version)).toEqual(allowedWithdrawalReasons('trainee', version));
      expect(allowedWithdrawalReasons(undefined, version)).toEqual(allowedWithdrawalReasons('trainee', version));
    });
  });

  describe('safeguarding concerns (ruling 7)', () => {
    it('v2026.1: allowed for both triggers, requires safeguarding_concern_reasons, stored trimmed', () => {
      for (const trigger of ['provider', 'trainee']) {
        for (const missing of [undefined, null, '', '   ', ['x'], {}]) {
          expect(
            validateWithdrawal(
              body('v2026.1', { trigger, reasons: ['safeguarding_concerns'], safeguarding_concern_reasons: missing }),
              trainee,
              ctx26,
            ),
          ).toEqual({ ok: false, errors: [M.safeguardingConcernReasonsBlank] });
        }
        expect(
          validateWithdrawal(
            body('v2026.1', { trigger, reasons: ['safeguarding_concerns'], safeguarding_concern_reasons: ' Reported ' }),
            trainee,
            ctx26,
          ),
        ).toMatchObject({ ok: true, value: { reasons: ['safeguarding_concerns'], safeguarding_concern_reasons: 'Reported' } });
      }
    });

    it('v2026.1: safeguarding_concern_reasons is stored as null when not required', () => {
      expect(validateWithdrawal(body('v2026.1', { safeguarding_concern_reasons: 'Ignored' }), trainee, ctx26)).toMatchObject({
        ok: true,
        value: { safeguarding_concern_reasons: null },
      });
    });

    it('v2025.0: safeguarding_concerns is not an allowed reason, and safeguarding_concern_reasons is never required', () => {
      for (const trigger of ['provider', 'trainee']) {
        expect(validateWithdrawal(body('v2025.0', { trigger, reasons: ['safeguarding_concerns'] }), trainee, ctx25)).toEqual({
          ok: false,
          errors: [M.reasonsNotValidForTrigger],
        });
      }
    });

    it('v2025.0: a sent safeguarding_concern_reasons is ignored and stored null', () => {
      expect(validateWithdrawal(body('v2025.0', { safeguarding_concern_reasons: 'Reported' }), trainee, ctx25)).toMatchObject({
        ok: true,
        value: { safeguarding_concern_reasons: null },
      });
    });

    it('the message is the docs/reference/API-FACTS.md text', () => {
      expect(M.safeguardingConcernReasonsBlank).toBe('safeguarding_concern_reasons Enter the concerns');
    });
  });

  it('lists every failed rule in a stable order', () => {
    const input = {
      withdrawal_date: '2025-08-01',
      trigger: 'someone',
      future_interest: 'perhaps',
      reasons: ['safeguarding_concerns', 'trainee_chose_to_withdraw_another_reason', 'record_added_in_error'],
    };
    expect(validateWithdrawal(input, trainee, ctx26)).toEqual({
      ok: false,
      errors: [
        'withdrawal_date must be after itt_start_date',
        'reasons entered not valid for selected trigger eg unacceptable_behaviour for a trainee trigger',
        'trigger is not included in the list',
        'future_interest is not included in the list',
        'another_reason Enter another reason',
        'safeguarding_concern_reasons Enter the concerns',
      ],
    });
    expect(validateWithdrawal({ ...input, withdraw_date: '2025-08-01', withdrawal_date: undefined }, trainee, ctx25)).toEqual({
      ok: false,
      errors: [
        'withdraw_date must be after itt_start_date',
        'reasons entered not valid for selected trigger eg unacceptable_behaviour for a trainee trigger',
        'trigger is not included in the list',
        'future_interest is not included in the list',
        'another_reason Enter another reason',
      ],
    });
  });

  it.each(VERSIONS)('%s: an empty or non-object body lists the four required-field messages without throwing', (version) => {
    const expected = {
      ok: false,
      errors: [
        `${DATE_KEY[version]} Choose a withdrawal date`,
        'reasons Choose one or more reasons why the trainee withdrew from the course',
        'trigger is not included in the list',
        'future_interest is not included in the list',
      ],
    };
    for (const input of [{}, null, undefined, 'withdraw', 42, [], [body(version)], true]) {
      expect(validateWithdrawal(input, trainee, ctxOf(version))).toEqual(expected);
    }
  });

  it('never throws on any JSON value in any field, and a success has the right types', () => {
    for (const version of VERSIONS) {
      for (const field of [DATE_KEY[version], 'trigger', 'future_interest', 'reasons', 'another_reason', 'safeguarding_concern_reasons']) {
        for (const value of ODD_VALUES) {
          const input = body(version, { reasons: ['trainee_chose_to_withdraw_another_reason'], another_reason: 'x', [field]: value });
          const result = validateWithdrawal(input, trainee, ctxOf(version));
          if (result.ok) {
            expect(typeof result.value.date).toBe('string');
            expect(result.value.reasons.every((r) => typeof r === 'string')).toBe(true);
          } else {
            expect(result.errors.length).toBeGreaterThan(0);
          }
        }
      }
    }
  });

  it('does not read inherited keys (a prototype-less or __proto__-carrying body is plain data)', () => {
    const parsed = JSON.parse(
      '{"__proto__": {"trigger": "trainee"}, "withdrawal_date": "2026-01-15", "future_interest": "no", "reasons": ["unacceptable_behaviour"]}',
    );
    expect(validateWithdrawal(parsed, trainee, ctx26)).toEqual({ ok: false, errors: [M.triggerNotInList] });
  });

  describe(`at most ${WITHDRAWAL_REASONS_MAX_ITEMS} reasons (docs/DESIGN.md ruling 14)`, () => {
    const tooLong = `reasons is too long (maximum is ${WITHDRAWAL_REASONS_MAX_ITEMS} reasons)`;

    it.each(VERSIONS)('%s: every reason a trigger allows fits, with the texts they need', (version) => {
      for (const trigger of ['trainee', 'provider'] as const) {
        const reasons = allowedWithdrawalReasons(trigger, version);
        expect(reasons.length).toBeLessThanOrEqual(WITHDRAWAL_REASONS_MAX_ITEMS);
        const input = body(version, { trigger, reasons: [...reasons], another_reason: 'Other', safeguarding_concern_reasons: 'Concerns' });
        expect(validateWithdrawal(input, trainee, ctxOf(version))).toMatchObject({ ok: true, value: { reasons: [...reasons] } });
      }
    });

    it.each(VERSIONS)('%s: the maximum passes (repeats dropped when stored); one more is refused with the bound alone', (version) => {
      const atMax = Array.from({ length: WITHDRAWAL_REASONS_MAX_ITEMS }, (_, i) =>
        i % 2 === 0 ? 'unacceptable_behaviour' : 'did_not_make_progress',
      );
      expect(validateWithdrawal(body(version, { reasons: atMax }), trainee, ctxOf(version))).toMatchObject({
        ok: true,
        value: { reasons: ['unacceptable_behaviour', 'did_not_make_progress'] },
      });
      const over = [...atMax, 'unacceptable_behaviour'];
      expect(validateWithdrawal(body(version, { reasons: over }), trainee, ctxOf(version))).toEqual({ ok: false, errors: [tooLong] });
    });

    it('reports the bound beside the other reasons rules', () => {
      const over = Array.from({ length: WITHDRAWAL_REASONS_MAX_ITEMS + 1 }, () => 'record_added_in_error');
      expect(validateWithdrawal(body('v2026.1', { reasons: over }), trainee, ctx26)).toEqual({
        ok: false,
        errors: [M.reasonsNotValidForTrigger, tooLong],
      });
    });
  });
});

describe('parseIsoDateOrDateTime', () => {
  it.each([
    ['2026-01-15', '2026-01-15'],
    ['2026-01-15T10:00:00,5Z', '2026-01-15'],
    ['2026-01-15t10:00:00z', '2026-01-15'],
    ['2026-01-15T10', '2026-01-15'],
    ['2026-12-31T23:00:00-01:00', '2027-01-01'],
    ['2026-01-01T00:00:00+01:00', '2025-12-31'],
    ['2024-02-29T23:59:59-00:01', '2024-03-01'],
  ])('%j → %s', (raw, expected) => {
    expect(parseIsoDateOrDateTime(raw)).toBe(expected);
  });

  it.each([
    [''],
    ['T10:00'],
    ['2026-01-15T10:00:00+24:00'],
    ['2026-01-15T10:00:00+01:60'],
    ['2026-01-15T1000:00'],
    [null],
    [20260115],
    [{}],
  ])('%j → null', (raw) => {
    expect(parseIsoDateOrDateTime(raw)).toBeNull();
  });
});

// ---------------------------------------------------------------------------------------------
// Recommend for QTS/EYTS
// ---------------------------------------------------------------------------------------------

describe('validateRecommendation (docs/spec/trainee-records-api.md "POST …/recommend-for-qts"; docs/reference/API-FACTS.md §12.5; ruling 8)', () => {
  const trainee = makeTrainee(); // route 12: a degree and 2 placements needed; has 1 and 2
  const R = RECOMMENDATION_MESSAGES;

  it.each(VERSIONS)('%s: accepts a valid date and returns it as outcome_date', (version) => {
    expect(validateRecommendation({ qts_standards_met_date: '2026-06-01' }, trainee, ctxOf(version))).toEqual({
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
    expect(validateRecommendation({ qts_standards_met_date: raw }, trainee, ctx25)).toEqual({ ok: true, value: { outcome_date: stored } });
  });

  it('uses the exact messages of docs/reference/API-FACTS.md §12.5', () => {
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
    [{}],
    [{ qts_standards_met_date: '' }],
    [{ qts_standards_met_date: '  ' }],
    [{ qts_standards_met_date: null }],
    [{ outcome_date: '2026-06-01' }],
  ])('%j → blank message', (input) => {
    expect(validateRecommendation(input, trainee, ctx26)).toEqual({ ok: false, errors: [R.dateBlank] });
  });

  it.each([['2026-02-30'], ['2026-06-01T10:00:00Z'], ['01/06/2026'], ['soon'], [20260601], [true], [['2026-06-01']], [{ d: 1 }]])(
    '%j → "is invalid" (and no date comparison)',
    (raw) => {
      expect(validateRecommendation({ qts_standards_met_date: raw }, trainee, ctx26)).toEqual({ ok: false, errors: [R.dateInvalid] });
    },
  );

  it('allows today and refuses tomorrow', () => {
    expect(validateRecommendation({ qts_standards_met_date: '2026-06-30' }, trainee, ctx25)).toMatchObject({ ok: true });
    expect(validateRecommendation({ qts_standards_met_date: '2026-07-01' }, trainee, ctx25)).toEqual({
      ok: false,
      errors: [R.dateInFuture],
    });
    const newYearsEve = { ...ctx26, today: '2026-12-31' };
    expect(validateRecommendation({ qts_standards_met_date: '2026-12-31' }, trainee, newYearsEve)).toMatchObject({ ok: true });
    expect(validateRecommendation({ qts_standards_met_date: '20270101' }, trainee, newYearsEve)).toEqual({
      ok: false,
      errors: [R.dateInFuture],
    });
  });

  it('allows the same day as itt_start_date and refuses the day before', () => {
    expect(validateRecommendation({ qts_standards_met_date: '2025-09-01' }, trainee, ctx25)).toMatchObject({ ok: true });
    expect(validateRecommendation({ qts_standards_met_date: '2025-08-31' }, trainee, ctx25)).toEqual({
      ok: false,
      errors: [R.dateBeforeIttStart],
    });
  });

  it('reports "future" and "before itt_start_date" together when both hold', () => {
    const late = makeTrainee({ itt_start_date: '2027-01-01' });
    expect(validateRecommendation({ qts_standards_met_date: '2026-12-01' }, late, ctx26)).toEqual({
      ok: false,
      errors: [R.dateInFuture, R.dateBeforeIttStart],
    });
  });

  describe('degree', () => {
    it.each([['02'], ['03'], ['10'], ['12'], ['15'], ['16'], ['17'], ['19'], ['20'], ['21']])('route %s requires a degree', (route) => {
      const t = makeTrainee({ training_route: route, degrees: 0, placements: 2 });
      expect(validateRecommendation({ qts_standards_met_date: '2026-06-01' }, t, ctx26)).toEqual({ ok: false, errors: [R.degreeMissing] });
      expect(
        validateRecommendation({ qts_standards_met_date: '2026-06-01' }, makeTrainee({ training_route: route, degrees: 1 }), ctx26),
      ).toMatchObject({
        ok: true,
      });
    });

    it.each([['09'], ['11'], ['14'], ['18']])('undergraduate route %s needs no degree', (route) => {
      const t = makeTrainee({ training_route: route, degrees: 0, placements: 2 });
      expect(validateRecommendation({ qts_standards_met_date: '2026-06-01' }, t, ctx26)).toMatchObject({ ok: true });
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
        expect(validateRecommendation({ qts_standards_met_date: '2026-06-01' }, t, ctx26)).toEqual({ ok: false, errors: [message] });
      }
      for (const count of [n, n + 1]) {
        expect(
          validateRecommendation(
            { qts_standards_met_date: '2026-06-01' },
            makeTrainee({ training_route: route, placements: count }),
            ctx26,
          ),
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
      expect(validateRecommendation({ qts_standards_met_date: '2026-06-01' }, t, ctx25)).toEqual({
        ok: true,
        value: { outcome_date: '2026-06-01' },
      });
    });

    it('an unknown route skips the degree and placement rules', () => {
      const t = makeTrainee({ training_route: '99', degrees: 0, placements: 0 });
      expect(validateRecommendation({ qts_standards_met_date: '2026-06-01' }, t, ctx26)).toMatchObject({ ok: true });
    });
  });

  it('lists every failed rule together, in a stable order', () => {
    const bare = makeTrainee({ training_route: '03', degrees: 0, placements: 1 });
    expect(validateRecommendation({}, bare, ctx26)).toEqual({
      ok: false,
      errors: [R.dateBlank, R.degreeMissing, 'placements must be at least 2 for the school_direct_salaried training route'],
    });
    expect(validateRecommendation({ qts_standards_met_date: '2030-01-01' }, bare, ctx25)).toEqual({
      ok: false,
      errors: [R.dateInFuture, R.degreeMissing, 'placements must be at least 2 for the school_direct_salaried training route'],
    });
    expect(validateRecommendation({ qts_standards_met_date: 'x' }, bare, ctx25)).toEqual({
      ok: false,
      errors: [R.dateInvalid, R.degreeMissing, 'placements must be at least 2 for the school_direct_salaried training route'],
    });
  });

  it.each<TraineeStatus>(['draft', 'submitted_for_trn', 'trn_received', 'deferred', 'withdrawn', 'recommended_for_award', 'awarded'])(
    'does not check the state (%s): the state machine does (ruling 8)',
    (state) => {
      const result = validateRecommendation({ qts_standards_met_date: '2026-06-01' }, makeTrainee({ state }), ctx26);
      expect(result).toEqual({ ok: true, value: { outcome_date: '2026-06-01' } });
    },
  );

  it('a non-object body counts as {} and never throws, whatever the value types', () => {
    for (const input of [null, undefined, 'x', 0, [], [{ qts_standards_met_date: '2026-06-01' }], true]) {
      expect(validateRecommendation(input, trainee, ctx25)).toEqual({ ok: false, errors: [R.dateBlank] });
    }
    for (const value of ODD_VALUES) {
      const result = validateRecommendation({ qts_standards_met_date: value }, trainee, ctx26);
      expect(result.ok).toBe(false);
    }
  });
});
