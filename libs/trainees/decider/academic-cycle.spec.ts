import { academicCycleLabel, academicCycleOf, currentAcademicCycle, isKnownAcademicCycle, startCycleOf } from './academic-cycle';

describe('academic cycles (docs/reference/API-FACTS.md §15)', () => {
  it.each([
    ['2025-07-31', 2024],
    ['2025-08-01', 2025],
    ['2025-12-31', 2025],
    ['2026-01-01', 2025],
    ['2026-07-31', 2025],
    ['2026-08-01', 2026],
    ['2009-08-01', 2009],
  ])('academicCycleOf(%s) = %i (1 August – 31 July)', (date, cycle) => {
    expect(academicCycleOf(date)).toBe(cycle);
  });

  it('currentAcademicCycle is the cycle holding today', () => {
    expect(currentAcademicCycle('2026-11-22')).toBe(2026);
    expect(currentAcademicCycle('2026-07-31')).toBe(2025);
  });

  it.each([
    [2008, false],
    [2009, true],
    [2025, true],
    [2030, true],
    [2031, false],
    [2025.5, false],
  ])('isKnownAcademicCycle(%d) = %s (2009–2030)', (year, known) => {
    expect(isKnownAcademicCycle(year)).toBe(known);
  });

  it('labels a cycle "YYYY to YYYY"', () => {
    expect(academicCycleLabel(2025)).toBe('2025 to 2026');
  });

  describe('startCycleOf (docs/reference/API-FACTS.md §14.2)', () => {
    it('uses trainee_start_date first', () => {
      expect(startCycleOf({ trainee_start_date: '2024-09-01', itt_start_date: '2025-09-01' }, '2026-11-22')).toBe(2024);
    });
    it('falls back to itt_start_date when trainee_start_date is absent or not a date', () => {
      expect(startCycleOf({ itt_start_date: '2025-09-01' }, '2026-11-22')).toBe(2025);
      expect(startCycleOf({ trainee_start_date: 'nope', itt_start_date: '2025-09-01' }, '2026-11-22')).toBe(2025);
    });
    it('falls back to today + 1 month', () => {
      expect(startCycleOf({}, '2026-07-15')).toBe(2026);
      expect(startCycleOf({}, '2026-06-30')).toBe(2025);
      expect(startCycleOf({ trainee_start_date: null, itt_start_date: '' }, '2026-11-22')).toBe(2026);
    });
  });
});
