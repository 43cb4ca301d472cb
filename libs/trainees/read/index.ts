export { findOwnTrainee, findOwnTraineeAnswer } from './own-trainee';
export {
  loadTraineeHistory,
  ownerOf,
  parseInstant,
  TIMELINE_STATUSES,
  timelineForProvider,
  traineeAsOf,
  traineeTimeline,
  traineeTimelinePage,
  type TimelineEntry,
  type TimelineStatus,
} from './trainee-history';
export {
  readTimelinePage,
  TIMELINE_SOURCE,
  TIMELINE_START,
  timelineChunks,
  traineeStreamOf,
  type TimelinePage,
  type TimelinePlace,
  type TimelineSource,
} from './timeline-pages';
export { duplicateKeys, traineeIdKey, traineeKeys, traineeProjection, type TraineeDocument, type TraineeKeys } from './trainee-projection';
export { listStatusOf, matchesStatus, STATUS_RULES, type StatusRule } from './list-status';
export {
  matchesSearch,
  matchesSearchWords,
  searchTextHolds,
  searchWords,
  TRAINEE_SEARCH_CHARS_MAX,
  TRAINEE_SEARCH_WORDS_MAX,
} from './trainee-search';
export {
  listTraineesAsOf,
  matchesAsOf,
  AS_OF_SCAN,
  matchesListQuery,
  providerTraineesAsOf,
  scanInThisThread,
  utcDateOf,
  type TraineeAsOfPage,
  type AsOfMatch,
  type AsOfScan,
  type StreamReader,
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
