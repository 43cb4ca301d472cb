import type { ProjectionName } from '@app/runtime/projector';

/** Kept beside the read models, so the API and the projector serve a rebuild's progress as metrics (docs/observability.md "Rebuilds"). */
export interface RebuildRun {
  projection: ProjectionName;
  /** Being or last built. */
  store: string;
  /** `interrupted`: stopped before its swap (it resumes). */
  state: 'running' | 'finished' | 'interrupted';
  /** By this run. */
  events: number;
  /** ISO 8601 UTC: the start and the last report. */
  started_at: string;
  updated_at: string;
  /** From start to last report. */
  seconds: number;
}

/** One record per projection: the latest run's. */
export interface RebuildRunStore {
  record(run: RebuildRun): Promise<void>;
  all(): Promise<RebuildRun[]>;
}

/** Both adapters do. */
export function keepsRebuildRuns(store: unknown): store is { rebuildRuns: RebuildRunStore } {
  const runs = (store as { rebuildRuns?: Partial<RebuildRunStore> } | null)?.rebuildRuns;
  return typeof runs?.record === 'function' && typeof runs.all === 'function';
}
