import { addMonths, addYears, isRealCalendarDate, parseIsoDate } from './calendar-dates';

describe('ISO 8601 dates (docs/reference/API-FACTS.md §6.5)', () => {
  it.each([
    ['2024-02-29', '2024-02-29'],
    ['20240229', '2024-02-29'],
    [' 2024-01-01 ', '2024-01-01'],
    ['2024-060', '2024-02-29'],
    ['2024060', '2024-02-29'],
    ['2023-365', '2023-12-31'],
    ['2024-366', '2024-12-31'],
    ['2024-W01-1', '2024-01-01'],
    ['2009-W01-1', '2008-12-29'],
    ['2009-W53-7', '2010-01-03'],
    ['2020-W53-7', '2021-01-03'],
    ['2026W477', '2026-11-22'],
    ['2026-w47-7', '2026-11-22'],
  ])('parses %p as %s', (input, expected) => {
    expect(parseIsoDate(input)).toBe(expected);
    expect(isRealCalendarDate(input)).toBe(true);
  });

  it.each([
    ['2023-02-30'],
    ['2023-02-29'],
    ['2023-13-01'],
    ['2023-00-10'],
    ['2023-04-31'],
    ['2023-366'],
    ['2023-000'],
    ['2021-W53-1'],
    ['2021-W00-1'],
    ['2021-W10-8'],
    ['2024-1-1'],
    ['24-01-01'],
    ['2024-01-01T00:00:00Z'],
    ['01/02/2024'],
    [''],
    [20240101],
    [null],
    [undefined],
    [{}],
    [['2024-01-01']],
  ])('rejects %p', (input) => {
    expect(parseIsoDate(input)).toBeNull();
    expect(isRealCalendarDate(input)).toBe(false);
  });

  it('adds months and years with the day clamped to the month', () => {
    expect(addMonths('2024-01-31', 1)).toBe('2024-02-29');
    expect(addMonths('2026-11-22', 1)).toBe('2026-12-22');
    expect(addMonths('2026-12-22', 1)).toBe('2027-01-22');
    expect(addMonths('2026-01-15', -2)).toBe('2025-11-15');
    expect(addYears('2024-02-29', -1)).toBe('2023-02-28');
    expect(addYears('2026-11-22', -16)).toBe('2010-11-22');
  });
});
