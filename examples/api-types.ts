/* Generated from the served OpenAPI document of v2026.1 by examples/generate-types.ts; do not edit. */

export interface ChangesPage {
  /**
   * @maxItems 1000
   */
  data: Change[];
  /**
   * Send it as `after` for the next page (the last change's cursor, or the one sent).
   */
  next_cursor: string;
  /**
   * More changes are stored after this page now.
   */
  has_more: boolean;
}
/**
 * One change to a trainee of the provider (docs/change-feed.md "What a change holds"); also the body of each webhook delivery.
 */
export interface Change {
  /**
   * Opaque, and good for this provider only: send it back as `after` to read the changes after this one.
   */
  cursor: string;
  /**
   * UTC, milliseconds.
   */
  occurred_at: string;
  trainee_id: string;
  /**
   * What happened (as the trainee history names it).
   */
  type:
    | "TraineeRegistered"
    | "TraineeSubmittedForTrn"
    | "TraineeUpdated"
    | "PlacementAdded"
    | "PlacementUpdated"
    | "PlacementRemoved"
    | "DegreeAdded"
    | "DegreeUpdated"
    | "DegreeRemoved"
    | "TraineeDeferred"
    | "TraineeWithdrawn"
    | "TraineeRecommendedForAward"
    | "TrnIssued"
    | "TraineeAwarded";
  /**
   * Names (in this version) of the fields whose answered value changed: the trainee's, or the placement's or degree's for a placement or degree change; `updated_at` is not listed.
   */
  changed_fields: string[];
  /**
   * Only for a placement change.
   */
  placement_id?: string;
  /**
   * Only for a degree change.
   */
  degree_id?: string;
  /**
   * The trainee's state after the change.
   */
  state:
    "draft" | "submitted_for_trn" | "trn_received" | "recommended_for_award" | "withdrawn" | "deferred" | "awarded";
  /**
   * The trainee's TRN after the change.
   */
  trn: string | null;
}
/**
 * An invalid parameter of the list (docs/spec/trainee-records-api.md "GET /trainees").
 */
export interface ListQueryErrors {
  message: string;
  errors: {
    [k: string]: string[];
  };
}
