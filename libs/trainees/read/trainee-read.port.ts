import type { ApiVersion, Trainee, TraineeStatus } from '@app/trainees/record';
import type { TraineeSnapshot } from '@app/trainees/decider';

/** The `status` list filter values (docs/spec/trainee-records-api.md "GET /trainees"; docs/reference/API-FACTS.md §14.4). */
export const STATUS_FILTERS = ['course_not_yet_started', 'in_training', 'deferred', 'awarded', 'withdrawn'] as const;
export type StatusFilter = (typeof STATUS_FILTERS)[number];

/** A validated list query (docs/reference/API-FACTS.md §14). */
export interface TraineeListQuery {
  ukprn: string;
  /** Start year of the academic cycle whose trainees are listed. */
  academicCycle: number;
  statuses?: StatusFilter[];
  /** ISO 8601 instant, UTC: keeps trainees with updated_at ≥ since. */
  since?: string;
  hasTrn?: boolean;
  page: number;
  perPage: number;
  sortOrder: 'asc' | 'desc';
  /** `YYYY-MM-DD`, UTC: "now" of the status filter. */
  today: string;
}

export interface TraineeListPage {
  items: Trainee[];
  totalCount: number;
}

/**
 * A trainee's answer in one API version as stored bytes: `body` is the UTF-8 JSON of the trainee
 * with its placements and degrees (the `data` of GET /trainees/{id}); `ukprn` is the provider that
 * owns the trainee, for the ownership rule (docs/DESIGN.md property 6).
 */
export interface OwnedAnswer {
  ukprn: string;
  body: Buffer;
}

/** A list page as answer bytes: one UTF-8 JSON list item per trainee (no placements, no degrees). */
export interface TraineeAnswerPage {
  items: Buffer[];
  totalCount: number;
}

/** Reads of the trainee projection. Every GET is served from here (docs/DESIGN.md "The shape"). */
/** A trainee as the retention policy sees it: who, whose, and when its course ended (`courseEndedOn`, libs/personal-data/erasure). */
export interface TraineeEnding {
  trainee_id: string;
  ukprn: string;
  state: TraineeStatus;
  /** `YYYY-MM-DD`. */
  ended_on: string;
}

export interface TraineeReadModel {
  /**
   * One page of every provider's trainees, in trainee-id order (binary) after `afterId` (null: from
   * the first), at most `limit`, each with the date its course ended (docs/operations.md "Retention").
   * Reads every trainee: for the retention run, never for a request.
   */
  listEndings(afterId: string | null, limit: number): Promise<TraineeEnding[]>;
  /** The trainee by id (ids match case-insensitively, docs/reference/API-FACTS.md §1.10), or null. */
  getTrainee(traineeId: string): Promise<Trainee | null>;
  /**
   * The trainee (id matched case-insensitively, as getTrainee) as the served trainee projection
   * holds it, with the revision of the last event applied; null when no trainee has this id, or
   * when the served trainee projection was built by another version of the code than this one
   * (its documents need not be what this code's evolve makes; a writer then replays the stream).
   */
  getTraineeSnapshot(traineeId: string): Promise<TraineeSnapshot | null>;
  /**
   * The ids of every trainee the served trainee projection holds for the provider (every trainee
   * registered for it and not erased, whatever its state or cycle), in trainee-id order (binary):
   * what a provider's trainees at an instant are replayed from (docs/DESIGN.md "A provider's
   * trainees at an instant"). For the as-of list and the census report.
   */
  providerTraineeIds(ukprn: string): Promise<string[]>;
  /** One page of a provider's trainees of one academic cycle, ordered by updated_at then age. */
  listTrainees(query: TraineeListQuery): Promise<TraineeListPage>;
  /**
   * The trainee's answer in `version` (id matched case-insensitively), or null: bytes the
   * projection stored when the trainee last changed (docs/DESIGN.md "Answers stored as bytes"),
   * equal to `serializeTrainee(trainee, {nested: true})` of that version as JSON.
   */
  getTraineeAnswer(traineeId: string, version: ApiVersion): Promise<OwnedAnswer | null>;
  /** The page of {@link listTrainees} as list items of `version`, stored bytes as for getTraineeAnswer. */
  listTraineeAnswers(query: TraineeListQuery, version: ApiVersion): Promise<TraineeAnswerPage>;
  /** The provider's trainees with this date of birth, route and last name (case-insensitive). */
  findDuplicateCandidates(ukprn: string, dateOfBirth: string, trainingRoute: string, lastName: string): Promise<Trainee[]>;
}

/** Injection token of the {@link TraineeReadModel}. */
export const TRAINEE_READ_MODEL = Symbol('TRAINEE_READ_MODEL');
