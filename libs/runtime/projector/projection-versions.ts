/**
 * The projections and their versions (docs/DESIGN.md "Read models": each projection has a version, its
 * read store is named with it). Raise a version when a projection's shape or logic changes; the
 * service then reports the stored version as out of date and keeps serving it until an operator
 * runs `admin projections rebuild <name>`.
 *
 * - `trainees`: one document per trainee (every GET and list of the API), with its answer bytes per
 *   API version: raise it also when an API version's answer changes (docs/DESIGN.md "Answers stored
 *   as bytes").
 *   Version 2 added the change feed (docs/change-feed.md).
 * - `providers`: providers and their tokens (authentication, the admin CLI).
 */
import type { LogPosition } from '@app/event-sourcing';

export const PROJECTION_VERSIONS = { trainees: 2, providers: 1 } as const;

/**
 * The first version of the `trainees` projection whose stores hold the change feed from the first
 * event: a store of an older version holds only the changes applied since this code started
 * serving it, so the feed is not answered from it until a rebuild (docs/change-feed.md "Upgrading").
 */
export const CHANGE_FEED_SINCE_VERSION = 2;

export type ProjectionName = keyof typeof PROJECTION_VERSIONS;

export const PROJECTION_NAMES = Object.keys(PROJECTION_VERSIONS) as ProjectionName[];

/** Version of the projections before they were versioned one by one (kept for the MongoDB adapter's names). */
export const PROJECTION_VERSION = 1;

export function isProjectionName(name: string): name is ProjectionName {
  return (PROJECTION_NAMES as string[]).includes(name);
}

/** What an operator sees of one projection (`admin projections status`, the metrics). */
export interface ProjectionInfo {
  name: ProjectionName;
  /** The version this code builds. */
  code_version: number;
  /** The version of the store being served. */
  version: number;
  /** The store being served (table or collection suffix, e.g. `v1`, `v2_g3`). */
  store: string;
  /** The served store's checkpoint. */
  checkpoint: LogPosition;
  documents: number;
  /**
   * True when the served store was built by another version of the code, or holds events an older
   * version skipped (`skipped_events`): a rebuild applies every event again.
   */
  rebuild_needed: boolean;
  /**
   * Events of this projection an older version of the service skipped after failed attempts (it
   * "parked" them; this version never skips one): their trainees read as before them until a rebuild.
   */
  skipped_events: number;
  /** The store a rebuild in progress is writing, or null. */
  rebuilding: string | null;
}
