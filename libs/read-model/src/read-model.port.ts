import type { ApiVersion, StoredChange } from '@app/contract';
import type { Trainee, TraineeSnapshot } from '@app/domain';
import type { StreamBuild } from './stream-build';
import type { RecordedEvent } from '@app/event-store';

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
export interface TraineeReadModel {
  /** The trainee by id (ids match case-insensitively, docs/reference/API-FACTS.md §1.10), or null. */
  getTrainee(traineeId: string): Promise<Trainee | null>;
  /**
   * The trainee (id matched case-insensitively, as getTrainee) as the served trainee projection
   * holds it, with the revision of the last event applied; null when no trainee has this id, or
   * when the served trainee projection was built by another version of the code than this one
   * (its documents need not be what this code's evolve makes; a writer then replays the stream).
   */
  getTraineeSnapshot(traineeId: string): Promise<TraineeSnapshot | null>;
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
  /**
   * The change feed (docs/change-feed.md): the provider's changes with a position above
   * `afterPosition`, oldest first, at most `limit`; only changes the store holds whole (up to its
   * checkpoint). A change belongs to the provider owning the trainee after it. Null when the served
   * store was built by a projection version before `CHANGE_FEED_SINCE_VERSION` (its feed is not whole).
   */
  listChanges(ukprn: string, afterPosition: number, limit: number): Promise<StoredChange[] | null>;
  /**
   * Every provider's changes with a position in (`afterPosition`, `upToPosition`], oldest first,
   * at most `limit`: what the webhook dispatcher reads (docs/change-feed.md "Webhooks"). Call it
   * with `upToPosition` at most the store's `checkpoint()`. Null from a store without a whole feed
   * (as `listChanges`).
   */
  changesBetween(afterPosition: number, upToPosition: number, limit: number): Promise<StoredChange[] | null>;
  /** The provider's trainees with this date of birth, route and last name (case-insensitive). */
  findDuplicateCandidates(ukprn: string, dateOfBirth: string, trainingRoute: string, lastName: string): Promise<Trainee[]>;
}

export interface ProviderRecord {
  ukprn: string;
  name: string;
  created_at: string;
}

export interface TokenRecord {
  token_id: string;
  ukprn: string;
  status: 'active' | 'revoked';
  issued_at: string;
  revoked_at: string | null;
  /** Expiry date `YYYY-MM-DD` (API-FACTS §2.4, §2.6); null for a token issued before tokens expired: never expires. */
  expires_at: string | null;
  /** The instant of the latest recorded use (API-FACTS §2.7: recorded at most once a day), or null. */
  last_used_at: string | null;
}

/** Reads of the provider/token projection (authentication and the admin CLI). */
export interface ProviderReadModel {
  /** The token whose SHA-256 hash (lower-case hex) is `tokenHash`, or null. */
  findTokenByHash(tokenHash: string): Promise<TokenRecord | null>;
  getToken(tokenId: string): Promise<TokenRecord | null>;
  listTokens(ukprn: string): Promise<TokenRecord[]>;
  getProvider(ukprn: string): Promise<ProviderRecord | null>;
  listProviders(): Promise<ProviderRecord[]>;
}

/** The write side of the projections, used only by the projector. */
export interface ProjectionStore {
  /** Position of the last event applied (0 when none). */
  checkpoint(): Promise<number>;
  /**
   * Applies a batch of events in position order and stores the checkpoint with it, atomically
   * where the store allows. Idempotent: an event at or below a document's revision is skipped.
   */
  applyBatch(events: RecordedEvent[]): Promise<void>;
  /**
   * Where the store can (SQLite): while it has applied nothing (or a first build is under way),
   * the stream build of its trainee documents, whose `finish` moves every checkpoint of the store;
   * else null (see `buildEmptyStore`, docs/architecture.md "Rebuilding by stream").
   */
  initialStreamBuild?(): Promise<StreamBuild | null>;
}

/**
 * Named checkpoints of other consumers of the event log (such as the registry process manager),
 * kept beside the projections' own. Positions only move forward.
 */
export interface CheckpointStore {
  /** The stored position of consumer `name`, 0 when none. */
  readCheckpoint(name: string): Promise<number>;
  /** Stores `position` for `name` unless a later one is stored already. */
  writeCheckpoint(name: string, position: number): Promise<void>;
}

/** A read store serving every projection: what the API, the projector and the admin CLI open. */
export interface ReadModelStore extends TraineeReadModel, ProviderReadModel, ProjectionStore, CheckpointStore {
  close(): Promise<void> | void;
}

/** Injection token of the {@link TraineeReadModel}. */
export const TRAINEE_READ_MODEL = Symbol('TRAINEE_READ_MODEL');
/** Injection token of the {@link ProviderReadModel}. */
export const PROVIDER_READ_MODEL = Symbol('PROVIDER_READ_MODEL');
