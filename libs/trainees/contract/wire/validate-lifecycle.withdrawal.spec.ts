import { MISSING_DATA_MESSAGE, parseIsoDateOrDateTime } from '@app/trainees/decider';
import { contractFor } from '../contract';
import { withdrawalBody } from '../testing/bodies';
import { ISO_DATE_OR_DATE_TIME_MAX_CHARS } from './constraints';
import { ctx25, ctx26, ctxOf, DATE_KEY, makeTrainee, ODD_VALUES, VERSIONS, withdrawalData } from '../testing/lifecycle-fixtures';

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
 * The withdraw body as a whole, its date and its future_interest, through the checks the API runs.
 */

describe('withdrawalBody: the body, its date and future_interest (docs/spec/trainee-records-api.md "POST /trainees/{trainee_id}/withdraw"; docs/reference/API-FACTS.md §12.4)', () => {
  const trainee = makeTrainee({ itt_start_date: '2025-09-01' });
  const M = WITHDRAWAL_MESSAGES;

  describe.each(VERSIONS)('%s', (version) => {
    const ctx = ctxOf(version);
    const label = DATE_KEY[version];

    it('accepts a valid body and returns the withdrawal to store, keyed as its event has always held it', () => {
      const result = withdrawalBody(withdrawalData(version), trainee, ctx);
      expect(result.ok && Object.keys(result.value)).toEqual([
        'date',
        'trigger',
        'future_interest',
        'reasons',
        'another_reason',
        'safeguarding_concern_reasons',
      ]);
      expect(result).toEqual({
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
      expect(contractFor(version).rules.label('withdrawal_date')).toBe(label);
      expect(M.dateBlank(label)).toBe(`${label} Choose a withdrawal date`);
      expect(M.dateInvalid(label)).toBe(`${label} Choose a valid withdrawal date`);
      expect(M.dateBeforeIttStart(label)).toBe(`${label} must be after itt_start_date`);
    });

    it("ignores the other version's date key, so sending it counts as missing", () => {
      const other = version === 'v2025.0' ? 'withdrawal_date' : 'withdraw_date';
      const input = withdrawalData(version);
      delete input[label];
      input[other] = '2026-01-15';
      expect(withdrawalBody(input, trainee, ctx)).toEqual({ ok: false, errors: [`${label} Choose a withdrawal date`] });
    });

    it.each([[undefined], [null], [''], ['   '], [[]], [{}]])('a blank date %j → "Choose a withdrawal date"', (date) => {
      expect(withdrawalBody(withdrawalData(version, { [label]: date }), trainee, ctx)).toEqual({
        ok: false,
        errors: [`${label} Choose a withdrawal date`],
      });
    });

    it(`reads a date of ${ISO_DATE_OR_DATE_TIME_MAX_CHARS} characters and answers a longer one as invalid, quoting none of it`, () => {
      const padded = (n: number) => `2026-01-15T10:20:30.${'1'.repeat(n - '2026-01-15T10:20:30.Z'.length)}Z`;
      expect(withdrawalBody(withdrawalData(version, { [label]: padded(ISO_DATE_OR_DATE_TIME_MAX_CHARS) }), trainee, ctx)).toMatchObject({
        ok: true,
        value: { date: '2026-01-15' },
      });
      expect(withdrawalBody(withdrawalData(version, { [label]: padded(ISO_DATE_OR_DATE_TIME_MAX_CHARS + 1) }), trainee, ctx)).toEqual({
        ok: false,
        errors: [`${label} Choose a valid withdrawal date`],
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
      expect(withdrawalBody(withdrawalData(version, { [label]: raw }), trainee, ctx)).toMatchObject({ ok: true, value: { date: stored } });
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
      expect(withdrawalBody(withdrawalData(version, { [label]: raw }), trainee, ctx)).toEqual({
        ok: false,
        errors: [`${label} Choose a valid withdrawal date`],
      });
    });

    it('allows the same day as itt_start_date and refuses the day before', () => {
      expect(withdrawalBody(withdrawalData(version, { [label]: '2025-09-01' }), trainee, ctx)).toMatchObject({
        ok: true,
        value: { date: '2025-09-01' },
      });
      expect(withdrawalBody(withdrawalData(version, { [label]: '2025-08-31' }), trainee, ctx)).toEqual({
        ok: false,
        errors: [`${label} must be after itt_start_date`],
      });
      // A date-time whose UTC date is the day before.
      expect(withdrawalBody(withdrawalData(version, { [label]: '2025-09-01T00:30:00+01:00' }), trainee, ctx)).toEqual({
        ok: false,
        errors: [`${label} must be after itt_start_date`],
      });
    });

    it('has no future check', () => {
      expect(withdrawalBody(withdrawalData(version, { [label]: '2099-12-31' }), trainee, ctx)).toMatchObject({
        ok: true,
        value: { date: '2099-12-31' },
      });
    });

    describe('future_interest', () => {
      it.each([['yes'], ['no'], ['unknown']])('%s is accepted and stored', (fi) => {
        expect(withdrawalBody(withdrawalData(version, { future_interest: fi }), trainee, ctx)).toMatchObject({
          ok: true,
          value: { future_interest: fi },
        });
      });

      it.each([[undefined], [null], [''], ['maybe'], ['Yes'], [true], [0], [['yes']]])('%j → "not included in the list"', (fi) => {
        expect(withdrawalBody(withdrawalData(version, { future_interest: fi }), trainee, ctx)).toEqual({
          ok: false,
          errors: [M.futureInterestNotInList],
        });
      });
    });
  });

  it('lists every failed rule in a stable order', () => {
    const input = {
      withdrawal_date: '2025-08-01',
      trigger: 'someone',
      future_interest: 'perhaps',
      reasons: ['safeguarding_concerns', 'trainee_chose_to_withdraw_another_reason', 'record_added_in_error'],
    };
    expect(withdrawalBody(input, trainee, ctx26)).toEqual({
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
    expect(withdrawalBody({ ...input, withdraw_date: '2025-08-01', withdrawal_date: undefined }, trainee, ctx25)).toEqual({
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

  it.each(VERSIONS)(
    '%s: a body of blank fields lists the four required-field messages; an empty or non-object one is missing data (docs/reference/API-FACTS.md §5.1); neither throws',
    (version) => {
      const blank = { [DATE_KEY[version]]: null, trigger: null, future_interest: null, reasons: null };
      expect(withdrawalBody(blank, trainee, ctxOf(version))).toEqual({
        ok: false,
        errors: [
          `${DATE_KEY[version]} Choose a withdrawal date`,
          'reasons Choose one or more reasons why the trainee withdrew from the course',
          'trigger is not included in the list',
          'future_interest is not included in the list',
        ],
      });
      for (const input of [{}, null, undefined, 'withdraw', 42, [], [withdrawalData(version)], true]) {
        expect(withdrawalBody(input, trainee, ctxOf(version))).toEqual({ ok: false, errors: [MISSING_DATA_MESSAGE] });
      }
    },
  );

  it('never throws on any JSON value in any field, and a success has the right types', () => {
    for (const version of VERSIONS) {
      for (const field of [DATE_KEY[version], 'trigger', 'future_interest', 'reasons', 'another_reason', 'safeguarding_concern_reasons']) {
        for (const value of ODD_VALUES) {
          const input = withdrawalData(version, {
            reasons: ['trainee_chose_to_withdraw_another_reason'],
            another_reason: 'x',
            [field]: value,
          });
          const result = withdrawalBody(input, trainee, ctxOf(version));
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
    expect(withdrawalBody(parsed, trainee, ctx26)).toEqual({ ok: false, errors: [M.triggerNotInList] });
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
