export {
  academicCycleLabel,
  academicCycleOf,
  currentAcademicCycle,
  FIRST_ACADEMIC_CYCLE,
  isKnownAcademicCycle,
  LAST_ACADEMIC_CYCLE,
} from './academic-cycle';
export { MISSING_REQUEST_DATA, type InputProblem, type MessagePath, type ProblemDetail, type RequestData } from './rules/request-data';
export {
  DEGREE_MESSAGES,
  DEGREE_MESSAGE_ORDER,
  degreeDuplicateKey,
  degreesEqualOnNonBlank,
  validateDegree,
  validateDegreeUpdate,
} from './rules/validate-degree';
export {
  allowedWithdrawalReasons,
  parseIsoDateOrDateTime,
  RECOMMENDATION_MESSAGES,
  validateDeferral,
  validateRecommendation,
  validateWithdrawal,
  type LifecycleRuleContext,
} from './rules/validate-lifecycle';
export {
  NESTED_PLACEMENT_PREFIX,
  PLACEMENT_MESSAGE_ORDER,
  schoolAddress,
  validatePlacement,
  validatePlacementUpdate,
} from './rules/validate-placement';
export { MISSING_DATA_MESSAGE, validateNewTrainee, validateTraineeUpdate } from './rules/validate-trainee';
export type { ValidationResult } from './rules/validation-result';
export { decodeTraineeEvent } from './trainee.codec';
export {
  FLAGGED_PERSONAL_FIELDS,
  PERSONAL_DEGREE_FIELD_PLACES,
  PERSONAL_TRAINEE_FIELD_PLACES,
  TRAINEE_PERSONAL_DATA,
} from './trainee.personal-data';
export { ERASE_REASON_MAX_LENGTH, type EraseTrainee, type RecordSource, type TraineeCommand } from './trainee.commands';
export { decide, findDegree, findPlacement, requireData, utcDate } from './trainee.decide';
export {
  REGISTRATION_GUARD_STREAM_PREFIX,
  duplicateGuardKey,
  lastNameKey,
  startCycle,
  type RegistrationClaimed,
} from './trainee.duplicates';
export {
  ConcurrentModification,
  DuplicateDegree,
  DuplicateTrainee,
  MissingData,
  NotFound,
  StateTransitionError,
  ValidationFailed,
} from './trainee.errors';
export {
  TRAINEE_EVENT_SCHEMA_VERSIONS,
  PROVIDER_EVENT_TYPES,
  TRAINEE_EVENT_TYPES,
  TRAINEE_STREAM_PREFIX,
  isTraineeEventType,
  traineeStreamId,
  type TraineeErased,
  type TraineeEvent,
  type TraineeEventType,
} from './trainee.events';
export { evolve, evolveAll } from './trainee.evolve';
export { IDENTIFYING_FIELDS, identityMarks, type IdentifyingField, type IdentifyingValues } from './trainee.identity';
export { TRAINEE_DEGREES_MAX, TRAINEE_PLACEMENTS_MAX } from './trainee.limits';
export type { CodeBook, TraineeRules } from './trainee.rules';
export { initialTraineeState, type TraineeSnapshot, type TraineeState } from './trainee.state';
