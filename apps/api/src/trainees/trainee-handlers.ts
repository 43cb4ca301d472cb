/**
 * The one shape of the trainees area's `@nestjs/cqrs` handlers (docs/STYLE.md "Command handling in one place"): a library function
 * called with a port, the handler named after its message (`RegisterTraineeCommand` → `RegisterTraineeHandler`).
 */
import { Inject, type Type } from '@nestjs/common';
import { CommandHandler, QueryHandler } from '@nestjs/cqrs';
import { TRAINEE_READ_MODEL, type TraineeReadModel } from '@app/trainees/read';
import { TRAINEE_WRITE_PORTS, type TraineeWritePorts } from '@app/trainees/write';

type Handler<M, A> = Type<{ execute(message: M): Promise<A> }>;

/** `write` (libs/trainees/write) with {@link TRAINEE_WRITE_PORTS}; answers and throws what it does. */
export function traineeCommandHandler<C extends object, A>(
  command: Type<C>,
  write: (ports: TraineeWritePorts, command: C) => Promise<A>,
): Handler<C, A> {
  return portHandler(CommandHandler, TRAINEE_WRITE_PORTS, command, write);
}

/** `read` (libs/trainees/read) on {@link TRAINEE_READ_MODEL}; answers and throws what it does. */
export function traineeQueryHandler<Q extends object, A>(
  query: Type<Q>,
  read: (trainees: TraineeReadModel, query: Q) => Promise<A>,
): Handler<Q, A> {
  return portHandler(QueryHandler, TRAINEE_READ_MODEL, query, read);
}

/** Marked by `handles`, its port injected under `token`. */
function portHandler<M extends object, P, A>(
  handles: (message: Type<M>) => ClassDecorator,
  token: symbol,
  message: Type<M>,
  run: (port: P, message: M) => Promise<A>,
): Handler<M, A> {
  class PortHandler {
    constructor(@Inject(token) private readonly port: P) {}

    execute(received: M): Promise<A> {
      return run(this.port, received);
    }
  }
  handles(message)(PortHandler);
  return Object.defineProperty(PortHandler, 'name', { value: message.name.replace(/(Command|Query)$/, 'Handler') });
}
