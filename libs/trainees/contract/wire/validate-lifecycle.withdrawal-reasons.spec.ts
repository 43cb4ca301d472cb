import { type ApiVersion, REASON_TEXT_MAX_CHARS, WITHDRAWAL_REASONS_MAX_ITEMS } from '@app/trainees/record';
import { withdrawalBody, withdrawalReasonsOf } from '../testing/bodies';
import { ctx25, ctx26, ctxOf, makeTrainee, VERSIONS, withdrawalData } from '../testing/lifecycle-fixtures';

/** The messages of docs/reference/API-FACTS.md §12.4, byte for byte (the date's start with its label in the version). */
const WITHDRAWAL_MESSAGES = {
  dateBlank: (label: string): string => `${label} Choose a withdrawal date`,
  dateInvalid: (label: string): string => `${label} Choose a valid withdrawal date`,
  dateBeforeIttStart: (label: string): string => `${label} must be after itt_start_date`,
  reasonsBlank: 'reasons Choose one or more reasons why the trainee withdrew from the course',
  reasonsNotValidForTrigger: 'reasons entered not valid for selected trigger eg unacceptable_behaviour for a trainee trigger',
  triggerNotInList: 'trigger is not included in the list',
  futureInterestNotInList: 'future_interest is not included in the list',
  anotherReasonBlank: 'another_reason Enter another reason',
  safeguardingConcernReasonsBlank: 'safeguarding_concern_reasons Enter the concerns',
};

/**
 * The reasons, trigger, another_reason and safeguarding concerns of a withdraw body, through the
 * checks the API runs.
 */

/**
 * The spec's reason lists (docs/spec/trainee-records-api.md "POST /trainees/{trainee_id}/withdraw"),
 * written out independently of the data file.
 */
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

describe('withdrawalBody: reasons, trigger and the texts they need (docs/spec/trainee-records-api.md "POST /trainees/{trainee_id}/withdraw"; docs/reference/API-FACTS.md §12.4; docs/DESIGN.md ruling 7)', () => {
  const trainee = makeTrainee({ itt_start_date: '2025-09-01' });
  const M = WITHDRAWAL_MESSAGES;

  describe.each(VERSIONS)('%s', (version) => {
    const ctx = ctxOf(version);

    it.each([[undefined], [null], [[]], ['does_not_want_to_become_a_teacher'], [42], [{ 0: 'unacceptable_behaviour' }], [true]])(
      'reasons %j (absent, empty or not an array) → "Choose one or more reasons"',
      (reasons) => {
        expect(withdrawalBody(withdrawalData(version, { reasons }), trainee, ctx)).toEqual({ ok: false, errors: [M.reasonsBlank] });
      },
    );

    it.each([[[42]], [[null]], [['']], [['unknown_reason']], [['UNACCEPTABLE_BEHAVIOUR']], [[['unacceptable_behaviour']]]])(
      'reasons %j hold something that is not an allowed code → "not valid for selected trigger"',
      (reasons) => {
        expect(withdrawalBody(withdrawalData(version, { reasons }), trainee, ctx)).toEqual({
          ok: false,
          errors: [M.reasonsNotValidForTrigger],
        });
      },
    );

    it('reports one "not valid" message for several bad reasons, also beside good ones', () => {
      expect(
        withdrawalBody(withdrawalData(version, { reasons: ['unacceptable_behaviour', 'x', 'record_added_in_error'] }), trainee, ctx),
      ).toEqual({
        ok: false,
        errors: [M.reasonsNotValidForTrigger],
      });
    });

    it('keeps the reasons in the order sent, without repeats', () => {
      const reasons = ['unacceptable_behaviour', 'did_not_make_progress', 'unacceptable_behaviour'];
      expect(withdrawalBody(withdrawalData(version, { reasons }), trainee, ctx)).toMatchObject({
        value: { reasons: ['unacceptable_behaviour', 'did_not_make_progress'] },
      });
    });

    describe('trigger', () => {
      it.each([[undefined], [null], [''], ['Provider'], ['student'], [1], [['trainee']]])('%j → "not included in the list"', (trigger) => {
        expect(withdrawalBody(withdrawalData(version, { trigger }), trainee, ctx)).toEqual({ ok: false, errors: [M.triggerNotInList] });
      });

      it('an unknown or absent trigger checks the reasons against the trainee list', () => {
        for (const trigger of [undefined, 'x', 7]) {
          expect(withdrawalBody(withdrawalData(version, { trigger, reasons: ['trainee_workload_issues'] }), trainee, ctx)).toEqual({
            ok: false,
            errors: [M.triggerNotInList],
          });
          expect(withdrawalBody(withdrawalData(version, { trigger, reasons: ['record_added_in_error'] }), trainee, ctx)).toEqual({
            ok: false,
            errors: [M.reasonsNotValidForTrigger, M.triggerNotInList],
          });
        }
      });
    });

    describe('another_reason', () => {
      it.each([
        ['trainee', 'trainee_chose_to_withdraw_another_reason'],
        ['provider', 'had_to_withdraw_trainee_another_reason'],
      ])('is required with trigger %s and reason %s, and stored trimmed', (trigger, reason) => {
        for (const missing of [undefined, null, '', '  ', [], {}, ['text'], true]) {
          expect(withdrawalBody(withdrawalData(version, { trigger, reasons: [reason], another_reason: missing }), trainee, ctx)).toEqual({
            ok: false,
            errors: [M.anotherReasonBlank],
          });
        }
        expect(
          withdrawalBody(withdrawalData(version, { trigger, reasons: [reason], another_reason: '  Moved abroad  ' }), trainee, ctx),
        ).toMatchObject({
          ok: true,
          value: { reasons: [reason], another_reason: 'Moved abroad' },
        });
        expect(withdrawalBody(withdrawalData(version, { trigger, reasons: [reason], another_reason: 12 }), trainee, ctx)).toMatchObject({
          value: { another_reason: '12' },
        });
      });

      it(`is at most ${REASON_TEXT_MAX_CHARS} characters, as is v2026.1's safeguarding_concern_reasons (docs/DESIGN.md ruling 14)`, () => {
        const reasons = ['trainee_chose_to_withdraw_another_reason'];
        const at = (n: number, key = 'another_reason') =>
          withdrawalBody(withdrawalData(version, { reasons, another_reason: 'x', [key]: 'y'.repeat(n) }), trainee, ctx);
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
          withdrawalBody(
            withdrawalData(version, { trigger: 'provider', reasons: ['trainee_chose_to_withdraw_another_reason'] }),
            trainee,
            ctx,
          ),
        ).toEqual({
          ok: false,
          errors: [M.reasonsNotValidForTrigger, M.anotherReasonBlank],
        });
        expect(withdrawalBody(withdrawalData(version, { reasons: ['my_another_reason_code'] }), trainee, ctx)).toEqual({
          ok: false,
          errors: [M.reasonsNotValidForTrigger, M.anotherReasonBlank],
        });
      });

      it('is stored as null when not required, even when sent', () => {
        expect(withdrawalBody(withdrawalData(version, { another_reason: 'Ignored' }), trainee, ctx)).toMatchObject({
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
      const input = withdrawalData(version, {
        trigger,
        reasons: [reason],
        another_reason: 'Other',
        safeguarding_concern_reasons: 'Concerns',
      });
      const result = withdrawalBody(input, trainee, ctxOf(version));
      if (allowed) expect(result).toMatchObject({ ok: true, value: { trigger, reasons: [reason] } });
      else expect(result).toEqual({ ok: false, errors: [M.reasonsNotValidForTrigger] });
    });

    it.each(VERSIONS)('withdrawalReasonsOf in %s are exactly the spec lists', (version) => {
      const plus = version === 'v2026.1' ? ['safeguarding_concerns'] : [];
      expect([...withdrawalReasonsOf('trainee', version)].sort()).toEqual([...SPEC_TRAINEE_REASONS, ...plus].sort());
      expect([...withdrawalReasonsOf('provider', version)].sort()).toEqual([...SPEC_PROVIDER_REASONS, ...plus].sort());
      expect(withdrawalReasonsOf('nonsense', version)).toEqual(withdrawalReasonsOf('trainee', version));
      expect(withdrawalReasonsOf(undefined, version)).toEqual(withdrawalReasonsOf('trainee', version));
    });
  });

  describe('safeguarding concerns (docs/DESIGN.md ruling 7)', () => {
    it('v2026.1: allowed for both triggers, requires safeguarding_concern_reasons, stored trimmed', () => {
      for (const trigger of ['provider', 'trainee']) {
        for (const missing of [undefined, null, '', '   ', ['x'], {}]) {
          expect(
            withdrawalBody(
              withdrawalData('v2026.1', { trigger, reasons: ['safeguarding_concerns'], safeguarding_concern_reasons: missing }),
              trainee,
              ctx26,
            ),
          ).toEqual({ ok: false, errors: [M.safeguardingConcernReasonsBlank] });
        }
        expect(
          withdrawalBody(
            withdrawalData('v2026.1', { trigger, reasons: ['safeguarding_concerns'], safeguarding_concern_reasons: ' Reported ' }),
            trainee,
            ctx26,
          ),
        ).toMatchObject({ ok: true, value: { reasons: ['safeguarding_concerns'], safeguarding_concern_reasons: 'Reported' } });
      }
    });

    it('v2026.1: safeguarding_concern_reasons is stored as null when not required', () => {
      expect(withdrawalBody(withdrawalData('v2026.1', { safeguarding_concern_reasons: 'Ignored' }), trainee, ctx26)).toMatchObject({
        ok: true,
        value: { safeguarding_concern_reasons: null },
      });
    });

    it('v2025.0: safeguarding_concerns is not an allowed reason, and safeguarding_concern_reasons is never required', () => {
      for (const trigger of ['provider', 'trainee']) {
        expect(withdrawalBody(withdrawalData('v2025.0', { trigger, reasons: ['safeguarding_concerns'] }), trainee, ctx25)).toEqual({
          ok: false,
          errors: [M.reasonsNotValidForTrigger],
        });
      }
    });

    it('v2025.0: a sent safeguarding_concern_reasons is ignored and stored null', () => {
      expect(withdrawalBody(withdrawalData('v2025.0', { safeguarding_concern_reasons: 'Reported' }), trainee, ctx25)).toMatchObject({
        ok: true,
        value: { safeguarding_concern_reasons: null },
      });
    });

    it('the message is the docs/reference/API-FACTS.md text', () => {
      expect(M.safeguardingConcernReasonsBlank).toBe('safeguarding_concern_reasons Enter the concerns');
    });
  });

  describe(`at most ${WITHDRAWAL_REASONS_MAX_ITEMS} reasons (docs/DESIGN.md ruling 14)`, () => {
    const tooLong = `reasons is too long (maximum is ${WITHDRAWAL_REASONS_MAX_ITEMS} reasons)`;

    it.each(VERSIONS)('%s: every reason a trigger allows fits, with the texts they need', (version) => {
      for (const trigger of ['trainee', 'provider'] as const) {
        const reasons = withdrawalReasonsOf(trigger, version);
        expect(reasons.length).toBeLessThanOrEqual(WITHDRAWAL_REASONS_MAX_ITEMS);
        const input = withdrawalData(version, {
          trigger,
          reasons: [...reasons],
          another_reason: 'Other',
          safeguarding_concern_reasons: 'Concerns',
        });
        expect(withdrawalBody(input, trainee, ctxOf(version))).toMatchObject({ ok: true, value: { reasons: [...reasons] } });
      }
    });

    it.each(VERSIONS)('%s: the maximum passes (repeats dropped when stored); one more is refused with the bound alone', (version) => {
      const atMax = Array.from({ length: WITHDRAWAL_REASONS_MAX_ITEMS }, (_, i) =>
        i % 2 === 0 ? 'unacceptable_behaviour' : 'did_not_make_progress',
      );
      expect(withdrawalBody(withdrawalData(version, { reasons: atMax }), trainee, ctxOf(version))).toMatchObject({
        ok: true,
        value: { reasons: ['unacceptable_behaviour', 'did_not_make_progress'] },
      });
      const over = [...atMax, 'unacceptable_behaviour'];
      expect(withdrawalBody(withdrawalData(version, { reasons: over }), trainee, ctxOf(version))).toEqual({ ok: false, errors: [tooLong] });
    });

    it('reports the bound beside the other reasons rules', () => {
      const over = Array.from({ length: WITHDRAWAL_REASONS_MAX_ITEMS + 1 }, () => 'record_added_in_error');
      expect(withdrawalBody(withdrawalData('v2026.1', { reasons: over }), trainee, ctx26)).toEqual({
        ok: false,
        errors: [M.reasonsNotValidForTrigger, tooLong],
      });
    });
  });
});
