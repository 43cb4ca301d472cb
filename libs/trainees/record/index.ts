export {
  OTHER_UK_INSTITUTION_UUID,
  REFERENCE_LISTS,
  VETERANS_INITIATIVE,
  WITHDRAWAL_REASONS,
  allocationSubjectsOf,
  catalogueEntry,
  fundingMethodExists,
  initiativesAvailableIn,
  isNotApplicableUrn,
  notApplicableUrnLabel,
  routesWithFunding,
  withdrawalReasonsFor,
  type CodedEntry,
  type FundingType,
  type RefListName,
  type RefLists,
} from './codes/catalogue';
export { fieldLabel, versionFieldName } from './field-names';
export {
  LIFECYCLE_FIELDS,
  LIFECYCLE_MEMBERS,
  LIFECYCLE_PATHS,
  blankMessageOf,
  invalidMessageOf,
  lifecycleAnswerOf,
  lifecycleRecordIn,
  lifecycleRecordOf,
  lifecycleStoredOf,
  noLifecycleMembers,
  type Deferral,
  type DeferralFields,
  type LifecycleField,
  type LifecycleFields,
  type LifecycleRecord,
  type LifecycleStored,
  type Recommendation,
  type RecommendationFields,
  type Trainee,
  type Withdrawal,
  type WithdrawalFields,
} from './lifecycle.fields';
export { DEGREE_RECORD, type DegreeFields } from './degree.record';
export { DISABILITY_WORDS } from './trainee-diversity.record';
export {
  bool,
  codesOf,
  LIFECYCLE_BODIES,
  inputKindOf,
  inputRow,
  type ByVersion,
  type FieldAnswer,
  type FieldInput,
  type FieldRow,
  type InputKind,
  type JsonSchema,
  type LifecycleBody,
  type LifecycleInput,
  type LifecycleKind,
  type PersonWords,
} from './field-table';
export { PLACEMENT_NAME_MAX, PLACEMENT_RECORD, type PlacementFields } from './placement.record';
export { TRAINEE_RECORD, type TraineeDetails } from './trainee.record';
export { TRAINEE_DETAILS_NAMES, TRAINEE_FIELD_MESSAGE_ORDER, TRAINEE_STORED_INPUTS, type TraineeFields } from './trainee.fields';
export {
  BODY_MAX_BYTES,
  BODY_MAX_TEXT,
  COURSE_YEAR_MAX,
  COURSE_YEAR_MIN,
  DEGREES_ATTRIBUTES_MAX_ITEMS,
  DISABILITY_KEYS_MAX,
  JSON_BOUNDS_TEXT,
  JSON_MAX_DEPTH,
  JSON_MAX_ITEMS,
  PLACEMENTS_ATTRIBUTES_MAX_ITEMS,
  REASON_TEXT_MAX_CHARS,
  TEXT_MAX_CHARS,
  WITHDRAWAL_REASONS_MAX_ITEMS,
} from './limits';
export type { Degree, DegreeInput, Placement, PlacementInput, School } from './trainee.details';
export { API_VERSIONS, DEFAULT_SERVED_VERSIONS, ServedVersions, VERSION_PATTERN, implementedVersion, type ApiVersion } from './versions';
export { TRAINEE_STATES, type TraineeBase, type TraineeStatus } from './trainee';
