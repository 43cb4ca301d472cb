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

/**
 * A trainee's members but `details` and the lifecycle members, which `Trainee` (lifecycle.fields.ts) adds: they derive from the
 * trainee table, whose rows cannot import them.
 */
export interface TraineeBase {
  trainee_id: string;
  /** The owning provider's UKPRN (docs/spec/trainee-records-api.md: `ukprn`). */
  ukprn: string;
  record_source: string;
  state: TraineeStatus;
  trn: string | null;
  submitted_for_trn_at: string | null;
  recommended_for_award_at: string | null;
  awarded_at: string | null;
  reinstate_date: string | null;
  placements: Placement[];
  degrees: Degree[];
  /** ISO 8601 instants, UTC, milliseconds. */
  created_at: string;
  updated_at: string;
}
