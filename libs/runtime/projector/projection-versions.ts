/**
 * Projection versions (docs/DESIGN.md "Projection versions and blue/green rebuilds"): raise one when its shape or logic changes, or for
 * `trainees` when an API version's answer changes; the stored version is then reported out of date until `admin projections rebuild`.
 */
import type { LogPosition } from '@app/event-sourcing';

export const PROJECTION_VERSIONS = { trainees: 2, providers: 1 } as const;

/** Older `trainees` stores hold only the changes since this code served them: no feed until a rebuild (docs/change-feed.md "Upgrading"). */
export const CHANGE_FEED_SINCE_VERSION = 2;

export type ProjectionName = keyof typeof PROJECTION_VERSIONS;

export const PROJECTION_NAMES = Object.keys(PROJECTION_VERSIONS) as ProjectionName[];

/** Before they were versioned one by one; kept for the MongoDB adapter's names. */
export const PROJECTION_VERSION = 1;

export function isProjectionName(name: string): name is ProjectionName {
  return (PROJECTION_NAMES as string[]).includes(name);
}

/** `admin projections status`, the metrics. */
export interface ProjectionInfo {
  name: ProjectionName;
  code_version: number;
  /** Of the store being served. */
  version: number;
  /** Table or collection suffix, e.g. `v1`, `v2_g3`. */
  store: string;
  checkpoint: LogPosition;
  documents: number;
  /** Built by another version, or holds events an older version skipped: a rebuild applies every event again. */
  rebuild_needed: boolean;
  /** Events an older version "parked" after failed attempts (this one never skips): their trainees read as before them until a rebuild. */
  skipped_events: number;
  /** Being written by a rebuild in progress; null when none. */
  rebuilding: string | null;
}
