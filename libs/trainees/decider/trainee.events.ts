import { registerEventSchemas } from '@app/event-sourcing';
import type { Degree, LifecycleBody, LifecycleRecord, Placement, TraineeDetails } from '@app/trainees/record';
import type { RecordSource } from './trainee.commands';

/** An event of `trainee-<trainee_id>` (docs/DESIGN.md "Event envelope"); `at`: ISO 8601, UTC, ms, so `evolve` needs no clock. */
export interface TraineeEventOf<T extends string, D extends object = object> {
  type: T;
  data: { trainee_id: string } & D & { at: string };
}

/** A trainee registered by its provider, with its stored record (its state draft). */
export type TraineeRegistered = TraineeEventOf<
  'TraineeRegistered',
  { ukprn: string; record_source: RecordSource; details: TraineeDetails }
>;

/** The trainee was submitted to the registry for a TRN (docs/reference/API-FACTS.md §12.1; state submitted_for_trn). */
export type TraineeSubmittedForTrn = TraineeEventOf<'TraineeSubmittedForTrn'>;

/** Fields changed by a PUT/PATCH; `changes` holds only the canonical fields whose value changed. */
export type TraineeUpdated = TraineeEventOf<'TraineeUpdated', { changes: Partial<TraineeDetails> }>;

/** A placement added, whole. */
export type PlacementAdded = TraineeEventOf<'PlacementAdded', { placement: Placement }>;

/** A placement after a PUT/PATCH: the whole placement as it now stands. */
export type PlacementUpdated = TraineeEventOf<'PlacementUpdated', { placement: Placement }>;

/** A placement removed, by id. */
export type PlacementRemoved = TraineeEventOf<'PlacementRemoved', { placement_id: string }>;

/** A degree added, whole. */
export type DegreeAdded = TraineeEventOf<'DegreeAdded', { degree: Degree }>;

/** A degree after a PUT/PATCH: the whole degree as it now stands. */
export type DegreeUpdated = TraineeEventOf<'DegreeUpdated', { degree: Degree }>;

/** A degree removed, by id. */
export type DegreeRemoved = TraineeEventOf<'DegreeRemoved', { degree_id: string }>;

/** Deferred (docs/spec/trainee-records-api.md "POST /trainees/{trainee_id}/defer"; docs/reference/API-FACTS.md §12.3). */
export type TraineeDeferred = TraineeEventOf<'TraineeDeferred', LifecycleRecord<'deferral'>>;

/** Withdrawn (docs/spec/trainee-records-api.md "POST /trainees/{trainee_id}/withdraw"; docs/reference/API-FACTS.md §12.4). */
export type TraineeWithdrawn = TraineeEventOf<'TraineeWithdrawn', LifecycleRecord<'withdrawal'>>;

/** Recommended for QTS/EYTS (docs/reference/API-FACTS.md §12.5); `at` is recommended_for_award_at. */
export type TraineeRecommendedForAward = TraineeEventOf<'TraineeRecommendedForAward', LifecycleRecord<'recommendation'>>;

/** The registry issued a TRN (docs/reference/API-FACTS.md §12.1). */
export type TrnIssued = TraineeEventOf<'TrnIssued', { trn: string }>;

/** The registry awarded QTS/EYTS (docs/reference/API-FACTS.md §12.5): `awarded_at` is the instant of the award. */
export type TraineeAwarded = TraineeEventOf<'TraineeAwarded', { awarded_at: string }>;

/** Erased (docs/DESIGN.md "Personal data", ruling 15): by whom and why, never who; its data key is destroyed right after. */
export type TraineeErased = TraineeEventOf<
  'TraineeErased',
  {
    /** Why: a request reference or the retention policy applied; at most 500 characters, in the clear. */
    reason: string;
    /** Who erased it: the operator, as the admin CLI was told (`--by`) or its user. */
    erased_by: string;
  }
>;

export type TraineeEvent =
  | TraineeRegistered
  | TraineeSubmittedForTrn
  | TraineeUpdated
  | PlacementAdded
  | PlacementUpdated
  | PlacementRemoved
  | DegreeAdded
  | DegreeUpdated
  | DegreeRemoved
  | TraineeDeferred
  | TraineeWithdrawn
  | TraineeRecommendedForAward
  | TrnIssued
  | TraineeAwarded
  | TraineeErased;

export type TraineeEventType = TraineeEvent['type'];

/** The event each lifecycle action records, its data the action's record (libs/trainees/record/lifecycle.fields.ts). */
export const LIFECYCLE_EVENTS = {
  deferral: 'TraineeDeferred',
  withdrawal: 'TraineeWithdrawn',
  recommendation: 'TraineeRecommendedForAward',
} as const satisfies Record<LifecycleBody, TraineeEventType>;

/** Current schema version of each trainee event's `data`; older versions are upcast on read. */
export const TRAINEE_EVENT_SCHEMA_VERSIONS: Record<TraineeEventType, number> = {
  TraineeRegistered: 1,
  TraineeSubmittedForTrn: 1,
  TraineeUpdated: 1,
  /** v2 added `school_id` (see trainee.upcasters.ts). */
  PlacementAdded: 2,
  PlacementUpdated: 1,
  PlacementRemoved: 1,
  DegreeAdded: 1,
  DegreeUpdated: 1,
  DegreeRemoved: 1,
  TraineeDeferred: 1,
  TraineeWithdrawn: 1,
  TraineeRecommendedForAward: 1,
  TrnIssued: 1,
  TraineeAwarded: 1,
  TraineeErased: 1,
};

registerEventSchemas(TRAINEE_EVENT_SCHEMA_VERSIONS);

export const TRAINEE_EVENT_TYPES = Object.keys(TRAINEE_EVENT_SCHEMA_VERSIONS) as TraineeEventType[];

/** The types a provider ever sees (feed, webhooks, histories): all but the erasure, after which the trainee answers 404. */
export const PROVIDER_EVENT_TYPES = TRAINEE_EVENT_TYPES.filter((t) => t !== 'TraineeErased');

/** Stream category of trainees: a trainee lives in `trainee-<trainee_id>`. */
export const TRAINEE_STREAM_PREFIX = 'trainee-';

export function traineeStreamId(traineeId: string): string {
  return `${TRAINEE_STREAM_PREFIX}${traineeId}`;
}

/** True when `type` names a trainee event this code knows. */
export function isTraineeEventType(type: string): type is TraineeEventType {
  return Object.prototype.hasOwnProperty.call(TRAINEE_EVENT_SCHEMA_VERSIONS, type);
}
