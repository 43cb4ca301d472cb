import { MISSING_DATA_MESSAGE } from '@app/trainees/decider';
import { deferralBody } from '../testing/bodies';
import { ctx25, ctx26 } from '../testing/lifecycle-fixtures';

/** The defer body, through the checks the API runs. */

/** The messages of docs/reference/API-FACTS.md §12.3, byte for byte. */
const DEFERRAL_MESSAGES = {
  deferDateBlank: "defer_date can't be blank",
  deferDateInvalid: 'defer_date is invalid',
  deferReasonTooLong: 'defer_reason is too long (maximum is 500 characters)',
  deferReasonInvalid: 'defer_reason is invalid',
};

describe('deferralBody (docs/spec/trainee-records-api.md "POST /trainees/{trainee_id}/defer", "Limits"; docs/reference/API-FACTS.md §12.3)', () => {
  it('accepts a date and a reason and stores them, keyed as the event has always held them', () => {
    const result = deferralBody({ defer_date: '2026-02-01', defer_reason: 'Illness' }, ctx25);
    expect(result.ok && Object.keys(result.value)).toEqual(['defer_date', 'defer_reason']);
    expect(result).toEqual({
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
    expect(deferralBody({ defer_date: raw }, ctx26)).toEqual({ ok: true, value: { defer_date: stored, defer_reason: null } });
  });

  it('has no range check: far past, far future and before itt_start_date are all accepted', () => {
    for (const d of ['1950-01-01', '2099-12-31', '2025-08-31']) {
      expect(deferralBody({ defer_date: d }, ctx25)).toMatchObject({ ok: true, value: { defer_date: d } });
    }
  });

  it.each([
    [{}, [MISSING_DATA_MESSAGE]],
    [{ defer_date: null, defer_reason: null }, [DEFERRAL_MESSAGES.deferDateBlank]],
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
    expect(deferralBody(input, ctx25)).toEqual({ ok: false, errors });
  });

  describe('defer_reason', () => {
    it.each([[undefined], [null], [''], ['   '], [false]])('blank %j is stored as null', (reason) => {
      expect(deferralBody({ defer_date: '2026-02-01', defer_reason: reason }, ctx25)).toEqual({
        ok: true,
        value: { defer_date: '2026-02-01', defer_reason: null },
      });
    });

    it('accepts exactly 500 characters and refuses 501', () => {
      expect(deferralBody({ defer_date: '2026-02-01', defer_reason: 'a'.repeat(500) }, ctx25)).toMatchObject({ ok: true });
      expect(deferralBody({ defer_date: '2026-02-01', defer_reason: 'a'.repeat(501) }, ctx25)).toEqual({
        ok: false,
        errors: [DEFERRAL_MESSAGES.deferReasonTooLong],
      });
    });

    it('counts characters (code points), not UTF-16 units', () => {
      const emoji = '😀'.repeat(500); // 1000 UTF-16 units
      expect(deferralBody({ defer_date: '2026-02-01', defer_reason: emoji }, ctx25)).toMatchObject({
        ok: true,
        value: { defer_reason: emoji },
      });
      expect(deferralBody({ defer_date: '2026-02-01', defer_reason: `${emoji}😀` }, ctx25)).toMatchObject({ ok: false });
    });

    it('reads a JSON number as its text and refuses other non-strings', () => {
      expect(deferralBody({ defer_date: '2026-02-01', defer_reason: 42 }, ctx25)).toMatchObject({
        value: { defer_reason: '42' },
      });
      for (const bad of [true, ['x'], { a: 1 }]) {
        expect(deferralBody({ defer_date: '2026-02-01', defer_reason: bad }, ctx25)).toEqual({
          ok: false,
          errors: [DEFERRAL_MESSAGES.deferReasonInvalid],
        });
      }
    });

    it('lists every failed rule: blank date and too long reason', () => {
      expect(deferralBody({ defer_reason: 'a'.repeat(501) }, ctx26)).toEqual({
        ok: false,
        errors: [DEFERRAL_MESSAGES.deferDateBlank, DEFERRAL_MESSAGES.deferReasonTooLong],
      });
    });
  });

  it.each([[null], ['2026-02-01'], [42], [[{ defer_date: '2026-02-01' }]], [true], [undefined]])(
    'a non-object body %j is missing data (docs/reference/API-FACTS.md §5.1) and does not throw',
    (input) => {
      expect(deferralBody(input, ctx25)).toEqual({ ok: false, errors: [MISSING_DATA_MESSAGE] });
    },
  );

  it('behaves the same in both versions', () => {
    for (const input of [{ defer_date: '20260201', defer_reason: ' x ' }, { defer_date: 'x' }, {}]) {
      expect(deferralBody(input, ctx25)).toEqual(deferralBody(input, ctx26));
    }
  });
});
