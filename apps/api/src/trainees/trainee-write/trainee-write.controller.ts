import { applyDecorators, HttpCode, UseInterceptors, type Type } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import type { Trainee } from '@app/trainees/record';
import { RouteNotFound } from '../../auth/api.guard';
import { WireBody, type BodyKind } from '../../bodies/wire-body';
import { EnhancedErrorsInterceptor } from '../../errors/enhanced-errors.interceptor';
import { ApiController } from '../../openapi/api-controller.decorator';
import { Answers, ForVersionsWith, IdParam, Writes } from '../../openapi/operation.decorators';
import { TraineeParams, type TraineeRequest } from '../trainee-request';
import { ChangeTraineeCommand, type ChangeData, type TraineeChange } from './change-trainee.command';

/** The body kinds of the version's contract whose checked `data` is what the change `T` carries. */
type BodyOf<T extends TraineeChange['type']> = {
  [K in BodyKind]: ReturnType<TraineeRequest['contract']['requests'][K]> extends ChangeData<T> ? K : never;
}[BodyKind];

/**
 * What one write on an existing trainee sends and answers: the decider command
 * ({@link ChangeTraineeCommand}); the write body's kind in the version's contract (its OpenAPI
 * schema is `<Kind>Request`: `deferral`, `DeferralRequest`); the OpenAPI tag; the answer's status
 * (200, or 202 where the registry acts next) and description (the body is `{data: Trainee}`, the
 * trainee after it); `enhancedErrors`: a validation 422 is keyed by field on `Enhanced-Errors:
 * true` (docs/reference/API-FACTS.md §5.4); `feature`: only the versions whose contract has it
 * route the write, elsewhere 404 `Not found` (§1.9).
 */
export interface TraineeWrite<T extends TraineeChange['type']> {
  command: T;
  body: BodyOf<T>;
  tag: string;
  answer: [status: 200 | 202, description: string];
  enhancedErrors?: true;
  feature?: 'updateQtsOrEytsStatus';
}

/**
 * The controller of one {@link TraineeWrite}, made once at start-up, at `route` (Nest's `@Post`,
 * `@Put`, `@Patch`, with the path after `trainees/{trainee_id}`) and documented as `operation`
 * (`Operation`), named after its command (`DeferTraineeController`): under `trainees/:trainee_id`,
 * guarded ({@link ApiController}), its body through the version's wire checks ({@link WireBody}),
 * idempotent, documented as every write is ({@link Writes}: 400, 409, 413, 422, 404). The answers:
 * `answer.status` `{data: Trainee}`; 404 `Trainee(s) not found` for an unknown trainee or another
 * provider's; 422 StateTransitionError when the state refuses the change; 422 with every failed
 * rule, or naming `data` when it is missing.
 */
export function traineeWriteController<T extends TraineeChange['type']>(
  write: TraineeWrite<T>,
  route: MethodDecorator,
  operation: MethodDecorator,
): Type<unknown> {
  const [status, description] = write.answer;
  const { feature } = write;
  // Applied in this order, as decorators stacked on a method are, bottom first: the answer, the
  // path's id, then the write's body, header and answers; each document lists them in that order.
  const routed = applyDecorators(
    HttpCode(status),
    Answers(status, description, 'TraineeResponse'),
    IdParam('trainee_id'),
    Writes(`${write.body[0].toUpperCase()}${write.body.slice(1)}Request`, { notFound: true, enhancedErrors: write.enhancedErrors }),
    ...(feature ? [ForVersionsWith(feature)] : []),
    operation,
    route,
  );

  @ApiController('trainees/:trainee_id', write.tag)
  class TraineeWriteController {
    constructor(private readonly commands: CommandBus) {}

    @routed
    async write(@TraineeParams() request: TraineeRequest, @WireBody(write.body) data: ChangeData<T>): Promise<{ data: unknown }> {
      if (feature && !request.contract.features[feature]) throw new RouteNotFound();
      const command = new ChangeTraineeCommand(write.command, request, data);
      const trainee = await this.commands.execute<ChangeTraineeCommand<T>, Trainee>(command);
      return { data: request.contract.output.serializeTrainee(trainee, { nested: true }) };
    }
  }
  if (write.enhancedErrors) UseInterceptors(EnhancedErrorsInterceptor)(TraineeWriteController);
  return Object.defineProperty(TraineeWriteController, 'name', { value: `${write.command}Controller` });
}
