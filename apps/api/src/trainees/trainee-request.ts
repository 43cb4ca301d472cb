import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import type { VersionContract } from '@app/trainees/contract';
import type { Caller } from '@app/trainees/write';
import type { ApiRequest } from '../auth/request-context';

/**
 * What an endpoint on one trainee reads of its request, as the API guard and the path give it: the
 * caller, the contract of the path's version, the trainee id as sent, and on a child resource's item
 * endpoints the child's id as sent (ids are matched case-insensitively, docs/reference/API-FACTS.md §1.10).
 */
export interface TraineeRequest {
  caller: Caller;
  contract: VersionContract;
  traineeId: string;
  /** The child id of the path (the `idParam` given to {@link TraineeParams}); '' elsewhere. */
  itemId: string;
}

/**
 * Controller parameter: the {@link TraineeRequest} of a route under `trainees/:trainee_id`, whose
 * child id parameter is `idParam` (none on a collection or on the trainee itself). Throws (a 500:
 * a wiring error) on a route without the API guard.
 */
export const TraineeParams = createParamDecorator((idParam: string | undefined, ctx: ExecutionContext): TraineeRequest => {
  const req = ctx.switchToHttp().getRequest<ApiRequest>();
  if (!req.caller || !req.contract) throw new Error('TraineeParams used on a route without the API guard');
  const params = (req.params ?? {}) as Record<string, string>;
  return { caller: req.caller, contract: req.contract, traineeId: params.trainee_id, itemId: idParam ? (params[idParam] ?? '') : '' };
});
