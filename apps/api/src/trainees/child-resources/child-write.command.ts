import { decide, type RequestData } from '@app/trainees/decider';
import { handleTraineeCommand } from '@app/trainees/write';
import { traineeCommandHandler } from '../trainee-handlers';
import type { TraineeRequest } from '../trainee-request';
import type { ChildName, ChildResource, SchoolsNamed } from './child-resource';

/** POST adds under a new id, PUT or PATCH updates, DELETE removes. */
export type ChildWrite<F> = { kind: 'add'; data: RequestData<F> } | { kind: 'update'; data: RequestData<F> } | { kind: 'remove' };

/** The child resource, the write, and the request (ids as sent). */
export class ChildWriteCommand<N extends ChildName, R, F> {
  constructor(
    readonly child: ChildResource<N, R, F>,
    readonly write: ChildWrite<F>,
    readonly request: TraineeRequest,
  ) {}
}

const NO_SCHOOLS: SchoolsNamed = new Map();

/**
 * Adds, changes or removes a child, looking up the schools its body names first (a placement update without a URN unlinks it:
 * API-FACTS §10.3, §10.5); the child after an add or update, the trainee after a removal (§4). Throws the decider's errors,
 * ConcurrentModification.
 */
export const ChildWriteHandler = traineeCommandHandler(ChildWriteCommand, async (ports, { child, write, request }) => {
  const id = write.kind === 'add' ? ports.newId() : request.itemId;
  const schools = write.kind !== 'remove' && child.commands.schools ? await child.commands.schools(ports.schools, write.data) : NO_SCHOOLS;
  const trainee = await handleTraineeCommand(ports, request.caller, request.traineeId, (state, { traineeId, now }) => {
    const base = { trainee_id: traineeId, ukprn: request.caller.ukprn, rules: request.contract.rules, now };
    return decide(
      write.kind === 'remove' ? child.commands.remove(base, id) : child.commands[write.kind](base, id, write.data, schools),
      state,
    );
  });
  return write.kind === 'remove' ? trainee : child.record.find(trainee, id);
});
