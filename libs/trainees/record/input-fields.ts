/**
 * The typed fields of the lifecycle actions' bodies (defer, withdraw, recommend), as the contract
 * hands them to the decider after the wire checks. The trainee's, placement's and degree's typed
 * fields are derived from their record tables (trainee.record.ts and beside it).
 *
 * One convention for every field: `undefined` = the key was not sent, or its value failed a wire
 * check (a problem then names it); `null` = sent as JSON null; `''` = sent blank (an empty or
 * all-white-space string, `false`, `[]` or `{}`: Ruby's `blank?`, docs/reference/API-FACTS.md §7.4);
 * otherwise the well-formed value: text as sent (a JSON number as its decimal text), dates as
 * `YYYY-MM-DD`, codes as sent (known to the version's code book).
 */

/** `POST …/defer` (docs/reference/API-FACTS.md §12.3): every rule is a wire check. */
export interface DeferralFields {
  /** `YYYY-MM-DD`. */
  defer_date?: string;
  /** As sent; null when absent or blank. */
  defer_reason?: string | null;
}

/** `POST …/withdraw` (docs/reference/API-FACTS.md §12.4), the date under its canonical name. */
export interface WithdrawalFields {
  /** `YYYY-MM-DD` (the UTC date of a date-time with a zone). */
  withdrawal_date?: string;
  trigger?: string;
  future_interest?: string;
  /** The reasons sent, in order, without repeats. */
  reasons?: readonly string[];
  another_reason?: string | null;
  safeguarding_concern_reasons?: string | null;
}

/** `POST …/recommend-for-qts` (docs/reference/API-FACTS.md §12.5). */
export interface RecommendationFields {
  /** `YYYY-MM-DD`. */
  qts_standards_met_date?: string;
}
