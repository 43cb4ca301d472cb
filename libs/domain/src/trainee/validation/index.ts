/**
 * Public API of the trainee, degree, placement and lifecycle record rules (docs/reference/API-FACTS.md
 * §5.2, §6–§12). Pure: no I/O, no clock ("today" arrives in the context), no API version (the
 * version's differences arrive as {@link TraineeRules}).
 */
export type { ValidationResult } from './validation-result';
export type { DeferralFields, DegreeFields, PlacementFields, RecommendationFields, TraineeFields, WithdrawalFields } from './input-fields';
export { MISSING_REQUEST_DATA, MessageList, requestData } from './request-data';
export type { InputProblem, MessagePath, RequestData } from './request-data';
export { MISSING_DATA_MESSAGE, TRAINEE_MESSAGE_ORDER, squish, validateNewTrainee, validateTraineeUpdate } from './validate-trainee';
export type { TraineeRuleContext } from './validate-trainee';
export {
  DEGREE_DUPLICATE_FIELDS,
  DEGREE_MESSAGES,
  DEGREE_MESSAGE_ORDER,
  degreeDuplicateKey,
  degreesEqualOnNonBlank,
  isUkDegree,
  validateDegree,
  validateDegreeUpdate,
} from './validate-degree';
export type { DegreeRuleContext } from './validate-degree';
export {
  NESTED_PLACEMENT_PREFIX,
  PLACEMENT_MESSAGE_ORDER,
  placementAddress,
  schoolAddress,
  validatePlacement,
  validatePlacementUpdate,
} from './validate-placement';
export type { PlacementRuleContext } from './validate-placement';
export {
  DEFERRAL_MESSAGES,
  DEFERRAL_MESSAGE_ORDER,
  DEFER_REASON_MAX_LENGTH,
  RECOMMENDATION_MESSAGES,
  RECOMMENDATION_MESSAGE_ORDER,
  SAFEGUARDING_CONCERNS_REASON,
  WITHDRAWAL_MESSAGES,
  WITHDRAWAL_MESSAGE_ORDER,
  allowedWithdrawalReasons,
  parseIsoDateOrDateTime,
  validateDeferral,
  validateRecommendation,
  validateWithdrawal,
} from './validate-lifecycle';
export type { DeferralInput, LifecycleRuleContext, RecommendationInput } from './validate-lifecycle';
