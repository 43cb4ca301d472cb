/**
 * Public API of trainee, degree and placement validation (docs/reference/API-FACTS.md §5.2, §6–§11). Pure: no I/O,
 * no clock ("today" arrives in {@link ValidationContext}).
 */
export type { ValidationContext, ValidationResult } from './validation-result';
export {
  VERSION_FIELD_NAMES,
  canonicalFieldName,
  fieldLabel,
  toCanonicalInput,
  toVersionOutput,
  versionFieldName,
} from './field-names';
export type { VersionDependentField } from './field-names';
export {
  DISABILITY_KEY,
  MISSING_DATA_MESSAGE,
  TRAINEE_INPUT_KEYS,
  isValidEmailFormat,
  validateNewTrainee,
  validateTraineeUpdate,
} from './validate-trainee';
export {
  DEGREE_DUPLICATE_FIELDS,
  DEGREE_INPUT_KEYS,
  DEGREE_MESSAGES,
  degreeDuplicateKey,
  degreesEqualOnNonBlank,
  isUkDegree,
  parseGraduationYear,
  validateDegree,
  validateDegreeUpdate,
} from './validate-degree';
export {
  NESTED_PLACEMENT_PREFIX,
  isValidUkPostcode,
  schoolAddress,
  validatePlacement,
  validatePlacementUpdate,
} from './validate-placement';
export {
  DEFERRAL_MESSAGES,
  DEFER_REASON_MAX_LENGTH,
  RECOMMENDATION_MESSAGES,
  SAFEGUARDING_CONCERNS_REASON,
  WITHDRAWAL_MESSAGES,
  allowedWithdrawalReasons,
  parseIsoDateOrDateTime,
  validateDeferral,
  validateRecommendation,
  validateWithdrawal,
  withdrawalDateLabel,
} from './validate-lifecycle';
export type { DeferralInput, RecommendationInput } from './validate-lifecycle';
