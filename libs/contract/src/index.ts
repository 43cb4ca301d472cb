export * from './versions';
export * from './field-names';
export * from './code-books';
export * from './rules';
export * from './contract';
export * from './enhanced-errors';
export { VersionOutput } from './output/trainee.output';
export * from './output/trainee-answers';
export * from './wire/values';
export { isValidEmailFormat, isValidUkPostcode, parseGraduationYear } from './wire/constraints';
export { DISABILITY_KEY, traineeWire } from './wire/trainee.wire';
export { degreeWire } from './wire/degree.wire';
export { PLACEMENT_WIRE, NESTED_PLACEMENT_WIRE } from './wire/placement.wire';
export { DEFERRAL_WIRE, RECOMMENDATION_WIRE, withdrawalWireFor } from './wire/lifecycle.wire';
export { requestsFor, type VersionRequests } from './wire/requests';
export {
  DEGREES_ATTRIBUTES_MAX_ITEMS,
  DISABILITY_KEYS_MAX,
  JSON_BOUNDS_TEXT,
  JSON_MAX_DEPTH,
  JSON_MAX_ITEMS,
  PLACEMENTS_ATTRIBUTES_MAX_ITEMS,
  REASON_TEXT_MAX_CHARS,
  TEXT_MAX_CHARS,
  WITHDRAWAL_REASONS_MAX_ITEMS,
} from './wire/limits';
export type { JsonSchema, WireField } from './wire/wire-object';
export { WireObject } from './wire/wire-object';
export * from './wire/validate';
export { commandFromWire, type WireCommand } from './wire/commands';
export * from './reference-data';
export { openApiSchemas } from './openapi/components';
export { CHANGE_SCHEMAS } from './openapi/change-schemas';
export { ADJUSTMENTS as EXAMPLE_ADJUSTMENTS, operationsWithExamples, requestExample } from './openapi/examples';
export * from './output/changes';
