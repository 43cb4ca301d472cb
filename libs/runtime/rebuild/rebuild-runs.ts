import type { ProjectionName } from '@app/runtime/projector';

/**
 * One rebuild of a projection as it runs or last ran (docs/observability.md "Rebuilds"): written by
 * the process that rebuilds (the admin CLI) beside the read models, so the API and the projector,
 * which do not run it, serve its progress as metrics.
 */
export interface RebuildRun {
  projection: ProjectionName;
  /** The store being (or last) built. */
  store: string;
  /** `running` while it builds; `finished` once swapped in; `interrupted` when stopped before (it resumes). */
  state: 'running' | 'finished' | 'interrupted';
  /** Events applied to the new store by this run. */
  events: number;
  /** ISO 8601 UTC instants: the run's start and its last report. */
  started_at: string;
  updated_at: string;
  /** Seconds from the run's start to its last report. */
  seconds: number;
}

/** Where rebuild runs are kept: one record per projection, the latest run's. */
export interface RebuildRunStore {
  /** Stores `run` as the latest run of its projection (replacing the one before). */
  record(run: RebuildRun): Promise<void>;
  /** The latest run of each projection that has been rebuilt. */
  all(): Promise<RebuildRun[]>;
}

/** A store that keeps rebuild runs (both adapters do). */
export function keepsRebuildRuns(store: unknown): store is { rebuildRuns: RebuildRunStore } {
  const runs = (store as { rebuildRuns?: Partial<RebuildRunStore> } | null)?.rebuildRuns;
  return typeof runs?.record === 'function' && typeof runs.all === 'function';
}
