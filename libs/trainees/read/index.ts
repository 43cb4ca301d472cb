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
  listStatusOf,
  listTraineesAsOf,
  matchesListQuery,
  matchesStatus,
  providerTraineesAsOf,
  utcDateOf,
  type TraineeAsOfPage,
  type TraineeAtInstant,
} from './trainees-as-of';
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
