/**
 * The teacher-qualification registry: TRNs for submitted trainees, QTS/EYTS awards for recommended ones (API-FACTS §12.1, §12.5).
 * Each request's idempotency key is the id of the event that caused it, so a repeat after a crash is answered as the first time.
 */
export interface TrnRequest {
  idempotency_key: string;
  trainee_id: string;
  provider_ukprn: string;
  first_names: string;
  last_name: string;
  date_of_birth: string;
  email: string;
}

export interface AwardRequest {
  idempotency_key: string;
  trainee_id: string;
  trn: string;
  /** `YYYY-MM-DD`: when the trainee met the standards. */
  outcome_date: string;
}

/** When a request arose, not sent over HTTP: a simulated registry counts its delay from it. */
export interface RegistryCallContext {
  /** ISO 8601 UTC: `occurredAt` of `TraineeSubmittedForTrn`, or `at` of `TraineeRecommendedForAward`. */
  requestedAt?: string;
}

/** A call's `signal` abandons it (it then rejects), when stopping. */
export interface TeacherRegistry {
  /** Resolves with the 7-digit TRN. */
  requestTrn(request: TrnRequest, signal?: AbortSignal, context?: RegistryCallContext): Promise<{ trn: string }>;
  /** Resolves with the award's instant, ISO 8601 UTC. */
  recommendForAward(request: AwardRequest, signal?: AbortSignal, context?: RegistryCallContext): Promise<{ awarded_at: string }>;
}

/** Transient: the caller retries later. */
export class RegistryUnavailable extends Error {}
