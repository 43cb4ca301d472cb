export { keepsRebuildRuns, type RebuildRun, type RebuildRunStore } from './rebuild-runs';
export { rebuildProjection, type RebuildTarget, type RebuildableStore } from './rebuild';
