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

/** The body kinds whose checked `data` the change `T` carries. */
type BodyOf<T extends TraineeChange['type']> = {
  [K in BodyKind]: ReturnType<TraineeRequest['contract']['requests'][K]> extends ChangeData<T> ? K : never;
}[BodyKind];

/**
 * One write on an existing trainee: its command, body kind (schema `<Kind>Request`), tag, answer status (202 where the registry acts
 * next) and description; `enhancedErrors` keys a 422 by field (API-FACTS §5.4); `feature` limits it to the versions having it (§1.9).
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
 * The controller of `write`, made once at start-up at `route`, named after its command, guarded, body through {@link WireBody},
 * idempotent, documented as every write ({@link Writes}). 404 for an unknown or another provider's trainee; 422 for a refused state or
 * failed rules.
 */
export function traineeWriteController<T extends TraineeChange['type']>(
  write: TraineeWrite<T>,
  route: MethodDecorator,
  operation: MethodDecorator,
): Type<unknown> {
  const [status, description] = write.answer;
  const { feature } = write;
  // Decorators apply bottom first: the answer, the path's id, then the write's body, header and answers, as each document lists them.
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
