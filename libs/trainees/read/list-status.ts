/** The list's `status` filter as data, from which the JS, SQLite and MongoDB filters are made (docs/DESIGN.md "Read models"). */
import type { Trainee, TraineeStatus } from '@app/trainees/record';
import { STATUS_FILTERS, type StatusFilter } from './trainee-read.port';

/** What one `status` value keeps: a trainee whose state and start both pass. */
export interface StatusRule {
  readonly states: { readonly in: readonly TraineeStatus[] } | { readonly notIn: readonly TraineeStatus[] };
  /** Where `itt_start_date` stands against today (both `YYYY-MM-DD`, so string order is date order); absent: anywhere. */
  readonly start?: 'after_today' | 'on_or_before_today';
}

/** The rule of each `status` value (docs/reference/API-FACTS.md §14.4). */
export const STATUS_RULES: Readonly<Record<StatusFilter, StatusRule>> = {
  course_not_yet_started: { states: { notIn: ['draft', 'deferred', 'withdrawn'] }, start: 'after_today' },
  in_training: { states: { in: ['submitted_for_trn', 'trn_received', 'recommended_for_award'] }, start: 'on_or_before_today' },
  deferred: { states: { in: ['deferred'] } },
  awarded: { states: { in: ['awarded'] } },
  withdrawn: { states: { in: ['withdrawn'] } },
};

/** Whether the trainee matches one `status` filter value on `today` (`YYYY-MM-DD`, UTC): its {@link STATUS_RULES} entry. */
export function matchesStatus(trainee: Trainee, status: StatusFilter, today: string): boolean {
  const { states, start } = STATUS_RULES[status];
  if ('in' in states ? !states.in.includes(trainee.state) : states.notIn.includes(trainee.state)) return false;
  if (start === undefined) return true;
  const itt = trainee.details.itt_start_date;
  return start === 'after_today' ? itt > today : itt <= today;
}

/** The first {@link STATUS_FILTERS} value the trainee matches on `today`, or null (a draft, say). */
export function listStatusOf(trainee: Trainee, today: string): StatusFilter | null {
  for (const s of STATUS_FILTERS) {
    if (matchesStatus(trainee, s, today)) return s;
  }
  return null;
}
