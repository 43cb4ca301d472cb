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
  /**
   * Words (`searchWords`) each in the trainee's first names, last name or provider trainee id, ignoring case (`matchesSearchWords`);
   * absent or empty: no search. The uploads page's only: the API's list never searches, and the list at an instant, whose scan reads
   * no personal field, refuses it.
   */
  search?: readonly string[];
}

export interface TraineeListPage {
  items: Trainee[];
  totalCount: number;
}

/** A trainee's stored answer in one version: `body`, the UTF-8 JSON `data` of GET /trainees/{id}; `ukprn`, its owner (property 6). */
export interface OwnedAnswer {
  ukprn: string;
  body: Buffer;
}

/** A list page as answer bytes: one UTF-8 JSON list item per trainee (no placements, no degrees). */
export interface TraineeAnswerPage {
  items: Buffer[];
  totalCount: number;
}

/** A trainee as the retention policy sees it (`courseEndedOn`, libs/personal-data/erasure). */
export interface TraineeEnding {
  trainee_id: string;
  ukprn: string;
  state: TraineeStatus;
  /** `YYYY-MM-DD`. */
  ended_on: string;
}

/** Reads of the trainee projection, which serves every GET (docs/DESIGN.md "The shape"). */
export interface TraineeReadModel {
  /** Every provider's trainees in id order (binary) after `afterId` (null: from the first), at most `limit`: the retention run's. */
  listEndings(afterId: string | null, limit: number): Promise<TraineeEnding[]>;
  /** The trainee by id (ids match case-insensitively, docs/reference/API-FACTS.md §1.10), or null. */
  getTrainee(traineeId: string): Promise<Trainee | null>;
  /** With the last revision applied; null when unknown or the served projection was built by another code version (then replay). */
  getTraineeSnapshot(traineeId: string): Promise<TraineeSnapshot | null>;
  /** Every trainee registered for the provider and not erased, in id order (binary): what the as-of list and the census replay. */
  providerTraineeIds(ukprn: string): Promise<string[]>;
  /** One page of a provider's trainees of one academic cycle, ordered by updated_at then age; a search reads each of the cycle's. */
  listTrainees(query: TraineeListQuery): Promise<TraineeListPage>;
  /** Bytes stored when the trainee last changed (docs/DESIGN.md "Answers stored as bytes"), or null; ids match case-insensitively. */
  getTraineeAnswer(traineeId: string, version: ApiVersion): Promise<OwnedAnswer | null>;
  /** The page of {@link listTrainees} as list items of `version`, stored bytes as for getTraineeAnswer. */
  listTraineeAnswers(query: TraineeListQuery, version: ApiVersion): Promise<TraineeAnswerPage>;
  /** The provider's trainees with this date of birth, route and last name (case-insensitive). */
  findDuplicateCandidates(ukprn: string, dateOfBirth: string, trainingRoute: string, lastName: string): Promise<Trainee[]>;
}

export const TRAINEE_READ_MODEL = Symbol('TRAINEE_READ_MODEL');
