import type { Degree, Placement } from './trainee.details';

/** Trainee states (docs/reference/API-FACTS.md §12.1; codes/trainee_state.json). */
export const TRAINEE_STATES = [
  'draft',
  'submitted_for_trn',
  'trn_received',
  'recommended_for_award',
  'withdrawn',
  'deferred',
  'awarded',
] as const;
export type TraineeStatus = (typeof TRAINEE_STATES)[number];

/** The latest withdrawal of a trainee (docs/reference/API-FACTS.md §12.4); filled in by the lifecycle actions. */
export interface Withdrawal {
  date: string;
  trigger: string;
  future_interest: string;
  reasons: string[];
  another_reason: string | null;
  safeguarding_concern_reasons: string | null;
}

/**
 * A trainee's members besides its stored record (`details`): the service's `Trainee`
 * (trainee.record.ts) is this with `details` typed from the trainee table, which the table's own
 * rows cannot import; the diversity rows and the derived answers name only the members they read.
 */
export interface TraineeBase {
  trainee_id: string;
  /** The owning provider's UKPRN (docs/spec/trainee-records-api.md: `ukprn`). */
  ukprn: string;
  record_source: string;
  state: TraineeStatus;
  trn: string | null;
  submitted_for_trn_at: string | null;
  outcome_date: string | null;
  recommended_for_award_at: string | null;
  awarded_at: string | null;
  defer_date: string | null;
  defer_reason: string | null;
  reinstate_date: string | null;
  withdrawal: Withdrawal | null;
  placements: Placement[];
  degrees: Degree[];
  /** ISO 8601 instants, UTC, milliseconds. */
  created_at: string;
  updated_at: string;
}
