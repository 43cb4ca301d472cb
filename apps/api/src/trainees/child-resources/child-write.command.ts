import { decide, type RequestData } from '@app/trainees/decider';
import { handleTraineeCommand } from '@app/trainees/write';
import { traineeCommandHandler } from '../trainee-handlers';
import type { TraineeRequest } from '../trainee-request';
import type { ChildName, ChildResource, SchoolsNamed } from './child-resource';

/** A write to a trainee's child: POST (add, under a new id), PUT or PATCH (update), DELETE (remove), with the checked body. */
export type ChildWrite<F> = { kind: 'add'; data: RequestData<F> } | { kind: 'update'; data: RequestData<F> } | { kind: 'remove' };

/**
 * POST …/<children>, PUT or PATCH …/<children>/{id}, DELETE …/<children>/{id} as a command: the
 * child resource, the write, and the request (caller, version's contract, trainee and child ids as sent).
 */
export class ChildWriteCommand<N extends ChildName, R, F> {
  constructor(
    readonly child: ChildResource<N, R, F>,
    readonly write: ChildWrite<F>,
    readonly request: TraineeRequest,
  ) {}
}

/** No schools: what a child whose body names none decides with. */
const NO_SCHOOLS: SchoolsNamed = new Map();

/**
 * Adds a child under a new id, changes one, or removes one (`PlacementAdded`, `DegreeUpdated`,
 * `PlacementRemoved`, …), with the schools its body names looked up first where the child has
 * them (a URN links the school; a placement update without one unlinks it, docs/reference/API-FACTS.md
 * §10.3, §10.5). Returns the child as stored after an add or update, the trainee after a removal
 * (docs/reference/API-FACTS.md §4). Errors: the decider's (NotFound, StateTransitionError,
 * ValidationFailed, MissingData, DuplicateDegree), ConcurrentModification.
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
