export { CheckpointWaiter } from './checkpoint-waiter';
export { LAG_COUNT_CAP, measureLag } from './projection-lag';
export type { ProjectionStore, ReadModelStore, StreamBuild, StreamCursor, StreamPhase } from './projection-store.port';
export {
  CHANGE_FEED_SINCE_VERSION,
  PROJECTION_NAMES,
  PROJECTION_VERSION,
  PROJECTION_VERSIONS,
  isProjectionName,
  type ProjectionInfo,
  type ProjectionName,
} from './projection-versions';
export {
  CHECKPOINT_AHEAD_OF_LOG,
  type ProjectorHandle,
  type ProjectorHealth,
  type ProjectorLogger,
  type ProjectorOptions,
} from './projector-types';
export { PositionWaiters } from './position-waiters';
export { PROJECTED_STREAMS, Projector } from './projector';
export { assessReadiness, type Readiness } from './readiness';
export { READ_MODELS_DAMAGED_ANSWER, READ_MODELS_DAMAGED_REASON, ReadModelsDamaged } from './read-models-damaged';
export { buildEmptyStore, buildStreams } from './stream-build';
