import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import type { VersionContract } from '@app/trainees/contract';
import type { Caller } from '@app/trainees/write';
import type { ApiRequest } from '../auth/request-context';

/** The caller, the path version's contract, the trainee id and a child's id as sent (matched case-insensitively: API-FACTS §1.10). */
export interface TraineeRequest {
  caller: Caller;
  contract: VersionContract;
  traineeId: string;
  /** '' outside a child's item endpoints. */
  itemId: string;
}

/** The {@link TraineeRequest} under `trainees/:trainee_id`, `idParam` naming the child id parameter; a 500 on a route without the guard. */
export const TraineeParams = createParamDecorator((idParam: string | undefined, ctx: ExecutionContext): TraineeRequest => {
  const req = ctx.switchToHttp().getRequest<ApiRequest>();
  if (!req.caller || !req.contract) throw new Error('TraineeParams used on a route without the API guard');
  const params = (req.params ?? {}) as Record<string, string>;
  return { caller: req.caller, contract: req.contract, traineeId: params.trainee_id, itemId: idParam ? (params[idParam] ?? '') : '' };
});
