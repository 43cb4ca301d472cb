/**
 * The one shape of every `@nestjs/cqrs` handler of the trainees area that only calls a function of
 * a library with a port (docs/STYLE.md "Command handling in one place"): a command handler runs a
 * function of the trainee write path with the write ports, a query handler a read of the trainee
 * read model. A slice names its command or query class and the function; the handler is named after
 * the class (`RegisterTraineeCommand` → `RegisterTraineeHandler`).
 */
import { Inject, type Type } from '@nestjs/common';
import { CommandHandler, QueryHandler } from '@nestjs/cqrs';
import { TRAINEE_READ_MODEL, type TraineeReadModel } from '@app/trainees/read';
import { TRAINEE_WRITE_PORTS, type TraineeWritePorts } from '@app/trainees/write';

/** A handler of messages `M` answering `A`, as `@nestjs/cqrs` calls it. */
type Handler<M, A> = Type<{ execute(message: M): Promise<A> }>;

/**
 * The command handler of `command`: `write` (libs/trainees/write: `handleTraineeCommand`,
 * `registerTrainee`) with the trainee write ports ({@link TRAINEE_WRITE_PORTS}) and the command; it
 * answers what `write` answers and throws what it throws.
 */
export function traineeCommandHandler<C extends object, A>(
  command: Type<C>,
  write: (ports: TraineeWritePorts, command: C) => Promise<A>,
): Handler<C, A> {
  return portHandler(CommandHandler, TRAINEE_WRITE_PORTS, command, write);
}

/**
 * The query handler of `query`: `read` (libs/trainees/read: `findOwnTrainee`, a list page) on the
 * trainee read model ({@link TRAINEE_READ_MODEL}); it answers what `read` answers and throws what it throws.
 */
export function traineeQueryHandler<Q extends object, A>(
  query: Type<Q>,
  read: (trainees: TraineeReadModel, query: Q) => Promise<A>,
): Handler<Q, A> {
  return portHandler(QueryHandler, TRAINEE_READ_MODEL, query, read);
}

/** The handler, marked by `handles`, of `message`: `run` with the port injected under `token`, named after the message class. */
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
