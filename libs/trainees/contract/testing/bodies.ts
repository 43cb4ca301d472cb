/**
 * A version's write bodies through the two entries the API uses, without HTTP: the version's wire
 * checks (`contractFor(version).requests`, what the API's body pipe runs) and then the decider's
 * record rules (the functions `decide` runs after its 404 and state checks), answered as one list
 * of messages (docs/DESIGN.md ruling 4). Nothing is checked here that the API does not check the
 * same way: these functions only join the two steps, for the specifications of the messages and
 * for tools that must build valid data (the benchmark's generator).
 */
import {
  allowedWithdrawalReasons,
  MISSING_DATA_MESSAGE,
  validateDeferral,
  validateDegree,
  validateDegreeUpdate,
  validateNewTrainee,
  validatePlacement,
  validatePlacementUpdate,
  validateRecommendation,
  validateTraineeUpdate,
  validateWithdrawal,
  type InputProblem,
  type RequestData,
  type ValidationResult,
} from '@app/trainees/decider';
import type {
  Deferral,
  Recommendation,
  Trainee,
  Withdrawal,
  ApiVersion,
  DegreeInput,
  PlacementFields,
  PlacementInput,
  School,
  TraineeDetails,
} from '@app/trainees/record';
import { contractFor } from '../contract';
import { NESTED_PLACEMENT_WIRE } from '../wire/placement.wire';

/** What a body is checked against: the API version, today (`YYYY-MM-DD`, UTC) and the schools its placements name. */
export interface BodyContext {
  version: ApiVersion;
  today: string;
  schools?: ReadonlyMap<string, School>;
}

/** The rules of a body whose `data` was there; missing `data` is the one message the API answers for it. */
function withData<F, T>(
  data: RequestData<F>,
  run: (fields: F, problems: readonly InputProblem[]) => ValidationResult<T>,
): ValidationResult<T> {
  return data.kind === 'missing' ? { ok: false, errors: [MISSING_DATA_MESSAGE] } : run(data.fields, data.problems);
}

/** POST /trainees: the canonical record with its nested placements and degrees, or every message. */
export function createBody(input: unknown, ctx: BodyContext): ReturnType<typeof validateNewTrainee> {
  const { requests, rules } = contractFor(ctx.version);
  return withData(requests.traineeCreate(input), (fields, problems) =>
    validateNewTrainee(fields, problems, { rules, today: ctx.today, schools: ctx.schools }),
  );
}

/** PUT/PATCH /trainees/{id} on the stored record `stored`: the new record and the changes, or every message. */
export function updateBody(
  input: unknown,
  stored: TraineeDetails,
  ctx: BodyContext,
  opts: { hasDegrees?: boolean } = {},
): ValidationResult<{ details: TraineeDetails; changes: Partial<TraineeDetails> }> {
  const { requests, rules } = contractFor(ctx.version);
  return withData(requests.traineeUpdate(input), (fields, problems) =>
    validateTraineeUpdate(fields, problems, stored, { rules, today: ctx.today }, opts),
  );
}

/** POST …/degrees. */
export function degreeBody(input: unknown, ctx: BodyContext): ValidationResult<DegreeInput> {
  const { requests, rules } = contractFor(ctx.version);
  return withData(requests.degree(input), (fields, problems) => validateDegree(fields, problems, { rules, today: ctx.today }));
}

/** PUT/PATCH …/degrees/{id} on the stored degree `stored`. */
export function degreeUpdateBody(input: unknown, stored: DegreeInput, ctx: BodyContext): ValidationResult<DegreeInput> {
  const { requests, rules } = contractFor(ctx.version);
  return withData(requests.degree(input), (fields, problems) =>
    validateDegreeUpdate(fields, problems, stored, { rules, today: ctx.today }),
  );
}

/**
 * POST …/placements, or (`nested`) one `placements_attributes` item of a create (checked as the
 * create's body checks each item: any value, a non-object counting as `{}`).
 */
export function placementBody(input: unknown, ctx: BodyContext, opts: { nested: boolean }): ValidationResult<PlacementInput> {
  const run = (fields: PlacementFields, problems: readonly InputProblem[]) =>
    validatePlacement(fields, problems, { schools: ctx.schools }, opts);
  if (opts.nested) {
    const { fields, problems } = NESTED_PLACEMENT_WIRE.check(input);
    return run(fields, problems);
  }
  return withData(contractFor(ctx.version).requests.placement(input), run);
}

/** PUT/PATCH …/placements/{id} on the stored placement `stored`. */
export function placementUpdateBody(input: unknown, stored: PlacementInput, ctx: BodyContext): ValidationResult<PlacementInput> {
  return withData(contractFor(ctx.version).requests.placement(input), (fields, problems) =>
    validatePlacementUpdate(fields, problems, stored, { schools: ctx.schools }),
  );
}

/** POST …/defer. */
export function deferralBody(input: unknown, ctx: BodyContext): ValidationResult<Deferral> {
  const { requests, rules } = contractFor(ctx.version);
  return withData(requests.deferral(input), (fields, problems) =>
    validateDeferral(fields, problems, { today: ctx.today, label: rules.label }),
  );
}

/** POST …/withdraw for `trainee`. */
export function withdrawalBody(input: unknown, trainee: Trainee, ctx: BodyContext): ValidationResult<Withdrawal> {
  const { requests, rules } = contractFor(ctx.version);
  return withData(requests.withdrawal(input), (fields, problems) =>
    validateWithdrawal(fields, problems, trainee, { today: ctx.today, label: rules.label }),
  );
}

/** POST …/recommend-for-qts for `trainee`. */
export function recommendationBody(input: unknown, trainee: Trainee, ctx: BodyContext): ValidationResult<Recommendation> {
  const { requests, rules } = contractFor(ctx.version);
  return withData(requests.recommendation(input), (fields, problems) =>
    validateRecommendation(fields, problems, trainee, { today: ctx.today, label: rules.label }),
  );
}

/** The withdrawal reason codes `version` allows for `trigger` (docs/DESIGN.md ruling 7). */
export function withdrawalReasonsOf(trigger: unknown, version: ApiVersion): readonly string[] {
  return allowedWithdrawalReasons(trigger, contractFor(version).rules.safeguardingConcernsReason);
}
