export { findOwnTrainee, findOwnTraineeAnswer } from './own-trainee';
export { loadTraineeHistory, parseInstant, timelineForProvider, traineeAsOf, traineeTimeline, type TimelineEntry } from './trainee-history';
export {
  courseEndedOn,
  duplicateKeys,
  traineeIdKey,
  traineeKeys,
  traineeProjection,
  type TraineeDocument,
  type TraineeKeys,
} from './trainee-projection';
export {
  STATUS_FILTERS,
  TRAINEE_READ_MODEL,
  type OwnedAnswer,
  type StatusFilter,
  type TraineeAnswerPage,
  type TraineeEnding,
  type TraineeListPage,
  type TraineeListQuery,
  type TraineeReadModel,
} from './trainee-read.port';
