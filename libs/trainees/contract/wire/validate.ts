/**
 * A version's write bodies validated end to end without HTTP: the wire checks of this library,
 * then the domain's record rules, with every message in one list as the API answers it
 * (docs/DESIGN.md ruling 4). The API runs the same two steps, with the domain's part inside
 * `decide` (after the 404 and state checks); these functions serve the specifications of the
 * messages and tools that build valid data (the benchmark generator).
 */
import {
  allowedWithdrawalReasons as reasonsFor,
  validateDeferral as deferralRules,
  validateDegree as degreeRules,
  validateDegreeUpdate as degreeUpdateRules,
  validateNewTrainee as newTraineeRules,
  validatePlacement as placementRules,
  validatePlacementUpdate as placementUpdateRules,
  validateRecommendation as recommendationRules,
  validateTraineeUpdate as traineeUpdateRules,
  validateWithdrawal as withdrawalRules,
  MISSING_DATA_MESSAGE,
  type DeferralInput,
  type RecommendationInput,
  type RequestData,
  type Trainee,
  type ValidationResult,
  type Withdrawal,
} from '@app/trainees/decider';
import type { DegreeInput, PlacementInput, School, TraineeDetails } from '@app/trainees/record';
import { fieldLabel } from '@app/trainees/record';
import { traineeRulesFor } from '../rules';
import type { ApiVersion } from '@app/trainees/record';
import { degreeWire } from './degree.wire';
import { DEFERRAL_WIRE, RECOMMENDATION_WIRE, withdrawalFields, withdrawalWireFor } from './lifecycle.wire';
import { NESTED_PLACEMENT_WIRE, PLACEMENT_WIRE } from './placement.wire';
import { requestsFor } from './requests';
import { isJsonObject } from './values';

/** What the end-to-end validators need: the API version, today (`YYYY-MM-DD`, UTC) and the schools the input names. */
export interface ValidationContext {
  version: ApiVersion;
  today: string;
  schools?: ReadonlyMap<string, School>;
}

const missing = <T>(): ValidationResult<T> => ({ ok: false, errors: [MISSING_DATA_MESSAGE] });

function withData<F, T>(
  data: RequestData<F>,
  run: (d: Extract<RequestData<F>, { kind: 'data' }>) => ValidationResult<T>,
): ValidationResult<T> {
  return data.kind === 'missing' ? missing() : run(data);
}

/**
 * A trainee create body's `data` (docs/reference/API-FACTS.md §6): the canonical record with nested placements and degrees, or the
 * messages.
 */
export function validateNewTrainee(
  input: unknown,
  ctx: ValidationContext,
): ValidationResult<{ details: TraineeDetails; placements: PlacementInput[]; degrees: DegreeInput[] }> {
  return withData(requestsFor(ctx.version).traineeCreate(input), (d) =>
    newTraineeRules(d.fields, d.problems, { rules: traineeRulesFor(ctx.version), today: ctx.today, schools: ctx.schools }),
  );
}

/**
 * A trainee update body's `data` merged into `stored` (docs/reference/API-FACTS.md §7): the new record and the changes, or the messages.
 */
export function validateTraineeUpdate(
  input: unknown,
  stored: TraineeDetails,
  ctx: ValidationContext,
  opts: { hasDegrees?: boolean } = {},
): ValidationResult<{ details: TraineeDetails; changes: Partial<TraineeDetails> }> {
  return withData(requestsFor(ctx.version).traineeUpdate(input), (d) =>
    traineeUpdateRules(d.fields, d.problems, stored, { rules: traineeRulesFor(ctx.version), today: ctx.today }, opts),
  );
}

/** A degree body's `data` (docs/reference/API-FACTS.md §11); any value (a non-object counts as `{}`). */
export function validateDegree(input: unknown, ctx: ValidationContext): ValidationResult<DegreeInput> {
  const { fields, problems } = degreeWire(ctx.version).check(input);
  return degreeRules(fields, problems, { rules: traineeRulesFor(ctx.version), today: ctx.today });
}

/** A degree update body's `data` merged into `stored` (docs/reference/API-FACTS.md §11.7). */
export function validateDegreeUpdate(input: unknown, stored: DegreeInput, ctx: ValidationContext): ValidationResult<DegreeInput> {
  const { fields, problems } = degreeWire(ctx.version).check(input);
  return degreeUpdateRules(fields, problems, stored, { rules: traineeRulesFor(ctx.version), today: ctx.today });
}

/** A placement body's `data`, or (`nested`) one `placements_attributes` item (docs/reference/API-FACTS.md §10, §6.10). */
export function validatePlacement(input: unknown, ctx: ValidationContext, opts: { nested: boolean }): ValidationResult<PlacementInput> {
  const { fields, problems } = (opts.nested ? NESTED_PLACEMENT_WIRE : PLACEMENT_WIRE).check(input);
  return placementRules(fields, problems, { schools: ctx.schools }, opts);
}

/** A placement update body's `data` merged into `stored` (docs/reference/API-FACTS.md §10.5). */
export function validatePlacementUpdate(input: unknown, stored: PlacementInput, ctx: ValidationContext): ValidationResult<PlacementInput> {
  const { fields, problems } = PLACEMENT_WIRE.check(input);
  return placementUpdateRules(fields, problems, stored, { schools: ctx.schools });
}

/** A defer body's `data` (docs/reference/API-FACTS.md §12.3); any value (a non-object counts as `{}`). */
export function validateDeferral(input: unknown, _trainee: Trainee, _ctx: ValidationContext): ValidationResult<DeferralInput> {
  const { fields, problems } = DEFERRAL_WIRE.check(input);
  return deferralRules(fields, problems);
}

/** A withdraw body's `data` for `trainee` (docs/reference/API-FACTS.md §12.4); any value (a non-object counts as `{}`). */
export function validateWithdrawal(input: unknown, trainee: Trainee, ctx: ValidationContext): ValidationResult<Withdrawal> {
  const { fields, problems } = withdrawalWireFor(ctx.version).check(input);
  const typed = withdrawalFields(fields, isJsonObject(input) ? input : {});
  return withdrawalRules(typed, problems, trainee, withdrawalDateLabel(ctx.version));
}

/** A recommend-for-QTS body's `data` for `trainee` (docs/reference/API-FACTS.md §12.5); any value (a non-object counts as `{}`). */
export function validateRecommendation(input: unknown, trainee: Trainee, ctx: ValidationContext): ValidationResult<RecommendationInput> {
  const { fields, problems } = RECOMMENDATION_WIRE.check(input);
  return recommendationRules(fields, problems, trainee, { today: ctx.today });
}

/** The withdrawal reason codes allowed for `trigger` in `version` (docs/reference/API-FACTS.md §12.4; docs/DESIGN.md ruling 7). */
export function allowedWithdrawalReasons(trigger: unknown, version: ApiVersion): readonly string[] {
  return reasonsFor(trigger, traineeRulesFor(version).safeguardingConcernsReason);
}

/** The name (and message label) of the withdrawal date field in `version`: `withdraw_date` or `withdrawal_date`. */
export function withdrawalDateLabel(version: ApiVersion): string {
  return fieldLabel('withdrawal_date', version);
}
