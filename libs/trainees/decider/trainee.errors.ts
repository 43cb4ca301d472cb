/** The decider's errors (docs/reference/API-FACTS.md §5), mapped to HTTP in one place: apps/api/src/errors/api-exception.filter.ts. */
import { DomainError } from '@app/event-sourcing';
import type { InputProblem } from './rules/request-data';

/**
 * One or more validation rules failed (422, one entry per message; docs/DESIGN.md ruling 4). `problems`: the same, each with where and
 * what it is about where the rule said (else a problem of the message alone).
 */
export class ValidationFailed extends DomainError {
  readonly kind = 'ValidationFailed';
  readonly problems: readonly InputProblem[];
  constructor(
    readonly messages: string[],
    problems?: readonly InputProblem[],
  ) {
    super(messages.join('; '));
    this.problems = problems ?? messages.map((message) => ({ path: [], message }));
  }
}

/** The request's `data` is missing, empty or not an object (422; docs/DESIGN.md ruling 4). */
export class MissingData extends DomainError {
  readonly kind = 'MissingData';
  constructor() {
    super('Param is missing or the value is empty or invalid: data');
  }
}

/** The duplicate rule of the spec matched (409 with the existing trainees in `data`). */
export class DuplicateTrainee<T = unknown> extends DomainError {
  readonly kind = 'DuplicateTrainee';
  constructor(readonly existing: T[]) {
    super('This trainee is already in Register');
  }
}

/** The degree duplicates one the trainee has (409, the existing degrees in `data`; docs/spec/trainee-records-api.md "Duplicate rules"). */
export class DuplicateDegree<T = unknown> extends DomainError {
  readonly kind = 'DuplicateDegree';
  constructor(readonly existing: T[]) {
    super('This is a duplicate degree');
  }
}

/** A trainee, placement or degree unknown to the caller's provider (404, never 403). */
export class NotFound extends DomainError {
  readonly kind = 'NotFound';
  constructor(readonly resource: 'Trainee' | 'Placement' | 'Degree') {
    super(`${resource}(s) not found`);
  }
}

/** The state machine refuses the action in the trainee's current state (422, docs/reference/API-FACTS.md §5.1). */
export class StateTransitionError extends DomainError {
  readonly kind = 'StateTransitionError';
  constructor() {
    super('It’s not possible to perform this action while the trainee is in its current state');
  }
}

/** A write kept losing the optimistic-concurrency race after its bounded retries (409). */
export class ConcurrentModification extends DomainError {
  readonly kind = 'ConcurrentModification';
  constructor() {
    super('The trainee was changed by another request at the same time; retry the request');
  }
}
