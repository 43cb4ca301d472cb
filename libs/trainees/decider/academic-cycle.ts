/** Academic cycles (docs/reference/API-FACTS.md §15.1: 1 August to 31 July, named by their start year); "today" is `YYYY-MM-DD`, UTC. */
import { addMonths, parseIsoDate, splitDate } from '@app/calendar';

export const FIRST_ACADEMIC_CYCLE = 2009;
export const LAST_ACADEMIC_CYCLE = 2030;

/** Start year of the cycle holding `date` (`YYYY-MM-DD`): 2025-07-31 → 2024, 2025-08-01 → 2025. */
export function academicCycleOf(date: string): number {
  const { year, month } = splitDate(date);
  return month >= 8 ? year : year - 1;
}

/** Start year of the cycle holding `today` (`YYYY-MM-DD`, UTC). */
export function currentAcademicCycle(today: string): number {
  return academicCycleOf(today);
}

/** True for the cycles that exist: start years {@link FIRST_ACADEMIC_CYCLE}–{@link LAST_ACADEMIC_CYCLE}. */
export function isKnownAcademicCycle(year: number): boolean {
  return Number.isInteger(year) && year >= FIRST_ACADEMIC_CYCLE && year <= LAST_ACADEMIC_CYCLE;
}

/** Label of the cycle starting in `year`: `2025 to 2026`, as the §8 funding messages quote it. */
export function academicCycleLabel(year: number): string {
  return `${year} to ${year + 1}`;
}

/**
 * The trainee's start cycle (§14.2, §8): that of trainee_start_date, else itt_start_date, else today + 1 month (a date that does not
 * parse counts as absent); possibly outside the known cycles.
 */
export function startCycleOf(dates: { trainee_start_date?: unknown; itt_start_date?: unknown }, today: string): number {
  const start = parseIsoDate(dates.trainee_start_date) ?? parseIsoDate(dates.itt_start_date) ?? addMonths(today, 1);
  return academicCycleOf(start);
}
