/**
 * The teacher-qualification registry (docs/spec/trainee-records-api.md, naming note: `registry`): it issues TRNs for trainees
 * submitted to it and awards QTS/EYTS to recommended trainees (docs/reference/API-FACTS.md §12.1, §12.5). Every
 * request carries an idempotency key (the id of the event that caused it), so a request repeated
 * after a crash is recognised by the registry and answered as the first time.
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
  /** `YYYY-MM-DD`: the date the trainee met the standards. */
  outcome_date: string;
}

/**
 * When a registry request arose, as distinct from when it is sent: not part of the request a
 * registry receives over HTTP, but a simulated registry that answers after a delay counts the
 * delay from here (see sandbox-registry.ts).
 */
export interface RegistryCallContext {
  /**
   * ISO 8601 instant, UTC: the trainee's submission for a TRN (`occurredAt` of its
   * `TraineeSubmittedForTrn`), or its recommendation for an award (`at` of its
   * `TraineeRecommendedForAward`).
   */
  requestedAt?: string;
}

/**
 * Each call may be given a signal that abandons it (it then rejects); used when stopping; and a
 * {@link RegistryCallContext} saying when the request arose.
 */
export interface TeacherRegistry {
  /** Submits a trainee for a TRN; resolves with the TRN (7 digits). */
  requestTrn(request: TrnRequest, signal?: AbortSignal, context?: RegistryCallContext): Promise<{ trn: string }>;
  /** Reports a recommendation; resolves with the award's instant (ISO 8601 UTC). */
  recommendForAward(request: AwardRequest, signal?: AbortSignal, context?: RegistryCallContext): Promise<{ awarded_at: string }>;
}

/** The registry could not be reached or refused for a transient reason; the caller retries later. */
export class RegistryUnavailable extends Error {}
