/**
 * A version's write bodies as the decider receives them: each request's `data` checked by its wire
 * object and handed over as {@link RequestData} (typed fields and problems, or missing;
 * docs/reference/API-FACTS.md §5.1, §5.3; docs/DESIGN.md ruling 4).
 */
import { MISSING_REQUEST_DATA, type RequestData } from '@app/trainees/decider';
import type {
  DeferralFields,
  DegreeFields,
  LifecycleBody,
  LifecycleFields,
  PlacementFields,
  RecommendationFields,
  TraineeFields,
  WithdrawalFields,
  ApiVersion,
} from '@app/trainees/record';
import { degreeWire } from './degree.wire';
import { lifecycleFieldsOf, lifecycleWireFor } from './lifecycle.wire';
import { PLACEMENT_WIRE } from './placement.wire';
import { traineeWire } from './trainee.wire';
import { isJsonObject } from './values';
import type { WireObject } from './wire-object';

/** True when `data` is a non-empty JSON object (else the request's `data` is missing, §5.1). */
function present(data: unknown): data is Record<string, unknown> {
  return isJsonObject(data) && Object.keys(data).length > 0;
}

function checked<F>(wire: WireObject<F>, data: unknown): RequestData<F> {
  if (!present(data)) return MISSING_REQUEST_DATA;
  const { fields, problems } = wire.check(data);
  return { kind: 'data', fields, problems };
}

/** The write bodies of one API version. Each takes the body's `data` member as parsed JSON (any value). */
export interface VersionRequests {
  /** POST /trainees: missing also when `data` holds no key the version reads (§5.1). */
  traineeCreate(data: unknown): RequestData<TraineeFields>;
  /** PUT/PATCH /trainees/{id}: any non-empty object (read-only or unknown keys alone change nothing, §7.3). */
  traineeUpdate(data: unknown): RequestData<TraineeFields>;
  placement(data: unknown): RequestData<PlacementFields>;
  degree(data: unknown): RequestData<DegreeFields>;
  deferral(data: unknown): RequestData<DeferralFields>;
  withdrawal(data: unknown): RequestData<WithdrawalFields>;
  recommendation(data: unknown): RequestData<RecommendationFields>;
}

/** A lifecycle action's body in `version`: its wire checks, then its typed fields (lifecycle.wire.ts). */
function lifecycleRequest<B extends LifecycleBody>(body: B, version: ApiVersion): (data: unknown) => RequestData<LifecycleFields<B>> {
  const wire = lifecycleWireFor(body, version);
  return (data) => {
    const result = checked(wire, data);
    return result.kind === 'missing'
      ? result
      : { ...result, fields: lifecycleFieldsOf(body, result.fields, data as Record<string, unknown>, version) };
  };
}

/** The write bodies of `version`. */
export function requestsFor(version: ApiVersion): VersionRequests {
  const trainee = traineeWire(version, 'create');
  const traineeUpdate = traineeWire(version, 'update');
  const degree = degreeWire(version);
  return {
    traineeCreate: (data) => (present(data) && trainee.readsAnyKeyOf(data) ? checked(trainee, data) : MISSING_REQUEST_DATA),
    traineeUpdate: (data) => checked(traineeUpdate, data),
    placement: (data) => checked(PLACEMENT_WIRE, data),
    degree: (data) => checked(degree, data),
    deferral: lifecycleRequest('deferral', version),
    withdrawal: lifecycleRequest('withdrawal', version),
    recommendation: lifecycleRequest('recommendation', version),
  };
}
